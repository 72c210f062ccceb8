// prec-plan-index-width on its own: kernels index in 32 bits unless an index
// space (a tensor, or an im2col convolution's columns) reaches 2^31 elements
// less a block's overrun.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-plan-index-width | FileCheck %s

// CHECK-LABEL: func.func @small
// CHECK-SAME: attributes {engine.index_bitwidth = 32 : i64}
func.func @small(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = tosa.exp %x : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// The largest 32-bit space: 2^31 - 2^20 - 1 elements. A width already
// there is replaced.
// CHECK-LABEL: func.func @just_narrow
// CHECK-SAME: attributes {engine.index_bitwidth = 32 : i64}
func.func @just_narrow(%x: tensor<2146435071xi8>) -> tensor<2146435071xi8> attributes {engine.index_bitwidth = 64 : i64} {
  return %x : tensor<2146435071xi8>
}

// -----

// CHECK-LABEL: func.func @wide
// CHECK-SAME: attributes {engine.index_bitwidth = 64 : i64}
func.func @wide(%x: tensor<2146435072xi8>) -> tensor<2146435072xi8> {
  return %x : tensor<2146435072xi8>
}

// -----

// A wide result of a narrow input.
// CHECK-LABEL: func.func @wide_result
// CHECK-SAME: attributes {engine.index_bitwidth = 64 : i64}
func.func @wide_result(%x: tensor<1x1073741824xf16>) -> tensor<2x1073741824xf16> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.tile %x, %m : (tensor<1x1073741824xf16>, !tosa.shape<2>) -> tensor<2x1073741824xf16>
  return %y : tensor<2x1073741824xf16>
}

// -----

// Every tensor has 2^28 elements, but im2col lays out 4096 x 4096 rows of
// 3 x 3 x 16 = 144 columns: 2.4e9 elements.
// CHECK-LABEL: func.func @im2col_columns
// CHECK-SAME: attributes {engine.index_bitwidth = 64 : i64}
func.func @im2col_columns(%x: tensor<1x4096x4096x16xf16>, %w: tensor<16x3x3x16xf16>, %b: tensor<16xf16>) -> tensor<1x4096x4096x16xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<im2col>} : (tensor<1x4096x4096x16xf16>, tensor<16x3x3x16xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4096x4096x16xf16>
  return %y : tensor<1x4096x4096x16xf16>
}

// -----

// The same convolution run by cuDNN lays out no columns.
// CHECK-LABEL: func.func @cudnn_no_columns
// CHECK-SAME: attributes {engine.index_bitwidth = 32 : i64}
func.func @cudnn_no_columns(%x: tensor<1x4096x4096x16xf16>, %w: tensor<16x3x3x16xf16>, %b: tensor<16xf16>) -> tensor<1x4096x4096x16xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<cudnn>} : (tensor<1x4096x4096x16xf16>, tensor<16x3x3x16xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4096x4096x16xf16>
  return %y : tensor<1x4096x4096x16xf16>
}

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{the engine plan needs statically shaped tensors, not 'tensor<?xf32>'}}
  return %x : tensor<?xf32>
}
