// The engine dialect's attributes parse, print, and are checked on the ops
// they belong to.
// RUN: prec-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: engine.conv_algorithm = #engine.conv_algorithm<im2col>{{.*}}engine.kernel = #engine.kernel<2, contraction>
func.func @conv(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>, %b: tensor<2xf32>, %zp: tensor<1xf32>) -> tensor<1x4x4x2xf32> {
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<im2col>, engine.kernel = #engine.kernel<2, contraction>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// -----

func.func @wrong_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.conv_algorithm' belongs on a tosa.conv2d, not on 'tosa.abs'}}
  %y = tosa.abs %x {engine.conv_algorithm = #engine.conv_algorithm<gemm>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @wrong_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.conv_algorithm' must be a #engine.conv_algorithm, got "cudnn"}}
  %y = tosa.abs %x {engine.conv_algorithm = "cudnn"} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown engine attribute 'engine.kernel_count'}}
  %y = tosa.abs %x {engine.kernel_count = 3} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+2 {{expected ::prec::engine::ConvAlgorithm to be one of: direct, gemm, im2col, cudnn}}
// expected-error @+1 {{failed to parse Engine_ConvAlgorithmAttr parameter 'value'}}
#bad = #engine.conv_algorithm<winograd>

// -----

func.func @negative_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.kernel' has a negative index}}
  %y = tosa.abs %x {engine.kernel = #engine.kernel<-1, single>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @kernel_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.kernel' must be a #engine.kernel, got 3 : i64}}
  %y = tosa.abs %x {engine.kernel = 3} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @placed
// CHECK-SAME: engine.arena_bytes = 256 : i64
// CHECK: engine.arena_offset = 0 : i64
func.func @placed(%x: tensor<4xf32>) -> tensor<4xf32> attributes {engine.arena_bytes = 256 : i64} {
  %y = tosa.abs %x {engine.arena_offset = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %z = tosa.abs %y : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

func.func @negative_offset(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.arena_offset' must be a non-negative i64, got -256 : i64}}
  %y = tosa.abs %x {engine.arena_offset = -256 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @arena_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.arena_bytes' does not belong on 'tosa.abs'}}
  %y = tosa.abs %x {engine.arena_bytes = 256 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'engine.batched_inputs' must be array<i64: argument indices> on a func.func}}
func.func @batched(%x: tensor<4xf32>) -> tensor<4xf32> attributes {engine.batched_inputs = [0]} {
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @narrow
// CHECK-SAME: engine.index_bitwidth = 32 : i64
func.func @narrow(%x: tensor<4xf32>) -> tensor<4xf32> attributes {engine.index_bitwidth = 32 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'engine.index_bitwidth' must be 32 or 64 (i64) on a func.func}}
func.func @odd_width(%x: tensor<4xf32>) -> tensor<4xf32> attributes {engine.index_bitwidth = 16 : i64} {
  return %x : tensor<4xf32>
}

// -----

func.func @width_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.index_bitwidth' must be 32 or 64 (i64) on a func.func}}
  %y = tosa.abs %x {engine.index_bitwidth = 64 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @read_through
// CHECK: tosa.transpose {{.*}}engine.read_through
func.func @read_through(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %y = tosa.transpose %x {perms = array<i32: 1, 0>, engine.read_through} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

func.func @read_through_exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.read_through' is a unit attribute of a tosa.transpose, tosa.cast or tosa.slice}}
  %y = tosa.exp %x {engine.read_through} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @met_lower_bound
// CHECK: tosa.clamp {{.*}}engine.met_lower_bound
func.func @met_lower_bound(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tosa.clamp %x {max_val = 0x7F800000 : f32, min_val = -127.0 : f32, engine.met_lower_bound = unit} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @met_lower_bound_exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.met_lower_bound' is a unit attribute of a float tosa.clamp}}
  %y = tosa.exp %x {engine.met_lower_bound} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// engine.attention round-trips, and its verifier checks shapes and types.
// CHECK-LABEL: func.func @attention
// CHECK: engine.attention %arg0, %arg1, %arg2 mask %arg3 {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, mask_first, masked_type = f32, query_rows = 64 : i64, scale = 1.250000e-01 : f64, scaled_type = f32, score_type = f16}
func.func @attention(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %m: tensor<2x1x8x8xf32>) -> tensor<4x8x16xf16> {
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, mask_first, masked_type = f32, query_rows = 64 : i64, scale = 1.250000e-01 : f64, scaled_type = f32, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x8x8xf32>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

// A dynamic N (the batch times the heads) verifies for any head count.
// CHECK-LABEL: func.func @attention_dynamic_batch
// CHECK: engine.attention {{.*}}heads = 12 : i64, kernel = #engine.attention_kernel<warp_per_row>
func.func @attention_dynamic_batch(%q: tensor<?x8x16xf16>, %kt: tensor<?x16x8xf16>, %v: tensor<?x8x16xf16>, %m: tensor<?x1x1x8xf32>) -> tensor<?x8x16xf16> {
  %o = engine.attention %q, %kt, %v mask %m {heads = 12 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.250000e-01 : f64, scaled_type = f32, score_type = f32} : (tensor<?x8x16xf16>, tensor<?x16x8xf16>, tensor<?x8x16xf16>, tensor<?x1x1x8xf32>) -> tensor<?x8x16xf16>
  return %o : tensor<?x8x16xf16>
}

// -----

func.func @attention_keys_mismatch(%q: tensor<4x8x16xf16>, %kt: tensor<4x8x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{has inconsistent shapes}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x8x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_heads(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{needs heads (3) to divide N (4)}}
  %o = engine.attention %q, %kt, %v {heads = 3 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_mask_shape(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %m: tensor<4x1x8x8xf32>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{needs a mask that broadcasts to [2, 2, 8, 8]}}
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<4x1x8x8xf32>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_type(%q: tensor<4x8x16xi8>, %kt: tensor<4x16x8xi8>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{computes in f32, f16 or bf16, not 'i8'}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xi8>, tensor<4x16x8xi8>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_tensor_cores(%q: tensor<4x8x24xf16>, %kt: tensor<4x24x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{'engine.attention' op cannot run on tensor cores: needs f16 or bf16 query, keys and values, and head sizes that are multiples of 16 up to 128}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x24xf16>, tensor<4x24x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

// CHECK-LABEL: func.func @attention_cuda_cores
// CHECK: engine.attention {{.*}}kernel = #engine.attention_kernel<cuda_cores>
func.func @attention_cuda_cores(%q: tensor<4x8x24xf32>, %kt: tensor<4x24x8xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x24xf32>, tensor<4x24x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

func.func @attention_cuda_core_values(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x24xf32>) -> tensor<4x8x24xf32> {
  // expected-error @+1 {{'engine.attention' op cannot run on tiled CUDA cores: needs a head size up to 128 and a value head size that is a multiple of 16 up to 128}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<4x8x24xf32>) -> tensor<4x8x24xf32>
  return %o : tensor<4x8x24xf32>
}

// -----

func.func @attention_cuda_core_head(%q: tensor<4x8x144xf32>, %kt: tensor<4x144x8xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'engine.attention' op cannot run on tiled CUDA cores}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x144xf32>, tensor<4x144x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

func.func @attention_cuda_core_rows(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'engine.attention' op takes query_rows only on tensor cores}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

func.func @attention_query_rows(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{'engine.attention' op needs query_rows of 64 or 128 on tensor cores}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 96 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_no_query_rows(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{'engine.attention' op needs query_rows of 64 or 128 on tensor cores}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_rows_of_warps(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{'engine.attention' op takes query_rows only on tensor cores}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @relu_on_matmul(%a: tensor<1x4x8xf16>, %b: tensor<1x8x4xf16>, %zp: tensor<1xf16>) -> tensor<1x4x4xf32> {
  // expected-error @+1 {{'engine.epilogue' is scale, bias and convert on a tosa.matmul, or relu on a tosa.conv2d, not #engine.epilogue<bias, relu> on 'tosa.matmul'}}
  %y = tosa.matmul %a, %b, %zp, %zp {engine.epilogue = #engine.epilogue<bias, relu>} : (tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  return %y : tensor<1x4x4xf32>
}

// -----

func.func @epilogue_elsewhere(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.epilogue' is scale, bias and convert on a tosa.matmul, or relu on a tosa.conv2d, not #engine.epilogue<relu> on 'tosa.abs'}}
  %y = tosa.abs %x {engine.epilogue = #engine.epilogue<relu>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @epilogue_not_enum(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'engine.epilogue' must be a #engine.epilogue, got 3 : i64}}
  %y = tosa.abs %x {engine.epilogue = 3} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @weight_layouts
// CHECK: {engine.stored_transposed}
// CHECK: {engine.padded_depth = 32 : i64}
func.func @weight_layouts() -> (tensor<1x32x16xi8>, tensor<4x3x3x3xi8>) {
  %b = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> {engine.stored_transposed} : () -> tensor<1x32x16xi8>
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> {engine.padded_depth = 32 : i64} : () -> tensor<4x3x3x3xi8>
  return %b, %w : tensor<1x32x16xi8>, tensor<4x3x3x3xi8>
}

// -----

func.func @transposed_matrix() -> tensor<32x16xi8> {
  // expected-error @+1 {{'engine.stored_transposed' is a unit attribute of a [batch, K, N] constant}}
  %b = "tosa.const"() <{values = dense<1> : tensor<32x16xi8>}> {engine.stored_transposed} : () -> tensor<32x16xi8>
  return %b : tensor<32x16xi8>
}

// -----

func.func @transposed_activation(%x: tensor<1x4x4xi8>) -> tensor<1x4x4xi8> {
  // expected-error @+1 {{'engine.stored_transposed' belongs on a statically shaped, non-empty tosa.const of rank 2 or more}}
  %y = tosa.abs %x {engine.stored_transposed} : (tensor<1x4x4xi8>) -> tensor<1x4x4xi8>
  return %y : tensor<1x4x4xi8>
}

// -----

func.func @narrower_rows() -> tensor<4x3x3x3xi8> {
  // expected-error @+1 {{'engine.padded_depth' must be an i64 of at least 27 (a row's elements), got 16 : i64}}
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> {engine.padded_depth = 16 : i64} : () -> tensor<4x3x3x3xi8>
  return %w : tensor<4x3x3x3xi8>
}

// -----

func.func @odd_block(%x: tensor<2x64xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'engine.block_threads' must be whole warps, 32 to 1024 (i64), got 48 : i64}}
  %s = tosa.reduce_sum %x {axis = 1 : i32, engine.block_threads = 48 : i64} : (tensor<2x64xf32>) -> tensor<2x1xf32>
  return %s : tensor<2x1xf32>
}

// -----

func.func @empty_weights() -> tensor<0x3xi8> {
  // expected-error @+1 {{'engine.padded_depth' belongs on a statically shaped, non-empty tosa.const of rank 2 or more}}
  %w = "tosa.const"() <{values = dense<1> : tensor<0x3xi8>}> {engine.padded_depth = 4 : i64} : () -> tensor<0x3xi8>
  return %w : tensor<0x3xi8>
}

// -----

func.func @depth_not_i64() -> tensor<2x3xi8> {
  // expected-error @+1 {{'engine.padded_depth' must be an i64 of at least 3 (a row's elements), got 4 : i32}}
  %w = "tosa.const"() <{values = dense<1> : tensor<2x3xi8>}> {engine.padded_depth = 4 : i32} : () -> tensor<2x3xi8>
  return %w : tensor<2x3xi8>
}

// -----

// Only the tensor-core kernel skips masked keys, and only where the mask is
// not scaled: added after the scaling, or before a scale of 1.
// CHECK-LABEL: func.func @attention_skip_unscaled_mask_first
// CHECK: mask_first, {{.*}}scale = 1.000000e+00 : f64, {{.*}}skip_masked_keys}
func.func @attention_skip_unscaled_mask_first(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %m: tensor<2x1x8x8xf32>) -> tensor<4x8x16xf16> {
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, mask_first, masked_type = f32, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x8x8xf32>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_skip_without_mask(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{'engine.attention' op skips masked keys only on tensor cores, with a mask of static shape that is not scaled}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_skip_mask_first(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %m: tensor<2x1x8x8xf32>) -> tensor<4x8x16xf16> {
  // expected-error @+1 {{'engine.attention' op skips masked keys only on tensor cores, with a mask of static shape that is not scaled}}
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, mask_first, masked_type = f32, query_rows = 64 : i64, scale = 1.250000e-01 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x8x8xf32>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

func.func @attention_skip_cuda_cores(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x16xf32>, %m: tensor<2x1x8x8xf32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'engine.attention' op skips masked keys only on tensor cores, with a mask of static shape that is not scaled}}
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<4x8x16xf32>, tensor<2x1x8x8xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// Strided operands: the query and result as [B, S, H*D], the keys shared by
// groups of two heads.
// CHECK-LABEL: func.func @attention_strided
// CHECK: engine.attention {{.*}}keys_strides = array<i64: 0, 128, 1, 16>, kv_group = 2 : i64
func.func @attention_strided(%q: tensor<1x8x32xf16>, %k: tensor<1x1x8x16xf16>, %v: tensor<1x1x8x16xf16>) -> tensor<1x8x32xf16> {
  %o = engine.attention %q, %k, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 2, 8, 8, 16, 16>, query_strides = array<i64: 256, 16, 32, 1>, keys_strides = array<i64: 0, 128, 1, 16>, values_strides = array<i64: 0, 128, 16, 1>, result_strides = array<i64: 256, 16, 32, 1>, kv_group = 2} : (tensor<1x8x32xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>) -> tensor<1x8x32xf16>
  return %o : tensor<1x8x32xf16>
}

// -----

func.func @attention_strides_without_sizes(%q: tensor<1x8x32xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error @+1 {{needs sizes [N, Sq, Sk, D, Dv], each at least 1, with strided operands}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, query_strides = array<i64: 256, 16, 32, 1>} : (tensor<1x8x32xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

// -----

func.func @attention_strides_past_end(%q: tensor<1x8x32xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error @+1 {{reads query past its end through its strides}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 2, 8, 8, 16, 16>, query_strides = array<i64: 256, 32, 32, 1>} : (tensor<1x8x32xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

// -----

func.func @attention_strided_columns(%q: tensor<1x8x32xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error @+1 {{needs query's columns stored contiguously}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 2, 8, 8, 16, 16>, query_strides = array<i64: 256, 1, 2, 16>} : (tensor<1x8x32xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

// -----

func.func @attention_group_unstrided(%q: tensor<2x8x16xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error @+1 {{needs strided keys and values to share them between heads}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, kv_group = 2} : (tensor<2x8x16xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

// -----

func.func @attention_group_heads(%q: tensor<1x8x48xf16>, %k: tensor<1x1x8x16xf16>, %v: tensor<1x1x8x16xf16>) -> tensor<1x8x48xf16> {
  // expected-error @+1 {{needs kv_group (2) to divide heads (3)}}
  %o = engine.attention %q, %k, %v {heads = 3 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 3, 8, 8, 16, 16>, query_strides = array<i64: 384, 16, 48, 1>, keys_strides = array<i64: 0, 128, 1, 16>, values_strides = array<i64: 0, 128, 16, 1>, result_strides = array<i64: 384, 16, 48, 1>, kv_group = 2} : (tensor<1x8x48xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>) -> tensor<1x8x48xf16>
  return %o : tensor<1x8x48xf16>
}

// -----

func.func @attention_negative_stride(%q: tensor<1x8x32xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error @+1 {{has a negative stride for query}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 2, 8, 8, 16, 16>, query_strides = array<i64: 256, -16, 32, 1>} : (tensor<1x8x32xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

// -----

// Both heads written to the same rows: the result would race.
func.func @attention_overlapping_result(%q: tensor<2x8x16xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<1x8x16xf16> {
  // expected-error @+1 {{writes two elements of the result to one place}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 2, 8, 8, 16, 16>, result_strides = array<i64: 128, 0, 16, 1>} : (tensor<2x8x16xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<1x8x16xf16>
  return %o : tensor<1x8x16xf16>
}

// -----

func.func @attention_empty_sizes(%q: tensor<1x8x32xf16>, %kt: tensor<2x16x8xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error @+1 {{needs sizes [N, Sq, Sk, D, Dv], each at least 1, with strided operands}}
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 0, 8, 8, 16, 16>, query_strides = array<i64: 256, 16, 32, 1>} : (tensor<1x8x32xf16>, tensor<2x16x8xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

// -----

func.func @result_scale_without_unscaled_type(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf8E4M3FN> {
  // expected-error @+1 {{needs result_scale and unscaled_type together}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16, result_scale = 2.0 : f64} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf8E4M3FN>
  return %o : tensor<4x16x16xf8E4M3FN>
}

// -----

func.func @scaled_result_not_f8(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{scales its result only into f8E4M3FN or f8E5M2, not 'f16'}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16, result_scale = 2.0 : f64, unscaled_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @unscaled_type_without_result_scale(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf8E4M3FN> {
  // expected-error @+1 {{needs result_scale and unscaled_type together}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16, unscaled_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf8E4M3FN>
  return %o : tensor<4x16x16xf8E4M3FN>
}

// -----

func.func @infinite_result_scale(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf8E4M3FN> {
  // expected-error @+1 {{needs a finite, nonzero result_scale}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16, result_scale = 0x7FF0000000000000 : f64, unscaled_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf8E4M3FN>
  return %o : tensor<4x16x16xf8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @quantized
// CHECK: quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>
func.func @quantized(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

// CHECK-LABEL: func.func @quantized_i8
// CHECK: quantization = #engine.attention_quantization<type = i8, {{.*}}, normalized = true>
func.func @quantized_i8(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, quantization = #engine.attention_quantization<type = i8, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32, normalized = true>, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @quantized_i8_unnormalized(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{quantizes i8 probabilities only normalized}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, quantization = #engine.attention_quantization<type = i8, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @quantized_to_i16(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{quantizes only to i8, f8E4M3FN or f8E5M2, not 'i16'}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, quantization = #engine.attention_quantization<type = i16, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @quantized_on_cuda_cores(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{quantizes only on tensor cores}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f16, quantization = #engine.attention_quantization<type = f8E5M2, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @quantized_zero_factor(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{needs finite, nonzero f32 quantization factors}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 0.000000e+00 : f32, result = 3.98596931E-5 : f32>, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

// CHECK-LABEL: func.func @vector_bytes
// CHECK: tosa.transpose {{.*}}engine.vector_bytes = 16 : i64
func.func @vector_bytes(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %t = tosa.transpose %x {perms = array<i32: 0, 1>, engine.vector_bytes = 16 : i64} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %t : tensor<2x8xf16>
}

// -----

func.func @vector_bytes_not_a_width(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'engine.vector_bytes' must be 4, 8 or 16 (i64) on an op with one tensor result}}
  %t = tosa.transpose %x {perms = array<i32: 0, 1>, engine.vector_bytes = 12 : i64} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %t : tensor<2x8xf16>
}

// -----

func.func @vector_bytes_not_a_tensor(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'engine.vector_bytes' must be 4, 8 or 16 (i64) on an op with one tensor result}}
  %s = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>, engine.vector_bytes = 16 : i64} : () -> !tosa.shape<2>
  %y = tosa.reshape %x, %s : (tensor<2x8xf16>, !tosa.shape<2>) -> tensor<2x8xf16>
  return %y : tensor<2x8xf16>
}

// -----

// CHECK-LABEL: func.func @scaled_operands
// CHECK: keys_factor = 1.250000e-01 : f64{{.*}}query_factor = 0.353515625 : f64
func.func @scaled_operands(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, keys_factor = 0.125 : f64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_factor = 0.353515625 : f64, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @query_factor_not_f16(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{needs query and keys factors that are finite values of 'f16'}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_factor = 0.1 : f64, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @keys_factor_on_cuda_cores(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{scales its query and keys only on tensor cores, without quantization}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, keys_factor = 0.125 : f64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f16, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

func.func @query_factor_quantized(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  // expected-error @+1 {{scales its query and keys only on tensor cores, without quantization}}
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 4.0e-05 : f32, result = 1.0e-03 : f32>, query_factor = 0.125 : f64, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}
