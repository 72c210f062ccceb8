// An i8 matmul needs its weights' scales, which prec-quantize computes from
// a constant: weights passed in cannot be quantized, and it says so rather
// than compute unscaled integers.
// RUN: prec-opt %s -verify-diagnostics --prec-legalize

func.func @int8_region(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
  %r = precision.region i8 obey input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    // expected-error @+1 {{tosa.matmul computes in 'i8': its weights (B) must be a float constant}}
    %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    precision.yield %m : tensor<1x4x4xf32>
  }
  return %r : tensor<1x4x4xf32>
}
