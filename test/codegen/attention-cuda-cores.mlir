// engine.attention on tiles of the CUDA cores: 64 query rows a block of 256
// threads, (Sq + 63) / 64 blocks per matrix, the kernel's f32 tiles as
// dynamic shared memory, whose limit the engine's create raises.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu

// CHECK: PREC_CHECK(cudaFuncSetAttribute(prec_attention_cuda_cores<24, 16, false, k0_attention_logit, float, __half, float, float, int>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_attention_cuda_tiles<24, 16>::BYTES));
// CHECK: {{^}}  // engine.attention, on CUDA-core tiles{{$}}
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_cuda_cores<24, 16, false, k0_attention_logit, float, __half, float, float, int>, dim3(2, (unsigned)(4LL)), 256, prec_attention_cuda_tiles<24, 16>::BYTES, stream, prec_attention_args<float, __half, float, float, int>{{.*}}(int)(4LL), 70, 8, 24, 16, 2, {8, 0, 0, 1}, {3360, 1680, 24, 1}, {384, 192, 8, 1}, {256, 128, 16, 1}, {2240, 1120, 16, 1}, 1}, k0_attention_logit());
// CHECK-NOT: prec_attention<
// CHECK-NOT: prec_attention_mma<
func.func @main(%q: tensor<4x70x24xf32>, %kt: tensor<4x24x8xf32>, %v: tensor<4x8x16xf16>, %m: tensor<2x1x1x8xf32>) -> tensor<4x70x16xf32> {
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x70x24xf32>, tensor<4x24x8xf32>, tensor<4x8x16xf16>, tensor<2x1x1x8xf32>) -> tensor<4x70x16xf32>
  return %o : tensor<4x70x16xf32>
}
