// prec-space-to-depth leaves a convolution as it is where its rewrite
// would not shorten K, where the sum would not be exact or the padding not
// zeros, and with conv=im2col.
// RUN: prec-opt %s -split-input-file --prec-space-to-depth | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-space-to-depth=conv=im2col | FileCheck %s --check-prefix=IM2COL

// The stem's shape, rewritten (see space-to-depth.mlir) but with im2col,
// which pads K rather than each tap.
// CHECK-LABEL: func.func @stem
// CHECK: tosa.conv2d {{.*}} : (tensor<1x19x19x16xi8>, tensor<8x4x4x16xi8>
// IM2COL-LABEL: func.func @stem
// IM2COL-NOT: tosa.pad
// IM2COL: tosa.conv2d {{.*}} stride = array<i64: 2, 2>
func.func @stem(%x: tensor<1x32x32x3xi8>) -> tensor<1x16x16x8xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<1> : tensor<8x7x7x3xi8>}> : () -> tensor<8x7x7x3xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 3, 2, 3, 2>, stride = array<i64: 2, 2>} : (tensor<1x32x32x3xi8>, tensor<8x7x7x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x8xi32>
  return %y : tensor<1x16x16x8xi32>
}

// -----

// Whole 16-byte chunks already (C = 16), a unit stride, a strided 1x1
// (one tap of 16 channels either way) and stride 3 (9 x 16 channels a
// block against 4 taps of 16).
// CHECK-LABEL: func.func @no_shorter_k
// CHECK-NOT: tosa.pad
// CHECK-COUNT-4: tosa.conv2d
func.func @no_shorter_k(%c16: tensor<1x8x8x16xi8>, %c3: tensor<1x8x8x3xi8>, %c2: tensor<1x9x9x2xi8>, %c3o: tensor<1x9x9x3xi8>) -> (tensor<1x4x4x8xi32>, tensor<1x8x8x8xi32>, tensor<1x5x5x8xi32>, tensor<1x3x3x8xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
  %w16 = "tosa.const"() <{values = dense<1> : tensor<8x3x3x16xi8>}> : () -> tensor<8x3x3x16xi8>
  %a = tosa.conv2d %c16, %w16, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x16xi8>, tensor<8x3x3x16xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %w3 = "tosa.const"() <{values = dense<1> : tensor<8x3x3x3xi8>}> : () -> tensor<8x3x3x3xi8>
  %u = tosa.conv2d %c3, %w3, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x8xi32>
  %w1 = "tosa.const"() <{values = dense<1> : tensor<8x1x1x3xi8>}> : () -> tensor<8x1x1x3xi8>
  %p = tosa.conv2d %c3o, %w1, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x9x9x3xi8>, tensor<8x1x1x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x8xi32>
  %w2 = "tosa.const"() <{values = dense<1> : tensor<8x3x3x2xi8>}> : () -> tensor<8x3x3x2xi8>
  %t = tosa.conv2d %c2, %w2, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 3, 3>} : (tensor<1x9x9x2xi8>, tensor<8x3x3x2xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x8xi32>
  return %a, %u, %p, %t : tensor<1x4x4x8xi32>, tensor<1x8x8x8xi32>, tensor<1x5x5x8xi32>, tensor<1x3x3x8xi32>
}

// -----

// Float sums (f16 products summed in f32) would change order; an input
// zero point of 3 would pad with 3s; weights computed at run time; strides
// that differ; a dilation.
// CHECK-LABEL: func.func @not_exact_or_not_zeros
// CHECK-NOT: tosa.pad
// CHECK-COUNT-5: tosa.conv2d
func.func @not_exact_or_not_zeros(%h: tensor<1x8x8x3xf16>, %x: tensor<1x8x8x3xi8>, %wx: tensor<8x3x3x3xi8>) -> (tensor<1x4x4x8xf16>, tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>, tensor<1x4x8x8xi32>, tensor<1x3x3x8xi32>) {
  %hzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %hw = "tosa.const"() <{values = dense<1.0> : tensor<8x3x3x3xf16>}> : () -> tensor<8x3x3x3xf16>
  %hb = "tosa.const"() <{values = dense<0.0> : tensor<8xf16>}> : () -> tensor<8xf16>
  %f = tosa.conv2d %h, %hw, %hb, %hzp, %hzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf16>, tensor<8x3x3x3xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp3 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<1> : tensor<8x3x3x3xi8>}> : () -> tensor<8x3x3x3xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
  %z = tosa.conv2d %x, %w, %b, %zp3, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %r = tosa.conv2d %x, %wx, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %s = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 1>, stride = array<i64: 2, 1>} : (tensor<1x8x8x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8x8xi32>
  %d = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x8xi32>
  return %f, %z, %r, %s, %d : tensor<1x4x4x8xf16>, tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>, tensor<1x4x8x8xi32>, tensor<1x3x3x8xi32>
}
