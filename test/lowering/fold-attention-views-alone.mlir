// prec-fold-attention-views on its own: engine.attention reads its query,
// keys and values through the reshapes, transposes and tiles that split
// heads and share grouped keys, and writes through the transpose that
// merges heads; what the kernel cannot read by strides, and what something
// else reads, stays.
// RUN: prec-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(prec-fold-attention-views))' | FileCheck %s

// BERT's heads: [B, S, H*D] split into [B, H, S, D] (Kᵀ as [B, H, D, S]),
// merged back after. The attention reads and writes [B, S, H*D] itself:
// element (b, h, s, d) at b*1024 + h*16 + s*64 + d; keys as K's rows.
// CHECK-LABEL: func.func @bert_heads
// CHECK-SAME: (%[[Q:.*]]: tensor<2x16x64xf16>, %[[K:.*]]: tensor<2x16x64xf16>, %[[V:.*]]: tensor<2x16x64xf16>)
// CHECK-NEXT: %[[O:.*]] = engine.attention %[[Q]], %[[K]], %[[V]] {heads = 4 : i64,
// CHECK-SAME: keys_strides = array<i64: 1024, 16, 1, 64>
// CHECK-SAME: query_strides = array<i64: 1024, 16, 64, 1>
// CHECK-SAME: result_strides = array<i64: 1024, 16, 64, 1>
// CHECK-SAME: sizes = array<i64: 8, 16, 16, 16, 16>
// CHECK-SAME: values_strides = array<i64: 1024, 16, 64, 1>
// CHECK-SAME: (tensor<2x16x64xf16>, tensor<2x16x64xf16>, tensor<2x16x64xf16>) -> tensor<2x16x64xf16>
// CHECK-NEXT: return %[[O]]
func.func @bert_heads(%q: tensor<2x16x64xf16>, %k: tensor<2x16x64xf16>, %v: tensor<2x16x64xf16>) -> tensor<2x16x64xf16> {
  %split = tosa.const_shape {values = dense<[2, 16, 4, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %matrices = tosa.const_shape {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q4 = tosa.reshape %q, %split : (tensor<2x16x64xf16>, !tosa.shape<4>) -> tensor<2x16x4x16xf16>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x16x4x16xf16>) -> tensor<2x4x16x16xf16>
  %q3 = tosa.reshape %qt, %matrices : (tensor<2x4x16x16xf16>, !tosa.shape<3>) -> tensor<8x16x16xf16>
  %k4 = tosa.reshape %k, %split : (tensor<2x16x64xf16>, !tosa.shape<4>) -> tensor<2x16x4x16xf16>
  %kt = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x16x4x16xf16>) -> tensor<2x4x16x16xf16>
  %k3 = tosa.reshape %kt, %matrices : (tensor<2x4x16x16xf16>, !tosa.shape<3>) -> tensor<8x16x16xf16>
  %v4 = tosa.reshape %v, %split : (tensor<2x16x64xf16>, !tosa.shape<4>) -> tensor<2x16x4x16xf16>
  %vt = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x16x4x16xf16>) -> tensor<2x4x16x16xf16>
  %v3 = tosa.reshape %vt, %matrices : (tensor<2x4x16x16xf16>, !tosa.shape<3>) -> tensor<8x16x16xf16>
  %o = engine.attention %q3, %k3, %v3 {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<8x16x16xf16>, tensor<8x16x16xf16>, tensor<8x16x16xf16>) -> tensor<8x16x16xf16>
  %heads = tosa.const_shape {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o, %heads : (tensor<8x16x16xf16>, !tosa.shape<4>) -> tensor<2x4x16x16xf16>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x16x16xf16>) -> tensor<2x16x4x16xf16>
  %merged = tosa.const_shape {values = dense<[2, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o3 = tosa.reshape %ot, %merged : (tensor<2x16x4x16xf16>, !tosa.shape<3>) -> tensor<2x16x64xf16>
  return %o3 : tensor<2x16x64xf16>
}

// -----

// Grouped-query attention: two key/value heads, each tiled to two query
// heads. The attention reads the untiled [1, 2, 16, 16] keys and values,
// head h those of head h / 2 (kv_group = 2); Kᵀ's transpose folds too.
// CHECK-LABEL: func.func @grouped_keys
// CHECK-SAME: (%[[Q:.*]]: tensor<4x16x16xf16>, %[[K:.*]]: tensor<1x2x16x16xf16>, %[[V:.*]]: tensor<1x2x16x16xf16>)
// CHECK-NEXT: %[[O:.*]] = engine.attention %[[Q]], %[[K]], %[[V]] {heads = 4 : i64,
// CHECK-SAME: keys_strides = array<i64: 0, 256, 1, 16>
// CHECK-SAME: kv_group = 2 : i64
// CHECK-SAME: query_strides = array<i64: 1024, 256, 16, 1>
// CHECK-SAME: result_strides = array<i64: 1024, 256, 16, 1>
// CHECK-SAME: values_strides = array<i64: 0, 256, 16, 1>
// CHECK-NEXT: return %[[O]]
func.func @grouped_keys(%q: tensor<4x16x16xf16>, %k: tensor<1x2x16x16xf16>, %v: tensor<1x2x16x16xf16>) -> tensor<4x16x16xf16> {
  %five = tosa.const_shape {values = dense<[1, 2, 1, 16, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %repeat = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %all = tosa.const_shape {values = dense<[1, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %matrices = tosa.const_shape {values = dense<[4, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k5 = tosa.reshape %k, %five : (tensor<1x2x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x1x16x16xf16>
  %kr = tosa.tile %k5, %repeat : (tensor<1x2x1x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x2x16x16xf16>
  %k4 = tosa.reshape %kr, %all : (tensor<1x2x2x16x16xf16>, !tosa.shape<4>) -> tensor<1x4x16x16xf16>
  %kt = tosa.transpose %k4 {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x16x16xf16>) -> tensor<1x4x16x16xf16>
  %k3 = tosa.reshape %kt, %matrices : (tensor<1x4x16x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %v5 = tosa.reshape %v, %five : (tensor<1x2x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x1x16x16xf16>
  %vr = tosa.tile %v5, %repeat : (tensor<1x2x1x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x2x16x16xf16>
  %v3 = tosa.reshape %vr, %matrices : (tensor<1x2x2x16x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %o = engine.attention %q, %k3, %v3 {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

// What stays: a transpose something else reads (the attention reads its
// input, the transpose stays for the return); a tile whose copies are not
// consecutive heads' (heads 0 and 2 share keys: no stride reads that); a
// merge of heads whose intermediate something else reads (the attention
// writes that intermediate, and the transpose after it stays).
// CHECK-LABEL: func.func @what_stays
// CHECK: %[[QT:.*]] = tosa.transpose
// CHECK: %[[VR:.*]] = tosa.tile
// CHECK-NEXT: %[[O:.*]] = engine.attention %arg0, %arg1, %[[VR]]
// CHECK-SAME: query_strides = array<i64: 0, 16, 64, 1>
// CHECK-SAME: values_strides = array<i64: 0, 256, 16, 1>
// CHECK-SAME: -> tensor<1x4x16x16xf16>
// CHECK-NEXT: %[[OT:.*]] = tosa.transpose %[[O]]
// CHECK-NEXT: return %[[QT]], %[[O]], %[[OT]]
func.func @what_stays(%q: tensor<1x16x64xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<1x1x32x16xf16>) -> (tensor<1x4x16x16xf16>, tensor<1x4x16x16xf16>, tensor<1x16x4x16xf16>) {
  %split = tosa.const_shape {values = dense<[1, 16, 4, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %matrices = tosa.const_shape {values = dense<[4, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q4 = tosa.reshape %q, %split : (tensor<1x16x64xf16>, !tosa.shape<4>) -> tensor<1x16x4x16xf16>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x16x4x16xf16>) -> tensor<1x4x16x16xf16>
  %q3 = tosa.reshape %qt, %matrices : (tensor<1x4x16x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %repeat = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %vr = tosa.tile %v, %repeat : (tensor<1x1x32x16xf16>, !tosa.shape<4>) -> tensor<1x2x32x16xf16>
  %v3 = tosa.reshape %vr, %matrices : (tensor<1x2x32x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %o = engine.attention %q3, %kt, %v3 {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %heads = tosa.const_shape {values = dense<[1, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o, %heads : (tensor<4x16x16xf16>, !tosa.shape<4>) -> tensor<1x4x16x16xf16>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x16x16xf16>) -> tensor<1x16x4x16xf16>
  return %qt, %o4, %ot : tensor<1x4x16x16xf16>, tensor<1x4x16x16xf16>, tensor<1x16x4x16xf16>
}

// -----

// f16 exports scale the keys after their transpose: the scale (a scalar)
// moves up above the transpose, reshapes and tile, onto the untiled keys,
// and the moves fold. The constant takes the keys' rank.
// CHECK-LABEL: func.func @scaled_keys
// CHECK-SAME: (%[[Q:.*]]: tensor<4x16x16xf16>, %[[K:.*]]: tensor<1x2x256xf16>, %[[V:.*]]: tensor<1x2x16x16xf16>)
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1x1xf16>}>
// CHECK: %[[KS:.*]] = tosa.mul %[[K]], %[[C]], %{{.*}} : (tensor<1x2x256xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x2x256xf16>
// CHECK-NEXT: engine.attention %[[Q]], %[[KS]], %{{.*}} {heads = 4 : i64,
// CHECK-SAME: keys_strides = array<i64: 0, 256, 1, 16>
func.func @scaled_keys(%q: tensor<4x16x16xf16>, %k: tensor<1x2x256xf16>, %v: tensor<1x2x16x16xf16>) -> tensor<4x16x16xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %five = tosa.const_shape {values = dense<[1, 2, 1, 16, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %repeat = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %all = tosa.const_shape {values = dense<[1, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %matrices = tosa.const_shape {values = dense<[4, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k4 = tosa.const_shape {values = dense<[1, 2, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kx = tosa.reshape %k, %k4 : (tensor<1x2x256xf16>, !tosa.shape<4>) -> tensor<1x2x16x16xf16>
  %k5 = tosa.reshape %kx, %five : (tensor<1x2x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x1x16x16xf16>
  %kr = tosa.tile %k5, %repeat : (tensor<1x2x1x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x2x16x16xf16>
  %kh = tosa.reshape %kr, %all : (tensor<1x2x2x16x16xf16>, !tosa.shape<4>) -> tensor<1x4x16x16xf16>
  %kt = tosa.transpose %kh {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x16x16xf16>) -> tensor<1x4x16x16xf16>
  %ks = tosa.mul %kt, %half, %shift : (tensor<1x4x16x16xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<1x4x16x16xf16>
  %k3 = tosa.reshape %ks, %matrices : (tensor<1x4x16x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %v5 = tosa.reshape %v, %five : (tensor<1x2x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x1x16x16xf16>
  %vr = tosa.tile %v5, %repeat : (tensor<1x2x1x16x16xf16>, !tosa.shape<5>) -> tensor<1x2x2x16x16xf16>
  %v3 = tosa.reshape %vr, %matrices : (tensor<1x2x2x16x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %o = engine.attention %q, %k3, %v3 {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

// A sequence-first query ([S, B, H*D]) would hold the batch inside the
// sequence's stride: a dynamic batch could not shrink it, so the transpose
// that puts the batch first stays and the attention reads its result.
// CHECK-LABEL: func.func @sequence_first
// CHECK: %[[QT:.*]] = tosa.transpose
// CHECK-NEXT: engine.attention %[[QT]], %arg1, %arg2
// CHECK-SAME: query_strides = array<i64: 1024, 256, 16, 1>
func.func @sequence_first(%q: tensor<16x2x64xf16>, %kt: tensor<8x16x16xf16>, %v: tensor<8x16x16xf16>) -> tensor<8x16x16xf16> {
  %split = tosa.const_shape {values = dense<[16, 2, 4, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %matrices = tosa.const_shape {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q4 = tosa.reshape %q, %split : (tensor<16x2x64xf16>, !tosa.shape<4>) -> tensor<16x2x4x16xf16>
  %qt = tosa.transpose %q4 {perms = array<i32: 1, 2, 0, 3>} : (tensor<16x2x4x16xf16>) -> tensor<2x4x16x16xf16>
  %q3 = tosa.reshape %qt, %matrices : (tensor<2x4x16x16xf16>, !tosa.shape<3>) -> tensor<8x16x16xf16>
  %o = engine.attention %q3, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<8x16x16xf16>, tensor<8x16x16xf16>, tensor<8x16x16xf16>) -> tensor<8x16x16xf16>
  return %o : tensor<8x16x16xf16>
}
