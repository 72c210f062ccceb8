// --conv=auto (the default) sends a convolution of at least 1 GFLOP to
// cuDNN and a smaller one to im2col + cuBLASLt; --conv=im2col and
// --conv=cudnn send both one way; another value is an error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=auto
// RUN: FileCheck %s --check-prefix=AUTO < %t/auto.cu
// RUN: prec-translate --emit-cuda %s --conv=im2col --output-dir=%t --engine-name=im2col
// RUN: FileCheck %s --check-prefix=IM2COL < %t/im2col.cu
// RUN: prec-translate --emit-cuda %s --conv=cudnn --output-dir=%t --engine-name=cudnn
// RUN: FileCheck %s --check-prefix=CUDNN < %t/cudnn.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/auto.cu -o %t/auto.o %}
// RUN: not prec-translate --emit-cuda %s --conv=winograd --output-dir=%t --engine-name=bad 2>&1 | FileCheck %s --check-prefix=BAD

// 64 x 56 x 56 outputs of 64 channels over 3 x 3 x 64: 2 x 200704 x 64 x 576
// = 14.8 GFLOP; the same on one 8 x 8 image: 4.7 MFLOP.
// AUTO: // tosa.conv2d 'large': 3x3, cuDNN with the bias and ReLU in the same call
// AUTO: // tosa.conv2d 'small': im2col, then a GEMM 64x64x576 with the bias epilogue
// IM2COL: // tosa.conv2d 'large': im2col, then a GEMM 200704x64x576 with the bias + ReLU epilogue
// IM2COL: // tosa.conv2d 'small': im2col
// CUDNN: // tosa.conv2d 'large': 3x3, cuDNN
// CUDNN: // tosa.conv2d 'small': 3x3, cuDNN
// BAD: prec-translate: for the --conv option: Cannot find option named 'winograd'!
func.func @main(%x: tensor<64x56x56x64xf16> loc("x"), %s: tensor<1x8x8x64xf16> loc("s"))
    -> (tensor<64x56x56x64xf16>, tensor<1x8x8x64xf16>) {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<64x3x3x64xf16>}> : () -> tensor<64x3x3x64xf16>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<64xf16>}> : () -> tensor<64xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<64x56x56x64xf16>, tensor<64x3x3x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<64x56x56x64xf16> loc("large")
  %r = tosa.clamp %c {max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<64x56x56x64xf16>) -> tensor<64x56x56x64xf16> loc("large.relu")
  %d = tosa.conv2d %s, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x64xf16>, tensor<64x3x3x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x64xf16> loc("small")
  return %r, %d : tensor<64x56x56x64xf16>, tensor<1x8x8x64xf16>
}
