// Polygraphy's needs_constraints example: x is flipped by a matmul with a
// 90-degree rotated identity, FP16_MAX is added and subtracted, and the
// result is flipped back. For x in [1, 2], Add's result exceeds f16.
func.func @main(%x: tensor<1x2x2xf32> loc("x")) -> tensor<1x2x2xf32> {
  %rot90 = "tosa.const"() <{values = dense<[[[0.0, 1.0], [1.0, 0.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32> loc("rot90")
  %fp16_max = "tosa.const"() <{values = dense<65504.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32> loc("fp16_max")
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32> loc("zero")
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8> loc("shift")
  %0 = tosa.matmul %x, %rot90, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32> loc("MatMul")
  %1 = tosa.add %0, %fp16_max : (tensor<1x2x2xf32>, tensor<1x1x1xf32>) -> tensor<1x2x2xf32> loc("Add")
  %2 = tosa.sub %1, %fp16_max : (tensor<1x2x2xf32>, tensor<1x1x1xf32>) -> tensor<1x2x2xf32> loc("Sub")
  %3 = tosa.matmul %2, %rot90, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32> loc("MatMul_1")
  return %3 : tensor<1x2x2xf32>
}
