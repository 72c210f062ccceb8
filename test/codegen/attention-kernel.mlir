// The emitter launches the kernel engine.attention names, even where the
// tensor-core kernel would fit: a warp per query row, (Sq + 3) / 4 blocks of
// four rows, the query row staged in D floats of shared memory per warp.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu

// CHECK: {{^}}  // engine.attention{{$}}
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention<1, false, k0_attention_logit, __half, __half, float, __half, int>, dim3(2, (unsigned)(4LL)), 128, 256, stream, prec_attention_args<__half, __half, float, __half, int>{{.*}}nullptr{{.*}}(int)(4LL), 8, 8, 16, 16, 2, {0, 0, 0, 0}, {256, 128, 16, 1}, {256, 128, 8, 1}, {256, 128, 16, 1}, {256, 128, 16, 1}, 1}, k0_attention_logit());
// CHECK-NOT: prec_attention_mma<
func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}
