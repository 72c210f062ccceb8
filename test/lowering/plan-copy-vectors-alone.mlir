// prec-plan-copy-vectors on its own: a copy op that is a kernel of its own
// moves the widest of 16, 8 or 4 bytes a thread (two elements or more)
// where its innermost dimension stays innermost and every extent and
// offset along it divides; ops touching a binding keep one element.
// RUN: prec-opt %s -split-input-file --prec-plan-copy-vectors | FileCheck %s

// Q's split of heads, [s, h, d] -> [h, s, d] in f16: 8 elements a thread.
// Moving the innermost dimension leaves one element a thread.
// CHECK-LABEL: func.func @transposes
// CHECK: tosa.transpose {{.*}}engine.vector_bytes = 16 : i64
// CHECK: tosa.transpose
// CHECK-NOT: vector_bytes
// CHECK: return
func.func @transposes(%x: tensor<16x8x64xf16>) -> (tensor<8x16x64xf16>, tensor<16x64x8xf16>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x8x64xf16>) -> tensor<16x8x64xf16>
  %t = tosa.transpose %a {perms = array<i32: 1, 0, 2>, engine.kernel = #engine.kernel<1, single>} : (tensor<16x8x64xf16>) -> tensor<8x16x64xf16>
  %u = tosa.transpose %a {perms = array<i32: 0, 2, 1>, engine.kernel = #engine.kernel<2, single>} : (tensor<16x8x64xf16>) -> tensor<16x64x8xf16>
  %r = tosa.exp %t {engine.kernel = #engine.kernel<3, single>} : (tensor<8x16x64xf16>) -> tensor<8x16x64xf16>
  %s = tosa.exp %u {engine.kernel = #engine.kernel<4, single>} : (tensor<16x64x8xf16>) -> tensor<16x64x8xf16>
  return %r, %s : tensor<8x16x64xf16>, tensor<16x64x8xf16>
}

// -----

// RoPE's halves: a slice from 4 along 8 f16 takes 4 elements (8 bytes) a
// thread, one from 8 takes 8; a concat of two 4-wide f32 halves, 16 bytes.
// CHECK-LABEL: func.func @slices_and_concat
// CHECK: tosa.slice {{.*}}engine.vector_bytes = 8 : i64
// CHECK: tosa.slice {{.*}}engine.vector_bytes = 16 : i64
// CHECK: tosa.concat {{.*}}engine.vector_bytes = 16 : i64
func.func @slices_and_concat(%x: tensor<4x16xf16>, %y: tensor<4x4xf32>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf32>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %start4 = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %start8 = tosa.const_shape {values = dense<[0, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s4 = tosa.slice %a, %start4, %size {engine.kernel = #engine.kernel<1, single>} : (tensor<4x16xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x8xf16>
  %s8 = tosa.slice %a, %start8, %size {engine.kernel = #engine.kernel<2, single>} : (tensor<4x16xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x8xf16>
  %b = tosa.exp %y {engine.kernel = #engine.kernel<3, single>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tosa.concat %b, %b {axis = 1 : i32, engine.kernel = #engine.kernel<4, single>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %r4 = tosa.exp %s4 {engine.kernel = #engine.kernel<5, single>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %r8 = tosa.exp %s8 {engine.kernel = #engine.kernel<6, single>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %rc = tosa.exp %c {engine.kernel = #engine.kernel<7, single>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r4, %r8, %rc : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf32>
}

// -----

// An odd offset along the innermost dimension: one element a thread. A
// reverse along it too; along another axis, 16 bytes of i8; a tile of
// 2-element f32 rows, 8 bytes.
// CHECK-LABEL: func.func @odd_and_reversed
// CHECK: tosa.slice
// CHECK-NOT: vector_bytes
// CHECK-SAME: -> tensor<4x8xf16>
// CHECK: tosa.reverse
// CHECK-NOT: vector_bytes
// CHECK-SAME: -> tensor<4x32xi8>
// CHECK: tosa.reverse {{.*}}engine.vector_bytes = 16 : i64
// CHECK: tosa.tile {{.*}}engine.vector_bytes = 8 : i64
func.func @odd_and_reversed(%x: tensor<4x16xf16>, %y: tensor<4x32xi8>, %z: tensor<3x2xf32>) -> (tensor<4x8xf16>, tensor<4x32xi8>, tensor<4x32xi8>, tensor<6x2xf32>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %start = tosa.const_shape {values = dense<[0, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %a, %start, %size {engine.kernel = #engine.kernel<1, single>} : (tensor<4x16xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x8xf16>
  %b = tosa.abs %y {engine.kernel = #engine.kernel<2, single>} : (tensor<4x32xi8>) -> tensor<4x32xi8>
  %inner = tosa.reverse %b {axis = 1 : i32, engine.kernel = #engine.kernel<3, single>} : (tensor<4x32xi8>) -> tensor<4x32xi8>
  %outer = tosa.reverse %b {axis = 0 : i32, engine.kernel = #engine.kernel<4, single>} : (tensor<4x32xi8>) -> tensor<4x32xi8>
  %c = tosa.exp %z {engine.kernel = #engine.kernel<5, single>} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %multiples = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.tile %c, %multiples {engine.kernel = #engine.kernel<6, single>} : (tensor<3x2xf32>, !tosa.shape<2>) -> tensor<6x2xf32>
  %rs = tosa.exp %s {engine.kernel = #engine.kernel<7, single>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %ri = tosa.abs %inner {engine.kernel = #engine.kernel<8, single>} : (tensor<4x32xi8>) -> tensor<4x32xi8>
  %ro = tosa.abs %outer {engine.kernel = #engine.kernel<9, single>} : (tensor<4x32xi8>) -> tensor<4x32xi8>
  %rt = tosa.exp %t {engine.kernel = #engine.kernel<10, single>} : (tensor<6x2xf32>) -> tensor<6x2xf32>
  return %rs, %ri, %ro, %rt : tensor<4x8xf16>, tensor<4x32xi8>, tensor<4x32xi8>, tensor<6x2xf32>
}

// -----

// An embedding lookup from a weight into the arena: 8 f16 a thread, its
// indices read one at a time from their binding. One reading a binding's
// table, or writing the output binding, keeps one element a thread; a mark
// already there goes.
// CHECK-LABEL: func.func @gathers_and_bindings
// CHECK: tosa.gather {{.*}}engine.vector_bytes = 16 : i64
// CHECK: tosa.gather
// CHECK-NOT: vector_bytes
// CHECK: return
func.func @gathers_and_bindings(%ids: tensor<1x4xi32>, %table: tensor<1x10x64xf16>) -> (tensor<1x4x64xf16>, tensor<1x4x64xf16>, tensor<4x8xf16>) {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x10x64xf16>}> : () -> tensor<1x10x64xf16>
  %g = tosa.gather %w, %ids {engine.kernel = #engine.kernel<0, single>} : (tensor<1x10x64xf16>, tensor<1x4xi32>) -> tensor<1x4x64xf16>
  %bound = tosa.gather %table, %ids {engine.kernel = #engine.kernel<1, single>} : (tensor<1x10x64xf16>, tensor<1x4xi32>) -> tensor<1x4x64xf16>
  %e = tosa.exp %g {engine.kernel = #engine.kernel<2, single>} : (tensor<1x4x64xf16>) -> tensor<1x4x64xf16>
  %shape = tosa.const_shape {values = dense<[4, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %flat = tosa.reshape %e, %shape : (tensor<1x4x64xf16>, !tosa.shape<2>) -> tensor<4x64xf16>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %out = tosa.slice %flat, %start, %size {engine.kernel = #engine.kernel<3, single>, engine.vector_bytes = 16 : i64} : (tensor<4x64xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x8xf16>
  return %e, %bound, %out : tensor<1x4x64xf16>, tensor<1x4x64xf16>, tensor<4x8xf16>
}

// -----

// Pools read a vector of channels a thread while 2^18 threads remain: 8.4M
// f16 outputs of 64 channels, 16 bytes; 1M of them, 8 bytes (16 would
// leave 131072 threads); a small average pool of 12 f32 channels and a
// pool of 3 channels, one element.
// CHECK-LABEL: func.func @pools
// CHECK: tosa.max_pool2d {{.*}}engine.vector_bytes = 16 : i64
// CHECK: tosa.max_pool2d {{.*}}engine.vector_bytes = 8 : i64
// CHECK: tosa.avg_pool2d
// CHECK-NOT: vector_bytes
// CHECK-SAME: -> tensor<1x2x2x12xf32>
// CHECK: tosa.max_pool2d
// CHECK-NOT: vector_bytes
// CHECK-SAME: -> tensor<1x2x2x3xf16>
func.func @pools(%w: tensor<1x1024x512x64xf16>, %x: tensor<1x256x256x64xf16>, %y: tensor<1x4x4x12xf32>, %z: tensor<1x4x4x3xf16>) -> (tensor<1x512x256x64xf16>, tensor<1x128x128x64xf16>, tensor<1x2x2x12xf32>, tensor<1x2x2x3xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.exp %w {engine.kernel = #engine.kernel<0, single>} : (tensor<1x1024x512x64xf16>) -> tensor<1x1024x512x64xf16>
  %m = tosa.max_pool2d %a {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, engine.kernel = #engine.kernel<1, single>} : (tensor<1x1024x512x64xf16>) -> tensor<1x512x256x64xf16>
  %b = tosa.exp %x {engine.kernel = #engine.kernel<2, single>} : (tensor<1x256x256x64xf16>) -> tensor<1x256x256x64xf16>
  %k = tosa.max_pool2d %b {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>, engine.kernel = #engine.kernel<3, single>} : (tensor<1x256x256x64xf16>) -> tensor<1x128x128x64xf16>
  %c = tosa.exp %y {engine.kernel = #engine.kernel<4, single>} : (tensor<1x4x4x12xf32>) -> tensor<1x4x4x12xf32>
  %v = tosa.avg_pool2d %c, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, engine.kernel = #engine.kernel<5, single>} : (tensor<1x4x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x12xf32>
  %d = tosa.exp %z {engine.kernel = #engine.kernel<6, single>} : (tensor<1x4x4x3xf16>) -> tensor<1x4x4x3xf16>
  %n = tosa.max_pool2d %d {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, engine.kernel = #engine.kernel<7, single>} : (tensor<1x4x4x3xf16>) -> tensor<1x2x2x3xf16>
  %r = tosa.exp %m {engine.kernel = #engine.kernel<8, single>} : (tensor<1x512x256x64xf16>) -> tensor<1x512x256x64xf16>
  %q = tosa.exp %k {engine.kernel = #engine.kernel<9, single>} : (tensor<1x128x128x64xf16>) -> tensor<1x128x128x64xf16>
  %s = tosa.exp %v {engine.kernel = #engine.kernel<10, single>} : (tensor<1x2x2x12xf32>) -> tensor<1x2x2x12xf32>
  %t = tosa.exp %n {engine.kernel = #engine.kernel<11, single>} : (tensor<1x2x2x3xf16>) -> tensor<1x2x2x3xf16>
  return %r, %q, %s, %t : tensor<1x512x256x64xf16>, tensor<1x128x128x64xf16>, tensor<1x2x2x12xf32>, tensor<1x2x2x3xf16>
}

// -----

// A pad whose innermost row fits a vector writes it whole: 3 i8 channels
// padded to 4 (4 bytes), 6 f16 ones to 8 (16 bytes); 3 f16 channels
// padded to 5 (10 bytes) fit none.
// CHECK-LABEL: func.func @pads
// CHECK: tosa.pad {{.*}}engine.vector_bytes = 4 : i64
// CHECK: tosa.pad {{.*}}engine.vector_bytes = 16 : i64
// CHECK: tosa.pad
// CHECK-NOT: vector_bytes
// CHECK-SAME: -> tensor<1x6x6x5xf16>
func.func @pads(%x: tensor<1x4x4x3xi8>, %y: tensor<1x4x4x6xf16>, %z: tensor<1x4x4x3xf16>) -> (tensor<1x6x6x4xi8>, tensor<1x4x4x8xf16>, tensor<1x6x6x5xf16>) {
  %i8zero = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %f16zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.abs %x {engine.kernel = #engine.kernel<0, single>} : (tensor<1x4x4x3xi8>) -> tensor<1x4x4x3xi8>
  %around = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %p = tosa.pad %a, %around, %i8zero {engine.kernel = #engine.kernel<1, single>} : (tensor<1x4x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x4xi8>
  %b = tosa.exp %y {engine.kernel = #engine.kernel<2, single>} : (tensor<1x4x4x6xf16>) -> tensor<1x4x4x6xf16>
  %channels = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %q = tosa.pad %b, %channels, %f16zero {engine.kernel = #engine.kernel<3, single>} : (tensor<1x4x4x6xf16>, !tosa.shape<8>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
  %c = tosa.exp %z {engine.kernel = #engine.kernel<4, single>} : (tensor<1x4x4x3xf16>) -> tensor<1x4x4x3xf16>
  %odd = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 1, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %r = tosa.pad %c, %odd, %f16zero {engine.kernel = #engine.kernel<5, single>} : (tensor<1x4x4x3xf16>, !tosa.shape<8>, tensor<1xf16>) -> tensor<1x6x6x5xf16>
  %pa = tosa.abs %p {engine.kernel = #engine.kernel<6, single>} : (tensor<1x6x6x4xi8>) -> tensor<1x6x6x4xi8>
  %qa = tosa.exp %q {engine.kernel = #engine.kernel<7, single>} : (tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  %ra = tosa.exp %r {engine.kernel = #engine.kernel<8, single>} : (tensor<1x6x6x5xf16>) -> tensor<1x6x6x5xf16>
  return %pa, %qa, %ra : tensor<1x6x6x4xi8>, tensor<1x4x4x8xf16>, tensor<1x6x6x5xf16>
}
