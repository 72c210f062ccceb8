// One value returned as two outputs (an ONNX graph may list a tensor twice).
func.func @main(%x: tensor<4xf32> loc("x")) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y, %y : tensor<4xf32>, tensor<4xf32>
}
