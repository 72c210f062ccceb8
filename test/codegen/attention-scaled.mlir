// An attention whose query and keys the program multiplied by constants
// (prec-fuse-attention-scales): the tensor-core kernel gets
// prec_attention_scaled of the operands' type with the two factors as
// literals of that type, a missing one being 1; the report says the query
// and keys were scaled in f16. The engine compiles where nvcc is.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu
// RUN: FileCheck %s --check-prefix=REPORT < %t/attn.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/attn.cu -o %t/attn.o %}

// CHECK: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_NO_MASK, k0_attention_logit, __half, float, __half, int, prec_result<__half>, prec_attention_scaled<__half>>,
// CHECK-SAME: k0_attention_logit(), nullptr, prec_attention_scaled<__half>{__ushort_as_half((unsigned short)0x35a8U), __ushort_as_half((unsigned short)0x35a8U)});
// CHECK: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_NO_MASK, k1_attention_logit, __half, float, __half, int, prec_result<__half>, prec_attention_scaled<__half>>,
// CHECK-SAME: k1_attention_logit(), nullptr, prec_attention_scaled<__half>{__ushort_as_half((unsigned short)0x3000U), __ushort_as_half((unsigned short)0x3c00U)});
// REPORT: "scaled_keys": "f16"
// REPORT: "scaled_query": "f16"
func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> (tensor<4x8x16xf16>, tensor<4x8x16xf16>) {
  %a = engine.attention %q, %kt, %v {heads = 2 : i64, keys_factor = 0.353515625 : f64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_factor = 0.353515625 : f64, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  %b = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_factor = 0.125 : f64, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %a, %b : tensor<4x8x16xf16>, tensor<4x8x16xf16>
}
