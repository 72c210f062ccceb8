// i8 and f8 GEMMs the CUDA emitter refuses (see ../gemm-types.mlir).
func.func @main(%a: tensor<1x4x2xi8> loc("a"), %bt: tensor<1x3x2xi8> loc("bt")) -> tensor<1x4x3xi32> {
  %zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = tosa.transpose %bt {perms = array<i32: 0, 2, 1>} : (tensor<1x3x2xi8>) -> tensor<1x2x3xi8>
  %y = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x2xi8>, tensor<1x2x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x3xi32> loc("zero.point")
  return %y : tensor<1x4x3xi32>
}

// -----

func.func @main(%a: tensor<1x4x2xf8E5M2> loc("a"), %bt: tensor<1x3x2xf8E5M2> loc("bt")) -> tensor<1x4x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %b = tosa.transpose %bt {perms = array<i32: 0, 2, 1>} : (tensor<1x3x2xf8E5M2>) -> tensor<1x2x3xf8E5M2>
  %y = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x2xf8E5M2>, tensor<1x2x3xf8E5M2>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<1x4x3xf32> loc("e5m2")
  return %y : tensor<1x4x3xf32>
}

// -----

// An f8 GEMM with N = 3 has no cuBLASLt algorithm (legalized for the CPU).
func.func @main(%a: tensor<1x4x16xf8E4M3FN> loc("a")) -> tensor<1x4x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x16x3xf8E4M3FN>}> : () -> tensor<1x16x3xf8E4M3FN>
  %y = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x16xf8E4M3FN>, tensor<1x16x3xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x4x3xf32> loc("f8.narrow")
  return %y : tensor<1x4x3xf32>
}
