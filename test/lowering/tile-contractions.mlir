// RUN: prec-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(prec-tile-contractions),canonicalize)" | FileCheck %s

// A 64x128x512 matmul: cache blocks of 64x128x256, register tiles of 8x16
// over one reduction step, each a vector.contract.
// CHECK-LABEL: func.func @matmul
// CHECK:       scf.for %{{.*}} = %c0 to %c512 step %c256
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK:           scf.for %{{.*}} = %c0 to %c128 step %c16
// CHECK:             scf.for %{{.*}} = %c0 to %c256 step %c1
// CHECK:               vector.contract {{.*}} : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<64x512xf32>, %b: tensor<512x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x512xf32>, tensor<512x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// Tiles divide the dimensions: 197 rows (prime) give 1-row register tiles,
// 40 columns give 10; i8 operands are extended to the i32 accumulator.
// CHECK-LABEL: func.func @batch_matmul_mixed
// CHECK:       scf.for %{{.*}} = %c0 to %c197 step %c1
// CHECK:         scf.for %{{.*}} = %c0 to %c40 step %c10
// CHECK:           %[[L:.*]] = arith.extsi %{{.*}} : vector<1x1x1xi8> to vector<1x1x1xi32>
// CHECK:           %[[R:.*]] = arith.extsi %{{.*}} : vector<1x1x10xi8> to vector<1x1x10xi32>
// CHECK:           vector.contract {{.*}} %[[L]], %[[R]], %{{.*}} : vector<1x1x1xi32>, vector<1x1x10xi32> into vector<1x1x10xi32>
func.func @batch_matmul_mixed(%a: tensor<1x197x40xi8>, %b: tensor<1x40x40xi8>, %c: tensor<1x197x40xi32>) -> tensor<1x197x40xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x197x40xi8>, tensor<1x40x40xi8>) outs(%c : tensor<1x197x40xi32>) -> tensor<1x197x40xi32>
  return %r : tensor<1x197x40xi32>
}

// -----

// A batch matmul accumulating in f32 is prec-blas-contractions' and stays.
// CHECK-LABEL: func.func @batch_matmul_blas
// CHECK: linalg.batch_matmul
// CHECK-NOT: vector.contract
func.func @batch_matmul_blas(%a: tensor<1x197x40xf16>, %b: tensor<1x40x40xf16>, %c: tensor<1x197x40xf32>) -> tensor<1x197x40xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x197x40xf16>, tensor<1x40x40xf16>) outs(%c : tensor<1x197x40xf32>) -> tensor<1x197x40xf32>
  return %r : tensor<1x197x40xf32>
}

// -----

// Dynamic shapes are left to the loop lowering.
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
// CHECK-NOT: vector.contract
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x8xf32>) outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
