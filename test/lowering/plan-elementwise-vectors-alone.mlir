// prec-plan-elementwise-vectors on its own: the last op of an elementwise
// kernel (single or fused) gets the widest of 16, 8 or 4 bytes holding two
// result elements or more whose element count divides its innermost
// extent; kernels touching a binding, or of other kinds, keep one element.
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
// place, keep one element a thread; a row kernel and a copy are not
// elementwise kernels.
// CHECK-LABEL: func.func @bindings_and_kinds
// CHECK-NOT: engine.vector_bytes
// CHECK: return
func.func @bindings_and_kinds(%x: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x1xf16>, tensor<64x16xf16>) {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %b = tosa.sigmoid %a {engine.kernel = #engine.kernel<1, single>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %c = tosa.exp %b {engine.kernel = #engine.kernel<2, rows>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
  %d = tosa.reduce_sum %c {axis = 1 : i32, engine.kernel = #engine.kernel<2, rows>} : (tensor<16x64xf16>) -> tensor<16x1xf16>
  %t = tosa.transpose %b {perms = array<i32: 1, 0>, engine.kernel = #engine.kernel<3, single>} : (tensor<16x64xf16>) -> tensor<64x16xf16>
  return %b, %d, %t : tensor<16x64xf16>, tensor<16x1xf16>, tensor<64x16xf16>
}

// -----

// Loads must stay coalesced: a bias broadcast over the rows is fine; a
// transpose the kernel reads through, or an f32 input of an f16 result,
// would be read a strided element at a time, and keep one element.
// CHECK-LABEL: func.func @coalesced_loads
// CHECK: tosa.add {{.*}}engine.kernel = #engine.kernel<1, single>, engine.vector_bytes = 16 : i64}
// CHECK: tosa.transpose {{.*}}{engine.kernel = #engine.kernel<2, fused>, perms
// CHECK: tosa.sigmoid {{.*}}engine.kernel = #engine.kernel<2, fused>} :
// CHECK: tosa.cast {{.*}}engine.kernel = #engine.kernel<4, single>} :
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
