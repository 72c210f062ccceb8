// prec-tile-contractions on its own (no canonicalization after it): a
// static matmul becomes loops over cache blocks and register tiles around
// one vector.contract per reduction step; a dynamic one is left alone.
// RUN: prec-opt %s -split-input-file --prec-tile-contractions | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-tile-contractions="register-rows=4 register-columns=8" | FileCheck %s --check-prefix=SMALL

// 8x4 by 4x16 with the default 8x16 register tile: one tile, a reduction
// loop of four steps of 1, an 8x1 by 1x16 contraction into the 8x16
// accumulator read from and written back to the output slice.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c1 iter_args
// CHECK: %[[A:.*]] = vector.transfer_read {{.*}} : tensor<8x1xf32>, vector<8x1xf32>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK: %[[C:.*]] = vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK: %[[R:.*]] = vector.contract {{.*}} %[[A]], %[[B]], %[[C]] : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
// CHECK: vector.transfer_write %[[R]], {{.*}} : vector<8x16xf32>, tensor<8x16xf32>
// SMALL-LABEL: func.func @matmul
// SMALL: vector.contract {{.*}} : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
func.func @matmul(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// f16 operands accumulating in f32 are extended to f32 before the
// contraction.
// CHECK-LABEL: func.func @mixed
// CHECK: %[[A:.*]] = arith.extf %{{.*}} : vector<8x1xf16> to vector<8x1xf32>
// CHECK: %[[B:.*]] = arith.extf %{{.*}} : vector<1x16xf16> to vector<1x16xf32>
// CHECK: vector.contract {{.*}} %[[A]], %[[B]], %{{.*}} : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
func.func @mixed(%a: tensor<8x4xf16>, %b: tensor<4x16xf16>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x4xf16>, tensor<4x16xf16>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// A dynamic shape has no static tiles: the matmul stays.
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: linalg.matmul
// CHECK-NOT: vector.contract
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x8xf32>) outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
