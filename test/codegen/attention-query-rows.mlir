// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu

// 128 query rows a block: two tiles of 16 rows a warp, a grid of N
// matrices by (Sq + 127) / 128 blocks of rows. An f32 mask is not f16, so the pair of logits is the scalar
// functor twice. The op does not skip masked keys: no record of the mask's
// tiles. The padding mask's row, shared by every query, is read a pair of
// keys at a time where its first element is aligned for a pair, else
// element by element.
// CHECK-LABEL: struct k0_attention_logit
// CHECK: __device__ float2 operator()(float2 s, prec_pair<float>::type m) const {
// CHECK-NEXT: return make_float2((*this)(s.x, prec_to_float(m.x)), (*this)(s.y, prec_to_float(m.y)));
// CHECK: if (reinterpret_cast<uintptr_t>(((float *)bindings[3])) % (2 * sizeof(float)) == 0)
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<2, 16, 16, false, false, false, PREC_MASK_ROW_PAIRS, k0_attention_logit, __half, float, __half, int>, dim3((unsigned)(4LL), 2), 128, prec_attention_tiles<2, 16, 16, __half, false>::BYTES, stream, 
// CHECK-SAME: k0_attention_logit(), nullptr, prec_attention_unquantized());
// CHECK-NEXT: else
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<2, 16, 16, false, false, false, PREC_MASK_ELEMENTS, k0_attention_logit,
func.func @main(%q: tensor<4x200x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %m: tensor<2x1x1x8xf32>) -> tensor<4x200x16xf16> {
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 128 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x200x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x1x8xf32>) -> tensor<4x200x16xf16>
  return %o : tensor<4x200x16xf16>
}
