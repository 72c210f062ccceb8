// RUN: rm -rf %t && mkdir -p %t
// RUN: not prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn 2>&1 | FileCheck %s
// A failed emission leaves no engine behind, not even a partial .cu.
// RUN: not ls %t/attn.cu

// The tensor-core kernel's grid holds the blocks of query rows along y,
// which CUDA bounds at 65535: 65536 blocks of 128 rows and one row more
// are refused at the op.
// CHECK: attention-grid-errors.mlir:[[@LINE+2]]:8: error: 'engine.attention' op needs 65537 blocks of query rows, more than a CUDA grid's 65535
func.func @main(%q: tensor<1x8388609x16xf16>, %kt: tensor<1x16x8xf16>, %v: tensor<1x8x16xf16>) -> tensor<1x8388609x16xf16> {
  %o = engine.attention %q, %kt, %v {heads = 1 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, query_rows = 128 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<1x8388609x16xf16>, tensor<1x16x8xf16>, tensor<1x8x16xf16>) -> tensor<1x8388609x16xf16>
  return %o : tensor<1x8388609x16xf16>
}
