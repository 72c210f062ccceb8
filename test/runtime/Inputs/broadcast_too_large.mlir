// Two small inputs broadcast to 10^12 elements (see ../prec-run-errors.test).
func.func @main(%x: tensor<1000000x1xf32>, %y: tensor<1x1000000xf32>) -> tensor<1x1xf32> {
  %outer = tosa.add %x, %y : (tensor<1000000x1xf32>, tensor<1x1000000xf32>) -> tensor<1000000x1000000xf32> loc("outer")
  %r = tosa.reduce_max %outer {axis = 0 : i32} : (tensor<1000000x1000000xf32>) -> tensor<1x1000000xf32>
  %q = tosa.reduce_max %r {axis = 1 : i32} : (tensor<1x1000000xf32>) -> tensor<1x1xf32>
  return %q : tensor<1x1xf32>
}
