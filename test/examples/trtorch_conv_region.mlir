// The bundled example parses, verifies and round-trips.
// RUN: prec-opt %prec_src/examples/trtorch_conv_region.mlir | prec-opt | FileCheck %s

// CHECK: precision.policy = #precision.policy<typing = weak, enabled = [], constraints = prefer, target = "sm_90">
// CHECK-LABEL: func.func @forward
// CHECK: tosa.conv2d
// CHECK: precision.region f16 (%{{.*}} = %{{.*}} : tensor<1x14x14x3xf32>) -> tensor<1x12x12x3xf32> {
// CHECK:   tosa.conv2d
// CHECK:   precision.yield
// CHECK: tosa.max_pool2d
// CHECK: tosa.clamp
