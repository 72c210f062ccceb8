// prec-blas-contractions on its own: on buffers, batch matmuls and NHWC
// convolutions accumulating in f32 over f32, f16 or bf16 operands become
// calls to the BLAS functions the JIT provides; the others stay.
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

// -----

// A convolution passes its strides and dilations after the memrefs.
// CHECK: func.func private @prec_blas_conv2d_nhwc_fhwc_f32(memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @conv
// CHECK: %[[SH:.*]] = arith.constant 2 : i64
// CHECK: %[[SW:.*]] = arith.constant 3 : i64
// CHECK: %[[DH:.*]] = arith.constant 1 : i64
// CHECK: %[[DW:.*]] = arith.constant 1 : i64
// CHECK: call @prec_blas_conv2d_nhwc_fhwc_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[SH]], %[[SW]], %[[DH]], %[[DW]])
// A depthwise convolution and one accumulating in f16 stay.
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK: linalg.conv_2d_nhwc_fhwc
func.func @conv(%x: memref<1x9x10x4xf32>, %w: memref<8x3x3x4xf32>, %y: memref<1x4x3x8xf32>, %dw: memref<3x3x4x1xf32>, %dy: memref<1x7x8x4x1xf32>, %h: memref<1x9x10x4xf16>, %hw: memref<8x3x3x4xf16>, %hy: memref<1x7x8x8xf16>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>} ins(%x, %w : memref<1x9x10x4xf32>, memref<8x3x3x4xf32>) outs(%y : memref<1x4x3x8xf32>)
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %dw : memref<1x9x10x4xf32>, memref<3x3x4x1xf32>) outs(%dy : memref<1x7x8x4x1xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%h, %hw : memref<1x9x10x4xf16>, memref<8x3x3x4xf16>) outs(%hy : memref<1x7x8x8xf16>)
  return
}
