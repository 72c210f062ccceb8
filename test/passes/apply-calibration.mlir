// prec-apply-calibration gives the matmuls and convolutions whose inputs a
// calibration covers the range [-amax, amax]; a precision.region's own
// input_range wins. The calibration comes from a TensorRT cache with exact
// scales: x 1/16 (amax 7.9375), h 1/8 (amax 15.875).
// RUN: printf 'TRT-8601-MinMaxCalibration\nx: 3d800000\nh: 3e000000\n' > %t.cache
// RUN: prec-calibrate %s --load-trt-cache %t.cache -o %t.json
// RUN: prec-opt %s --prec-apply-calibration="calibration=%t.json" | FileCheck %s
// RUN: prec-opt %s --prec-legalize="calibration=%t.json layer-precisions=fc3:i8" | FileCheck %s --check-prefix=LEGAL

// CHECK-LABEL: func.func @main
// CHECK: tosa.matmul %{{[a-z0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : (
// CHECK: tosa.matmul {{.*}} {precision.input_range = array<f64: -1.587500e+01, 1.587500e+01>}
// CHECK: tosa.matmul {{.*}} {precision.input_range = array<f64: -1.587500e+01, 1.587500e+01>}

// fc1 keeps its region's [-4, 4] (x 127/4); fc2 in a region without ranges
// and fc3, pinned to i8 by layer-precisions, take h's calibration
// (x 127/15.875 = 8).
// LEGAL-LABEL: func.func @main
// LEGAL: "tosa.const"() <{values = dense<3.175000e+01> : tensor<1x1x1xf32>}>
// LEGAL: tosa.matmul {{.*}}precision.layer = "fc1"
// LEGAL: "tosa.const"() <{values = dense<8.000000e+00> : tensor<1x1x1xf32>}>
// LEGAL: tosa.matmul {{.*}}precision.layer = "fc2"
// LEGAL: "tosa.const"() <{values = dense<8.000000e+00> : tensor<1x1x1xf32>}>
// LEGAL: tosa.matmul {{.*}}precision.layer = "fc3"
func.func @main(%x: tensor<1x4x8xf32> loc("x")) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
  %a = precision.region i8 input_range [-4.0, 4.0] output_range [-8.0, 8.0] (%in = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<0.5> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %in, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc1")
    precision.yield %m : tensor<1x4x3xf32>
  }
  %h = tosa.exp %x : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32> loc("h")
  %b = precision.region i8 (%in = %h : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<0.25> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %in, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc2")
    precision.yield %m : tensor<1x4x3xf32>
  }
  %w3 = "tosa.const"() <{values = dense<-0.5> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.matmul %h, %w3, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc3")
  return %a, %b, %c : tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>
}
