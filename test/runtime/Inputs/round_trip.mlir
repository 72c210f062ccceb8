// Quantize and dequantize: a matmul by the identity pinned to i8 and to f8
// E4M3 with input_range [-1, 1] returns its input as the quantization
// represents it (see ../quantize-round-trip.test).
func.func @i8(%x: tensor<1x16x8xf32> loc("x")) -> tensor<1x16x8xf32> {
  %y = precision.region i8 obey output f32 input_range [-1.0, 1.0] output_range [-1.0, 1.0] (%a = %x : tensor<1x16x8xf32>) -> tensor<1x16x8xf32> {
    %w = "tosa.const"() <{values = dense<[[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32> loc("identity")
    precision.yield %m : tensor<1x16x8xf32>
  }
  return %y : tensor<1x16x8xf32>
}

func.func @f8(%x: tensor<1x16x8xf32> loc("x")) -> tensor<1x16x8xf32> {
  %y = precision.region f8E4M3FN obey output f32 input_range [-1.0, 1.0] output_range [-1.0, 1.0] (%a = %x : tensor<1x16x8xf32>) -> tensor<1x16x8xf32> {
    %w = "tosa.const"() <{values = dense<[[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32> loc("identity")
    precision.yield %m : tensor<1x16x8xf32>
  }
  return %y : tensor<1x16x8xf32>
}
