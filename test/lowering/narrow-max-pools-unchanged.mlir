// prec-narrow-max-pools leaves a max pool where what follows it is not a
// monotone non-decreasing chain, does not narrow, or is not its only
// reader, and average pools.
// RUN: prec-opt %s -split-input-file --prec-narrow-max-pools | FileCheck %s

// A product with a negative scale reverses the order; one with a scale
// that varies across positions would not broadcast over the pool's input;
// a conversion to a boolean tests for zero.
// CHECK-LABEL: func.func @not_monotone
// CHECK-COUNT-3: tosa.max_pool2d {{.*}} -> tensor<1x4x4x4xf16>
func.func @not_monotone(%x: tensor<1x8x8x4xf16>) -> (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>, tensor<1x4x4x4xi1>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %negative = "tosa.const"() <{values = dense<-2.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %positions = "tosa.const"() <{values = dense<2.0> : tensor<1x4x4x1xf32>}> : () -> tensor<1x4x4x1xf32>
  %p = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf16>) -> tensor<1x4x4x4xf16>
  %w = tosa.cast %p : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %w, %negative, %shift : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %q = tosa.cast %m : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xi8>
  %p2 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf16>) -> tensor<1x4x4x4xf16>
  %w2 = tosa.cast %p2 : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf32>
  %m2 = tosa.mul %w2, %positions, %shift : (tensor<1x4x4x4xf32>, tensor<1x4x4x1xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %q2 = tosa.cast %m2 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xi8>
  %p3 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf16>) -> tensor<1x4x4x4xf16>
  %nonzero = tosa.cast %p3 : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xi1>
  return %q, %q2, %nonzero : tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>, tensor<1x4x4x4xi1>
}

// -----

// Widening only (f16 to f32), a pool with two readers, an average pool.
// CHECK-LABEL: func.func @no_narrowing
// CHECK-COUNT-2: tosa.max_pool2d {{.*}} -> tensor<1x4x4x4xf16>
// CHECK: tosa.avg_pool2d {{.*}} -> tensor<1x4x4x4xf16>
func.func @no_narrowing(%x: tensor<1x8x8x4xf16>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xi8>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xi8>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %p = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf16>) -> tensor<1x4x4x4xf16>
  %w = tosa.cast %p : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf32>
  %p2 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf16>) -> tensor<1x4x4x4xf16>
  %q = tosa.cast %p2 : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xi8>
  %a = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x4xf16>
  %aq = tosa.cast %a : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xi8>
  return %w, %q, %p2, %aq : tensor<1x4x4x4xf32>, tensor<1x4x4x4xi8>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xi8>
}
