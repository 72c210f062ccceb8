// Int8 convolutions whose C is a multiple of 16 as prec's implicit GEMM
// (runtime/ImplicitGemmConv.cuh): no im2col kernel and no columns in the
// arena; a struct per convolution is its epilogue (a bias that is not zero
// added to the int32 accumulators, an element at a time or a run of four
// filters stored as one vector), and create raises the kernel's
// shared-memory limit.
// Up to 64 filters take the kernel's 128 x 64 tiles, more its 128 x 128
// unless K is one tile of 128 bytes ('pointwise', padded so that it is
// not a plain GEMM): such blocks are mostly their epilogue, and more of 64
// filters fit an SM. The geometry is a constant of the kernel (a struct
// beside its epilogue); the kernel picks its stages and its blocks an SM
// from it, its epilogue's output and the tile width, and the grid its
// blocks a row tile's filters take: one where K is one tile (on wgmma, a
// kernel that copies the receptive fields once and loops over the filter
// tiles) and the rows give 256 blocks, else one a filter tile.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=igemm
// RUN: FileCheck %s < %t/igemm.cu
// RUN: prec-translate --emit-cuda %s --conv=im2col --output-dir=%t --engine-name=im2col
// RUN: FileCheck %s --check-prefix=IM2COL < %t/im2col.cu
// The kernel is wgmma's compiled for sm_90a, mma.sync's for sm_80:
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/igemm.cu -o %t/igemm.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/igemm.cu -o %t/igemm80.o %}

// CHECK-COUNT-1: __device__ inline void prec_copy16_async(
// CHECK-COUNT-1: __device__ inline uint64_t prec_wgmma_descriptor(
// CHECK: __device__ inline void prec_conv_s8_wgmma_one_tile(
// CHECK: constexpr int prec_conv_s8_stages =
// CHECK: constexpr int prec_conv_s8_wgmma_bytes =
// CHECK: constexpr int prec_conv_s8_mma_sync_bytes =
// CHECK: __device__ int prec_conv_s8_wgmma_compiled =
// CHECK: __host__ __device__ constexpr int prec_conv_s8_shared_bytes(bool wgmma) {
// CHECK: constexpr int prec_conv_s8_blocks =
// CHECK: constexpr int prec_conv_s8_filter_blocks(long long rows) {
// CHECK: __launch_bounds__(256, (prec_conv_s8_blocks<COLUMNS, Geometry, Epilogue>))
// CHECK-NOT: im2col
// CHECK: // tosa.conv2d window: the implicit GEMM's epilogue
// CHECK-NEXT: struct [[WINDOW:k[0-9]+_conv2d_epilogue]] {
// CHECK-NEXT: using Output = int32_t;
// CHECK-NEXT: int32_t *out;
// CHECK-NEXT: const int32_t *bias;
// CHECK-NEXT: __device__ bool aligned() const { return (uintptr_t)out % 16 == 0; }
// CHECK-NEXT: __device__ void element(long long row, long long filter, int32_t acc) const { out[row * 72 + filter] = acc + bias[filter]; }
// CHECK-NEXT: struct Loaded {};
// CHECK-NEXT: __device__ void load(long long, long long, Loaded &) const {}
// CHECK-NEXT: struct Columns {};
// CHECK-NEXT: __device__ void columns(long long, Columns &) const {}
// CHECK-NEXT: __device__ void run(long long row, long long filter, const int32_t *accs, const Loaded &, const Columns &) const {
// CHECK-NEXT: __align__(16) int32_t w[4];
// CHECK: for (int k = 0; k < 4; ++k) w[k] = accs[k] + bias[filter + k];
// CHECK-NEXT: *reinterpret_cast<uint4 *>(out + row * 72 + filter) = *reinterpret_cast<const uint4 *>(w);
// The fragment form: the int32 outputs staged a pair at a time, the bias
// read where added.
// CHECK-NEXT: }
// CHECK-NEXT: static constexpr int STAGED_ROW_BYTES = 4, STAGED_FILTER_BYTES = 0;
// CHECK: tile.put_pair(r, c, 0, make_int2(accs[0] + bias[filter], accs[1] + bias[filter + 1]));
// CHECK: tile.store_rows(out, 0); }
// CHECK: struct [[WINDOW_G:k[0-9]+_conv2d_geometry]] {
// CHECK-NEXT: static constexpr prec_conv_geometry value{8, 8, 16, 8, 8, 72, 3, 3, 1, 1, 1, 1, 1, 1};
// CHECK: // tosa.conv2d strided: the implicit GEMM's epilogue
// CHECK-NEXT: struct [[STRIDED:k[0-9]+_conv2d_epilogue]] {
// CHECK: __device__ void element(long long row, long long filter, int32_t acc) const { out[row * 5 + filter] = acc; }
// CHECK: for (int k = 0; k < 4; ++k) w[k] = accs[k];
// CHECK: struct [[STRIDED_G:k[0-9]+_conv2d_geometry]] {
// CHECK-NEXT: static constexpr prec_conv_geometry value{8, 8, 16, 4, 4, 5, 3, 3, 2, 2, 1, 1, 1, 1};
// CHECK: struct [[POINTWISE:k[0-9]+_conv2d_epilogue]] {
// CHECK: struct [[POINTWISE_G:k[0-9]+_conv2d_geometry]] {
// CHECK-NEXT: static constexpr prec_conv_geometry value{8, 8, 16, 10, 10, 80, 1, 1, 1, 1, 1, 1, 1, 1};
// The input and the output are bindings, aligned as their caller allocated
// them: the run launches the byte-by-byte copies and the element-by-element
// epilogue (ALIGNED false) where one is not 16-byte aligned. Each launch
// asks for the shared memory of the kernel the device code runs, which
// create reads first. No implicit GEMM is launched early (`false`).
// CHECK: int conv_wgmma = 0;
// CHECK: PREC_CHECK(cudaMemcpyFromSymbol(&e->conv_wgmma, prec_conv_s8_wgmma_compiled, sizeof(int)));
// CHECK-NEXT: PREC_CHECK(cudaFuncSetAttribute(prec_conv_s8<128, true, [[WINDOW_G]], [[WINDOW]]>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_conv_s8_shared_bytes<128, [[WINDOW_G]], [[WINDOW]]>(e->conv_wgmma)));
// CHECK-NEXT: PREC_CHECK(cudaFuncSetAttribute(prec_conv_s8<128, false, [[WINDOW_G]], [[WINDOW]]>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_conv_s8_shared_bytes<128, [[WINDOW_G]], [[WINDOW]]>(e->conv_wgmma)));
// CHECK: PREC_CHECK(cudaFuncSetAttribute(prec_conv_s8<64, true, [[STRIDED_G]], [[STRIDED]]>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_conv_s8_shared_bytes<64, [[STRIDED_G]], [[STRIDED]]>(e->conv_wgmma)));
// CHECK: PREC_CHECK(cudaFuncSetAttribute(prec_conv_s8<64, true, [[POINTWISE_G]], [[POINTWISE]]>, cudaFuncAttributeMaxDynamicSharedMemorySize, prec_conv_s8_shared_bytes<64, [[POINTWISE_G]], [[POINTWISE]]>(e->conv_wgmma)));
// CHECK: // tosa.conv2d 'window': 3x3, an implicit GEMM 128x72x144 with the acc + bias[filter] epilogue
// CHECK-NEXT: if ((reinterpret_cast<uintptr_t>(((int8_t *)bindings[0])) | reinterpret_cast<uintptr_t>(((int8_t *)(e->weights + 0))) | reinterpret_cast<uintptr_t>(((int32_t *)bindings[1]))) % 16 == 0)
// CHECK-NEXT: prec_launch(false, prec_conv_s8<128, true, [[WINDOW_G]], [[WINDOW]]>, dim3(1, prec_conv_s8_filter_blocks<128, [[WINDOW_G]]>(128LL)), 256, prec_conv_s8_shared_bytes<128, [[WINDOW_G]], [[WINDOW]]>(e->conv_wgmma), stream, ((int8_t *)bindings[0]), {{.*}}, 128LL, [[WINDOW]]{
// CHECK-NEXT: else
// CHECK-NEXT: prec_launch(false, prec_conv_s8<128, false, [[WINDOW_G]], [[WINDOW]]>,
// CHECK: // tosa.conv2d 'strided': 3x3, an implicit GEMM 32x5x144 with the acc epilogue
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(false, prec_conv_s8<64, true, [[STRIDED_G]], [[STRIDED]]>, dim3(1, prec_conv_s8_filter_blocks<64, [[STRIDED_G]]>(32LL)), 256, prec_conv_s8_shared_bytes<64, [[STRIDED_G]], [[STRIDED]]>(e->conv_wgmma), stream, ((int8_t *)bindings[0]), {{.*}}, 32LL, [[STRIDED]]{
// CHECK: // tosa.conv2d 'pointwise': 1x1, an implicit GEMM 200x80x16 with the acc epilogue
// CHECK: prec_launch(false, prec_conv_s8<64, true, [[POINTWISE_G]], [[POINTWISE]]>, dim3(2, prec_conv_s8_filter_blocks<64, [[POINTWISE_G]]>(200LL)), 256,

// IM2COL-NOT: prec_conv_s8
// IM2COL-NOT: prec_copy16_async
// IM2COL: // tosa.conv2d 'window': im2col, then a GEMM 128x72x144
func.func @main(%x: tensor<2x8x8x16xi8> loc("x"))
    -> (tensor<2x8x8x72xi32>, tensor<2x4x4x5xi32>, tensor<2x10x10x80xi32>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<72x3x3x16xi8>}> : () -> tensor<72x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<3> : tensor<72xi32>}> : () -> tensor<72xi32>
  %w5 = "tosa.const"() <{values = dense<-1> : tensor<5x3x3x16xi8>}> : () -> tensor<5x3x3x16xi8>
  %b5 = "tosa.const"() <{values = dense<0> : tensor<5xi32>}> : () -> tensor<5xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<72x3x3x16xi8>, tensor<72xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x72xi32> loc("window")
  %d = tosa.conv2d %x, %w5, %b5, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x8x8x16xi8>, tensor<5x3x3x16xi8>, tensor<5xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x5xi32> loc("strided")
  %w80 = "tosa.const"() <{values = dense<2> : tensor<80x1x1x16xi8>}> : () -> tensor<80x1x1x16xi8>
  %b80 = "tosa.const"() <{values = dense<0> : tensor<80xi32>}> : () -> tensor<80xi32>
  %e = tosa.conv2d %x, %w80, %b80, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<80x1x1x16xi8>, tensor<80xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x10x10x80xi32> loc("pointwise")
  return %c, %d, %e : tensor<2x8x8x72xi32>, tensor<2x4x4x5xi32>, tensor<2x10x10x80xi32>
}
