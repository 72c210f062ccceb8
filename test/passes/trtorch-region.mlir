// TRTorch's explicit layer precision example (examples/trtorch_conv_region.mlir):
// conv -> conv pinned to f16 by a precision.region -> max pool -> ReLU, with
// only f32 enabled. Only the pinned conv computes in f16, and exactly two
// casts surround it; its weights are stored in f16; the region is gone.
// RUN: prec-opt %prec_src/examples/trtorch_conv_region.mlir --prec-legalize | FileCheck %s
// CHECK-LABEL: func.func @forward(%arg0: tensor<1x16x16x3xf32>) -> tensor<1x12x12x3xf32>
// CHECK-NOT:   precision.region
// CHECK:       %[[CONV1:.*]] = tosa.conv2d %arg0, {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule{{.*}} -> tensor<1x14x14x3xf32>
// CHECK:       %[[IN16:.*]] = tosa.cast %[[CONV1]] {precision.inserted_cast} : (tensor<1x14x14x3xf32>) -> tensor<1x14x14x3xf16>
// CHECK:       %[[W2:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<3x3x3x3xf16>}>
// CHECK:       %[[CONV2:.*]] = tosa.conv2d %[[IN16]], %[[W2]], {{.*}}acc_type = f32{{.*}}compute = f16, accumulate = f32, storage = f16, reason = region{{.*}} : (tensor<1x14x14x3xf16>, tensor<3x3x3x3xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x12x12x3xf16>
// CHECK:       %[[OUT32:.*]] = tosa.cast %[[CONV2]] {precision.inserted_cast} : (tensor<1x12x12x3xf16>) -> tensor<1x12x12x3xf32>
// CHECK:       %[[POOL:.*]] = tosa.max_pool2d %[[OUT32]] {{.*}}compute = f32{{.*}} -> tensor<1x12x12x3xf32>
// CHECK:       %[[RELU:.*]] = tosa.clamp %[[POOL]] {{.*}}compute = f32{{.*}} -> tensor<1x12x12x3xf32>
// CHECK:       return %[[RELU]]

// RUN: prec-opt %prec_src/examples/trtorch_conv_region.mlir --prec-legalize | FileCheck %s --check-prefix=COUNT
// COUNT-COUNT-2: tosa.cast
// COUNT-NOT:     tosa.cast

// With f16 enabled, the compiler may also lower conv1 (a contraction), and
// pool and ReLU follow their f16 producer: the casts move to the bindings.
// RUN: prec-opt %prec_src/examples/trtorch_conv_region.mlir --prec-legalize="enabled=f16" | FileCheck %s --check-prefix=ENABLED
// ENABLED:     tosa.cast %arg0 {precision.inserted_cast} : (tensor<1x16x16x3xf32>) -> tensor<1x16x16x3xf16>
// ENABLED:     tosa.conv2d {{.*}}compute = f16, accumulate = f32, storage = f16, reason = class_rule
// ENABLED:     tosa.conv2d {{.*}}reason = region
// ENABLED:     tosa.max_pool2d {{.*}}compute = f16{{.*}}reason = follow
// ENABLED:     tosa.clamp {{.*}}max_val = 0x7C00 : f16, min_val = 0.000000e+00 : f16{{.*}}compute = f16
// ENABLED:     tosa.cast {{.*}} : (tensor<1x12x12x3xf16>) -> tensor<1x12x12x3xf32>
// ENABLED-NEXT: return

// The legalized engine lowers through upstream tosa-to-linalg.
// RUN: prec-opt %prec_src/examples/trtorch_conv_region.mlir --prec-legalize | prec-opt --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))" | FileCheck %s --check-prefix=LOWERED
// LOWERED: linalg.conv_2d_nhwc_fhwc {{.*}} ins({{.*}} : tensor<1x16x16x3xf32>, tensor<3x3x3x3xf32>)
// LOWERED: linalg.conv_2d_nhwc_fhwc {{.*}} ins({{.*}} : tensor<1x14x14x3xf16>, tensor<3x3x3x3xf16>) outs({{.*}} : tensor<1x12x12x3xf32>)
