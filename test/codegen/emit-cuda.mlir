// The Polygraphy example, legalized to f16 for an H100, as a CUDA engine:
// the .cu, and beside it the header, weights and manifest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90" -o %t/model.mlir 2>/dev/null
// RUN: prec-translate --emit-cuda %t/model.mlir --output-dir=%t --engine-name=needs_constraints
// RUN: FileCheck %s --check-prefix=CU < %t/needs_constraints.cu
// RUN: FileCheck %s --check-prefix=HEADER < %t/needs_constraints.h
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/needs_constraints.json
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[:8], int.from_bytes(d[16:24], 'little'), len(d) - 32)" %t/needs_constraints.weights | FileCheck %s --check-prefix=WEIGHTS

// The f32 input is cast to f16 for the first matmul, which cuBLASLt runs on
// f16 operands accumulating in f32; Add and Sub (promoted) run in f32.
// CU: #include "needs_constraints.h"
// CU: // tosa.cast
// CU-NEXT: __global__ void k0_cast(const float *__restrict__ in0, __half *__restrict__ out)
// The kernel may start before the one ahead of it ends, and waits for it.
// CU-NEXT: prec_kernel_start();
// Each thread loads four elements, 256 apart, before it computes any.
// CU-NEXT: float v0[4];
// Every index space fits in 32 bits, so indices are ints (64-bit division
// is emulated on the GPU).
// CU-NEXT: const int base = blockIdx.x * 1024 + threadIdx.x;
// The one block overruns the 4 elements: each thread checks its index.
// CU: if (i >= 4) break;
// CU: v0[k] = (in0[o0]);
// CU: float a0 = v0[k];
// CU: out[i] = __float2half_rn(r);
// Add and Sub are elementwise over the same shape as the cast after them:
// one fused kernel computes all three, rounding after every op. The splat
// constant fp16_max (65504) is a literal, not a load.
// CU: // fused: tosa.add Add
// CU-NEXT: // fused: tosa.sub Sub
// CU-NEXT: // tosa.cast
// CU-NEXT: __global__ void k{{[0-9]+}}_cast(const float *__restrict__ in0, __half *__restrict__ out)
// Its f32 input (the arena's) loads runs of 2 as 8 bytes, and the f16
// results store as 4.
// CU: *reinterpret_cast<uint2 *>(v0[k]) = *reinterpret_cast<const uint2 *>(in0 + i0);
// CU: float r = (__fsub_rn((__fadd_rn((a0), (0x1.ffcp+15f))), (0x1.ffcp+15f)));
// CU: w[l] = __float2half_rn(r);
// CU: *reinterpret_cast<unsigned *>(out + i0) = *reinterpret_cast<const unsigned *>(w);
// CU: cublasLtMatmulDescCreate(&e->desc1, CUBLAS_COMPUTE_32F, CUDA_R_32F)
// CU: cublasLtMatrixLayoutCreate(&e->la1, CUDA_R_16F, 2, 2, 2)
// CU: cublasLtMatrixLayoutCreate(&e->lc1, CUDA_R_32F, 2, 2, 2)
// CU-LABEL: static int needs_constraints_enqueue(
// CU: // tosa.matmul 'MatMul': 2x2x2, batch 1
// CU-NEXT: cublasLtMatmul(e->lt, e->desc1,
// CU: // tosa.cast
// The last matmul writes the output binding itself: no copy at the end.
// CU: // tosa.matmul 'MatMul_1': 2x2x2, batch 1
// CU-NEXT: cublasLtMatmul({{.*}}((float *)bindings[1]), e->lc{{[0-9]+}}, ((float *)bindings[1])
// CU-NOT: cudaMemcpyAsync
// CU-NOT: cudaMalloc
// CU: PREC_CHECK(cudaGetLastError());
// CU-NEXT: return 0;
// A run first claims the engine for its stream (engine-status.mlir), then
// enqueues its work there.
// CU-LABEL: extern "C" int needs_constraints_run(
// CU-NEXT: int status = prec_guard_enter(&e->guard, stream);
// CU-NEXT: if (status != 0) return status;
// CU-NEXT: status = needs_constraints_enqueue(e, bindings, stream);
// CU-NEXT: int recorded = prec_guard_leave(&e->guard, stream);
// run_graph captures the same work, on the graph's own stream, for its
// two bindings and no dynamic batch.
// CU-LABEL: extern "C" int needs_constraints_run_graph(
// CU-NEXT: int status = prec_guard_enter(&e->guard, stream);
// CU-NEXT: if (status != 0) return status;
// CU-NEXT: status = prec_graph_run(&e->graph, bindings, 2, 0, stream,
// CU-NEXT: [&](cudaStream_t capture) { return needs_constraints_enqueue(e, bindings, capture); });
// CU: extern "C" void needs_constraints_destroy(
// Destroying the engine releases both GEMMs' cuBLASLt descriptors and layouts.
// CU-NEXT: if (!e) return;
// CU-NEXT: if (e->desc1) cublasLtMatmulDescDestroy(e->desc1);
// CU-NEXT: if (e->la1) cublasLtMatrixLayoutDestroy(e->la1);
// CU-NEXT: if (e->lb1) cublasLtMatrixLayoutDestroy(e->lb1);
// CU-NEXT: if (e->lc1) cublasLtMatrixLayoutDestroy(e->lc1);
// CU-NEXT: if (e->desc3) cublasLtMatmulDescDestroy(e->desc3);

// HEADER: int needs_constraints_create(const char *weights_path, needs_constraints_engine **engine);
// HEADER: int needs_constraints_run(needs_constraints_engine *engine, void *const *bindings, cudaStream_t stream);
// HEADER: int needs_constraints_run_graph(needs_constraints_engine *engine, void *const *bindings, cudaStream_t stream);
// HEADER: const char *needs_constraints_status_message(int status);
// HEADER: void needs_constraints_destroy(needs_constraints_engine *engine);
// HEADER: int needs_constraints_num_bindings(void);
// HEADER: const long long *needs_constraints_binding_shape(int index);

// MANIFEST: "bindings": [
// MANIFEST: "dtype": "f32",
// MANIFEST-NEXT: "input": true,
// MANIFEST-NEXT: "name": "x",
// MANIFEST: "engine": "needs_constraints",
// MANIFEST: "accumulate": "f32",
// MANIFEST-NEXT: "compute": "f16",
// MANIFEST-NEXT: "name": "MatMul",
// MANIFEST-NEXT: "op": "tosa.matmul",
// MANIFEST-NEXT: "storage": "f32"
// MANIFEST: "target": "sm_90",
// MANIFEST: "workspace_bytes": 33554432

// Every constant the engine reads, 256-byte aligned: the rot90 weights in
// f16, FP16_MAX in f32 and the matmul zero point in f16 (the unused i8
// shift stays out).
// WEIGHTS: b'PRECWTS2' 514 514

// The engine compiles for Ampere and Hopper.
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/needs_constraints.cu -o %t/engine80.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/needs_constraints.cu -o %t/engine90.o %}

// The TRTorch example: two convolutions (conv2 pinned to f16), each
// followed by max pooling and the ReLU clamp.
// RUN: prec-opt %prec_src/examples/trtorch_conv_region.mlir --prec-legalize -o %t/conv.mlir
// RUN: prec-translate --emit-cuda %t/conv.mlir --conv=cudnn --output-dir=%t --engine-name=trtorch
// RUN: FileCheck %s --check-prefix=CONV < %t/trtorch.cu
// RUN: prec-translate --emit-cuda %t/conv.mlir --output-dir=%t --engine-name=trtorch_im2col
// RUN: FileCheck %s --check-prefix=IM2COL < %t/trtorch_im2col.cu
// The plan the emitter follows, in IR: each convolution's algorithm and
// the kernel of every op (casts, pooling and the clamp run alone: the pool
// between a convolution and its ReLU keeps the ReLU out of the epilogue).
// RUN: prec-opt %t/conv.mlir --prec-lower-to-gpu --prec-plan-engine | FileCheck %s --check-prefix=PLAN
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<im2col>, engine.kernel = #engine.kernel<0, contraction>
// PLAN-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<1, single>
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<im2col>, engine.kernel = #engine.kernel<2, contraction>
// PLAN-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<3, single>
// PLAN-NEXT: tosa.max_pool2d {{.*}}engine.kernel = #engine.kernel<4, single>
// PLAN-NEXT: tosa.clamp {{.*}}engine.kernel = #engine.kernel<5, single>
// The pipeline takes --emit-cuda's options: with cuDNN the convolutions
// need no im2col columns, and the arena shrinks from 23808 bytes to 4608 (the manifests'
// activation_bytes).
// RUN: prec-opt %t/conv.mlir --prec-lower-to-gpu --prec-plan-engine | FileCheck %s --check-prefix=PLAN-ARENA
// PLAN-ARENA: func.func @forward{{.*}}engine.arena_bytes = 23808 : i64
// RUN: prec-opt %t/conv.mlir --prec-lower-to-gpu --prec-plan-engine="conv=cudnn" | FileCheck %s --check-prefix=PLAN-CUDNN
// PLAN-CUDNN: func.func @forward{{.*}}engine.arena_bytes = 4608 : i64
// PLAN-CUDNN-COUNT-2: engine.conv_algorithm = #engine.conv_algorithm<cudnn>
// RUN: not prec-opt %t/conv.mlir --prec-lower-to-gpu --prec-plan-engine="batch=4:2:8" 2>&1 | FileCheck %s --check-prefix=PLAN-BATCH
// PLAN-BATCH: for the --batch option: '4:2:8' needs 1 <= MIN <= OPT <= MAX and MAX >= 2
// With --conv=cudnn the 3x3 convolutions run through cuDNN, conv1 in f32 without
// tensor cores (they would round its operands to TF32), conv2 on f16 with an
// f32 accumulator; a max pool sits between each and the ReLU, so the bias
// alone goes with the convolution (cuDNN's identity activation, which needs
// the implicit precomputed GEMM).
// CONV: #include <cudnn.h>
// CONV: cudnnSetTensor4dDescriptor(e->cx[[C1:[0-9]+]], CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 1, 3, 16, 16)
// CONV: cudnnSetFilter4dDescriptor(e->cw[[C1]], CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, 3, 3, 3, 3)
// CONV: cudnnSetConvolution2dDescriptor(e->cc[[C1]], 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT)
// CONV-NEXT: cudnnSetConvolutionMathType(e->cc[[C1]], CUDNN_FMA_MATH)
// CONV: CUDNN_ACTIVATION_IDENTITY
// CONV-NEXT: e->calgo[[C1]] = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
// CONV: cudnnSetTensor4dDescriptor(e->cx[[C2:[0-9]+]], CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, 3, 14, 14)
// CONV: cudnnSetConvolution2dDescriptor(e->cc[[C2]], 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT)
// CONV-NEXT: cudnnSetConvolutionMathType(e->cc[[C2]], CUDNN_TENSOR_OP_MATH)
// The one workspace, as large as the largest algorithm's, made at creation.
// CONV: cudaMalloc(&e->dnn_workspace, e->dnn_workspace_bytes)
// CONV-LABEL: static int trtorch_enqueue(
// CONV: cudnnSetStream(e->dnn, stream)
// CONV: // tosa.conv2d 'conv1': 3x3, cuDNN with the bias in the same call
// CONV-NEXT: cudnnConvolutionBiasActivationForward(e->dnn, &e->float_one, e->cx[[C1]],
// CONV: // tosa.conv2d 'conv2': 3x3, cuDNN with the bias in the same call
// CONV: // tosa.max_pool2d 'pool'
// CONV-LABEL: extern "C" void trtorch_destroy(
// CONV: cudnnDestroyTensorDescriptor(e->cx[[C1]]);
// CONV: cudnnDestroy(e->dnn);
// By default (--conv=auto) convolutions this small (far below 1 GFLOP) are
// an im2col kernel and a cuBLASLt GEMM adding the bias in its accumulator
// (the pinned one on f16 operands with an f32 accumulator).
// IM2COL-NOT: cudnn
// IM2COL: // im2col for tosa.conv2d conv1
// IM2COL-NEXT: __global__ void k{{[0-9]+}}_conv2d(const float *__restrict__ in0, float *__restrict__ out)
// IM2COL: // im2col for tosa.conv2d conv2
// IM2COL-NEXT: __global__ void k{{[0-9]+}}_conv2d(const __half *__restrict__ in0, __half *__restrict__ out)
// IM2COL: // tosa.max_pool2d pool
// IM2COL: acc[l] = fmaxf(acc[l], (v[l]));
// IM2COL: // tosa.clamp relu
// IM2COL: cublasLtMatmulDescCreate(&e->desc{{[0-9]+}}, CUBLAS_COMPUTE_32F, CUDA_R_32F)
// IM2COL: CUBLASLT_EPILOGUE_BIAS
// IM2COL: cublasLtMatrixLayoutCreate(&e->la{{[0-9]+}}, CUDA_R_16F, 27, 3, 27)
// IM2COL: cublasLtMatrixLayoutCreate(&e->lb{{[0-9]+}}, CUDA_R_16F, 27, 144, 27)
// IM2COL: cublasLtMatrixLayoutCreate(&e->lc{{[0-9]+}}, CUDA_R_16F, 3, 144, 3)
// IM2COL: static int trtorch_im2col_enqueue(
// IM2COL: // tosa.conv2d 'conv2': im2col, then a GEMM 144x3x27 with the bias epilogue
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/trtorch.cu -o %t/trtorch80.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/trtorch.cu -o %t/trtorch90.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/trtorch_im2col.cu -o %t/trtorch_im2col.o %}

// Unsupported input is an error naming the op.
// RUN: not prec-translate --emit-cuda %s --output-dir=%t --engine-name=unsupported 2>&1 | FileCheck %s --check-prefix=UNSUPPORTED-OP
// UNSUPPORTED-OP: error: the CUDA emitter cannot generate 'tosa.bitwise_not': no kernel for this op yet
// RUN: not prec-translate --emit-cuda %prec_src/examples/trtorch_conv_region.mlir --output-dir=%t --engine-name=region 2>&1 | FileCheck %s --check-prefix=REGION
// REGION: error: precision.region must be legalized first: run prec-legalize

// The engine's files go to --output-dir, created if missing, under
// --engine-name: an identifier, since it prefixes the C functions.
// RUN: prec-translate --emit-cuda %t/model.mlir --output-dir=%t/new/dir
// RUN: ls %t/new/dir | FileCheck %s --check-prefix=FILES
// FILES: engine.cu
// FILES-NEXT: engine.h
// FILES-NEXT: engine.json
// FILES-NEXT: engine.weights
// RUN: FileCheck %s --check-prefix=NAMED < %t/new/dir/engine.h
// NAMED: int engine_create(const char *weights_path, engine_engine **engine);
// RUN: not prec-translate --emit-cuda %t/model.mlir -o %t/x.cu 2>&1 | FileCheck %s --check-prefix=NO-DIR
// NO-DIR: error: --emit-cuda writes four files: name their directory with --output-dir
// RUN: not prec-translate --emit-cuda %t/model.mlir --output-dir=%t --engine-name=3d-net 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: the engine name '3d-net' must be an identifier, other than prec or prec_*: it prefixes the engine's C functions
// RUN: touch %t/file
// RUN: not prec-translate --emit-cuda %t/model.mlir --output-dir=%t/file/sub 2>&1 | FileCheck %s --check-prefix=NOT-DIR
// NOT-DIR: error: cannot create the output directory '{{.*}}file/sub':
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = tosa.bitwise_not %x : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
