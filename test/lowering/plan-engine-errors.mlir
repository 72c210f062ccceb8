// The engine plan's passes refuse what no engine can hold, with an error at
// the op, and never fail on plans written by hand that the emitter refuses.
// RUN: not prec-opt %s -split-input-file --prec-choose-conv-algorithms 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not prec-opt %s -split-input-file --prec-plan-kernels 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not prec-opt %s -split-input-file --prec-plan-buffers 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not prec-opt %s -split-input-file --prec-plan-buffers 2>&1 | FileCheck %s --check-prefix=ODD

// SHAPE: plan-engine-errors.mlir:[[# @LINE + 2]]:8: error: the engine plan needs statically shaped tensors, not 'tensor<*xf32>'
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  %a = tosa.exp %x : (tensor<*xf32>) -> tensor<*xf32>
  %m = tosa.reduce_max %a {axis = 0 : i32} : (tensor<*xf32>) -> tensor<*xf32>
  return %m : tensor<*xf32>
}

// -----

// An im2col algorithm on an i16 convolution (whose type no engine stores as
// GEMM columns) gets no columns; the emitter reports the convolution.
// ODD-LABEL: func.func @odd
// ODD-NOT: columns_offset
// ODD: return
func.func @odd(%x: tensor<1x8x8x3xi16>) -> tensor<1x8x8x4xi48> {
  %wq = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> : () -> tensor<4x3x3x3xi8>
  %bw = "tosa.const"() <{values = dense<0> : tensor<4xi48>}> : () -> tensor<4xi48>
  %zpw = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %zpq = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = tosa.conv2d %x, %wq, %bw, %zpw, %zpq {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<im2col>, engine.kernel = #engine.kernel<0, contraction>} : (tensor<1x8x8x3xi16>, tensor<4x3x3x3xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x8x8x4xi48>
  return %d : tensor<1x8x8x4xi48>
}
