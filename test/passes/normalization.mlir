// Normalization statistics compute and store in f32 under weak typing (reason
// normalization), as imported and as exporters decompose them; the op that
// applies them computes in f32 and stores what its input came in, and what
// follows it follows that.
// RUN: prec-opt %s -split-input-file --prec-annotate="enabled=f16" --prec-propagate | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-annotate="enabled=bf16" --prec-propagate | FileCheck %s --check-prefix=BF16
// RUN: prec-opt %s -split-input-file --prec-annotate="typing=strong enabled=f16" --prec-propagate | FileCheck %s --check-prefix=STRONG
// A pin still wins.
// RUN: prec-opt %s -split-input-file --prec-annotate="enabled=f16 layer-precisions=ln.*:f16" --prec-propagate | FileCheck %s --check-prefix=PINNED

// LayerNormalization as the importer writes it.
// CHECK-LABEL: func.func @layernorm
// BF16-LABEL: func.func @layernorm
// STRONG-LABEL: func.func @layernorm
// PINNED-LABEL: func.func @layernorm
func.func @layernorm(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %gamma = "tosa.const"() <{values = dense<0.5> : tensor<1x64xf32>}> : () -> tensor<1x64xf32>
  // CHECK: tosa.abs {{.*}}compute = f16, accumulate = f16, storage = f16, reason = inputs
  %h = tosa.abs %x : (tensor<2x64xf32>) -> tensor<2x64xf32>
  // CHECK: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  // BF16: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  // STRONG: tosa.reduce_sum {{.*}}reason = strong
  // PINNED: tosa.reduce_sum {{.*}}compute = f16, accumulate = f32, storage = f16, reason = pattern
  %sum = tosa.reduce_sum %h {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32> loc("ln.sum")
  // CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32> loc("ln.mean")
  // CHECK: tosa.sub {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %c = tosa.sub %h, %mean : (tensor<2x64xf32>, tensor<2x1xf32>) -> tensor<2x64xf32> loc("ln.center")
  // The square, which overflows f16 first.
  // CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  // PINNED: tosa.mul {{.*}}compute = f16, accumulate = f16, storage = f16, reason = pattern
  %sq = tosa.mul %c, %c, %shift : (tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32> loc("ln.square")
  // CHECK: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %vsum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32> loc("ln.var_sum")
  // CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32> loc("ln.var")
  // CHECK: tosa.add {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %ve = tosa.add %var, %eps : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32> loc("ln.eps")
  // CHECK: tosa.rsqrt {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %inv = tosa.rsqrt %ve : (tensor<2x1xf32>) -> tensor<2x1xf32> loc("ln.rsqrt")
  // The normalized output stores the f16 its input came in...
  // CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f16, reason = normalization
  // BF16: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = bf16, reason = normalization
  %n = tosa.mul %c, %inv, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32> loc("ln.normalized")
  // ...and the affine scale follows it.
  // CHECK: tosa.mul {{.*}}compute = f16, accumulate = f16, storage = f16, reason = follow
  // BF16: tosa.mul {{.*}}compute = bf16, accumulate = bf16, storage = bf16, reason = follow
  %y = tosa.mul %n, %gamma, %shift : (tensor<2x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<2x64xf32> loc("affine")
  return %y : tensor<2x64xf32>
}

// -----

// The legacy exporter's LayerNorm: ReduceMean, Sub, Pow, ReduceMean, Add,
// Sqrt, Div, the mean over two axes and the division by a broadcast.
// CHECK-LABEL: func.func @decomposed_layernorm
func.func @decomposed_layernorm(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.03125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %multiples = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // CHECK-COUNT-2: tosa.reduce_sum {{.*}}reason = normalization
  %s1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x4x8xf32>) -> tensor<2x1x8xf32>
  %s2 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<2x1x8xf32>) -> tensor<2x1x1xf32>
  // CHECK: tosa.mul {{.*}}reason = normalization
  %mean = tosa.mul %s2, %inv_n, %shift : (tensor<2x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1xf32>
  // CHECK: tosa.sub {{.*}}reason = normalization
  %c = tosa.sub %x, %mean : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  // CHECK: tosa.pow {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %sq = tosa.pow %c, %two : (tensor<2x4x8xf32>, tensor<1x1x1xf32>) -> tensor<2x4x8xf32>
  // CHECK-COUNT-2: tosa.reduce_sum {{.*}}reason = normalization
  %v1 = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %v2 = tosa.reduce_sum %v1 {axis = 1 : i32} : (tensor<2x4x1xf32>) -> tensor<2x1x1xf32>
  // CHECK: tosa.mul {{.*}}reason = normalization
  %var = tosa.mul %v2, %inv_n, %shift : (tensor<2x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1xf32>
  // CHECK: tosa.add {{.*}}reason = normalization
  %ve = tosa.add %var, %eps : (tensor<2x1x1xf32>, tensor<1x1x1xf32>) -> tensor<2x1x1xf32>
  // CHECK: math.sqrt {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %std = math.sqrt %ve : tensor<2x1x1xf32>
  // CHECK: tosa.tile {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %tiled = tosa.tile %std, %multiples : (tensor<2x1x1xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  // CHECK: arith.divf {{.*}}compute = f32, accumulate = f32, storage = f16, reason = normalization
  %y = arith.divf %c, %tiled : tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// LLaMA's and T5's RMSNorm: x * 1/sqrt(mean(x^2) + eps), no centring; the
// input x is no statistic.
// CHECK-LABEL: func.func @rmsnorm
func.func @rmsnorm(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %weight = "tosa.const"() <{values = dense<0.5> : tensor<1x64xf32>}> : () -> tensor<1x64xf32>
  // CHECK: tosa.negate {{.*}}storage = f16, reason = inputs
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.negate %x, %zp, %zp : (tensor<2x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x64xf32>
  // CHECK: tosa.pow {{.*}}reason = normalization
  %sq = tosa.pow %h, %two : (tensor<2x64xf32>, tensor<1x1xf32>) -> tensor<2x64xf32>
  // CHECK: tosa.reduce_sum {{.*}}reason = normalization
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}reason = normalization
  %ms = tosa.mul %s, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  // CHECK: tosa.add {{.*}}reason = normalization
  %mse = tosa.add %eps, %ms : (tensor<1x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %rms = math.sqrt %mse : tensor<2x1xf32>
  // CHECK: tosa.reciprocal {{.*}}compute = f32, accumulate = f32, storage = f32, reason = normalization
  %inv = tosa.reciprocal %rms : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f16, reason = normalization
  %n = tosa.mul %h, %inv, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  // CHECK: tosa.mul {{.*}}compute = f16, accumulate = f16, storage = f16, reason = follow
  %y = tosa.mul %weight, %n, %shift : (tensor<1x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  return %y : tensor<2x64xf32>
}

// -----

// Squares, sums and roots that normalize nothing keep the usual rules: a
// root of a sum of squares that is not applied to the squared value (here
// to another tensor), and a square whose sum has no root.
// CHECK-LABEL: func.func @not_normalizations
func.func @not_normalizations(%x: tensor<2x64xf32>, %y: tensor<2x64xf32>) -> (tensor<2x64xf32>, tensor<2x1xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: tosa.mul {{.*}}compute = f16, accumulate = f16, storage = f16, reason = inputs
  %sq = tosa.mul %x, %x, %shift : (tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  // CHECK: tosa.reduce_sum {{.*}}compute = f16, accumulate = f32, storage = f16, reason = follow
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.rsqrt {{.*}}reason = class_rule
  %r = tosa.rsqrt %s : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // CHECK: tosa.mul {{.*}}reason = follow
  %z = tosa.mul %y, %r, %shift : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  // CHECK: tosa.mul {{.*}}compute = f16{{.*}}reason = inputs
  %sq2 = tosa.mul %y, %y, %shift : (tensor<2x64xf32>, tensor<2x64xf32>, tensor<1xi8>) -> tensor<2x64xf32>
  // CHECK: tosa.reduce_sum {{.*}}compute = f16, accumulate = f32, storage = f16, reason = follow
  %s2 = tosa.reduce_sum %sq2 {axis = 1 : i32} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  return %z, %s2 : tensor<2x64xf32>, tensor<2x1xf32>
}
