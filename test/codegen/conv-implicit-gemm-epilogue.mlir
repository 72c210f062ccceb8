// An implicit-GEMM convolution whose only reader is an elementwise kernel
// computes that kernel in its epilogue (#engine.kernel<N, epilogue>): the
// dequantization (cast, per-channel scale, bias, conversion to f16) runs
// on the accumulators, rounding after every op as the elementwise kernel
// would, and the int32 result never reaches memory. A convolution read
// twice keeps its own int32 store.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-lower-to-gpu --prec-plan-engine --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=PLAN
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=epilogue
// RUN: FileCheck %s < %t/epilogue.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/epilogue.cu -o %t/epilogue.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/epilogue.cu -o %t/epilogue80.o %}
// At a dynamic batch the rows, and the blocks over them, follow the batch.
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=dynamic --batch=1:2:2
// RUN: FileCheck %s --check-prefix=DYNAMIC < %t/dynamic.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/dynamic.cu -o %t/dynamic.o %}

// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, engine.kernel = #engine.kernel<[[K:[0-9]+]], epilogue>{{.*}} loc("conv")
// PLAN: tosa.cast {{.*}}engine.kernel = #engine.kernel<[[K]], epilogue>
// PLAN: tosa.mul {{.*}}engine.kernel = #engine.kernel<[[K]], epilogue>
// PLAN: tosa.add {{.*}}engine.kernel = #engine.kernel<[[K]], epilogue>
// PLAN: tosa.cast {{.*}}engine.kernel = #engine.kernel<[[K]], epilogue>{{.*}} -> tensor<2x6x6x24xf16>
// PLAN: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<{{[0-9]+}}, contraction>{{.*}} loc("shared")

// CHECK: // fused: tosa.cast
// CHECK-NEXT: // fused: tosa.mul
// CHECK-NEXT: // fused: tosa.add
// CHECK-NEXT: // tosa.cast: the epilogue of tosa.conv2d conv
// CHECK-NEXT: struct [[E:k[0-9]+_cast]]_epilogue {
// CHECK-NEXT: using Output = __half;
// CHECK-NEXT: const float *__restrict__ in0;
// CHECK-NEXT: const float *__restrict__ in1;
// CHECK-NEXT: __half *out0;
// CHECK-NEXT: __device__ bool aligned() const { return ((uintptr_t)in0 | (uintptr_t)in1 | (uintptr_t)out0) % 16 == 0; }
// CHECK-NEXT: __device__ void element(long long row, long long filter, int32_t acc) const {
// CHECK-NEXT: int i = (int)(row * 24 + filter);
// CHECK-NEXT: {{.*}}constexpr int k = 0;
// CHECK-NEXT: const int o0 = filter;
// CHECK-NEXT: const int o1 = filter;
// CHECK: __half w0[1];
// CHECK-NEXT: float r0 = (__fadd_rn((__fmul_rn(((((float)(acc)))), (a0))), (a1)));
// CHECK-NEXT: w0[k] = __float2half_rn(r0);
// CHECK-NEXT: out0[i] = w0[k];
// A run of 8 filters (16 bytes of f16): nothing of the output's shape to
// load ahead; the per-filter scale and bias load once for a thread's runs
// (`columns`) as two 16-byte vectors each, the accumulators come from
// shared memory, and the run is stored as one vector.
// CHECK: struct Loaded {
// CHECK-NEXT: };
// CHECK: struct Columns {
// CHECK-NEXT: __align__(16) float v0[8];
// CHECK-NEXT: __align__(16) float v1[8];
// CHECK-NEXT: };
// CHECK-NEXT: __device__ void columns(long long filter, Columns &columns) const {
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v0)[0] = reinterpret_cast<const uint4 *>(in0 + filter)[0];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v0)[1] = reinterpret_cast<const uint4 *>(in0 + filter)[1];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v1)[0] = reinterpret_cast<const uint4 *>(in1 + filter)[0];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v1)[1] = reinterpret_cast<const uint4 *>(in1 + filter)[1];
// CHECK-NEXT: }
// CHECK-NEXT: __device__ void run(long long row, long long filter, const int32_t *accs, const Loaded &loaded, const Columns &columns) const {
// CHECK-NEXT: const int i0 = (int)(row * 24 + filter);
// CHECK-NEXT: const auto &v0 = columns.v0;
// CHECK-NEXT: const auto &v1 = columns.v1;
// CHECK-NEXT: __align__(16) __half w0[8];
// CHECK: for (int k = 0; k < 8; ++k) {
// CHECK: const int32_t acc = accs[k];
// CHECK: w0[k] = __float2half_rn(r0);
// CHECK-NEXT: }
// CHECK-NEXT: *reinterpret_cast<uint4 *>(out0 + i0) = *reinterpret_cast<const uint4 *>(w0);
// The fragment form (where K is one tile, on wgmma): a pair of filters
// where the accumulators are, the scale and the bias copied into the
// tile's filters at 0 and 4 bytes a filter, the f16 output into its rows.
// CHECK-NEXT: }
// CHECK-NEXT: static constexpr int STAGED_ROW_BYTES = 2, STAGED_FILTER_BYTES = 8;
// CHECK: tile.copy_filters(in0, 0);
// CHECK-NEXT: tile.copy_filters(in1, 4);
// CHECK: __device__ void pair(const Tile &tile, int r, int c, long long row, long long filter, const int32_t (&accs)[2]) const {
// CHECK-NEXT: const int i0 = (int)(row * 24 + filter);
// CHECK-NEXT: __align__(8) float v0[2];
// CHECK-NEXT: *reinterpret_cast<uint2 *>(v0) = tile.template filter_pair<uint2>(c, 0);
// CHECK-NEXT: __align__(8) float v1[2];
// CHECK-NEXT: *reinterpret_cast<uint2 *>(v1) = tile.template filter_pair<uint2>(c, 4);
// CHECK-NEXT: __align__(4) __half w0[2];
// CHECK: for (int k = 0; k < 2; ++k) {
// CHECK: const int32_t acc = accs[k];
// CHECK: w0[k] = __float2half_rn(r0);
// CHECK-NEXT: }
// CHECK-NEXT: tile.put_pair(r, c, 0, *reinterpret_cast<const unsigned *>(w0));
// CHECK: __device__ void store(const Tile &tile) const {
// CHECK-NEXT: tile.store_rows(out0, 0);
// CHECK: // tosa.conv2d shared: the implicit GEMM's epilogue
// CHECK: // tosa.conv2d 'conv': 3x3, an implicit GEMM 72x24x144 with the tosa.cast epilogue
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(false, prec_conv_s8<64, true, [[E]]_geometry, [[E]]_epilogue>, dim3(1, prec_conv_s8_filter_blocks<64, [[E]]_geometry>(72LL)), 256, prec_conv_s8_shared_bytes<64, [[E]]_geometry, [[E]]_epilogue>(e->conv_wgmma), stream, {{.*}}, 72LL, [[E]]_epilogue{{{.*}}, {{.*}}, ((__half *)bindings[1])});
// CHECK-NOT: __global__ void k{{[0-9]+}}_cast(
// DYNAMIC: static constexpr prec_conv_geometry value{6, 6, 16, 6, 6, 24, 3, 3, 1, 1, 1, 1, 1, 1};
// DYNAMIC: prec_launch(false, prec_conv_s8<64, true, {{k[0-9]+}}_cast_geometry, {{k[0-9]+}}_cast_epilogue>, dim3((int)((36LL * e->batch + 127) / 128), prec_conv_s8_filter_blocks<64, {{k[0-9]+}}_cast_geometry>(36LL * e->batch)), 256, prec_conv_s8_shared_bytes<64, {{k[0-9]+}}_cast_geometry, {{k[0-9]+}}_cast_epilogue>(e->conv_wgmma), stream, {{.*}}, 36LL * e->batch, 
func.func @main(%x: tensor<2x6x6x16xi8> loc("x"))
    -> (tensor<2x6x6x24xf16>, tensor<2x6x6x24xi32>, tensor<2x6x6x24xf32>) {
  %w = "tosa.const"() <{values = dense<3> : tensor<24x3x3x16xi8>}> : () -> tensor<24x3x3x16xi8>
  %w2 = "tosa.const"() <{values = dense<-2> : tensor<24x3x3x16xi8>}> : () -> tensor<24x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<24xi32>}> : () -> tensor<24xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<[[[[0.5, 0.25, 0.125, 1.0, 2.0, 0.5, 0.25, 0.125, 1.0, 2.0, 0.5, 0.25, 0.125, 1.0, 2.0, 0.5, 0.25, 0.125, 1.0, 2.0, 0.5, 0.25, 0.125, 1.0]]]]> : tensor<1x1x1x24xf32>}> : () -> tensor<1x1x1x24xf32>
  %bias = "tosa.const"() <{values = dense<[[[[1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0]]]]> : tensor<1x1x1x24xf32>}> : () -> tensor<1x1x1x24xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x6x6x16xi8>, tensor<24x3x3x16xi8>, tensor<24xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x6x6x24xi32> loc("conv")
  %f = tosa.cast %c : (tensor<2x6x6x24xi32>) -> tensor<2x6x6x24xf32>
  %m = tosa.mul %f, %scale, %shift : (tensor<2x6x6x24xf32>, tensor<1x1x1x24xf32>, tensor<1xi8>) -> tensor<2x6x6x24xf32>
  %a = tosa.add %m, %bias : (tensor<2x6x6x24xf32>, tensor<1x1x1x24xf32>) -> tensor<2x6x6x24xf32>
  %h = tosa.cast %a : (tensor<2x6x6x24xf32>) -> tensor<2x6x6x24xf16>
  %d = tosa.conv2d %x, %w2, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x6x6x16xi8>, tensor<24x3x3x16xi8>, tensor<24xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x6x6x24xi32> loc("shared")
  %g = tosa.cast %d : (tensor<2x6x6x24xi32>) -> tensor<2x6x6x24xf32>
  return %h, %d, %g : tensor<2x6x6x24xf16>, tensor<2x6x6x24xi32>, tensor<2x6x6x24xf32>
}
