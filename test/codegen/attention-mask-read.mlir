// How the tensor-core kernel reads each mask: a full mask with an even
// number of keys as pairs (PREC_MASK_PAIRS), where the run finds its first
// element aligned for a pair, else element by element; a mask over an odd
// number of keys, or one broadcast over the keys, element by element only,
// with a single launch. Every kernel the run may launch gets its shared
// memory raised at create.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn
// RUN: FileCheck %s < %t/attn.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/attn.cu -o %t/attn.o %}

// CHECK-COUNT-4: PREC_CHECK(cudaFuncSetAttribute(prec_attention_mma<
// CHECK-NOT: cudaFuncSetAttribute(prec_attention_mma<
// CHECK: // engine.attention 'full', on tensor cores
// CHECK-NEXT: if (reinterpret_cast<uintptr_t>(((__half *)bindings[3])) % (2 * sizeof(__half)) == 0)
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_PAIRS,
// CHECK-NEXT: else
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ELEMENTS,
// CHECK-NEXT: // engine.attention 'odd_keys', on tensor cores
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ELEMENTS,
// CHECK-NEXT: // engine.attention 'broadcast_keys', on tensor cores
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ELEMENTS,
// CHECK-NOT: prec_attention_mma<
func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %full: tensor<2x1x8x8xf16>, %kt7: tensor<4x16x7xf16>, %v7: tensor<4x7x16xf16>, %odd: tensor<2x1x1x7xf16>, %rows: tensor<2x1x8x1xf16>) -> (tensor<4x8x16xf16>, tensor<4x8x16xf16>, tensor<4x8x16xf16>) {
  %a = engine.attention %q, %kt, %v mask %full {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x8x8xf16>) -> tensor<4x8x16xf16> loc("full")
  %b = engine.attention %q, %kt7, %v7 mask %odd {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x7xf16>, tensor<4x7x16xf16>, tensor<2x1x1x7xf16>) -> tensor<4x8x16xf16> loc("odd_keys")
  %c = engine.attention %q, %kt, %v mask %rows {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x8x1xf16>) -> tensor<4x8x16xf16> loc("broadcast_keys")
  return %a, %b, %c : tensor<4x8x16xf16>, tensor<4x8x16xf16>, tensor<4x8x16xf16>
}
