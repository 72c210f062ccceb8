// A normalized value is bounded whatever its input: over a row of N, a
// LayerNorm's (x - mean) / sqrt(var + eps) by sqrt(N - 1) (Samuelson's
// inequality), an RMSNorm's x / sqrt(mean(x^2) + eps) by sqrt(N); the bound
// is widened by 1/64 for rounding. Interval arithmetic alone would give
// (x - mean) times 1/sqrt(eps), past f16's range for a wide enough input.
// RUN: prec-opt %s -split-input-file --prec-range-analysis="val-range=x:[-1000,1000]" | FileCheck %s

// N = 64: sqrt(63) * (1 + 1/64) = 8.0613. The affine scale that follows
// takes the bound on.
// CHECK-LABEL: func.func @layernorm
func.func @layernorm(%x: tensor<2x64xf32> loc("x")) -> tensor<2x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-12> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %gamma = "tosa.const"() <{values = dense<0.5> : tensor<1x64xf32>}> : () -> tensor<1x64xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %c = tosa.sub %x, %mean : (tensor<2x64xf32>, tensor<2x1xf32>) -> tensor<2x64xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  %vsum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %ve = tosa.add %var, %eps : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.rsqrt {{.*}}precision.range = array<f64: 5.000000e-04, 1000000.0{{[0-9]*}}>
  %inv = tosa.rsqrt %ve : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -8.0612{{[0-9]*}}, 8.0612{{[0-9]*}}>
  %n = tosa.mul %c, %inv, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -4.0306{{[0-9]*}}, 4.0306{{[0-9]*}}>
  %y = tosa.mul %n, %gamma, %shift : (tensor<2x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  return %y : tensor<2x64xf32>
}

// -----

// Where the arithmetic proves less, it stands: an input within 1e-3 gives
// centred values within 2e-3, times at most 1/sqrt(1e-5).
// CHECK-LABEL: func.func @tighter_arithmetic
func.func @tighter_arithmetic(%wide: tensor<2x64xf32> loc("x")) -> tensor<2x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %micro = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %x = tosa.mul %wide, %micro, %shift : (tensor<2x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %c = tosa.sub %x, %mean : (tensor<2x64xf32>, tensor<2x1xf32>) -> tensor<2x64xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  %vsum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %ve = tosa.add %var, %eps : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  %inv = tosa.rsqrt %ve : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -0.63245{{[0-9]*}}, 0.63245{{[0-9]*}}>
  %n = tosa.mul %c, %inv, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  return %n : tensor<2x64xf32>
}

// -----

// The legacy exporter's decomposition over two axes (N = 32), divided by a
// broadcast square root: sqrt(31) * (1 + 1/64) = 5.6548.
// CHECK-LABEL: func.func @decomposed_layernorm
func.func @decomposed_layernorm(%x: tensor<2x4x8xf32> loc("x")) -> tensor<2x4x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.03125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %multiples = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x4x8xf32>) -> tensor<2x1x8xf32>
  %s2 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<2x1x8xf32>) -> tensor<2x1x1xf32>
  %mean = tosa.mul %s2, %inv_n, %shift : (tensor<2x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1xf32>
  %c = tosa.sub %x, %mean : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %sq = tosa.pow %c, %two : (tensor<2x4x8xf32>, tensor<1x1x1xf32>) -> tensor<2x4x8xf32>
  %v1 = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %v2 = tosa.reduce_sum %v1 {axis = 1 : i32} : (tensor<2x4x1xf32>) -> tensor<2x1x1xf32>
  %var = tosa.mul %v2, %inv_n, %shift : (tensor<2x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1xf32>
  %ve = tosa.add %var, %eps : (tensor<2x1x1xf32>, tensor<1x1x1xf32>) -> tensor<2x1x1xf32>
  %std = math.sqrt %ve : tensor<2x1x1xf32>
  %tiled = tosa.tile %std, %multiples : (tensor<2x1x1xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  // CHECK: arith.divf {{.*}}precision.range = array<f64: -5.6547{{[0-9]*}}, 5.6547{{[0-9]*}}>
  %y = arith.divf %c, %tiled : tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// RMSNorm, no centring, through sqrt and reciprocal: sqrt(64) * (1 + 1/64).
// A factor of 2/sqrt (a division of a constant) doubles the bound.
// CHECK-LABEL: func.func @rmsnorm
func.func @rmsnorm(%x: tensor<2x64xf32> loc("x")) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sq = tosa.pow %x, %two : (tensor<2x64xf32>, tensor<1x1xf32>) -> tensor<2x64xf32>
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %ms = tosa.mul %s, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %mse = tosa.add %eps, %ms : (tensor<1x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %rms = math.sqrt %mse : tensor<2x1xf32>
  %inv = tosa.reciprocal %rms : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -8.125000e+00, 8.125000e+00>
  %n = tosa.mul %x, %inv, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  %two_rows = "tosa.const"() <{values = dense<2.0> : tensor<2x1xf32>}> : () -> tensor<2x1xf32>
  %inv2 = arith.divf %two_rows, %rms : tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -1.625000e+01, 1.625000e+01>
  %n2 = tosa.mul %inv2, %x, %shift : (tensor<2x1xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  return %n, %n2 : tensor<2x64xf32>, tensor<2x64xf32>
}

// -----

// No bound where the pattern does not normalize: the centred values times
// the deviation (not its reciprocal), and a negative epsilon, which could
// bring the root below the deviation. Their ranges are the arithmetic's.
// CHECK-LABEL: func.func @not_bounded
func.func @not_bounded(%x: tensor<2x64xf32> loc("x")) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<-1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %c = tosa.sub %x, %mean : (tensor<2x64xf32>, tensor<2x1xf32>) -> tensor<2x64xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  %vsum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %std = math.sqrt %var : tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -4.000000e+06, 4.000000e+06>
  %scaled = tosa.mul %c, %std, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  %ve = tosa.add %var, %eps : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  %inv = tosa.rsqrt %ve : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul
  // CHECK-NOT: precision.range
  // CHECK-SAME: -> tensor<2x64xf32>
  %n = tosa.mul %c, %inv, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  return %scaled, %n : tensor<2x64xf32>, tensor<2x64xf32>
}

// -----

// Whether a range is reached: an input's val-range is a box, and a matmul of
// it with a weight reaches its bound (signs chosen to match). A normalized
// row's elements vary together, so a matmul of it has a loose bound
// (precision.range_loose), as has what follows from it; a normalization's
// own bound is reached again.
// CHECK-LABEL: func.func @reached
func.func @reached(%x: tensor<1x2x64xf32> loc("x")) -> (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %inv_4 = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x64x4xf32>}> : () -> tensor<1x64x4xf32>
  // A stale mark (the analysis ran before) goes once the range is reached.
  // CHECK: tosa.matmul
  // CHECK-NOT: precision.range_loose
  // CHECK-SAME: -> tensor<1x2x4xf32>
  %direct = tosa.matmul %x, %w, %zp, %zp {precision.range_loose} : (tensor<1x2x64xf32>, tensor<1x64x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x2x64xf32>) -> tensor<1x2x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<1x2x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x1xf32>
  %c = tosa.sub %x, %mean : (tensor<1x2x64xf32>, tensor<1x2x1xf32>) -> tensor<1x2x64xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<1x2x64xf32>, tensor<1x2x64xf32>, tensor<1xi8>) -> tensor<1x2x64xf32>
  %vsum = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x2x64xf32>) -> tensor<1x2x1xf32>
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<1x2x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x2x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2x1xf32>
  %inv = tosa.rsqrt %ve : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  // CHECK: tosa.mul {{.*}}precision.range = array<f64: -8.0612{{[0-9]*}}, 8.0612{{[0-9]*}}>
  // CHECK-NOT: precision.range_loose
  // CHECK-SAME: -> tensor<1x2x64xf32>
  %n = tosa.mul %c, %inv, %shift : (tensor<1x2x64xf32>, tensor<1x2x1xf32>, tensor<1xi8>) -> tensor<1x2x64xf32>
  // CHECK: tosa.matmul {{.*}}precision.range_loose
  %proj = tosa.matmul %n, %w, %zp, %zp : (tensor<1x2x64xf32>, tensor<1x64x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  // CHECK: tosa.mul {{.*}}precision.range_loose
  %scaled = tosa.mul %proj, %inv_4, %shift : (tensor<1x2x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x4xf32>
  return %direct, %proj, %scaled : tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}
