// Matmuls pinned to f8 or i8 by a precision.region get scales and types:
// the input divided by max(|lo|, |hi|) / qmax from the region's input_range
// and converted, the constant weights quantized (f8: one scale, i8: one
// per output channel), the product multiplied back in f32.
// RUN: prec-opt %s -split-input-file --prec-legalize="target=cpu enabled=f16" | FileCheck %s
// RUN: not prec-opt %S/Inputs/quantize-errors.mlir -split-input-file --prec-legalize="target=cpu enabled=f16" 2>&1 | FileCheck %S/Inputs/quantize-errors.mlir

// f8 E4M3: s_x = 4 / 448, so x x 112; the weights' largest magnitude is 2,
// s_w = 2 / 448 (0.5 -> 112, -2 -> -448); back by s_x s_w = 8 / 448^2.
// CHECK-LABEL: func.func @f8
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<1.120000e+02> : tensor<1x1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %arg0, %[[INV]], %{{.*}}
// CHECK: %[[Q:.*]] = tosa.cast %[[SCALED]] : (tensor<1x4x8xf32>) -> tensor<1x4x8xf8E4M3FN>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.120000e+02, -2.240000e+02, 5.600000e+01], [2.240000e+02, 4.480000e+02, -1.120000e+02]{{.*}} : tensor<1x8x3xf8E4M3FN>}> : () -> tensor<1x8x3xf8E4M3FN>
// CHECK: %[[ACC:.*]] = tosa.matmul %[[Q]], %[[W]], {{.*}} {precision.assigned = #precision.assignment<compute = f8E4M3FN, accumulate = f32, storage = f32, reason = region>, precision.layer = "fc"{{.*}}} : {{.*}} -> tensor<1x4x3xf32>
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<3.98596931E-5> : tensor<1x1x1xf32>}>
// CHECK: %[[Y:.*]] = tosa.mul %[[ACC]], %[[S]], %{{.*}}
// CHECK: tosa.cast %[[Y]] {precision.epilogue} : (tensor<1x4x3xf32>) -> tensor<1x4x3xf16>
func.func @f8(%x: tensor<1x4x8xf32> loc("x")) -> tensor<1x4x3xf32> {
  %y = precision.region f8E4M3FN obey output f16 input_range [-4.0, 4.0] output_range [-10.0, 10.0] (%a = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<[[[0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5], [-2.0, 0.75, 0.5], [0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5], [-2.0, 0.75, 0.5]]]> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc")
    precision.yield %h : tensor<1x4x3xf32>
  }
  return %y : tensor<1x4x3xf32>
}

// -----

// i8: x x 127/4 (the larger end of [-4, 3]) clamped to +-127; per output
// channel the weights' largest magnitudes are 2, 2 and 1.5 (column 2 maps
// 1.5 -> 127); the product converts to f32 and is scaled per channel by
// 4/127 x 2/127 and 4/127 x 1.5/127.
// CHECK-LABEL: func.func @i8
// CHECK: tosa.mul %arg0, %{{.*}}
// CHECK: tosa.clamp %{{.*}} {max_val = 1.270000e+02 : f32, min_val = -1.270000e+02 : f32{{.*}}}
// CHECK: tosa.cast %{{.*}} : (tensor<1x4x8xf32>) -> tensor<1x4x8xi8>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[}}32, -64, 21], [64, 127, -42]{{.*}} : tensor<1x8x3xi8>}>
// CHECK: tosa.matmul {{.*}} {precision.assigned = #precision.assignment<compute = i8, accumulate = i32, storage = i32, reason = region>{{.*}} -> tensor<1x4x3xi32>
// CHECK: tosa.cast %{{.*}} : (tensor<1x4x3xi32>) -> tensor<1x4x3xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[}}4.960010e-04, 4.960010e-04, 3.72000737E-4]]]> : tensor<1x1x3xf32>}>
// CHECK: tosa.mul {{.*}}
func.func @i8(%x: tensor<1x4x8xf32> loc("x")) -> tensor<1x4x3xf32> {
  %y = precision.region i8 obey output f16 input_range [-4.0, 3.0] output_range [-10.0, 10.0] (%a = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<[[[0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5], [-2.0, 0.75, 0.5], [0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5], [-2.0, 0.75, 0.5]]]> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc")
    precision.yield %h : tensor<1x4x3xf32>
  }
  return %y : tensor<1x4x3xf32>
}


// -----

// A convolution: its input per tensor, its OHWI weights per output channel
// O for i8 (0.5 -> 127 in channel 0, 0.25 -> 127 in channel 1); the
// quantized convolution gets a zero i32 bias, and the bias is added after
// the dequantization, in f32.
// CHECK-LABEL: func.func @conv
// CHECK: tosa.cast %{{.*}} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xi8>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[}}127, -127]]], {{\[\[\[}}127, 64]]]]> : tensor<2x1x1x2xi8>}>
// CHECK: %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<2xi32>}>
// CHECK: tosa.conv2d %{{.*}}, %{{.*}}, %[[ZERO]], {{.*}} {acc_type = i32{{.*}} -> tensor<1x4x4x2xi32>
// CHECK: tosa.cast %{{.*}} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[}}3.10000614E-5, 1.55000307E-5]]]]> : tensor<1x1x1x2xf32>}>
// CHECK: tosa.mul
// CHECK: tosa.reshape %{{.*}} : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x1x1x2xf32>
// CHECK: tosa.add
func.func @conv(%x: tensor<1x4x4x2xf32> loc("x")) -> tensor<1x4x4x2xf32> {
  %y = precision.region i8 obey output f16 input_range [-1.0, 1.0] output_range [-4.0, 4.0] (%a = %x : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
    %w = "tosa.const"() <{values = dense<[[[[0.5, -0.5]]], [[[0.25, 0.125]]]]> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
    %b = "tosa.const"() <{values = dense<[0.1, 0.2]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32> loc("conv")
    precision.yield %c : tensor<1x4x4x2xf32>
  }
  return %y : tensor<1x4x4x2xf32>
}

// -----

// Attention's scores pinned to f8: Q and K are both activations, inputs of
// the region, and take its input_range [-2, 2] (x 224 each); the product
// scales back by (2/448)^2.
// CHECK-LABEL: func.func @scores_f8
// CHECK: "tosa.const"() <{values = dense<2.240000e+02> : tensor<1x1x1xf32>}>
// CHECK: tosa.cast %{{.*}} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf8E4M3FN>
// CHECK: "tosa.const"() <{values = dense<2.240000e+02> : tensor<1x1x1xf32>}>
// CHECK: tosa.cast %{{.*}} : (tensor<2x8x4xf32>) -> tensor<2x8x4xf8E4M3FN>
// CHECK: tosa.matmul {{.*}} : (tensor<2x4x8xf8E4M3FN>, tensor<2x8x4xf8E4M3FN>, {{.*}}) -> tensor<2x4x4xf32>
// CHECK: "tosa.const"() <{values = dense<1.99298465E-5> : tensor<1x1x1xf32>}>
func.func @scores_f8(%q: tensor<2x4x8xf32> loc("q"), %kt: tensor<2x8x4xf32> loc("kt")) -> tensor<2x4x4xf32> {
  %s = precision.region f8E4M3FN obey output f16 input_range [-2.0, 2.0] (%a = %q : tensor<2x4x8xf32>, %b = %kt : tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32> loc("scores")
    precision.yield %m : tensor<2x4x4xf32>
  }
  return %s : tensor<2x4x4xf32>
}
