func.func @main(%x: tensor<1x2x16xf32> loc("x")) -> tensor<1x2x16xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x2x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x16xf32> loc("mm")
  %a = tosa.add %m, %x : (tensor<1x2x16xf32>, tensor<1x2x16xf32>) -> tensor<1x2x16xf32> loc("sum")
  return %a : tensor<1x2x16xf32>
}
