// Interval propagation: each op's result range, from input ranges and
// weight values.
// RUN: prec-opt %s --prec-range-analysis="val-range=x:[1,2],y:[-3,4.5],arg2:[-1,1]" | FileCheck %s

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: %arg0: tensor<4xf32> {precision.range = array<f64: 1.000000e+00, 2.000000e+00>}
// CHECK-SAME: %arg1: tensor<4xf32> {precision.range = array<f64: -3.000000e+00, 4.500000e+00>}
func.func @elementwise(%x: tensor<4xf32> loc("x"), %y: tensor<4xf32> loc("y"), %z: tensor<4xf32>) -> tensor<4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: tosa.add {{.*}}precision.range = array<f64: -2.000000e+00, 6.500000e+00>
  %add = tosa.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.sub {{.*}}precision.range = array<f64: -3.500000e+00, 5.000000e+00>
  %sub = tosa.sub %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -6.000000e+00, 9.000000e+00>
  %mul = tosa.mul %x, %y, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  // A value times itself is a square: never negative.
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: 0.000000e+00, 2.025000e+01>
  %square = tosa.mul %y, %y, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  // CHECK: tosa.negate {{.*}}precision.range = array<f64: -4.500000e+00, 3.000000e+00>
  %neg = tosa.negate %y, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  // CHECK: tosa.abs {{.*}}precision.range = array<f64: 0.000000e+00, 4.500000e+00>
  %abs = tosa.abs %y : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.exp {{.*}}precision.range = array<f64: 2.71828{{[0-9]+}}, 7.38905{{[0-9]+}}>
  %exp = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.log {{.*}}precision.range = array<f64: 0.000000e+00, 0.69314{{[0-9]+}}>
  %log = tosa.log %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.reciprocal {{.*}}precision.range = array<f64: 5.000000e-01, 1.000000e+00>
  %rcp = tosa.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>
  // Reciprocal of a range holding zero is unbounded: nothing recorded.
  // CHECK: tosa.reciprocal
  // CHECK-NOT: precision.range
  // CHECK-SAME: -> tensor<4xf32>
  %rcpy = tosa.reciprocal %y : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.clamp {{.*}}precision.range = array<f64: 0.000000e+00, 4.500000e+00>
  %relu = tosa.clamp %y {max_val = 3.40282347e+38 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.clamp {{.*}}precision.range = array<f64: -1.000000e+00, 1.000000e+00>
  %clip = tosa.clamp %y {max_val = 1.0 : f32, min_val = -1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.tanh {{.*}}precision.range = array<f64: -0.99505{{[0-9]+}}, 0.99975{{[0-9]+}}>
  %tanh = tosa.tanh %y : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.maximum {{.*}}precision.range = array<f64: 1.000000e+00, 4.500000e+00>
  %max = tosa.maximum %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // x^2 for x in [-3, 4.5]: [0, 20.25].
  // CHECK: tosa.pow {{.*}}precision.range = array<f64: 0.000000e+00, 2.025000e+01>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sq = tosa.pow %y, %two : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  // Division is the product with the divisor's reciprocal; by a range
  // holding zero, unbounded.
  // CHECK: arith.divf {{.*}}precision.range = array<f64: -3.000000e+00, 4.500000e+00>
  %div = arith.divf %y, %x : tensor<4xf32>
  // CHECK: arith.divf
  // CHECK-NOT: precision.range
  // CHECK-SAME: : tensor<4xf32>
  %divy = arith.divf %x, %y : tensor<4xf32>
  // CHECK: math.sqrt {{.*}}precision.range = array<f64: 1.000000e+00, 1.41421{{[0-9]+}}>
  %sqrt = math.sqrt %x : tensor<4xf32>
  // An argument named by position.
  // CHECK: tosa.add %arg2, %arg2 {{.*}}precision.range = array<f64: -2.000000e+00, 2.000000e+00>
  %zz = tosa.add %z, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %add : tensor<4xf32>
}

// Contractions are bounded per output channel from the weights, not by
// the largest weight times the reduction length.
// CHECK-LABEL: func.func @contractions
func.func @contractions(%x: tensor<1x2x3xf32> loc("x"), %img: tensor<1x3x3x2xf32> loc("y")) -> (tensor<1x2x2xf32>, tensor<1x3x3x2xf32>, tensor<1x2x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // Columns: [1, 1, 1] and [-1, 0, 2]; x in [1, 2]:
  // column 0 in [3, 6]; column 1 in [-2 + 2, -1 + 4] = [0, 3].
  %w = "tosa.const"() <{values = dense<[[[1.0, -1.0], [1.0, 0.0], [1.0, 2.0]]]> : tensor<1x3x2xf32>}> : () -> tensor<1x3x2xf32>
  // CHECK: tosa.matmul {{.*}}precision.range = array<f64: 0.000000e+00, 6.000000e+00>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  // 1x1 conv, channel 0 = 2*c0 + bias 1, channel 1 = c0 - c1 + bias -1,
  // input in [-3, 4.5] (padding adds 0): [-5, 10] and [-8.5, 6.5].
  %cw = "tosa.const"() <{values = dense<[[[[2.0, 0.0]]], [[[1.0, -1.0]]]]> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %cb = "tosa.const"() <{values = dense<[1.0, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK: tosa.conv2d {{.*}}precision.range = array<f64: -8.500000e+00, 1.000000e+01>
  %c = tosa.conv2d %img, %cw, %cb, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  // A sum over 2 elements of [0, 6] is in [0, 12].
  // CHECK: tosa.reduce_sum {{.*}}precision.range = array<f64: 0.000000e+00, 1.200000e+01>
  %s = tosa.reduce_sum %m {axis = 2 : i32} : (tensor<1x2x2xf32>) -> tensor<1x2x1xf32>
  return %m, %c, %s : tensor<1x2x2xf32>, tensor<1x3x3x2xf32>, tensor<1x2x1xf32>
}

// Ranges flow into and out of precision regions.
// CHECK-LABEL: func.func @through_regions
func.func @through_regions(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %r = precision.region f16 (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: tosa.add {{.*}}precision.range = array<f64: 2.000000e+00, 4.000000e+00>
    %y = tosa.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    precision.yield %y : tensor<4xf32>
  }
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: 4.000000e+00, 1.600000e+01>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = tosa.mul %r, %r, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// Ranges a calibration observed (precision.observed_range) count with their
// magnitudes doubled, within what the arithmetic proves; what follows
// propagates from them.
// CHECK-LABEL: func.func @observed
func.func @observed(%u: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // Nothing proven about %u: the observed [-3, 1000] gives [-6, 2000].
  // CHECK: tosa.negate {{.*}}precision.range = array<f64: -6.000000e+00, 2.000000e+03>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %u, %zp, %zp {precision.observed_range = array<f64: -3.0, 1000.0>} : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  // CHECK: tosa.abs {{.*}}precision.range = array<f64: 0.000000e+00, 2.000000e+03>
  %a = tosa.abs %n : (tensor<4xf32>) -> tensor<4xf32>
  // Proven [2, 2] lies within the observed [0.5, 8] widened: proven wins.
  // CHECK: tosa.add {{.*}}precision.range = array<f64: 2.000000e+00, 2.000000e+00>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %two = tosa.add %one, %one {precision.observed_range = array<f64: 0.5, 8.0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %two : tensor<4xf32>, tensor<4xf32>
}

// Nested regions: ranges flow through both boundaries, in and out.
// CHECK-LABEL: func.func @nested_regions
func.func @nested_regions(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %r = precision.region f16 (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %s = precision.region bf16 (%b = %a : tensor<4xf32>) -> tensor<4xf32> {
      // CHECK: tosa.negate {{.*}}precision.range = array<f64: -2.000000e+00, -1.000000e+00>
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %n = tosa.negate %b, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
      precision.yield %n : tensor<4xf32>
    }
    precision.yield %s : tensor<4xf32>
  }
  // CHECK: tosa.abs {{.*}}precision.range = array<f64: 1.000000e+00, 2.000000e+00>
  %y = tosa.abs %r : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// A private function's arguments take the ranges of its calls' operands;
// an op the analysis knows nothing of (tosa.table) gives an unknown range,
// recorded as no range at all.
// CHECK-LABEL: func.func private @callee
// CHECK: tosa.exp {{.*}}precision.range = array<f64: 2.7182818284590451, 7.3890560989306504>
// CHECK-LABEL: func.func @caller
// CHECK: call @callee({{.*}}precision.range = array<f64: 2.7182818284590451, 7.3890560989306504>
// CHECK: tosa.table %arg1, %{{[0-9]+}} : (tensor<4xi8>
func.func private @callee(%v: tensor<4xf32>) -> tensor<4xf32> {
  %e = tosa.exp %v : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32> loc("x"), %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %c = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %table = "tosa.const"() <{values = dense<1> : tensor<256xi8>}> : () -> tensor<256xi8>
  %t = tosa.table %i, %table : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  return %c, %t : tensor<4xf32>, tensor<4xi8>
}
