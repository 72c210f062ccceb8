// prec-hoist-vector-transfers on its own, on bufferized register tiles: a
// transfer_read / transfer_write pair of one buffer slice leaves the loops
// it does not depend on (the value is carried in iter_args), a
// loop-invariant read leaves its loops, and nothing leaves a loop that may
// run zero times or that touches the slice otherwise.
// RUN: prec-opt %s -split-input-file --prec-hoist-vector-transfers | FileCheck %s

// A register tile's accumulator (what prec-tile-contractions and
// bufferization produce): read before the reduction loop, carried through
// it, written once after it; A and B, indexed by the loop, stay inside.
// CHECK-LABEL: func.func @accumulator
// CHECK:      %[[INIT:.*]] = vector.transfer_read %arg2[%c0, %c0], %{{.*}} : memref<8x16xf32>, vector<8x16xf32>
// CHECK-NEXT: %[[ACC:.*]] = scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%[[ITER:.*]] = %[[INIT]]) -> (vector<8x16xf32>) {
// CHECK-NEXT:   %[[X:.*]] = vector.transfer_read %arg0[%c0, %[[K]]]
// CHECK-NEXT:   %[[Y:.*]] = vector.transfer_read %arg1[%[[K]], %c0]
// CHECK-NEXT:   %[[R:.*]] = vector.contract {{.*}} %[[X]], %[[Y]], %[[ITER]]
// CHECK-NEXT:   scf.yield %[[R]] : vector<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: vector.transfer_write %[[ACC]], %arg2[%c0, %c0] {{.*}} : vector<8x16xf32>, memref<8x16xf32>
// CHECK-NEXT: return
func.func @accumulator(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %x = vector.transfer_read %a[%c0, %k], %cst {in_bounds = [true, true]} : memref<8x4xf32>, vector<8x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %cst {in_bounds = [true, true]} : memref<4x16xf32>, vector<1x16xf32>
    %acc = vector.transfer_read %c[%c0, %c0], %cst {in_bounds = [true, true]} : memref<8x16xf32>, vector<8x16xf32>
    %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32>
  }
  return
}

// -----

// Nested loops: the pair indexed by the outer loop leaves only the inner
// one; the read of %b, invariant in both, leaves both.
// CHECK-LABEL: func.func @nested
// CHECK:      %[[B:.*]] = vector.transfer_read %arg0[%c0]
// CHECK-NEXT: scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:   %[[INIT:.*]] = vector.transfer_read %arg1[%[[I]], %c0]
// CHECK-NEXT:   %[[ACC:.*]] = scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%[[ITER:.*]] = %[[INIT]]) -> (vector<16xf32>) {
// CHECK-NEXT:     %[[R:.*]] = arith.addf %[[ITER]], %[[B]] : vector<16xf32>
// CHECK-NEXT:     scf.yield %[[R]]
// CHECK-NEXT:   }
// CHECK-NEXT:   vector.transfer_write %[[ACC]], %arg1[%[[I]], %c0] {{.*}} : vector<16xf32>, memref<4x16xf32>
// CHECK-NEXT: }
func.func @nested(%b: memref<16xf32>, %c: memref<4x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %y = vector.transfer_read %b[%c0], %cst {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
      %acc = vector.transfer_read %c[%i, %c0], %cst {in_bounds = [true]} : memref<4x16xf32>, vector<16xf32>
      %r = arith.addf %acc, %y : vector<16xf32>
      vector.transfer_write %r, %c[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
    }
  }
  return
}

// -----

// A loop whose trip count is not known to be positive keeps its transfers:
// hoisted, the write would happen even when the loop does not run.
// CHECK-LABEL: func.func @maybe_zero_trips
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %arg2 step %c1 {
// CHECK-NEXT:   vector.transfer_read %arg0[%c0]
// CHECK-NEXT:   vector.transfer_read %arg1[%c0]
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   vector.transfer_write %{{.*}}, %arg1[%c0] {{.*}} : vector<16xf32>, memref<16xf32>
// CHECK-NEXT: }
func.func @maybe_zero_trips(%b: memref<16xf32>, %c: memref<16xf32>, %n: index) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %y = vector.transfer_read %b[%c0], %cst {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %acc = vector.transfer_read %c[%c0], %cst {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %r = arith.addf %acc, %y : vector<16xf32>
    vector.transfer_write %r, %c[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  }
  return
}

// -----

// Another write to the accumulator's buffer in the loop: the pair stays
// (only the read of %b, which nothing in the loop writes, leaves).
// CHECK-LABEL: func.func @buffer_written_in_loop
// CHECK:      vector.transfer_read %arg0[%c0]
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:   vector.transfer_read %arg1[%c0]
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   vector.transfer_write %{{.*}}, %arg1[%c0]
// CHECK-NEXT:   memref.store %{{.*}}, %arg1[%[[K]]]
// CHECK-NEXT: }
func.func @buffer_written_in_loop(%b: memref<16xf32>, %c: memref<16xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %y = vector.transfer_read %b[%c0], %cst {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %acc = vector.transfer_read %c[%c0], %cst {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %r = arith.addf %acc, %y : vector<16xf32>
    vector.transfer_write %r, %c[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
    memref.store %cst, %c[%k] : memref<16xf32>
  }
  return
}
