// Convolutions pinned to i8 and f8 by precision.region, as CUDA engines:
// im2col and a cuBLASLt GEMM on the quantized operands (i8 accumulating in
// i32 with integer alpha and beta, f8 in f32), with no epilogue (the bias
// is added after the dequantization, in the elementwise kernel after the
// GEMM), never through cuDNN. K = 3 x 3 x 2 = 18 is padded to 32 (zero
// columns, zero weights): cuBLASLt's 8-bit GEMMs want multiples of 16.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %S/../runtime/Inputs/quantized_linear.mlir --prec-legalize="target=cpu enabled=f16" -o %t/legal.mlir
// The emitter takes @main: each convolution's function on its own.
// RUN: %python -c "import re, sys; text = open(sys.argv[1]).read(); name = sys.argv[2]; start = text.index('func.func @' + name + '('); end = text.index('\n  }\n', start) + 4; print('module {\n' + text[start:end].replace('@' + name + '(', '@main(', 1) + '\n}')" %t/legal.mlir i8_conv > %t/i8.mlir
// RUN: %python -c "import re, sys; text = open(sys.argv[1]).read(); name = sys.argv[2]; start = text.index('func.func @' + name + '('); end = text.index('\n  }\n', start) + 4; print('module {\n' + text[start:end].replace('@' + name + '(', '@main(', 1) + '\n}')" %t/legal.mlir f8_conv > %t/f8.mlir
// RUN: prec-translate --emit-cuda %t/i8.mlir --conv=cudnn --output-dir=%t --engine-name=i8
// RUN: FileCheck %s --check-prefix=I8 < %t/i8.cu
// RUN: prec-translate --emit-cuda %t/f8.mlir --conv=cudnn --output-dir=%t --engine-name=f8
// RUN: FileCheck %s --check-prefix=F8 < %t/f8.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/i8.cu -o %t/i8.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/f8.cu -o %t/f8.o %}

// I8-NOT: cudnn
// I8: // im2col for tosa.conv2d conv
// I8-NEXT: __global__ void k{{[0-9]+}}_conv2d(const int8_t *__restrict__ in0, int8_t *__restrict__ out)
// I8: int k = i % 32, p = i / 32;
// I8: bool inside = k < 18 && iy >= 0
// I8: cublasLtMatmulDescCreate(&e->desc{{[0-9]+}}, CUBLAS_COMPUTE_32I, CUDA_R_32I)
// I8: cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
// I8-NOT: CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias
// I8: cublasLtMatrixLayoutCreate(&e->la{{[0-9]+}}, CUDA_R_8I, 32, 3, 32)
// I8: cublasLtMatrixLayoutCreate(&e->lc{{[0-9]+}}, CUDA_R_32I, 3, 16, 3)
// I8: // tosa.conv2d 'conv': im2col, then a GEMM 16x3x32 with the default epilogue
// I8-NEXT: prec_launch(e->early_launch, k{{[0-9]+}}_conv2d,
// I8-NEXT: cublasLtMatmul(e->lt, e->desc{{[0-9]+}}, &e->int_one,{{.*}}&e->int_zero,

// F8-NOT: cudnn
// F8: __global__ void k{{[0-9]+}}_conv2d(const __nv_fp8_e4m3 *__restrict__ in0, __nv_fp8_e4m3 *__restrict__ out)
// F8: cublasLtMatmulDescCreate(&e->desc{{[0-9]+}}, CUBLAS_COMPUTE_32F, CUDA_R_32F)
// F8: cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
// F8: cublasLtMatrixLayoutCreate(&e->la{{[0-9]+}}, CUDA_R_8F_E4M3, 32, 3, 32)
