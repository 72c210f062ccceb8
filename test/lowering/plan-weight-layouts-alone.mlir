// prec-plan-weight-layouts on its own: an i8 or f8 GEMM's constant B is
// stored transposed; an 8-bit convolution's constant weights get rows of its
// GEMM's depth (a multiple of 16). Float GEMMs, transposes read through and
// weights that are not constants keep their layout.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-plan-weight-layouts | FileCheck %s

// CHECK-LABEL: func.func @gemms
// CHECK: %[[I8:.*]] = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> {engine.stored_transposed}
// CHECK: %[[F8:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x32x16xf8E4M3FN>}> {engine.stored_transposed}
// CHECK: %[[F16:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x32x16xf16>}> : ()
func.func @gemms(%x: tensor<1x8x32xi8>, %h: tensor<1x8x32xf8E4M3FN>, %g: tensor<1x8x32xf16>) -> (tensor<1x8x16xi32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>) {
  %wi = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> : () -> tensor<1x32x16xi8>
  %wf8 = "tosa.const"() <{values = dense<1.0> : tensor<1x32x16xf8E4M3FN>}> : () -> tensor<1x32x16xf8E4M3FN>
  %wh = "tosa.const"() <{values = dense<1.0> : tensor<1x32x16xf16>}> : () -> tensor<1x32x16xf16>
  %zi = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zf8 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %zh = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.matmul %x, %wi, %zi, %zi : (tensor<1x8x32xi8>, tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x16xi32>
  %b = tosa.matmul %h, %wf8, %zf8, %zf8 : (tensor<1x8x32xf8E4M3FN>, tensor<1x32x16xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x8x16xf32>
  %c = tosa.matmul %g, %wh, %zh, %zh : (tensor<1x8x32xf16>, tensor<1x32x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x16xf32>
  return %a, %b, %c : tensor<1x8x16xi32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>
}

// -----

// A GEMM reading a transpose of a constant reads through the transpose:
// the constant is not B, and is stored as it is.
// CHECK-LABEL: func.func @read_through
// CHECK: "tosa.const"() <{values = dense<1> : tensor<1x16x32xi8>}> : ()
// CHECK-NOT: engine.stored_transposed
func.func @read_through(%x: tensor<1x8x32xi8>) -> tensor<1x8x16xi32> {
  %wt = "tosa.const"() <{values = dense<1> : tensor<1x16x32xi8>}> : () -> tensor<1x16x32xi8>
  %w = tosa.transpose %wt {perms = array<i32: 0, 2, 1>} : (tensor<1x16x32xi8>) -> tensor<1x32x16xi8>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.matmul %x, %w, %z, %z : (tensor<1x8x32xi8>, tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x16xi32>
  return %a : tensor<1x8x16xi32>
}

// -----

// KH * KW * C = 3 * 3 * 3 = 27: i8 weights stored in rows of 32; f16 ones
// (no padding needed) and 2 * 2 * 4 = 16 (a multiple already) as they are.
// CHECK-LABEL: func.func @convolutions
// CHECK: "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> {engine.padded_depth = 32 : i64}
// CHECK: "tosa.const"() <{values = dense<1> : tensor<4x2x2x4xi8>}> : ()
// CHECK: "tosa.const"() <{values = dense<1.000000e+00> : tensor<4x3x3x3xf16>}> : ()
func.func @convolutions(%x: tensor<1x8x8x3xi8>, %y: tensor<1x8x8x4xi8>, %h: tensor<1x8x8x3xf16>) -> (tensor<1x6x6x4xi32>, tensor<1x7x7x4xi32>, tensor<1x6x6x4xf32>) {
  %w27 = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> : () -> tensor<4x3x3x3xi8>
  %w16 = "tosa.const"() <{values = dense<1> : tensor<4x2x2x4xi8>}> : () -> tensor<4x2x2x4xi8>
  %wh = "tosa.const"() <{values = dense<1.0> : tensor<4x3x3x3xf16>}> : () -> tensor<4x3x3x3xf16>
  %bi = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %bf = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zi = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zh = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %w27, %bi, %zi, %zi {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32>
  %b = tosa.conv2d %y, %w16, %bi, %zi, %zi {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xi8>, tensor<4x2x2x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x4xi32>
  %c = tosa.conv2d %h, %wh, %bf, %zh, %zh {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf16>, tensor<4x3x3x3xf16>, tensor<4xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x6x4xf32>
  return %a, %b, %c : tensor<1x6x6x4xi32>, tensor<1x7x7x4xi32>, tensor<1x6x6x4xf32>
}

// -----

// The engine stores a constant once, in one layout: one that readers need
// in different layouts (as CSE leaves equal weights) gets a copy for each
// layout but the plain one; readers of one layout share it.
// CHECK-LABEL: func.func @shared
// CHECK-DAG: %[[PLAIN:.*]] = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> : ()
// CHECK-DAG: %[[TRANSPOSED:.*]] = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> {engine.stored_transposed}
// CHECK: tosa.matmul %{{.*}}, %[[TRANSPOSED]]
// CHECK: tosa.matmul %{{.*}}, %[[TRANSPOSED]]
// CHECK: tosa.negate %[[PLAIN]]
// CHECK: %[[PADDED:.*]] = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> {engine.padded_depth = 32 : i64}
// CHECK: tosa.conv2d %{{.*}}, %[[PADDED]]
// CHECK: tosa.conv2d %{{.*}}, %[[PADDED]]
func.func @shared(%x: tensor<1x8x32xi8>, %y: tensor<1x8x8x3xi8>) -> (tensor<1x8x16xi32>, tensor<1x8x16xi32>, tensor<1x32x16xi8>, tensor<1x6x6x4xi32>, tensor<1x6x6x4xi32>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> : () -> tensor<1x32x16xi8>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.matmul %x, %w, %z, %z : (tensor<1x8x32xi8>, tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x16xi32>
  %b = tosa.matmul %x, %w, %z, %z : (tensor<1x8x32xi8>, tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x16xi32>
  %n = tosa.negate %w, %z, %z : (tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x32x16xi8>
  %k = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> : () -> tensor<4x3x3x3xi8>
  %bi = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %c = tosa.conv2d %y, %k, %bi, %z, %z {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32>
  %d = tosa.conv2d %y, %k, %bi, %z, %z {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32>
  return %a, %b, %n, %c, %d : tensor<1x8x16xi32>, tensor<1x8x16xi32>, tensor<1x32x16xi8>, tensor<1x6x6x4xi32>, tensor<1x6x6x4xi32>
}

// -----

// Marks from an earlier plan go: only the 8-bit GEMM's B stays transposed.
// CHECK-LABEL: func.func @stale
// CHECK: "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> {engine.stored_transposed}
// CHECK: "tosa.const"() <{values = dense<2> : tensor<1x32x16xi8>}> : ()
func.func @stale(%x: tensor<1x8x32xi8>, %y: tensor<1x32x16xi8>) -> (tensor<1x8x16xi32>, tensor<1x32x16xi8>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> : () -> tensor<1x32x16xi8>
  %c = "tosa.const"() <{values = dense<2> : tensor<1x32x16xi8>}> {engine.stored_transposed} : () -> tensor<1x32x16xi8>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.matmul %x, %w, %z, %z : (tensor<1x8x32xi8>, tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x16xi32>
  %s = tosa.add %y, %c : (tensor<1x32x16xi8>, tensor<1x32x16xi8>) -> tensor<1x32x16xi8>
  return %a, %s : tensor<1x8x16xi32>, tensor<1x32x16xi8>
}
