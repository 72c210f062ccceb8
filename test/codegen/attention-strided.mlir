// engine.attention with strided operands: the kernel gets each matrix's
// (batch, head, row, column) strides and kv_group in its arguments, and
// the tensor-core kernel is the one that loads K's rows (KEY_ROWS true)
// where the keys' head dimension is contiguous.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu

// CHECK: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, true, PREC_NO_MASK, k0_attention_logit, __half, float, __half, int>, dim3((unsigned)(4LL), 1), 128, prec_attention_tiles<1, 16, 16, __half, true>::BYTES, stream, 
// CHECK-SAME: (int)(4LL), 8, 8, 16, 16, 4, {0, 0, 0, 0}, {0, 16, 64, 1}, {0, 16, 1, 32}, {0, 16, 32, 1}, {0, 16, 64, 1}, 2}
func.func @main(%q: tensor<1x8x64xf16>, %k: tensor<1x8x32xf16>, %v: tensor<1x8x32xf16>) -> tensor<1x8x64xf16> {
  %o = engine.attention %q, %k, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 4, 8, 8, 16, 16>, query_strides = array<i64: 0, 16, 64, 1>, keys_strides = array<i64: 0, 16, 1, 32>, values_strides = array<i64: 0, 16, 32, 1>, result_strides = array<i64: 0, 16, 64, 1>, kv_group = 2} : (tensor<1x8x64xf16>, tensor<1x8x32xf16>, tensor<1x8x32xf16>) -> tensor<1x8x64xf16>
  return %o : tensor<1x8x64xf16>
}
