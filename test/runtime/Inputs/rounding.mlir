// Elementwise arithmetic in reduced precision, run as written (no policy).
func.func @f16_ops(%a: tensor<12xf16> loc("a"), %b: tensor<12xf16> loc("b")) -> (tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %add = tosa.add %a, %b : (tensor<12xf16>, tensor<12xf16>) -> tensor<12xf16>
  %sub = tosa.sub %a, %b : (tensor<12xf16>, tensor<12xf16>) -> tensor<12xf16>
  %mul = tosa.mul %a, %b, %shift : (tensor<12xf16>, tensor<12xf16>, tensor<1xi8>) -> tensor<12xf16>
  %div = arith.divf %a, %b : tensor<12xf16>
  %sqrt = math.sqrt %a : tensor<12xf16>
  return %add, %sub, %mul, %div, %sqrt : tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>
}

func.func @bf16_ops(%a: tensor<12xbf16> loc("a"), %b: tensor<12xbf16> loc("b")) -> (tensor<12xbf16>, tensor<12xbf16>, tensor<12xbf16>, tensor<12xbf16>, tensor<12xbf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %add = tosa.add %a, %b : (tensor<12xbf16>, tensor<12xbf16>) -> tensor<12xbf16>
  %sub = tosa.sub %a, %b : (tensor<12xbf16>, tensor<12xbf16>) -> tensor<12xbf16>
  %mul = tosa.mul %a, %b, %shift : (tensor<12xbf16>, tensor<12xbf16>, tensor<1xi8>) -> tensor<12xbf16>
  %div = arith.divf %a, %b : tensor<12xbf16>
  %sqrt = math.sqrt %a : tensor<12xbf16>
  return %add, %sub, %mul, %div, %sqrt : tensor<12xbf16>, tensor<12xbf16>, tensor<12xbf16>, tensor<12xbf16>, tensor<12xbf16>
}

// Chains round after every op: (a + c) - c is not a.
func.func @f16_chain(%a: tensor<12xf16> loc("a"), %b: tensor<12xf16> loc("b")) -> tensor<12xf16> {
  %0 = tosa.add %a, %b : (tensor<12xf16>, tensor<12xf16>) -> tensor<12xf16>
  %1 = tosa.sub %0, %b : (tensor<12xf16>, tensor<12xf16>) -> tensor<12xf16>
  return %1 : tensor<12xf16>
}

func.func @bf16_chain(%a: tensor<12xbf16> loc("a"), %b: tensor<12xbf16> loc("b")) -> tensor<12xbf16> {
  %0 = tosa.add %a, %b : (tensor<12xbf16>, tensor<12xbf16>) -> tensor<12xbf16>
  %1 = tosa.sub %0, %b : (tensor<12xbf16>, tensor<12xbf16>) -> tensor<12xbf16>
  return %1 : tensor<12xbf16>
}

// Float to i8: round to nearest even, saturate (the compiler's tosa.cast
// and the model's precision.cast alike).
func.func @to_i8(%x: tensor<12xf32> loc("x")) -> (tensor<12xi8>, tensor<12xi8>) {
  %0 = tosa.cast %x : (tensor<12xf32>) -> tensor<12xi8>
  %1 = precision.cast %x : tensor<12xf32> to tensor<12xi8>
  return %0, %1 : tensor<12xi8>, tensor<12xi8>
}

// f16 products summed in f32 (the result type) and in f16.
func.func @f16_matmul(%a: tensor<1x1x4096xf16> loc("a"), %b: tensor<1x4096x1xf16> loc("b")) -> (tensor<1x1x1xf32>, tensor<1x1x1xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %wide = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1x4096xf16>, tensor<1x4096x1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1xf32>
  %narrow = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1x4096xf16>, tensor<1x4096x1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1xf16>
  return %wide, %narrow : tensor<1x1x1xf32>, tensor<1x1x1xf16>
}

// A bias after an f32-accumulating f16 matmul is added before the product
// is rounded to f16 (prec-fuse-bias), as the CUDA engine's GEMM does.
func.func @f16_linear(%a: tensor<1x1x2xf16> loc("a"), %b: tensor<1x2x1xf16> loc("b"), %bias: tensor<1x1x1xf16> loc("bias")) -> tensor<1x1x1xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %acc = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1x2xf16>, tensor<1x2x1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1xf32>
  %d = tosa.cast %acc {precision.epilogue} : (tensor<1x1x1xf32>) -> tensor<1x1x1xf16>
  %y = tosa.add %d, %bias : (tensor<1x1x1xf16>, tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
  return %y : tensor<1x1x1xf16>
}

// f32 -> f8 -> f32 round trips: the CPU stores 8-bit floats as bytes and
// converts them with bit arithmetic (prec-expand-f8-casts).
func.func @f8_round_trip(%x: tensor<4096xf32> loc("x")) -> (tensor<4096xf32>, tensor<4096xf32>) {
  %e4 = tosa.cast %x : (tensor<4096xf32>) -> tensor<4096xf8E4M3FN>
  %e5 = tosa.cast %x : (tensor<4096xf32>) -> tensor<4096xf8E5M2>
  %y4 = tosa.cast %e4 : (tensor<4096xf8E4M3FN>) -> tensor<4096xf32>
  %y5 = tosa.cast %e5 : (tensor<4096xf8E5M2>) -> tensor<4096xf32>
  return %y4, %y5 : tensor<4096xf32>, tensor<4096xf32>
}

// An f8 GEMM accumulating in f32: products of 8-bit floats are exact in f32.
func.func @f8_matmul(%a: tensor<1x1x4xf32> loc("a"), %b: tensor<1x4x1xf32> loc("b")) -> tensor<1x1x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %a8 = tosa.cast %a : (tensor<1x1x4xf32>) -> tensor<1x1x4xf8E4M3FN>
  %b8 = tosa.cast %b : (tensor<1x4x1xf32>) -> tensor<1x4x1xf8E4M3FN>
  %c = tosa.matmul %a8, %b8, %zp, %zp : (tensor<1x1x4xf8E4M3FN>, tensor<1x4x1xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x1x1xf32>
  return %c : tensor<1x1x1xf32>
}
