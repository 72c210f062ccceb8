// Batch matmuls the CPU hands to BLAS (prec-blas-contractions): f32, f16
// and bf16 operands accumulating in f32, one of them read through a slice
// (rows 80 apart, 70 used), another with a bias as the accumulator's start.
func.func @f32_sliced(%a: tensor<2x40x80xf32> loc("a"), %b: tensor<2x70x45xf32> loc("b")) -> tensor<2x33x45xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %start = tosa.const_shape {values = dense<[0, 5, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[2, 33, 70]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.slice %a, %start, %size : (tensor<2x40x80xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x33x70xf32>
  %c = tosa.matmul %s, %b, %zp, %zp : (tensor<2x33x70xf32>, tensor<2x70x45xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x33x45xf32>
  return %c : tensor<2x33x45xf32>
}

func.func @f16_bias(%a: tensor<3x17x64xf16> loc("a"), %b: tensor<3x64x29xf16> loc("b"), %bias: tensor<1x1x29xf32> loc("bias")) -> tensor<3x17x29xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<3x17x64xf16>, tensor<3x64x29xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x17x29xf32>
  %r = tosa.add %c, %bias : (tensor<3x17x29xf32>, tensor<1x1x29xf32>) -> tensor<3x17x29xf32>
  return %r : tensor<3x17x29xf32>
}

func.func @bf16(%a: tensor<1x9x50xf32> loc("a"), %b: tensor<1x50x12xf32> loc("b")) -> tensor<1x9x12xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %a16 = tosa.cast %a : (tensor<1x9x50xf32>) -> tensor<1x9x50xbf16>
  %b16 = tosa.cast %b : (tensor<1x50x12xf32>) -> tensor<1x50x12xbf16>
  %c = tosa.matmul %a16, %b16, %zp, %zp : (tensor<1x9x50xbf16>, tensor<1x50x12xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x9x12xf32>
  return %c : tensor<1x9x12xf32>
}
