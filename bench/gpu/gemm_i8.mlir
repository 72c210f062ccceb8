// The i8 GEMM of the engine benchmark, 8192^3: a x b with b given
// transposed (bt, [N, K], as torch._int_mm's column-major mat2), i8
// operands accumulating in i32. Emitted as it is (no legalization): one
// cuBLASLt call reading bt with op T.
func.func @main(%a: tensor<8192x8192xi8> loc("a"), %bt: tensor<8192x8192xi8> loc("bt"))
    -> (tensor<8192x8192xi32> {precision.name = "c"}) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s3 = tosa.const_shape {values = dense<[1, 8192, 8192]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[8192, 8192]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a3 = tosa.reshape %a, %s3 : (tensor<8192x8192xi8>, !tosa.shape<3>) -> tensor<1x8192x8192xi8>
  %bt3 = tosa.reshape %bt, %s3 : (tensor<8192x8192xi8>, !tosa.shape<3>) -> tensor<1x8192x8192xi8>
  %b3 = tosa.transpose %bt3 {perms = array<i32: 0, 2, 1>} : (tensor<1x8192x8192xi8>) -> tensor<1x8192x8192xi8>
  %c3 = tosa.matmul %a3, %b3, %zp, %zp : (tensor<1x8192x8192xi8>, tensor<1x8192x8192xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8192x8192xi32> loc("gemm")
  %c = tosa.reshape %c3, %s2 : (tensor<1x8192x8192xi32>, !tosa.shape<2>) -> tensor<8192x8192xi32>
  return %c : tensor<8192x8192xi32>
}
