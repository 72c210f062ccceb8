// cuBLASLt GEMMs beyond f16/f32: i8 x i8 accumulating in i32, f8 E4M3 with
// a per-tensor dequantization scale as alpha, and B operands read
// transposed: a transpose is folded into the GEMM (op T, no kernel), and an
// i8/f8 weight is stored transposed, since cuBLASLt's integer and 8-bit
// float GEMMs take only that layout.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s -split-input-file --output-dir=%t --engine-name=gemm
// RUN: FileCheck %s < %t/gemm.cu
// RUN: %python -c "import re, sys; cu = open(sys.argv[1]).read(); at = int(re.search(r\"'i8.weight'.*\n.*?e->weights \+ (\d+)\", cu).group(1)); print(list(open(sys.argv[2], 'rb').read()[32 + at:38 + at]))" %t/gemm.cu %t/gemm.weights | FileCheck %s --check-prefix=WEIGHTS
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/gemm.cu -o %t/gemm.o %}
// RUN: not prec-translate --emit-cuda %S/Inputs/gemm-types-errors.mlir -split-input-file --output-dir=%t --engine-name=bad 2>&1 | FileCheck %s --check-prefix=ERROR

// The weight [[0, 1, 2], [3, 4, 5]] (K = 2, N = 3) stored as [N, K].
// WEIGHTS: [0, 3, 6, 9, 12, 15]

// CHECK: #include <cuda_fp8.h>
// No kernel transposes: both transposes are read by their GEMMs.
// CHECK-NOT: __global__ void {{.*}}transpose
// CHECK: float alpha{{[0-9]+}} = 0x1p-5f;
// CHECK-LABEL: extern "C" int gemm_create(
// The i8 GEMM: B (the transpose's input) with op T, A as it is, i32 out.
// CHECK: cublasLtMatmulDescCreate(&e->desc[[I8:[0-9]+]], CUBLAS_COMPUTE_32I, CUDA_R_32I)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->la[[I8]], CUDA_R_8I, 32, 48, 32)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->lb[[I8]], CUDA_R_8I, 32, 64, 32)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->lc[[I8]], CUDA_R_32I, 48, 64, 48)
// CHECK: CUBLASLT_MATMUL_DESC_TRANSA, &transpose
// The f8 GEMM: E4M3 x E5M2, f32 accumulation written as f16.
// CHECK: cublasLtMatmulDescCreate(&e->desc[[F8:[0-9]+]], CUBLAS_COMPUTE_32F, CUDA_R_32F)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->la[[F8]], CUDA_R_8F_E5M2, 32, 48, 32)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->lb[[F8]], CUDA_R_8F_E4M3, 32, 64, 32)
// CHECK-NEXT: cublasLtMatrixLayoutCreate(&e->lc[[F8]], CUDA_R_16F, 48, 64, 48)
// CHECK: CUBLASLT_MATMUL_DESC_TRANSA, &transpose
// An f16 GEMM folds its transpose too.
// CHECK: cublasLtMatrixLayoutCreate(&e->la[[F16:[0-9]+]], CUDA_R_16F, 32, 48, 32)
// CHECK: CUBLASLT_MATMUL_DESC_TRANSA, &transpose
// The i8 weight, stored transposed.
// CHECK: cublasLtMatrixLayoutCreate(&e->la[[W:[0-9]+]], CUDA_R_8I, 16, 3, 16)
// CHECK-LABEL: static int gemm_enqueue(
// CHECK-NEXT: // tosa.matmul 'i8': 64x48x32, batch 1, B transposed
// CHECK-NEXT: cublasLtMatmul(e->lt, e->desc[[I8]], &e->int_one, ((int8_t *)bindings[1]), e->la[[I8]], ((int8_t *)bindings[0]), e->lb[[I8]], &e->int_zero,
// CHECK-NEXT: // tosa.matmul 'f8': 64x48x32, batch 1, B transposed, alpha 0x1p-5f
// CHECK-NEXT: cublasLtMatmul(e->lt, e->desc[[F8]], &e->alpha[[F8]], ((__nv_fp8_e5m2 *)bindings[3]), e->la[[F8]], ((__nv_fp8_e4m3 *)bindings[2]), e->lb[[F8]], &e->float_zero,
// CHECK-NEXT: // tosa.matmul 'f16': 64x48x32, batch 1, B transposed
// CHECK: // tosa.matmul 'i8.weight': 4x3x16, batch 1, B transposed

// ERROR: error: {{.*}}the CUDA emitter cannot generate 'tosa.matmul': an i8 GEMM needs i8 operands with zero points 0 and an i32 result
// ERROR: error: {{.*}}the CUDA emitter cannot generate 'tosa.matmul': an f8 GEMM needs an E4M3 operand, the other E4M3 or E5M2, and an f32 accumulator
// ERROR: error: {{.*}}the CUDA emitter cannot generate 'tosa.matmul': cuBLASLt's f8 GEMMs need N, the output columns, to be a multiple of 8; it is 3
func.func @main(%a: tensor<1x64x32xi8> loc("a"), %bt: tensor<1x48x32xi8> loc("bt"),
                %fa: tensor<1x64x32xf8E4M3FN> loc("fa"), %fbt: tensor<1x48x32xf8E5M2> loc("fbt"),
                %ha: tensor<1x64x32xf16> loc("ha"), %hbt: tensor<1x48x32xf16> loc("hbt"),
                %wa: tensor<1x4x16xi8> loc("wa"))
    -> (tensor<1x64x48xi32>, tensor<1x64x48xf16>, tensor<1x64x48xf32>, tensor<1x4x3xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %fzp2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %hzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %scale = "tosa.const"() <{values = dense<0.03125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<[[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14], [15, 16, 17], [18, 19, 20], [21, 22, 23], [24, 25, 26], [27, 28, 29], [30, 31, 32], [33, 34, 35], [36, 37, 38], [39, 40, 41], [42, 43, 44], [45, 46, 47]]]> : tensor<1x16x3xi8>}> : () -> tensor<1x16x3xi8>
  %b = tosa.transpose %bt {perms = array<i32: 0, 2, 1>} : (tensor<1x48x32xi8>) -> tensor<1x32x48xi8>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x64x32xi8>, tensor<1x32x48xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x64x48xi32> loc("i8")
  %fb = tosa.transpose %fbt {perms = array<i32: 0, 2, 1>} : (tensor<1x48x32xf8E5M2>) -> tensor<1x32x48xf8E5M2>
  %facc = tosa.matmul %fa, %fb, %fzp, %fzp2 : (tensor<1x64x32xf8E4M3FN>, tensor<1x32x48xf8E5M2>, tensor<1xf8E4M3FN>, tensor<1xf8E5M2>) -> tensor<1x64x48xf32> loc("f8")
  %fs = tosa.mul %facc, %scale, %shift : (tensor<1x64x48xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x64x48xf32>
  %fy = tosa.cast %fs {precision.epilogue} : (tensor<1x64x48xf32>) -> tensor<1x64x48xf16>
  %hb = tosa.transpose %hbt {perms = array<i32: 0, 2, 1>} : (tensor<1x48x32xf16>) -> tensor<1x32x48xf16>
  %hy = tosa.matmul %ha, %hb, %hzp, %hzp : (tensor<1x64x32xf16>, tensor<1x32x48xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x64x48xf32> loc("f16")
  %wy = tosa.matmul %wa, %w, %zp, %zp : (tensor<1x4x16xi8>, tensor<1x16x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x3xi32> loc("i8.weight")
  return %c, %fy, %hy, %wy : tensor<1x64x48xi32>, tensor<1x64x48xf16>, tensor<1x64x48xf32>, tensor<1x4x3xi32>
}
