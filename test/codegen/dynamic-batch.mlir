// An engine with a dynamic batch (TRTorch's Input(min, opt, max)): the
// module is at the largest batch, 4; the engine runs any batch in [1, 4].
// Kernels over batched tensors take their extent as a parameter, launches
// scale with e->batch, and GEMMs resize (and choose their algorithm again)
// when the batch changes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-legalize="enabled=f16 target=sm_90" -o %t/legal.mlir 2>/dev/null
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=dyn --batch=1:2:4 --conv=im2col
// RUN: FileCheck %s < %t/dyn.cu
// RUN: FileCheck %s --check-prefix=HEADER < %t/dyn.h
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/dyn.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/dyn.cu -o %t/dyn.o %}
// Through cuDNN, the convolution's N follows the batch and its algorithm is
// measured again within the workspace allocated for the largest batch.
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=dyn_cudnn --batch=1:2:4 --conv=cudnn
// RUN: FileCheck %s --check-prefix=CUDNN < %t/dyn_cudnn.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/dyn_cudnn.cu -o %t/dyn_cudnn.o %}
// CUDNN-LABEL: static int dyn_cudnn_resize(
// CUDNN: cudnnSetTensor4dDescriptor(e->cx[[C:[0-9]+]], CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, (int)(1LL * b), 3, 8, 8)
// CUDNN-NEXT: cudnnSetTensor4dDescriptor(e->cy[[C]], CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, (int)(1LL * b), 4, 8, 8)
// CUDNN-NEXT: prec_find_conv_algo(e->dnn, e->cx[[C]], e->cw[[C]], e->cc[[C]], e->cy[[C]], e->dnn_workspace_bytes, &e->calgo[[C]])
// CUDNN: if (bytes > e->dnn_workspace_bytes) return 40101;
// CUDNN-LABEL: extern "C" int dyn_cudnn_create(
// The workspace is allocated (at the largest batch) before the engine
// resizes to the optimum.
// CUDNN: cudaMalloc(&e->dnn_workspace, e->dnn_workspace_bytes)
// CUDNN-NEXT: if (int s_ = dyn_cudnn_resize(e)) return s_;
// The same module without --batch is a static engine.
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=static
// RUN: FileCheck %s --check-prefix=STATIC < %t/static.cu

// Indices fit in 32 bits at the largest batch, so the extent is an int.
// CHECK: // im2col for tosa.conv2d conv
// CHECK-NEXT: __global__ void k{{[0-9]+}}_conv2d({{.*}}, int extent) {
// CHECK: if (i >= extent) break;
// The softmax's rows, one a sample, run four to a block of four warps:
// the last block's warps past the batch's rows leave.
// CHECK: // row kernel: 4 rows of 6, 4 rows of 32 threads a block, for
// CHECK: __global__ void k{{[0-9]+}}_mul({{.*}}, int extent) {
// CHECK: const int row = blockIdx.x * 4 + threadIdx.x / 32;
// CHECK-NEXT: if (row >= extent) return;
// CHECK: int batch = 2, configured_batch = 0;
// The convolution's GEMM has a column per output position, 64 a sample;
// the linear layer's rows of A (one a sample) are columns of cuBLASLt's B
// and D.
// CHECK-LABEL: static int dyn_resize(dyn_engine *e) {
// CHECK-NEXT: const long long b = e->batch;
// CHECK-NEXT: prec_set_columns(e->lb{{[0-9]+}}, 64LL * b);
// CHECK-NEXT: prec_set_columns(e->lc{{[0-9]+}}, 64LL * b);
// CHECK-NEXT: if (int s_ = prec_pick_algo(
// CHECK-NEXT: prec_set_columns(e->lb{{[0-9]+}}, 1LL * b);
// CHECK-NEXT: prec_set_columns(e->lc{{[0-9]+}}, 1LL * b);
// CHECK-NEXT: if (int s_ = prec_pick_algo(
// CHECK-NEXT: e->configured_batch = e->batch;
// CHECK-LABEL: extern "C" int dyn_set_batch(dyn_engine *e, int batch) {
// CHECK-NEXT: if (batch < 1 || batch > 4) return PREC_STATUS_BATCH_OUT_OF_RANGE;
// A new batch resizes here, so that runs never allocate.
// CHECK-NEXT: e->batch = batch;
// CHECK-NEXT: return e->configured_batch == batch ? 0 : dyn_resize(e);
// CHECK-LABEL: extern "C" int dyn_create(
// CHECK: if (int s_ = dyn_resize(e)) return s_;
// CHECK-LABEL: static int dyn_enqueue(
// CHECK-NEXT: if (e->configured_batch != e->batch) {
// CHECK-NEXT: if (int s_ = dyn_resize(e)) return s_;
// The input's conversion: 192 elements a sample.
// CHECK: , (int)((192LL * e->batch + 1023) / 1024), 256, 0, stream, {{.*}}, 192LL * e->batch);
// The im2col covers 64 positions x 27 a sample.
// CHECK: , (int)((1728LL * e->batch + 1023) / 1024), 256, 0, stream, {{.*}}, 1728LL * e->batch);
// The softmax's row kernel: a block per four samples.
// CHECK: // row kernel ending at
// CHECK-NEXT: , (int)((1LL * e->batch + 3) / 4), 128, 0, stream, {{.*}}, 1LL * e->batch);
// A graph captured at one batch is not replayed at another.
// CHECK-LABEL: extern "C" int dyn_run_graph(
// CHECK: status = prec_graph_run(&e->graph, bindings, 2, e->batch, stream,

// HEADER: void dyn_batch_range(int *min, int *opt, int *max);
// HEADER: int dyn_set_batch(dyn_engine *engine, int batch);

// MANIFEST: "batch": {
// MANIFEST-NEXT: "max": 4,
// MANIFEST-NEXT: "min": 1,
// MANIFEST-NEXT: "opt": 2
// MANIFEST: "batched": true,
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "input": true,
// MANIFEST-NEXT: "name": "x",
// MANIFEST: "batched": true,
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "input": false,

// STATIC-NOT: extent
// STATIC-NOT: _resize
// STATIC-NOT: static_set_batch
func.func @main(%x: tensor<4x8x8x3xf32> loc("x")) -> tensor<4x6xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %fc = "tosa.const"() <{values = dense<0.25> : tensor<1x4x6xf32>}> : () -> tensor<1x4x6xf32>
  %fcb = "tosa.const"() <{values = dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x6xf32>}> : () -> tensor<1x1x6xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s3 = tosa.const_shape {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<4x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8x4xf32> loc("conv")
  %r = tosa.clamp %c {max_val = 3.40282347e+38 : f32, min_val = 0.0 : f32} : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x4xf32> loc("relu")
  %p = tosa.avg_pool2d %r, %zp, %zp {acc_type = f32, kernel = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8, 8>} : (tensor<4x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x1x4xf32> loc("pool")
  %f = tosa.reshape %p, %s3 : (tensor<4x1x1x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
  %h = tosa.matmul %f, %fc, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32> loc("fc")
  %hb = tosa.add %h, %fcb : (tensor<1x4x6xf32>, tensor<1x1x6xf32>) -> tensor<1x4x6xf32> loc("fc.bias")
  %l = tosa.reshape %hb, %s2 : (tensor<1x4x6xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  %m = tosa.reduce_max %l {axis = 1 : i32} : (tensor<4x6xf32>) -> tensor<4x1xf32> loc("softmax.max")
  %d = tosa.sub %l, %m : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32> loc("softmax.shift")
  %e = tosa.exp %d : (tensor<4x6xf32>) -> tensor<4x6xf32> loc("softmax.exp")
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x6xf32>) -> tensor<4x1xf32> loc("softmax.sum")
  %i = tosa.reciprocal %s : (tensor<4x1xf32>) -> tensor<4x1xf32> loc("softmax.reciprocal")
  %y = tosa.mul %e, %i, %shift : (tensor<4x6xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x6xf32> loc("softmax.scale")
  return %y : tensor<4x6xf32>
}
