// prec-quantize on its own, on what prec-materialize leaves: f32 matmuls and
// convolutions marked precision.quantize get their input scaled and
// converted, their constant weights quantized, and their product scaled
// back in f32; ops not marked are left alone.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-quantize | FileCheck %s

// f8E4M3FN with the input_range prec-materialize recorded: s_x = 4 / 448
// (x times 112), no clamp (the conversion saturates); one weight scale for
// the tensor, s_w = 2 / 448; the product, in f32, times s_x s_w. The float
// weights and zero points are gone.
// CHECK-LABEL: func.func @f8_per_tensor
// CHECK-NOT: xf32>}>
// CHECK: %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<1.120000e+02> : tensor<1x1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %arg0, %[[INV]], %[[SHIFT]]
// CHECK-NOT: tosa.clamp
// CHECK: %[[Q:.*]] = tosa.cast %[[SCALED]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xf8E4M3FN>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.120000e+02, -2.240000e+02], [4.480000e+02, 5.600000e+01], [0.000000e+00, 2.240000e+02], [-1.120000e+02, 2.800000e+01]]]> : tensor<1x4x2xf8E4M3FN>}>
// CHECK: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf8E4M3FN>}>
// CHECK: %[[ACC:.*]] = tosa.matmul %[[Q]], %[[W]], %[[ZP]], %[[ZP]] {precision.assigned = #precision.assignment<compute = f8E4M3FN, accumulate = f32, storage = f32, reason = region>, precision.layer = "fc"} : {{.*}} -> tensor<1x2x2xf32>
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<3.98596931E-5> : tensor<1x1x1xf32>}>
// CHECK: %[[Y:.*]] = tosa.mul %[[ACC]], %[[S]], %[[SHIFT]]
// CHECK: return %[[Y]]
func.func @f8_per_tensor(%x: tensor<1x2x4xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[0.5, -1.0], [2.0, 0.25], [0.0, 1.0], [-0.5, 0.125]]]> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.assigned = #precision.assignment<compute = f8E4M3FN, accumulate = f32, storage = f32, reason = region>, precision.input_range = array<f64: -4.0, 2.0>, precision.layer = "fc", precision.quantize = f8E4M3FN} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// i8, the same weights: x times 127 / 4, clamped to +-127, converted; one
// scale per output column (largest magnitudes 2 and 1); an i32 product
// converted to f32 and scaled per column by 4/127 x 2/127 and 4/127 x 1/127.
// CHECK-LABEL: func.func @i8_per_channel
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<3.175000e+01> : tensor<1x1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %arg0, %[[INV]]
// CHECK: %[[CLAMPED:.*]] = tosa.clamp %[[SCALED]] {max_val = 1.270000e+02 : f32, min_val = -1.270000e+02 : f32}
// CHECK: %[[Q:.*]] = tosa.cast %[[CLAMPED]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xi8>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}32, -127], [127, 32], [0, 127], [-32, 16]]]> : tensor<1x4x2xi8>}>
// CHECK: %[[ACC:.*]] = tosa.matmul %[[Q]], %[[W]], {{.*}} {precision.assigned = #precision.assignment<compute = i8, accumulate = i32, storage = i32, reason = region>} : {{.*}} -> tensor<1x2x2xi32>
// CHECK: %[[F:.*]] = tosa.cast %[[ACC]] : (tensor<1x2x2xi32>) -> tensor<1x2x2xf32>
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}4.960010e-04, 2.48000491E-4]]]> : tensor<1x1x2xf32>}>
// CHECK: tosa.mul %[[F]], %[[S]]
func.func @i8_per_channel(%x: tensor<1x2x4xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[0.5, -1.0], [2.0, 0.25], [0.0, 1.0], [-0.5, 0.125]]]> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.assigned = #precision.assignment<compute = i8, accumulate = i32, storage = f32, reason = region>, precision.input_range = array<f64: -4.0, 2.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// Without an input_range, the range of the producer (range analysis's
// precision.range) gives the scale: tanh's [-1, 1] with f8E5M2's largest
// finite 57344. f16 weights widened by an inserted cast are read through
// the cast, and the cast and the f16 constant are erased.
// CHECK-LABEL: func.func @range_of_producer
// CHECK: %[[T:.*]] = tosa.tanh %arg0
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<5.734400e+04> : tensor<1x1x1xf32>}>
// CHECK: tosa.mul %[[T]], %[[INV]]
// CHECK: tosa.cast %{{.*}} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf8E5M2>
// CHECK: "tosa.const"() <{values = dense<5.734400e+04> : tensor<1x4x2xf8E5M2>}>
// CHECK-NOT: xf16>
// CHECK: tosa.matmul {{.*}} -> tensor<1x2x2xf32>
// CHECK: "tosa.const"() <{values = dense<3.04105324E-10> : tensor<1x1x1xf32>}>
func.func @range_of_producer(%x: tensor<1x2x4xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x4x2xf16>}> : () -> tensor<1x4x2xf16>
  %w32 = tosa.cast %w {precision.inserted_cast} : (tensor<1x4x2xf16>) -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t = tosa.tanh %x {precision.range = array<f64: -1.0, 1.0>} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %m = tosa.matmul %t, %w32, %zp, %zp {precision.quantize = f8E5M2} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// A function argument's precision.range (from val-range) gives the scale
// of a matmul reading the argument: [0, 8] -> x times 127 / 8.
// CHECK-LABEL: func.func @range_of_argument
// CHECK: "tosa.const"() <{values = dense<1.587500e+01> : tensor<1x1x1xf32>}>
// CHECK: "tosa.const"() <{values = dense<127> : tensor<1x4x2xi8>}>
// CHECK: "tosa.const"() <{values = dense<2.48000491E-4> : tensor<1x1x2xf32>}>
func.func @range_of_argument(%x: tensor<1x2x4xf32> {precision.range = array<f64: 0.0, 8.0>}) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// A matmul without precision.quantize is not touched, ranges or not.
// CHECK-LABEL: func.func @not_marked
// CHECK-NEXT: "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x4x2xf32>}>
// CHECK-NEXT: "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT: tosa.matmul %arg0, {{.*}} -> tensor<1x2x2xf32>
// CHECK-NEXT: return
func.func @not_marked(%x: tensor<1x2x4xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -4.0, 2.0>} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// An i8 convolution: OHWI weights scaled per output channel O (0.5 and
// 0.25 map to 127), a zero i32 bias and acc_type i32 in the quantized op,
// the f32 bias reshaped and added after the dequantization.
// CHECK-LABEL: func.func @conv_bias_after
// CHECK: %[[BIAS:.*]] = "tosa.const"() <{values = dense<[1.000000e-01, 2.000000e-01]> : tensor<2xf32>}>
// CHECK: "tosa.const"() <{values = dense<1.270000e+02> : tensor<1x1x1x1xf32>}>
// CHECK: tosa.clamp
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[}}127, -127]]], {{\[\[\[}}127, 64]]]]> : tensor<2x1x1x2xi8>}>
// CHECK: %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<2xi32>}>
// CHECK: %[[C:.*]] = tosa.conv2d %{{.*}}, %{{.*}}, %[[ZERO]], %{{.*}}, %{{.*}} {acc_type = i32, {{.*}} -> tensor<1x2x2x2xi32>
// CHECK: %[[F:.*]] = tosa.cast %[[C]] : (tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[}}3.10000614E-5, 1.55000307E-5]]]]> : tensor<1x1x1x2xf32>}>
// CHECK: %[[Y:.*]] = tosa.mul %[[F]]
// CHECK: %[[B:.*]] = tosa.reshape %[[BIAS]], %{{.*}} : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x1x1x2xf32>
// CHECK: %[[R:.*]] = tosa.add %[[Y]], %[[B]]
// CHECK: return %[[R]]
func.func @conv_bias_after(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.5, -0.5]]], [[[0.25, 0.125]]]]> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<[0.1, 0.2]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = i8} : (tensor<1x2x2x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}

// -----

// No input_range, no range on the producer: no scale.
func.func @no_range(%x: tensor<1x2x4xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %e = tosa.exp %x : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  // expected-error @+1 {{'fc' (tosa.matmul) computes in 'i8' but its input has no range}}
  %m = tosa.matmul %e, %w, %zp, %zp {precision.layer = "fc", precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// B passed in is an activation (attention's keys or values): quantized
// per tensor at run time like the input, from its b_input_range (s_b =
// 2 / 448, so B times 224), and the product scaled back by s_x s_b.
// CHECK-LABEL: func.func @f8_activation_b
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<4.480000e+02> : tensor<1x1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %arg0, %[[INV]], %{{.*}}
// CHECK: %[[Q:.*]] = tosa.cast %[[SCALED]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xf8E4M3FN>
// CHECK: %[[BINV:.*]] = "tosa.const"() <{values = dense<2.240000e+02> : tensor<1x1x1xf32>}>
// CHECK: %[[BSCALED:.*]] = tosa.mul %arg1, %[[BINV]], %{{.*}}
// CHECK: %[[BQ:.*]] = tosa.cast %[[BSCALED]] : (tensor<1x4x2xf32>) -> tensor<1x4x2xf8E4M3FN>
// CHECK: %[[ACC:.*]] = tosa.matmul %[[Q]], %[[BQ]], %{{.*}}, %{{.*}} {precision.layer = "scores"} : {{.*}} -> tensor<1x2x2xf32>
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<9.96492326E-6> : tensor<1x1x1xf32>}>
// CHECK: tosa.mul %[[ACC]], %[[S]], %{{.*}}
func.func @f8_activation_b(%x: tensor<1x2x4xf32>, %w: tensor<1x4x2xf32>) -> tensor<1x2x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.b_input_range = array<f64: -1.0, 2.0>, precision.input_range = array<f64: -1.0, 1.0>, precision.layer = "scores", precision.quantize = f8E4M3FN} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// In i8, B is clamped and converted like the input, with one scale for the
// tensor (127 / 2); the i32 product converts to f32 and scales back by
// 1/127 x 2/127. Without a b_input_range, B's range is its producer's.
// CHECK-LABEL: func.func @i8_activation_b
// CHECK: tosa.cast %{{.*}} : (tensor<1x2x4xf32>) -> tensor<1x2x4xi8>
// CHECK: "tosa.const"() <{values = dense<6.350000e+01> : tensor<1x1x1xf32>}>
// CHECK: %[[BSCALED:.*]] = tosa.mul %[[B:.*]], %{{.*}}, %{{.*}}
// CHECK: %[[BCLAMPED:.*]] = tosa.clamp %[[BSCALED]] {max_val = 1.270000e+02 : f32, min_val = -1.270000e+02 : f32{{.*}}}
// CHECK: %[[BQ:.*]] = tosa.cast %[[BCLAMPED]] : (tensor<1x4x2xf32>) -> tensor<1x4x2xi8>
// CHECK: tosa.matmul %{{.*}}, %[[BQ]], {{.*}} -> tensor<1x2x2xi32>
// CHECK: tosa.cast %{{.*}} : (tensor<1x2x2xi32>) -> tensor<1x2x2xf32>
// CHECK: "tosa.const"() <{values = dense<1.24000246E-4> : tensor<1x1x1xf32>}>
func.func @i8_activation_b(%x: tensor<1x2x4xf32>, %w: tensor<1x4x2xf32>) -> tensor<1x2x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = tosa.tanh %w {precision.range = array<f64: -2.0, 1.0>} : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %m = tosa.matmul %x, %b, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// B passed in with no range of its own: no scale.
func.func @activation_b_without_range(%x: tensor<1x2x4xf32>, %w: tensor<1x4x2xf32>) -> tensor<1x2x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.matmul computes in 'f8E4M3FN' but its B operand has no range}}
  %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = f8E4M3FN} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// A scale below f32's normal range would make its inverse infinite.
func.func @subnormal_scale(%x: tensor<1x2x4xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{computes in 'i8' but its input range [-1.000000e-40, 1.000000e-40] gives the scale}}
  %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0e-40, 1.0e-40>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// Only matmuls and 2-D convolutions have quantized forms here: a depthwise
// convolution marked by hand is refused, not quantized as a matmul.
func.func @depthwise(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{prec-quantize builds quantized matmuls and 2-D convolutions, not 'tosa.depthwise_conv2d'}}
  %d = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = i8} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %d : tensor<1x4x4x2xf32>
}
