// prec-blas-contractions on its own: on buffers, batch matmuls accumulating
// in f32 over f32, f16 or bf16 operands become calls to the BLAS functions
// the JIT provides; the others stay.
// RUN: prec-opt %s -split-input-file --prec-blas-contractions | FileCheck %s

// Two f16 matmuls share one declaration, with the C interface; each operand
// is cast to a strided memref of any shape.
// CHECK-LABEL: module
// CHECK: func.func private @prec_blas_batch_matmul_f16(memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-NOT: func.func private @prec_blas_batch_matmul_f16
// CHECK-LABEL: func.func @f16
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<2x4x8xf16> to memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[B:.*]] = memref.cast %arg1 : memref<2x8x16xf16> to memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[C:.*]] = memref.cast %arg2 : memref<2x4x16xf32> to memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: call @prec_blas_batch_matmul_f16(%[[A]], %[[B]], %[[C]])
// CHECK: call @prec_blas_batch_matmul_f16
// CHECK-NOT: linalg.batch_matmul
func.func @f16(%a: memref<2x4x8xf16>, %b: memref<2x8x16xf16>, %c: memref<2x4x16xf32>, %d: memref<2x4x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf16>, memref<2x8x16xf16>) outs(%c : memref<2x4x16xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf16>, memref<2x8x16xf16>) outs(%d : memref<2x4x16xf32>)
  return
}

// -----

// f32 and bf16 operands, one read through a strided subview.
// CHECK-LABEL: func.func @f32_strided
// CHECK: memref.cast %{{.*}} : memref<1x3x5xf32, strided<[80, 8, 1], offset: 2>> to memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: call @prec_blas_batch_matmul_f32
// CHECK: call @prec_blas_batch_matmul_bf16
func.func @f32_strided(%a: memref<1x10x8xf32>, %b: memref<1x5x4xf32>, %c: memref<1x3x4xf32>, %x: memref<1x3x5xbf16>, %y: memref<1x5x4xbf16>) {
  %s = memref.subview %a[0, 0, 2] [1, 3, 5] [1, 1, 1] : memref<1x10x8xf32> to memref<1x3x5xf32, strided<[80, 8, 1], offset: 2>>
  linalg.batch_matmul ins(%s, %b : memref<1x3x5xf32, strided<[80, 8, 1], offset: 2>>, memref<1x5x4xf32>) outs(%c : memref<1x3x4xf32>)
  linalg.batch_matmul ins(%x, %y : memref<1x3x5xbf16>, memref<1x5x4xbf16>) outs(%c : memref<1x3x4xf32>)
  return
}

// -----

// Accumulators that round or wrap at each step, mixed operand types, a
// transposed indexing map, a 2-D matmul and tensors stay.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: call
// CHECK-COUNT-6: linalg
// CHECK-NOT: call
func.func @kept(%h: memref<1x4x8xf16>, %hb: memref<1x8x4xf16>, %hc: memref<1x4x4xf16>, %i: memref<1x4x8xi8>, %ib: memref<1x8x4xi8>, %ic: memref<1x4x4xi32>, %f: memref<1x4x8xf32>, %fc: memref<1x4x4xf32>, %m: memref<4x8xf32>, %mb: memref<8x4xf32>, %mc: memref<4x4xf32>, %t: tensor<1x4x8xf32>, %tb: tensor<1x8x4xf32>, %tc: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  linalg.batch_matmul ins(%h, %hb : memref<1x4x8xf16>, memref<1x8x4xf16>) outs(%hc : memref<1x4x4xf16>)
  linalg.batch_matmul ins(%i, %ib : memref<1x4x8xi8>, memref<1x8x4xi8>) outs(%ic : memref<1x4x4xi32>)
  linalg.batch_matmul ins(%f, %hb : memref<1x4x8xf32>, memref<1x8x4xf16>) outs(%fc : memref<1x4x4xf32>)
  linalg.matmul ins(%m, %mb : memref<4x8xf32>, memref<8x4xf32>) outs(%mc : memref<4x4xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%f, %f : memref<1x4x8xf32>, memref<1x4x8xf32>) outs(%fc : memref<1x4x4xf32>)
  %r = linalg.batch_matmul ins(%t, %tb : tensor<1x4x8xf32>, tensor<1x8x4xf32>) outs(%tc : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %r : tensor<1x4x4xf32>
}
