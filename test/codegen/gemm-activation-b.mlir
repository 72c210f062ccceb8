// An i8 GEMM whose B is an activation, neither a constant nor a transpose
// (a quantized attention's values): prec-transpose-gemm-operands gives it a
// transpose kernel writing B as [batch, N, K], which cuBLASLt then reads
// with op T, as its i8 and f8 GEMMs require.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=gemm
// RUN: FileCheck %s < %t/gemm.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/gemm.cu -o %t/gemm.o %}

// One kernel: the transpose of B, read by the GEMM through the second one.
// CHECK-COUNT-1: __global__ void
// CHECK-NOT: __global__ void
// CHECK-LABEL: extern "C" int gemm_create(
// CHECK: cublasLtMatmulDescCreate(&e->desc[[I8:[0-9]+]], CUBLAS_COMPUTE_32I, CUDA_R_32I)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->la[[I8]], CUDA_R_8I, 16, 3, 16)
// CHECK: CUBLASLT_MATMUL_DESC_TRANSA, &transpose
// CHECK-LABEL: static int gemm_enqueue(
// CHECK: // tosa.transpose
// CHECK: // tosa.matmul 'values': 4x3x16, batch 2, B transposed
func.func @main(%p: tensor<2x4x16xi8> loc("p"), %v: tensor<2x16x3xi8> loc("v")) -> tensor<2x4x3xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x16xi8>, tensor<2x16x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x3xi32> loc("values")
  return %y : tensor<2x4x3xi32>
}
