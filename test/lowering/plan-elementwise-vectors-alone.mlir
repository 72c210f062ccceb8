// prec-plan-elementwise-vectors on its own: the last op of an elementwise
// kernel (single or fused) gets the widest of 16, 8 or 4 bytes holding two
// result elements or more whose element count divides its innermost
// extent; so does the last op of a row kernel, sized by its widest row
// element, where the runs fill a warp, with the threads that cover them;
// kernels touching a binding, or of other kinds, keep one element.
// RUN: prec-opt %s -split-input-file --prec-plan-elementwise-vectors | FileCheck %s

// A fused f16 chain over 64 columns: 8 elements (16 bytes); f32 over 64: 4
// (16 bytes); f16 over 4 columns: 4 elements (8 bytes); over 3: none.
// CHECK-LABEL: func.func @widths
// CHECK: tosa.exp %arg0 {engine.kernel = #engine.kernel<0, single>} :
// CHECK: tosa.sigmoid {{.*}}engine.kernel = #engine.kernel<1, fused>} :
// CHECK: tosa.mul {{.*}}engine.kernel = #engine.kernel<1, fused>, engine.vector_bytes = 16 : i64}
// CHECK: tosa.tanh {{.*}}engine.kernel = #engine.kernel<2, single>, engine.vector_bytes = 16 : i64} : (tensor<16x64xf32>)
// CHECK: tosa.tanh {{.*}}engine.kernel = #engine.kernel<4, single>, engine.vector_bytes = 8 : i64} : (tensor<16x4xf16>)
// CHECK: tosa.tanh {{.*}}engine.kernel = #engine.kernel<6, single>} : (tensor<16x3xf16>)
func.func @widths(%x: tensor<16x64xf16>, %y: tensor<16x64xf32>, %z: tensor<16x4xf16>, %w: tensor<16x3xf16>) -> (tensor<16x64xf16>, tensor<16x64xf32>, tensor<16x4xf16>, tensor<16x3xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %s = tosa.sigmoid %a {engine.kernel = #engine.kernel<1, fused>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %m = tosa.mul %a, %s, %shift {engine.kernel = #engine.kernel<1, fused>} : (tensor<16x64xf16>, tensor<16x64xf16>, tensor<1xi8>) -> tensor<16x64xf16>
  %r = tosa.exp %m {engine.kernel = #engine.kernel<7, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %b = tosa.exp %y {engine.kernel = #engine.kernel<8, single>} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %t = tosa.tanh %b {engine.kernel = #engine.kernel<2, single>} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %u = tosa.exp %t {engine.kernel = #engine.kernel<3, single>} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = tosa.exp %z {engine.kernel = #engine.kernel<9, single>} : (tensor<16x4xf16>) -> tensor<16x4xf16>
  %v = tosa.tanh %c {engine.kernel = #engine.kernel<4, single>} : (tensor<16x4xf16>) -> tensor<16x4xf16>
  %vv = tosa.exp %v {engine.kernel = #engine.kernel<5, single>} : (tensor<16x4xf16>) -> tensor<16x4xf16>
  %d = tosa.exp %w {engine.kernel = #engine.kernel<10, single>} : (tensor<16x3xf16>) -> tensor<16x3xf16>
  %e = tosa.tanh %d {engine.kernel = #engine.kernel<6, single>} : (tensor<16x3xf16>) -> tensor<16x3xf16>
  %ee = tosa.exp %e {engine.kernel = #engine.kernel<11, single>} : (tensor<16x3xf16>) -> tensor<16x3xf16>
  return %r, %u, %vv, %ee : tensor<16x64xf16>, tensor<16x64xf32>, tensor<16x4xf16>, tensor<16x3xf16>
}

// -----

// Kernels reading a binding (%x), or writing the function's result in
// place (%b; the row kernel's sum, whose rows of 64 f16 in the arena would
// otherwise take runs of 2), keep one element a thread; a copy is not an
// elementwise kernel.
// CHECK-LABEL: func.func @bindings_and_kinds
// CHECK-NOT: engine.vector_bytes
// CHECK: return
func.func @bindings_and_kinds(%x: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x1xf16>, tensor<64x16xf16>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %b = tosa.sigmoid %a {engine.kernel = #engine.kernel<1, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %c = tosa.exp %a {engine.kernel = #engine.kernel<2, rows>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %d = tosa.reduce_sum %c {axis = 1 : i32, engine.kernel = #engine.kernel<2, rows>} : (tensor<16x64xf16>) -> tensor<16x1xf16>
  %t = tosa.transpose %b {perms = array<i32: 1, 0>, engine.kernel = #engine.kernel<3, single>} : (tensor<16x64xf16>) -> tensor<64x16xf16>
  return %b, %d, %t : tensor<16x64xf16>, tensor<16x1xf16>, tensor<64x16xf16>
}

// -----

// Loads must stay coalesced: a bias broadcast over the rows is fine; a
// transpose the kernel reads through would be read a strided element at a
// time, and keeps one element. An f32 input of an f16 result sizes the
// runs: 4 elements, 16 bytes of it and 8 of the result.
// CHECK-LABEL: func.func @coalesced_loads
// CHECK: tosa.add {{.*}}engine.kernel = #engine.kernel<1, single>, engine.vector_bytes = 16 : i64}
// CHECK: tosa.transpose {{.*}}{engine.kernel = #engine.kernel<2, fused>, perms
// CHECK: tosa.sigmoid {{.*}}engine.kernel = #engine.kernel<2, fused>} :
// CHECK: tosa.cast {{.*}}engine.kernel = #engine.kernel<4, single>, engine.vector_bytes = 8 : i64} :
func.func @coalesced_loads(%x: tensor<16x64xf16>, %bias: tensor<1x64xf16>, %y: tensor<16x64xf32>) -> (tensor<16x64xf16>, tensor<64x16xf16>, tensor<16x64xf16>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %b = tosa.exp %bias {engine.kernel = #engine.kernel<6, single>} : (tensor<1x64xf16>) -> tensor<1x64xf16>
  %s = tosa.add %a, %b {engine.kernel = #engine.kernel<1, single>} : (tensor<16x64xf16>, tensor<1x64xf16>) -> tensor<16x64xf16>
  %r = tosa.exp %s {engine.kernel = #engine.kernel<7, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %t = tosa.transpose %a {perms = array<i32: 1, 0>, engine.kernel = #engine.kernel<2, fused>} : (tensor<16x64xf16>) -> tensor<64x16xf16>
  %g = tosa.sigmoid %t {engine.kernel = #engine.kernel<2, fused>} : (tensor<64x16xf16>) -> tensor<64x16xf16>
  %gg = tosa.exp %g {engine.kernel = #engine.kernel<3, single>} : (tensor<64x16xf16>) -> tensor<64x16xf16>
  %c = tosa.exp %y {engine.kernel = #engine.kernel<8, single>} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = tosa.cast %c {engine.kernel = #engine.kernel<4, single>} : (tensor<16x64xf32>) -> tensor<16x64xf16>
  %hh = tosa.exp %h {engine.kernel = #engine.kernel<5, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  return %r, %gg, %hh : tensor<16x64xf16>, tensor<64x16xf16>, tensor<16x64xf16>
}

// -----

// Quantizations narrow their input: f16 into i8 takes runs of 8 (16 bytes
// of f16, 8 of i8), f32 into f8 runs of 4; a dequantization widens it: i8
// into f16 takes runs of 8 (8 bytes of i8, held as stored and widened where
// read). Over 6 columns, f16 into i8 would take runs of 2, 2 bytes of i8:
// runs are 4 bytes at least, so it keeps one element.
// CHECK-LABEL: func.func @narrowing
// CHECK: tosa.cast {{.*}}engine.kernel = #engine.kernel<1, single>, engine.vector_bytes = 8 : i64} : (tensor<16x64xf16>) -> tensor<16x64xi8>
// CHECK: tosa.cast {{.*}}engine.kernel = #engine.kernel<3, single>, engine.vector_bytes = 4 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf8E4M3FN>
// CHECK: tosa.cast {{.*}}engine.kernel = #engine.kernel<5, single>, engine.vector_bytes = 16 : i64} : (tensor<16x64xi8>) -> tensor<16x64xf16>
// CHECK: tosa.cast {{.*}}engine.kernel = #engine.kernel<10, single>} : (tensor<16x6xf16>) -> tensor<16x6xi8>
func.func @narrowing(%x: tensor<16x64xf16>, %y: tensor<16x64xf32>, %z: tensor<16x64xi8>, %s: tensor<16x6xf16>) -> (tensor<16x64xi8>, tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x6xi8>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %q = tosa.cast %a {engine.kernel = #engine.kernel<1, single>} : (tensor<16x64xf16>) -> tensor<16x64xi8>
  %b = tosa.exp %y {engine.kernel = #engine.kernel<2, single>} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %f = tosa.cast %b {engine.kernel = #engine.kernel<3, single>} : (tensor<16x64xf32>) -> tensor<16x64xf8E4M3FN>
  %c = tosa.abs %z {engine.kernel = #engine.kernel<4, single>} : (tensor<16x64xi8>) -> tensor<16x64xi8>
  %h = tosa.cast %c {engine.kernel = #engine.kernel<5, single>} : (tensor<16x64xi8>) -> tensor<16x64xf16>
  %qq = tosa.abs %q {engine.kernel = #engine.kernel<6, single>} : (tensor<16x64xi8>) -> tensor<16x64xi8>
  %ff = tosa.cast %f {engine.kernel = #engine.kernel<7, single>} : (tensor<16x64xf8E4M3FN>) -> tensor<16x64xf16>
  %hh = tosa.exp %h {engine.kernel = #engine.kernel<8, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %e = tosa.exp %s {engine.kernel = #engine.kernel<9, single>} : (tensor<16x6xf16>) -> tensor<16x6xf16>
  %n = tosa.cast %e {engine.kernel = #engine.kernel<10, single>} : (tensor<16x6xf16>) -> tensor<16x6xi8>
  %nn = tosa.abs %n {engine.kernel = #engine.kernel<11, single>} : (tensor<16x6xi8>) -> tensor<16x6xi8>
  return %qq, %ff, %hh, %nn : tensor<16x64xi8>, tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x6xi8>
}

// -----

// Row kernels: f16 rows of 768 with an f16 row vector take runs of 8 (16
// bytes): 96 runs, a warp a row. An f32 row read as the f16 rows' source
// makes the runs 4 elements: 192, two warps. Rows of 64 f16 take runs of 2
// (4 bytes), the widest leaving 32 runs; rows of 40 none, and keep the
// threads of their width.
// CHECK-LABEL: func.func @rows
// CHECK: tosa.sub {{.*}}engine.block_threads = 32 : i64, engine.kernel = #engine.kernel<1, rows>, engine.vector_bytes = 16 : i64}
// CHECK: tosa.sub {{.*}}engine.block_threads = 64 : i64, engine.kernel = #engine.kernel<5, rows>, engine.vector_bytes = 16 : i64}
// CHECK: tosa.sub {{.*}}engine.block_threads = 32 : i64, engine.kernel = #engine.kernel<8, rows>, engine.vector_bytes = 4 : i64}
// CHECK: tosa.sub {{.*}}engine.block_threads = 32 : i64, engine.kernel = #engine.kernel<11, rows>} :
func.func @rows(%x: tensor<16x768xf16>, %g: tensor<1x768xf16>, %y: tensor<16x768xf32>, %z: tensor<16x64xf16>, %w: tensor<16x40xf16>) -> (tensor<16x768xf16>, tensor<16x768xf16>, tensor<16x64xf16>, tensor<16x40xf16>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x768xf16>) -> tensor<16x768xf16>
  %gg = tosa.exp %g {engine.kernel = #engine.kernel<2, single>} : (tensor<1x768xf16>) -> tensor<1x768xf16>
  %s = tosa.reduce_sum %a {axis = 1 : i32, engine.kernel = #engine.kernel<1, rows>} : (tensor<16x768xf16>) -> tensor<16x1xf16>
  %m = tosa.add %a, %gg {engine.kernel = #engine.kernel<1, rows>} : (tensor<16x768xf16>, tensor<1x768xf16>) -> tensor<16x768xf16>
  %n = tosa.sub %m, %s {engine.block_threads = 128 : i64, engine.kernel = #engine.kernel<1, rows>} : (tensor<16x768xf16>, tensor<16x1xf16>) -> tensor<16x768xf16>
  %r = tosa.exp %n {engine.kernel = #engine.kernel<3, single>} : (tensor<16x768xf16>) -> tensor<16x768xf16>
  %b = tosa.exp %y {engine.kernel = #engine.kernel<4, single>} : (tensor<16x768xf32>) -> tensor<16x768xf32>
  %c = tosa.cast %b {engine.kernel = #engine.kernel<5, rows>} : (tensor<16x768xf32>) -> tensor<16x768xf16>
  %cs = tosa.reduce_sum %c {axis = 1 : i32, engine.kernel = #engine.kernel<5, rows>} : (tensor<16x768xf16>) -> tensor<16x1xf16>
  %cn = tosa.sub %c, %cs {engine.block_threads = 128 : i64, engine.kernel = #engine.kernel<5, rows>} : (tensor<16x768xf16>, tensor<16x1xf16>) -> tensor<16x768xf16>
  %cr = tosa.exp %cn {engine.kernel = #engine.kernel<6, single>} : (tensor<16x768xf16>) -> tensor<16x768xf16>
  %d = tosa.exp %z {engine.kernel = #engine.kernel<7, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %ds = tosa.reduce_sum %d {axis = 1 : i32, engine.kernel = #engine.kernel<8, rows>} : (tensor<16x64xf16>) -> tensor<16x1xf16>
  %dn = tosa.sub %d, %ds {engine.kernel = #engine.kernel<8, rows>} : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  %dr = tosa.exp %dn {engine.kernel = #engine.kernel<9, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %e = tosa.exp %w {engine.kernel = #engine.kernel<10, single>} : (tensor<16x40xf16>) -> tensor<16x40xf16>
  %es = tosa.reduce_sum %e {axis = 1 : i32, engine.kernel = #engine.kernel<11, rows>} : (tensor<16x40xf16>) -> tensor<16x1xf16>
  %en = tosa.sub %e, %es {engine.kernel = #engine.kernel<11, rows>} : (tensor<16x40xf16>, tensor<16x1xf16>) -> tensor<16x40xf16>
  %er = tosa.exp %en {engine.kernel = #engine.kernel<12, single>} : (tensor<16x40xf16>) -> tensor<16x40xf16>
  return %r, %cr, %dr, %er : tensor<16x768xf16>, tensor<16x768xf16>, tensor<16x64xf16>, tensor<16x40xf16>
}

// -----

// A reduction loads what it reduces, a float splat included (elementwise
// ops take splats as literals): the f32 splat sizes the runs, 4 elements,
// where the f16 rows alone would take 8. Rows of 4096 f16 in runs of 8 are
// 512 runs: 128 threads hold 32 elements each. Rows of 8192 f16 written as
// f8 (runs of 8, sized by the f16 rows: 1024) would leave each of 128
// threads 64 elements, so 256 threads take them.
// CHECK-LABEL: func.func @run_sizes
// CHECK: tosa.sub {{.*}}engine.block_threads = 64 : i64, engine.kernel = #engine.kernel<1, rows>, engine.vector_bytes = 16 : i64} : (tensor<16x768xf16>
// CHECK: tosa.sub {{.*}}engine.block_threads = 128 : i64, engine.kernel = #engine.kernel<3, rows>, engine.vector_bytes = 16 : i64} : (tensor<16x4096xf16>
// CHECK: tosa.cast {{.*}}engine.block_threads = 256 : i64, engine.kernel = #engine.kernel<5, rows>, engine.vector_bytes = 16 : i64} : (tensor<16x8192xf16>) -> tensor<16x8192xf8E4M3FN>
func.func @run_sizes(%x: tensor<16x768xf16>, %y: tensor<16x4096xf16>, %z: tensor<16x8192xf16>) -> (tensor<16x768xf16>, tensor<16x4096xf16>, tensor<16x8192xf16>) {
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<16x768xf32>}> : () -> tensor<16x768xf32>
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x768xf16>) -> tensor<16x768xf16>
  %s = tosa.reduce_sum %ones {axis = 1 : i32, engine.kernel = #engine.kernel<1, rows>} : (tensor<16x768xf32>) -> tensor<16x1xf32>
  %h = tosa.cast %s {engine.kernel = #engine.kernel<1, rows>} : (tensor<16x1xf32>) -> tensor<16x1xf16>
  %n = tosa.sub %a, %h {engine.kernel = #engine.kernel<1, rows>} : (tensor<16x768xf16>, tensor<16x1xf16>) -> tensor<16x768xf16>
  %r = tosa.exp %n {engine.kernel = #engine.kernel<2, single>} : (tensor<16x768xf16>) -> tensor<16x768xf16>
  %b = tosa.exp %y {engine.kernel = #engine.kernel<6, single>} : (tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %bs = tosa.reduce_sum %b {axis = 1 : i32, engine.kernel = #engine.kernel<3, rows>} : (tensor<16x4096xf16>) -> tensor<16x1xf16>
  %bn = tosa.sub %b, %bs {engine.kernel = #engine.kernel<3, rows>} : (tensor<16x4096xf16>, tensor<16x1xf16>) -> tensor<16x4096xf16>
  %br = tosa.exp %bn {engine.kernel = #engine.kernel<4, single>} : (tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %c = tosa.exp %z {engine.kernel = #engine.kernel<7, single>} : (tensor<16x8192xf16>) -> tensor<16x8192xf16>
  %cs = tosa.reduce_max %c {axis = 1 : i32, engine.kernel = #engine.kernel<5, rows>} : (tensor<16x8192xf16>) -> tensor<16x1xf16>
  %cn = tosa.sub %c, %cs {engine.kernel = #engine.kernel<5, rows>} : (tensor<16x8192xf16>, tensor<16x1xf16>) -> tensor<16x8192xf16>
  %cq = tosa.cast %cn {engine.kernel = #engine.kernel<5, rows>} : (tensor<16x8192xf16>) -> tensor<16x8192xf8E4M3FN>
  %cr = tosa.cast %cq {engine.kernel = #engine.kernel<8, single>} : (tensor<16x8192xf8E4M3FN>) -> tensor<16x8192xf16>
  return %r, %br, %cr : tensor<16x768xf16>, tensor<16x4096xf16>, tensor<16x8192xf16>
}
