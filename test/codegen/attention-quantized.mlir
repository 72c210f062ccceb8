// An attention whose matmuls the program quantized to f8: the logit functor
// multiplies the dot product by the scores' dequantization factor (rounding
// to f32) before the scale and the mask; the tensor-core kernel gets
// prec_attention_f8 of the f8 type with the factors of Q, K, V, the
// probabilities and the result, and the report says that Q, K, V and the
// probabilities are f8.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu
// RUN: FileCheck %s --check-prefix=REPORT < %t/attn.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/attn.cu -o %t/attn.o %}

// CHECK: struct k0_attention_logit {
// CHECK-NEXT: __device__ float operator()(float s, float m) const { return (__half2float((__float2half_rn((__half2float((__float2half_rn(__fmul_rn(s, 0x1.4e5e0ap-15f))))) * 0x1p-2f)))) + m; }
// CHECK: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ROW_PAIRS, k0_attention_logit, __half, float, __half, int, prec_result<__half>, prec_attention_f8<__nv_fp8_e4m3, __half>>,
// CHECK-SAME: k0_attention_logit(), nullptr, prec_attention_f8<__nv_fp8_e4m3, __half>{0x1.cp+6f, 0x1.cp+7f, 0x1.cp+5f, 0x1.cp+8f, 0x1.4e5e0ap-15f});
// REPORT: "compute": "f8E4M3FN"
// REPORT: "probabilities": "f8E4M3FN"
func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf32>) -> tensor<4x8x16xf16> {
  %o = engine.attention %q, %kt, %v mask %mask {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x1x8xf32>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}
