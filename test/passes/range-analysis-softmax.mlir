// Range analysis knows two facts of a softmax that interval arithmetic
// misses: x - max(x) over an axis is at most 0, so its exponential is at
// most 1, and e * reciprocal(sum(e)) of e >= 0 lies in [0, 1] whatever e's
// bound (here e is unbounded: the shift is not by x's own maximum). Both
// hold on x in [-1000, 1000], where interval arithmetic gives up to 2000,
// exp(2000) = inf, and inf times a reciprocal.
// RUN: prec-opt %s -split-input-file --prec-range-analysis="val-range=x:[-1000,1000],y:[-1000,1000]" | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK: tosa.sub {{.*}}precision.range = array<f64: -2.000000e+03, 0.000000e+00>
// CHECK: tosa.exp {{.*}}precision.range = array<f64: 0.000000e+00, 1.000000e+00>
// CHECK: tosa.mul {{.*}}precision.range = array<f64: 0.000000e+00, 1.000000e+00>
func.func @softmax(%x: tensor<2x8xf32> loc("x"), %y: tensor<2x8xf32> loc("y")) -> tensor<2x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %d = tosa.sub %x, %m : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %e = tosa.exp %d : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %l = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x8xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  return %p : tensor<2x8xf32>
}

// -----

// Shifted by another tensor's maximum, x - max(y) keeps interval
// arithmetic's bound, and its exponential overflows f32's range; the
// quotient still lies in [0, 1]. A product of e with the reciprocal of
// another sum does not.
// CHECK-LABEL: func.func @other_maximum
// CHECK: tosa.sub {{.*}}precision.range = array<f64: -2.000000e+03, 2.000000e+03>
// CHECK: %[[P:.*]] = tosa.mul {{.*}}precision.range = array<f64: 0.000000e+00, 1.000000e+00>
// CHECK-NOT: tosa.mul {{.*}}precision.range = array<f64: 0.000000e+00, 1.000000e+00>
// CHECK: return
func.func @other_maximum(%x: tensor<2x8xf32> loc("x"), %y: tensor<2x8xf32> loc("y")) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %y {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %d = tosa.sub %x, %m : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %e = tosa.exp %d : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %l = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x8xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  %ey = tosa.exp %y : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %ly = tosa.reduce_sum %ey {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %ry = tosa.reciprocal %ly : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %q = tosa.mul %e, %ry, %shift : (tensor<2x8xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  return %p, %q : tensor<2x8xf32>, tensor<2x8xf32>
}
