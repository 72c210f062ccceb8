// The GEMM of the engine benchmark, 8192^3: legalized with enabled=f16 or
// enabled=bf16 and io-types=*:f16 / *:bf16, it becomes one cuBLASLt call on
// reduced-precision operands accumulating in f32.
func.func @main(%a: tensor<8192x8192xf32> loc("a"), %b: tensor<8192x8192xf32> loc("b"))
    -> (tensor<8192x8192xf32> {precision.name = "c"}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s3 = tosa.const_shape {values = dense<[1, 8192, 8192]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[8192, 8192]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a3 = tosa.reshape %a, %s3 : (tensor<8192x8192xf32>, !tosa.shape<3>) -> tensor<1x8192x8192xf32>
  %b3 = tosa.reshape %b, %s3 : (tensor<8192x8192xf32>, !tosa.shape<3>) -> tensor<1x8192x8192xf32>
  %c3 = tosa.matmul %a3, %b3, %zp, %zp : (tensor<1x8192x8192xf32>, tensor<1x8192x8192xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8192x8192xf32> loc("gemm")
  %c = tosa.reshape %c3, %s2 : (tensor<1x8192x8192xf32>, !tosa.shape<2>) -> tensor<8192x8192xf32>
  return %c : tensor<8192x8192xf32>
}
