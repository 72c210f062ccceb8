// A linear layer, a residual and a LayerNorm, legalized to f16 (LayerNorm
// statistics in f32), as a CUDA engine: the GEMM adds the bias in its
// epilogue, reading the f16 bias its widening came from; the residual, the
// whole LayerNorm and the conversion to the f32 output run as one row kernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-legalize="enabled=f16 target=sm_90" -o %t/legal.mlir 2>/dev/null
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=ln
// RUN: FileCheck %s < %t/ln.cu
// RUN: FileCheck %s --check-prefix=HELPERS < %t/ln.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/ln.cu -o %t/ln.o %}

// The reductions combine a row's threads, warp partials in order.
// Candidate algorithms are timed, the bias pointing at scratch meanwhile.
// HELPERS: cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, c, preference, 8, results, &found);
// HELPERS: if (biasBytes) cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &pbias, sizeof(pbias));
// HELPERS: if (i == 0 || ms < best) {
// CHECK: __device__ __forceinline__ float prec_row_reduce(float v, float *partial)
// 8 rows of 48: a warp per row, four rows a block, two elements a thread,
// the second only for the first 16 threads. The row moves an element at a
// time: 48 elements make fewer than 32 runs of two.
// CHECK: // row kernel: 8 rows of 48, 4 rows of 32 threads a block, for
// CHECK-NEXT: //   tosa.add residual
// CHECK: //   tosa.reduce_sum norm.sum
// CHECK: //   tosa.reduce_sum norm.var_sum
// CHECK: //   tosa.add norm.beta
// CHECK-NEXT: //   tosa.cast
// CHECK: __global__ void [[ROW:k[0-9]+_[a-z]+]](
// CHECK: const int row = blockIdx.x * 4 + threadIdx.x / 32;
// CHECK-NEXT: if (row >= 8) return;
// CHECK-NEXT: const int lane = threadIdx.x % 32;
// CHECK: for (int e = 0; e < 2; ++e) {
// CHECK-NEXT: {{\[\[maybe_unused\]\]}} const int j = lane + e * 32;
// CHECK-NEXT: if (j >= 48) break;
// The residual rounds to f16; its two operands are rows read directly.
// CHECK-NEXT: = __half2float((__float2half_rn(__fadd_rn((__half2float(in0[row * 48 + j])), (__half2float(in1[row * 48 + j]))))));
// CHECK: = prec_row_reduce<false, 1>(
// The statistics stay in f32 registers: the mean uses a literal, 1/48 in
// f32, not a load; the square and its sum are not rounded to f16.
// CHECK: __fmul_rn(({{s[0-9]+}}), (0x1.555556p-6f))
// CHECK: = __fmul_rn(([[C:f[0-9]+]][e]), ([[C]][e]));
// CHECK-NEXT: }
// CHECK: = prec_row_reduce<false, 1>(
// CHECK: = 1.0f / sqrtf((
// The normalized output is rounded to the f16 its input came in.
// CHECK: = __half2float((__float2half_rn(({{f[0-9]+}}[e]))));
// gamma and beta are vectors along the row: read at j.
// CHECK: [j]
// CHECK: out0[row * 48 + j] =
// CHECK-NOT: __global__ void
// No kernel for the bias's widening nor for the bias add.
// CHECK-LABEL: extern "C" int ln_create(
// CHECK: cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
// CHECK: PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{{[0-9]+}}, CUBLASLT_MATMUL_DESC_EPILOGUE
// CHECK-NEXT: }
// The algorithm is chosen for the epilogue, timed on scratch operands of
// the GEMM's sizes: B 48x48, A 8x48 and D 8x48 in f16, the bias 48 in f16.
// CHECK-NEXT: prec_pick_algo(e->lt, e->workspace, e->desc[[D:[0-9]+]], e->la[[D]], e->lb[[D]], e->lc[[D]], &e->float_one, &e->float_zero, 4608ULL, 768ULL, 768ULL, 96ULL, &e->algo[[D]])
// Only the input's conversion to f16 runs before the GEMM.
// CHECK-LABEL: static int ln_enqueue(
// CHECK-NEXT: // tosa.cast
// CHECK-NEXT: prec_launch(e->early_launch,
// CHECK-NEXT: // tosa.matmul 'linear': 8x48x48, batch 1, bias epilogue
// CHECK-NEXT: { const void *bias = ((__half *)(e->weights + {{[0-9]+}})); PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{{[0-9]+}}, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias))); }
// CHECK-NEXT: cublasLtMatmul(
// CHECK: // row kernel ending at tosa.cast
// CHECK-NEXT: prec_launch(e->early_launch, [[ROW]], 2, 128, 0, stream, 
func.func @main(%x: tensor<1x8x48xf32> loc("x")) -> tensor<1x8x48xf32> {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<1x48x48xf32>}> : () -> tensor<1x48x48xf32>
  %b = "tosa.const"() <{values = dense<[[[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5, 16.0, 16.5, 17.0, 17.5, 18.0, 18.5, 19.0, 19.5, 20.0, 20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5]]]> : tensor<1x1x48xf32>}> : () -> tensor<1x1x48xf32>
  %gamma = "tosa.const"() <{values = dense<[[[1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]]]> : tensor<1x1x48xf32>}> : () -> tensor<1x1x48xf32>
  %beta = "tosa.const"() <{values = dense<[[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]]]> : tensor<1x1x48xf32>}> : () -> tensor<1x1x48xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.0208333333> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %h = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x48xf32>, tensor<1x48x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x48xf32> loc("linear")
  %hb = tosa.add %h, %b : (tensor<1x8x48xf32>, tensor<1x1x48xf32>) -> tensor<1x8x48xf32> loc("linear.bias")
  %r = tosa.add %hb, %x : (tensor<1x8x48xf32>, tensor<1x8x48xf32>) -> tensor<1x8x48xf32> loc("residual")
  %sum = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x8x48xf32>) -> tensor<1x8x1xf32> loc("norm.sum")
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<1x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x1xf32> loc("norm.mean")
  %c = tosa.sub %r, %mean : (tensor<1x8x48xf32>, tensor<1x8x1xf32>) -> tensor<1x8x48xf32> loc("norm.center")
  %c2 = tosa.mul %c, %c, %shift : (tensor<1x8x48xf32>, tensor<1x8x48xf32>, tensor<1xi8>) -> tensor<1x8x48xf32> loc("norm.square")
  %vsum = tosa.reduce_sum %c2 {axis = 2 : i32} : (tensor<1x8x48xf32>) -> tensor<1x8x1xf32> loc("norm.var_sum")
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<1x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x1xf32> loc("norm.var")
  %ve = tosa.add %var, %eps : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32> loc("norm.eps")
  %inv = tosa.rsqrt %ve : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32> loc("norm.rsqrt")
  %n = tosa.mul %c, %inv, %shift : (tensor<1x8x48xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x48xf32> loc("norm.scale")
  %ng = tosa.mul %n, %gamma, %shift : (tensor<1x8x48xf32>, tensor<1x1x48xf32>, tensor<1xi8>) -> tensor<1x8x48xf32> loc("norm.gamma")
  %nb = tosa.add %ng, %beta : (tensor<1x8x48xf32>, tensor<1x1x48xf32>) -> tensor<1x8x48xf32> loc("norm.beta")
  return %nb : tensor<1x8x48xf32>
}
