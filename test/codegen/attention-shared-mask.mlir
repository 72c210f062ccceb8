// Attentions that share a mask (each layer of a decoder reads the model's
// one causal mask) share its record of kept tiles: one buffer, one
// prec_attention_kept_tiles launch, before the first; both attention
// kernels read it. An attention of another query length over the same
// mask (broadcast over queries) gets a record of its own.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu

// CHECK-COUNT-2: PREC_CHECK(cudaMalloc(&e->kept_tiles
// CHECK-NOT: cudaMalloc(&e->kept_tiles
// CHECK: prec_launch(e->early_launch, prec_attention_kept_tiles<128, 64, float, int>, dim3(3, 2, 2), 128, 0, stream, {{.*}}, e->kept_tiles[[K:[0-9]+]]);
// CHECK-NEXT: // engine.attention, on tensor cores
// CHECK-NEXT: if (
// CHECK-NEXT: prec_attention_mma<{{.*}}, e->kept_tiles[[K]], prec_attention_unquantized());
// CHECK-NOT: prec_attention_kept_tiles<128, 64, float, int>, dim3(3, 2, 2)
// CHECK: prec_attention_mma<{{.*}}, e->kept_tiles[[K]], prec_attention_unquantized());
// CHECK: prec_launch(e->early_launch, prec_attention_kept_tiles<128, 64, float, int>, dim3(3, 1, 2), 128, 0, stream, {{.*}}, e->kept_tiles[[L:[0-9]+]]);
// CHECK-NEXT: // engine.attention, on tensor cores
// CHECK-NEXT: if (
// CHECK-NEXT: prec_attention_mma<{{.*}}, e->kept_tiles[[L]], prec_attention_unquantized());
func.func @main(%q: tensor<4x200x16xf16>, %kt: tensor<4x16x160xf16>, %v: tensor<4x160x16xf16>, %q2: tensor<4x100x16xf16>, %m: tensor<2x1x1x160xf32>) -> (tensor<4x200x16xf16>, tensor<4x100x16xf16>) {
  %o = engine.attention %q, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 128 : i64, scale = 2.500000e-01 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x200x16xf16>, tensor<4x16x160xf16>, tensor<4x160x16xf16>, tensor<2x1x1x160xf32>) -> tensor<4x200x16xf16>
  %o2 = engine.attention %o, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 128 : i64, scale = 2.500000e-01 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x200x16xf16>, tensor<4x16x160xf16>, tensor<4x160x16xf16>, tensor<2x1x1x160xf32>) -> tensor<4x200x16xf16>
  %o3 = engine.attention %q2, %kt, %v mask %m {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 128 : i64, scale = 2.500000e-01 : f64, scaled_type = f32, score_type = f32, skip_masked_keys} : (tensor<4x100x16xf16>, tensor<4x16x160xf16>, tensor<4x160x16xf16>, tensor<2x1x1x160xf32>) -> tensor<4x100x16xf16>
  return %o2, %o3 : tensor<4x200x16xf16>, tensor<4x100x16xf16>
}
