// y = x * 3 (rounded to f16) and z = x + 1, for option tests.
func.func @main(%x: tensor<4xf32> loc("x")) -> (tensor<4xf16>, tensor<4xf32>) {
  %three = "tosa.const"() <{values = dense<3.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %x, %three, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %y16 = precision.cast %y : tensor<4xf32> to tensor<4xf16>
  %z = tosa.add %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y16, %z : tensor<4xf16>, tensor<4xf32>
}

func.func @other(%x: tensor<2xi32>) -> (tensor<2xi32> {precision.name = "same"}) {
  return %x : tensor<2xi32>
}
