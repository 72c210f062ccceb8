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

// Convolutions: f32 with stride 2, dilation 2 and unequal padding; f16
// operands with an f32 accumulator.
func.func @conv_f32(%x: tensor<2x11x13x5xf32> loc("x"), %w: tensor<7x3x3x5xf32> loc("w")) -> tensor<2x5x7x7xf32> {
  %b = "tosa.const"() <{values = dense<[0.5, -1.0, 0.25, 2.0, 0.0, -0.5, 1.0]> : tensor<7xf32>}> : () -> tensor<7xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 1, 2, 2>, stride = array<i64: 2, 2>} : (tensor<2x11x13x5xf32>, tensor<7x3x3x5xf32>, tensor<7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x7x7xf32>
  return %y : tensor<2x5x7x7xf32>
}

func.func @conv_f16(%x: tensor<1x8x8x16xf16> loc("x"), %w: tensor<4x3x3x16xf16> loc("w")) -> tensor<1x8x8x4xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf16>, tensor<4x3x3x16xf16>, tensor<4xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x4xf32>
  return %y : tensor<1x8x8x4xf32>
}
