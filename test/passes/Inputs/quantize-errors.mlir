// Quantized regions prec-legalize refuses (see ../quantize.mlir).

// Convolution weights that are not a constant cannot be quantized here.
// CHECK: error: {{.*}}'conv' (tosa.conv2d) computes in 'f8E4M3FN': its weights must be a float constant
func.func @bound_weights(%x: tensor<1x4x4x2xf32> loc("x"), %w: tensor<2x1x1x2xf32> loc("w")) -> tensor<1x4x4x2xf32> {
  %y = precision.region f8E4M3FN obey output f16 input_range [-4.0, 4.0] output_range [-10.0, 10.0] (%a = %x : tensor<1x4x4x2xf32>, %b = %w : tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> {
    %bias = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %b, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32> loc("conv")
    precision.yield %c : tensor<1x4x4x2xf32>
  }
  return %y : tensor<1x4x4x2xf32>
}

// -----

// A depthwise convolution has no quantized form yet: the error says what to
// do.
// CHECK: error: {{.*}}cannot materialize 'i8' for 'tosa.depthwise_conv2d': i8 and f8 are implemented for matmuls and 2-D convolutions (quantized with scales by prec-quantize); pin other ops to a float type
func.func @depthwise(%x: tensor<1x4x4x2xf32> loc("x")) -> tensor<1x4x4x2xf32> {
  %y = precision.region i8 obey input_range [-1.0, 1.0] output_range [-4.0, 4.0] (%a = %x : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
    %w = "tosa.const"() <{values = dense<0.5> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
    %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.depthwise_conv2d %a, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32> loc("dw")
    precision.yield %c : tensor<1x4x4x2xf32>
  }
  return %y : tensor<1x4x4x2xf32>
}

// -----

// The matmul's input comes from an op inside the region: the region's
// input_range is not its range, and without a val-range there is none.
// CHECK: error: {{.*}}'fc' (tosa.matmul) computes in 'f8E4M3FN' but its input has no range: give its precision.region an input_range, calibrate the model (prec-calibrate, then prec-legalize calibration=CALIB.json), or give its inputs a val-range
func.func @no_range(%x: tensor<1x4x8xf32> loc("x")) -> tensor<1x4x3xf32> {
  %y = precision.region f8E4M3FN prefer output f16 input_range [-4.0, 4.0] output_range [-10.0, 10.0] (%a = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<0.5> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %e = tosa.exp %a : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32> loc("exp")
    %h = tosa.matmul %e, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc")
    precision.yield %h : tensor<1x4x3xf32>
  }
  return %y : tensor<1x4x3xf32>
}

// -----

// An input range so narrow that its scale is below f32's normal range
// (found by prec-fuzz-calibration with a calibrated amax near zero).
// CHECK: error: {{.*}}'fc' (tosa.matmul) computes in 'i8' but its input range [-1.000000e-40, 1.000000e-40] gives the scale {{.*}}, which is not a normal f32
func.func @tiny_range(%x: tensor<1x4x8xf32> loc("x")) -> tensor<1x4x3xf32> {
  %y = precision.region i8 obey output f16 input_range [-1.0e-40, 1.0e-40] output_range [-10.0, 10.0] (%a = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<0.5> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc")
    precision.yield %h : tensor<1x4x3xf32>
  }
  return %y : tensor<1x4x3xf32>
}
