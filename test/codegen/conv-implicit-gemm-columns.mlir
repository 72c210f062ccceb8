// The implicit GEMM's epilogue sorts the inputs that follow the filter:
// the residual, of the output's shape, into Loaded (`load`); the f32 scale
// and the f16 bias, one element per filter held as stored, into Columns,
// loaded once for all a thread's runs (`columns`); the i32 bias, converted
// where it is read, element by element in each run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=columns
// RUN: FileCheck %s < %t/columns.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/columns.cu -o %t/columns.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/columns.cu -o %t/columns80.o %}

// CHECK: struct [[E:k[0-9]+_cast_epilogue]] {
// CHECK-NEXT: using Output = int8_t;
// CHECK-NEXT: const int32_t *__restrict__ in0;
// CHECK-NEXT: const float *__restrict__ in1;
// CHECK-NEXT: const __half *__restrict__ in2;
// CHECK-NEXT: const int8_t *__restrict__ in3;
// CHECK: struct Loaded {
// CHECK-NEXT: __align__(16) int8_t v3[16];
// CHECK-NEXT: };
// CHECK: struct Columns {
// CHECK-NEXT: __align__(16) float v1[16];
// CHECK-NEXT: __align__(16) __half v2[16];
// CHECK-NEXT: };
// CHECK-NEXT: __device__ void columns(long long filter, Columns &columns) const {
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v1)[0] = reinterpret_cast<const uint4 *>(in1 + filter)[0];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v1)[1] = reinterpret_cast<const uint4 *>(in1 + filter)[1];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v1)[2] = reinterpret_cast<const uint4 *>(in1 + filter)[2];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v1)[3] = reinterpret_cast<const uint4 *>(in1 + filter)[3];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v2)[0] = reinterpret_cast<const uint4 *>(in2 + filter)[0];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v2)[1] = reinterpret_cast<const uint4 *>(in2 + filter)[1];
// CHECK-NEXT: }
// CHECK-NEXT: __device__ void run(long long row, long long filter, const int32_t *accs, const Loaded &loaded, const Columns &columns) const {
// CHECK-NEXT: const int i0 = (int)(row * 64 + filter);
// CHECK-NEXT: __align__(16) float v0[16];
// CHECK-NEXT: const auto &v1 = columns.v1;
// CHECK-NEXT: const auto &v2 = columns.v2;
// CHECK-NEXT: const auto &v3 = loaded.v3;
// CHECK: const int o0 = filter + k;
// CHECK-NEXT: v0[k] = ((float)(in0[o0]));
// CHECK: prec_launch(false, prec_conv_s8<64, true, {{k[0-9]+}}_cast_geometry, [[E]]>
func.func @main(%x: tensor<2x8x8x16xi8> loc("x"), %s: tensor<1x1x1x64xf32>, %bi: tensor<1x1x1x64xi32>, %b2: tensor<1x1x1x64xf16>, %res: tensor<2x8x8x64xi8>)
    -> (tensor<2x8x8x64xi8>) {
  %w = "tosa.const"() <{values = dense<3> : tensor<64x1x1x16xi8>}> : () -> tensor<64x1x1x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<64xi32>}> : () -> tensor<64xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x8x8x16xi8>, tensor<64x1x1x16xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x8x64xi32> loc("conv")
  %ci = tosa.add %c, %bi : (tensor<2x8x8x64xi32>, tensor<1x1x1x64xi32>) -> tensor<2x8x8x64xi32>
  %f = tosa.cast %ci : (tensor<2x8x8x64xi32>) -> tensor<2x8x8x64xf32>
  %m = tosa.mul %f, %s, %shift : (tensor<2x8x8x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<2x8x8x64xf32>
  %h = tosa.cast %m : (tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf16>
  %a = tosa.add %h, %b2 : (tensor<2x8x8x64xf16>, tensor<1x1x1x64xf16>) -> tensor<2x8x8x64xf16>
  %r = tosa.cast %res : (tensor<2x8x8x64xi8>) -> tensor<2x8x8x64xf16>
  %a2 = tosa.add %a, %r : (tensor<2x8x8x64xf16>, tensor<2x8x8x64xf16>) -> tensor<2x8x8x64xf16>
  %q = tosa.cast %a2 : (tensor<2x8x8x64xf16>) -> tensor<2x8x8x64xi8>
  return %q : tensor<2x8x8x64xi8>
}
