// The f8 GEMM of the engine benchmark, 8192^3: E4M3 operands with
// per-tensor scales 0.5 and 0.25 (their product multiplies the f32
// accumulator: cuBLASLt's alpha), written as f16 (the epilogue cast). b is
// given transposed (bt, [N, K]), as torch._scaled_mm's column-major mat2.
func.func @main(%a: tensor<8192x8192xf8E4M3FN> loc("a"), %bt: tensor<8192x8192xf8E4M3FN> loc("bt"))
    -> (tensor<8192x8192xf16> {precision.name = "c"}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s3 = tosa.const_shape {values = dense<[1, 8192, 8192]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[8192, 8192]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a3 = tosa.reshape %a, %s3 : (tensor<8192x8192xf8E4M3FN>, !tosa.shape<3>) -> tensor<1x8192x8192xf8E4M3FN>
  %bt3 = tosa.reshape %bt, %s3 : (tensor<8192x8192xf8E4M3FN>, !tosa.shape<3>) -> tensor<1x8192x8192xf8E4M3FN>
  %b3 = tosa.transpose %bt3 {perms = array<i32: 0, 2, 1>} : (tensor<1x8192x8192xf8E4M3FN>) -> tensor<1x8192x8192xf8E4M3FN>
  %acc = tosa.matmul %a3, %b3, %zp, %zp : (tensor<1x8192x8192xf8E4M3FN>, tensor<1x8192x8192xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x8192x8192xf32> loc("gemm")
  %scaled = tosa.mul %acc, %scale, %shift : (tensor<1x8192x8192xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8192x8192xf32> loc("dequantize")
  %c16 = tosa.cast %scaled {precision.epilogue} : (tensor<1x8192x8192xf32>) -> tensor<1x8192x8192xf16>
  %c = tosa.reshape %c16, %s2 : (tensor<1x8192x8192xf16>, !tosa.shape<2>) -> tensor<8192x8192xf16>
  return %c : tensor<8192x8192xf16>
}
