// An i8 convolution needs its weights' scales per output channel, which
// prec-quantize computes from a constant: weights passed in cannot be
// quantized, and it says so rather than compute unscaled integers. (A
// matmul's B operand passed in is an activation, quantized per tensor at
// run time: see quantize.mlir.)
// RUN: prec-opt %s -verify-diagnostics --prec-legalize

func.func @int8_region(%a: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> {
  %r = precision.region i8 obey input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<1x4x4x2xf32>, %y = %w : tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> {
    %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    // expected-error @+1 {{tosa.conv2d computes in 'i8': its weights must be a float constant}}
    %c = tosa.conv2d %x, %y, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
    precision.yield %c : tensor<1x4x4x2xf32>
  }
  return %r : tensor<1x4x4x2xf32>
}
