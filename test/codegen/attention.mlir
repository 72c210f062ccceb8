// engine.attention as CUDA: the logit functor rounds each part to its type
// in the op's order (a pair of logits in packed f16, every part being f16),
// then the tensor-core kernel (f16, head size 16) runs over 64-row blocks
// and the heads, with its tiles in dynamic shared memory that create allows
// (eight keys, one tile: no masked keys to skip);
// the manifest reports each part's type under the layer's name (one longer
// than a string stored inline, which the record once borrowed).
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/attn.json

// CHECK: __global__ void __launch_bounds__(128)
// CHECK-NEXT: prec_attention(
// CHECK: prec_attention_mma(
// CHECK: struct k0_attention_logit {
// CHECK-NEXT: return __half2float((__float2half_rn((__half2float((__float2half_rn((__half2float((__float2half_rn(s)))) * 0x1p-2f)))) + m))); }
// CHECK-NEXT: __device__ float2 operator()(float2 s, prec_pair<__half>::type m) const {
// CHECK-NEXT: return prec_pair<__half>::to_float(__hadd2(__hmul2_rn(prec_pair<__half>::round(s), prec_pair<__half>::splat(0x1p-2f)), m));
// CHECK: PREC_CHECK(cudaFuncSetAttribute(prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ROW_PAIRS, k0_attention_logit, __half, __half, __half, int>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_attention_tiles<1, 16, 16, __half, false>::BYTES));
// CHECK-NEXT: PREC_CHECK(cudaFuncSetAttribute(prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ELEMENTS, k0_attention_logit, __half, __half, __half, int>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_attention_tiles<1, 16, 16, __half, false>::BYTES));
// CHECK: // engine.attention '/encoder/layer.0/attention/self/MatMul_1', on tensor cores
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ROW_PAIRS, k0_attention_logit, __half, __half, __half, int>, dim3((unsigned)(4LL), 1), 128, prec_attention_tiles<1, 16, 16, __half, false>::BYTES, stream, prec_attention_args<__half, __half, __half, __half, int>{((__half *)bindings[0]), ((__half *)bindings[1]), ((__half *)bindings[2]), ((__half *)bindings[3]), ((__half *)bindings[4]), (int)(4LL), 8, 8, 16, 16, 2, {8, 0, 0, 1}, {256, 128, 16, 1}, {256, 128, 8, 1}, {256, 128, 16, 1}, {256, 128, 16, 1}, 1}, k0_attention_logit(), nullptr, prec_attention_unquantized());
// CHECK-NEXT: else
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ELEMENTS,
// CHECK-NOT: prec_launch(

// MANIFEST: "name": "/encoder/layer.0/attention/self/MatMul_1",
// MANIFEST-NEXT: "op": "engine.attention",
// MANIFEST-NEXT: "parts": {
// MANIFEST-NEXT: "masked": "f16",
// MANIFEST-NEXT: "probabilities": "f16",
// MANIFEST-NEXT: "scaled": "f16",
// MANIFEST-NEXT: "scores": "f16",
// MANIFEST-NEXT: "softmax": "f32"

func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x8xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x8xf16>, !tosa.shape<4>) -> tensor<2x2x8x8xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x8x8xf16>
  %y = tosa.add %x, %mask : (tensor<2x2x8x8xf16>, tensor<2x1x1x8xf16>) -> tensor<2x2x8x8xf16>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x1xf16>
  %d = tosa.sub %y, %m : (tensor<2x2x8x8xf16>, tensor<2x2x8x1xf16>) -> tensor<2x2x8x8xf16>
  %d32 = tosa.cast %d : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d32 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p16 = tosa.cast %p : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x8x8xf16>, !tosa.shape<3>) -> tensor<4x8x8xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp {precision.layer = "/encoder/layer.0/attention/self/MatMul_1"} : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}
