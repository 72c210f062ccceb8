// An attention that skips masked keys: the engine allocates one byte per
// mask slice, block of queries and tile of 64 keys at create (the mask is
// [2, 1, 200, 160]: 2 slices, 2 blocks of 128 queries, 3 tiles), a kernel
// records the tiles the mask keeps for each block before the attention
// kernel, which gets the record and skips the rest; destroy frees it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu

// CHECK: unsigned char *kept_tiles[[K:[0-9]+]] = nullptr;
// CHECK: PREC_CHECK(cudaMalloc(&e->kept_tiles[[K]], 12));
// CHECK: prec_launch(e->early_launch, prec_attention_kept_tiles<128, 64, float, int>, dim3(3, 2, 2), 128, 0, stream, ((float *)bindings[3]), 200, 160, 32000, 0, 160, 1, 1, e->kept_tiles[[K]]);
// CHECK-NEXT: // engine.attention, on tensor cores
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<2, 16, 16, false, true, false, PREC_MASK_PAIRS, k0_attention_logit, __half, float, __half, int>, dim3((unsigned)(4LL), 2), 128, prec_attention_tiles<2, 16, 16, __half, false>::BYTES, stream, 
// CHECK-SAME: k0_attention_logit(), e->kept_tiles[[K]], prec_attention_unquantized());
// CHECK: cudaFree(e->kept_tiles[[K]]);
func.func @main(%q: tensor<4x200x16xf16>, %kt: tensor<4x16x160xf16>, %v: tensor<4x160x16xf16>, %m: tensor<2x1x200x160xf32>) -> tensor<4x200x16xf16> {
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 128 : i64, scale = 2.500000e-01 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x200x16xf16>, tensor<4x16x160xf16>, tensor<4x160x16xf16>, tensor<2x1x200x160xf32>) -> tensor<4x200x16xf16>
  return %o : tensor<4x200x16xf16>
}
