// prec-choose-conv-algorithms on its own: each tosa.conv2d gets the
// #engine.conv_algorithm the CUDA emitter follows.
// RUN: prec-opt %s -split-input-file --mlir-print-debuginfo --mlir-print-local-scope --prec-choose-conv-algorithms | FileCheck %s --check-prefix=AUTO
// RUN: prec-opt %s -split-input-file --mlir-print-debuginfo --mlir-print-local-scope --prec-choose-conv-algorithms=conv=im2col | FileCheck %s --check-prefix=IM2COL
// RUN: prec-opt %s -split-input-file --mlir-print-debuginfo --mlir-print-local-scope --prec-choose-conv-algorithms=conv=cudnn | FileCheck %s --check-prefix=CUDNN
// At a dynamic batch, sizes are judged at the optimum: 'large' is 14.8
// GFLOP at 64, 1.85 at 8 and 0.92 at 4.
// RUN: prec-opt %s -split-input-file --mlir-print-debuginfo --mlir-print-local-scope --prec-choose-conv-algorithms=batch=1:8:64 | FileCheck %s --check-prefix=OPT8
// RUN: prec-opt %s -split-input-file --mlir-print-debuginfo --mlir-print-local-scope --prec-choose-conv-algorithms=batch=1:4:64 | FileCheck %s --check-prefix=OPT4
// RUN: not prec-opt %s -split-input-file --prec-choose-conv-algorithms=batch=8:4:64 2>&1 | FileCheck %s --check-prefix=BAD-BATCH
// RUN: not prec-opt %s -split-input-file --prec-choose-conv-algorithms=conv=winograd 2>&1 | FileCheck %s --check-prefix=BAD-CONV

// AUTO-LABEL: func.func @sizes
// AUTO: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<cudnn>{{.*}} loc("large")
// AUTO: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<im2col>{{.*}} loc("small")
// AUTO: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<gemm>{{.*}} loc("pointwise")
// IM2COL-LABEL: func.func @sizes
// IM2COL: #engine.conv_algorithm<im2col>{{.*}} loc("large")
// IM2COL: #engine.conv_algorithm<im2col>{{.*}} loc("small")
// IM2COL: #engine.conv_algorithm<gemm>{{.*}} loc("pointwise")
// CUDNN-LABEL: func.func @sizes
// CUDNN: #engine.conv_algorithm<cudnn>{{.*}} loc("large")
// CUDNN: #engine.conv_algorithm<cudnn>{{.*}} loc("small")
// CUDNN: #engine.conv_algorithm<gemm>{{.*}} loc("pointwise")
// OPT8-LABEL: func.func @sizes
// OPT8: #engine.conv_algorithm<cudnn>{{.*}} loc("large")
// OPT4-LABEL: func.func @sizes
// OPT4: #engine.conv_algorithm<im2col>{{.*}} loc("large")
// BAD-BATCH: for the --batch option: '8:4:64' needs 1 <= MIN <= OPT <= MAX and MAX >= 2
// BAD-CONV: for the --conv option: Cannot find option named 'winograd'!
func.func @sizes(%x: tensor<64x56x56x64xf16>, %s: tensor<1x8x8x64xf16>)
    -> (tensor<64x56x56x64xf16>, tensor<1x8x8x64xf16>, tensor<1x8x8x64xf16>) {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<64x3x3x64xf16>}> : () -> tensor<64x3x3x64xf16>
  %w1 = "tosa.const"() <{values = dense<0.01> : tensor<64x1x1x64xf16>}> : () -> tensor<64x1x1x64xf16>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<64xf16>}> : () -> tensor<64xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<64x56x56x64xf16>, tensor<64x3x3x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<64x56x56x64xf16> loc("large")
  %d = tosa.conv2d %s, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x64xf16>, tensor<64x3x3x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x64xf16> loc("small")
  %p = tosa.conv2d %s, %w1, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x64xf16>, tensor<64x1x1x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x64xf16> loc("pointwise")
  return %c, %d, %p : tensor<64x56x56x64xf16>, tensor<1x8x8x64xf16>, tensor<1x8x8x64xf16>
}

// -----

// A bias the engine receives as an input cannot be a GEMM's epilogue
// pointer, and cuBLASLt has no i16 x i8 GEMM: both run direct. cuDNN takes
// no 8-bit convolution.
// AUTO-LABEL: func.func @direct
// AUTO: #engine.conv_algorithm<direct>{{.*}} loc("input_bias")
// AUTO: #engine.conv_algorithm<direct>{{.*}} loc("i16")
// AUTO: #engine.conv_algorithm<im2col>{{.*}} loc("i8")
// CUDNN-LABEL: func.func @direct
// CUDNN: #engine.conv_algorithm<im2col>{{.*}} loc("i8")
func.func @direct(%x: tensor<1x8x8x3xf16>, %bias: tensor<4xf16>, %y: tensor<1x8x8x3xi16>, %q: tensor<1x8x8x3xi8>)
    -> (tensor<1x8x8x4xf16>, tensor<1x8x8x4xi48>, tensor<1x8x8x4xi32>) {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<4x3x3x3xf16>}> : () -> tensor<4x3x3x3xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf16>, tensor<4x3x3x3xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x4xf16> loc("input_bias")
  %wq = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> : () -> tensor<4x3x3x3xi8>
  %bw = "tosa.const"() <{values = dense<0> : tensor<4xi48>}> : () -> tensor<4xi48>
  %zpw = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %bq = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zpq = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = tosa.conv2d %y, %wq, %bw, %zpw, %zpq {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi16>, tensor<4x3x3x3xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x8x8x4xi48> loc("i16")
  %e = tosa.conv2d %q, %wq, %bq, %zpq, %zpq {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x4xi32> loc("i8")
  return %c, %d, %e : tensor<1x8x8x4xf16>, tensor<1x8x8x4xi48>, tensor<1x8x8x4xi32>
}

// -----

// An int8 convolution whose C is a multiple of 16 runs as prec's implicit
// GEMM, 3x3 at either stride (under --conv=cudnn too: cuDNN takes no int8 one),
// but as im2col under --conv=im2col; and C = 8 stays im2col. A 1x1
// unit-stride one whose only reader is elementwise at its shape (its
// dequantization) runs as the implicit GEMM too, whose epilogue computes
// that reader; read otherwise (here returned), with a bias to add before
// its reader (the epilogue reads the accumulators as its value), or under
// --conv=im2col, it stays a cuBLASLt GEMM on its input.
// AUTO-LABEL: func.func @implicit_gemm
// AUTO: #engine.conv_algorithm<implicit_gemm>{{.*}} loc("window")
// AUTO: #engine.conv_algorithm<implicit_gemm>{{.*}} loc("strided")
// AUTO: #engine.conv_algorithm<gemm>{{.*}} loc("pointwise")
// AUTO: #engine.conv_algorithm<im2col>{{.*}} loc("c8")
// AUTO: #engine.conv_algorithm<implicit_gemm>{{.*}} loc("dequantized")
// AUTO: #engine.conv_algorithm<gemm>{{.*}} loc("biased")
// IM2COL-LABEL: func.func @implicit_gemm
// IM2COL: #engine.conv_algorithm<im2col>{{.*}} loc("window")
// IM2COL: #engine.conv_algorithm<im2col>{{.*}} loc("strided")
// IM2COL: #engine.conv_algorithm<gemm>{{.*}} loc("dequantized")
// CUDNN-LABEL: func.func @implicit_gemm
// CUDNN: #engine.conv_algorithm<implicit_gemm>{{.*}} loc("window")
func.func @implicit_gemm(%x: tensor<2x8x8x16xi8>, %s: tensor<2x8x8x8xi8>)
    -> (tensor<2x8x8x4xi32>, tensor<2x4x4x4xi32>, tensor<2x8x8x4xi32>, tensor<2x8x8x4xi32>, tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %w1 = "tosa.const"() <{values = dense<1> : tensor<4x1x1x16xi8>}> : () -> tensor<4x1x1x16xi8>
  %w8 = "tosa.const"() <{values = dense<1> : tensor<4x3x3x8xi8>}> : () -> tensor<4x3x3x8xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x4xi32> loc("window")
  %d = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x8x8x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x4xi32> loc("strided")
  %p = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<4x1x1x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x4xi32> loc("pointwise")
  %e = tosa.conv2d %s, %w8, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x8x8xi8>, tensor<4x3x3x8xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x4xi32> loc("c8")
  %q = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<4x1x1x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x4xi32> loc("dequantized")
  %f = tosa.cast %q : (tensor<2x8x8x4xi32>) -> tensor<2x8x8x4xf32>
  %bias = "tosa.const"() <{values = dense<[1, 2, 3, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %bc = tosa.conv2d %x, %w1, %bias, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<4x1x1x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x4xi32> loc("biased")
  %g = tosa.cast %bc : (tensor<2x8x8x4xi32>) -> tensor<2x8x8x4xf32>
  return %c, %d, %p, %e, %f, %g : tensor<2x8x8x4xi32>, tensor<2x4x4x4xi32>, tensor<2x8x8x4xi32>, tensor<2x8x8x4xi32>, tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>
}
