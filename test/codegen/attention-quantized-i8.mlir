// An attention whose matmuls the program quantized to i8: the tensor-core
// kernel gets prec_attention_i8 with the factors of Q, K, V, the
// probabilities and the result, whose quantizer clamps to [-127, 127] and
// rounds as prec-quantize's cast does, and normalizes the probabilities
// before it quantizes them (two sweeps over the keys); the report says that
// Q, K, V and the probabilities are i8.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu
// RUN: FileCheck %s --check-prefix=REPORT < %t/attn.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/attn.cu -o %t/attn.o %}

// CHECK: template <typename T> struct prec_i8_quantizer {
// CHECK: return rintf(fminf(fmaxf(__fmul_rn(x, factor), -127.0f), 127.0f));
// CHECK: using prec_attention_i8 =
// CHECK-NEXT: prec_attention_quantized<prec_i8_quantizer<T>, T, true>;
// CHECK: struct k0_attention_logit {
// CHECK-NEXT: __device__ float operator()(float s, float m) const { return (__half2float((__float2half_rn((__half2float((__float2half_rn(__fmul_rn(s, 0x1.4e5e0ap-15f))))) * 0x1p-2f)))) + m; }
// CHECK: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ROW_PAIRS, k0_attention_logit, __half, float, __half, int, prec_result<__half>, prec_attention_i8<__half>>,
// CHECK-SAME: k0_attention_logit(), nullptr, prec_attention_i8<__half>{0x1.fcp+4f, 0x1.fcp+5f, 0x1.fcp+3f, 0x1.fcp+6f, 0x1.f75104p-17f});
// REPORT: "compute": "i8"
// REPORT: "probabilities": "i8"
func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf32>) -> tensor<4x8x16xf16> {
  %o = engine.attention %q, %kt, %v mask %mask {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, quantization = #engine.attention_quantization<type = i8, query = 3.175000e+01 : f32, keys = 6.350000e+01 : f32, values = 1.587500e+01 : f32, probabilities = 1.270000e+02 : f32, scores = 3.98596931E-5 : f32, result = 1.5e-05 : f32, normalized = true>, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x1x8xf32>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}
