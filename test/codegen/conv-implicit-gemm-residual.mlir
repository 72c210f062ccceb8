// 1x1 int8 convolutions whose only reader is elementwise run as the implicit
// GEMM, computing that reader's kernel in their epilogue: a bottleneck's last
// convolution (dequantization, the residual add of an f16 skip input, ReLU;
// and, stored beside that f16 output, its quantization for the next block,
// which would otherwise read it back) and a reducing one (dequantization, the
// next convolution's quantization to i8, saturating). The epilogue takes a
// 16-byte run of output filters at a time: the residual, of the output's
// shape, is loaded ahead of the accumulators (`load`, into `Loaded`) so that
// the loads of a thread's runs overlap; an i8 output's run is 16 filters.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-lower-to-gpu --prec-plan-engine --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=PLAN
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=residual
// RUN: FileCheck %s < %t/residual.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/residual.cu -o %t/residual.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/residual.cu -o %t/residual80.o %}

// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, engine.kernel = #engine.kernel<[[EXPAND:[0-9]+]], epilogue>{{.*}} loc("expand")
// PLAN: tosa.clamp {{.*}}engine.kernel = #engine.kernel<[[EXPAND]], epilogue>{{.*}} loc("expand.relu")
// The quantization of the ReLU's result (scaled by 4) never falls below
// its clamp's -127 (prec-mark-met-lower-bounds).
// PLAN: tosa.clamp {{.*}}engine.met_lower_bound = unit, {{.*}} loc("next.clamp")
// PLAN: tosa.cast {{.*}}engine.kernel = #engine.kernel<[[EXPAND]], epilogue>{{.*}} loc("next.quantize")
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, engine.kernel = #engine.kernel<[[REDUCE:[0-9]+]], epilogue>{{.*}} loc("reduce")
// The reducing convolution's quantization may fall below: no mark.
// PLAN: tosa.clamp {{.*}}{engine.kernel = #engine.kernel<[[REDUCE]], epilogue>, max_val = {{.*}} loc("reduce.clamp")
// PLAN: tosa.cast {{.*}}engine.kernel = #engine.kernel<[[REDUCE]], epilogue>{{.*}} loc("reduce.quantize")
// A convolution with a bias (the epilogue would read its accumulators as
// its value) writes its int32 result, bias added, for a kernel of its own.
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, engine.kernel = #engine.kernel<{{[0-9]+}}, contraction>{{.*}} loc("biased")
// PLAN: tosa.cast {{.*}}engine.kernel = #engine.kernel<{{[0-9]+}}, single>{{.*}} loc("biased.convert")

// CHECK: // tosa.clamp 'expand.relu' and tosa.cast 'next.quantize': the epilogue of tosa.conv2d expand
// CHECK-NEXT: struct [[EXPAND:k[0-9]+_cast_epilogue]] {
// CHECK-NEXT: using Output = __half;
// CHECK: __half *out0;
// CHECK-NEXT: int8_t *out1;
// CHECK-NEXT: __device__ bool aligned() const { return ((uintptr_t)in0 | (uintptr_t)in1 | (uintptr_t)out0 | (uintptr_t)out1) % 16 == 0; }
// CHECK: out0[i] = w0[k];
// CHECK: w1[k] = prec_round_i8(r1);
// CHECK-NEXT: out1[i] = w1[k];
// CHECK: struct Loaded {
// CHECK-NEXT: __align__(16) __half v1[8];
// CHECK-NEXT: };
// CHECK-NEXT: __device__ void load(long long row, long long filter, Loaded &loaded) const {
// CHECK-NEXT: const int i0 = (int)(row * 64 + filter);
// CHECK-NEXT: reinterpret_cast<uint4 *>(loaded.v1)[0] = reinterpret_cast<const uint4 *>(in1 + i0)[0];
// CHECK-NEXT: }
// CHECK-NEXT: struct Columns {
// CHECK-NEXT: __align__(16) float v0[8];
// CHECK-NEXT: };
// CHECK-NEXT: __device__ void columns(long long filter, Columns &columns) const {
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v0)[0] = reinterpret_cast<const uint4 *>(in0 + filter)[0];
// CHECK-NEXT: reinterpret_cast<uint4 *>(columns.v0)[1] = reinterpret_cast<const uint4 *>(in0 + filter)[1];
// CHECK-NEXT: }
// CHECK-NEXT: __device__ void run(long long row, long long filter, const int32_t *accs, const Loaded &loaded, const Columns &columns) const {
// CHECK-NEXT: const int i0 = (int)(row * 64 + filter);
// CHECK-NEXT: const auto &v0 = columns.v0;
// CHECK-NEXT: const auto &v1 = loaded.v1;
// CHECK-NEXT: __align__(16) __half w0[8];
// CHECK-NEXT: __align__(16) int8_t w1[8];
// The ReLU of the f16 sum runs in f16, one __hmax (its __hmin with +inf
// would change nothing).
// CHECK: w0[k] = __hmax((__hadd_rn({{.*}}, (v1[k]))), __ushort_as_half((unsigned short)0x0U));
// The quantization reads the f16 element as stored; its clamp computes
// nothing: the conversion saturates at 127 (prec-drop-saturated-bounds),
// and the ReLU's result, never NaN nor negative, meets -127
// (prec-mark-met-lower-bounds); the conversion is one saturating
// instruction.
// CHECK-NEXT: float r1 = ((__fmul_rn(((__half2float(w0[k]))), (0x1p+2f))));
// CHECK-NEXT: w1[k] = prec_round_i8(r1);
// CHECK-NEXT: }
// CHECK-NEXT: *reinterpret_cast<uint4 *>(out0 + i0) = *reinterpret_cast<const uint4 *>(w0);
// CHECK-NEXT: *reinterpret_cast<uint2 *>(out1 + i0) = *reinterpret_cast<const uint2 *>(w1);

// CHECK: // tosa.cast 'reduce.quantize': the epilogue of tosa.conv2d reduce
// CHECK-NEXT: struct [[REDUCE:k[0-9]+_cast_epilogue]] {
// CHECK-NEXT: using Output = int8_t;
// CHECK: __align__(16) int8_t w0[16];
// Its input may be negative: the clamp is an fmaxf.
// CHECK: float r0 = (fmaxf(
// CHECK-SAME: -0x1.fcp+6f));
// CHECK-NEXT: w0[k] = prec_round_i8(r0);

// An epilogue reading through a reshape (24 filters viewed as rows of 96):
// the output's flat index is still row * 24 + filter, and the scale, a
// vector of the view's shape, is read at coordinates split from it, an
// element at a time.
// CHECK: // tosa.cast 'flat.half': the epilogue of tosa.conv2d flat
// CHECK: const int i = (int)(row * 24 + filter);
// CHECK: { int c = rem % 96; o0 += c * 1; }
// CHECK: const int i0 = (int)(row * 24 + filter);
// CHECK-NOT: in0 + filter
// CHECK: v0[k] = (in0[o0]);
// CHECK: *reinterpret_cast<uint4 *>(out0 + i0) = *reinterpret_cast<const uint4 *>(w0);

// CHECK: // tosa.conv2d 'expand': 1x1, an implicit GEMM 32x64x32 with the tosa.clamp 'expand.relu' and tosa.cast 'next.quantize' epilogue
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(false, prec_conv_s8<64, true, {{k[0-9]+_[a-z]+_geometry}}, [[EXPAND]]>, dim3(1, prec_conv_s8_filter_blocks<64, {{k[0-9]+_[a-z]+_geometry}}>({{.*}})),
// CHECK: // tosa.conv2d 'reduce': 1x1, an implicit GEMM 32x16x64 with the tosa.cast 'reduce.quantize' epilogue
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(false, prec_conv_s8<64, true, {{k[0-9]+_[a-z]+_geometry}}, [[REDUCE]]>, dim3(1, prec_conv_s8_filter_blocks<64, {{k[0-9]+_[a-z]+_geometry}}>({{.*}})),
func.func @main(%x: tensor<2x4x4x32xi8> loc("x"), %skip: tensor<2x4x4x64xf16> loc("skip"), %y: tensor<2x4x4x64xi8> loc("y"), %z: tensor<2x4x4x16xi8> loc("z"))
    -> (tensor<2x4x4x64xf16>, tensor<2x4x4x16xi8>, tensor<2x4x96xf16>, tensor<2x4x4x24xf32>, tensor<2x4x4x64xi8>) {
  %w = "tosa.const"() <{values = dense<3> : tensor<64x1x1x32xi8>}> : () -> tensor<64x1x1x32xi8>
  %w2 = "tosa.const"() <{values = dense<-1> : tensor<16x1x1x64xi8>}> : () -> tensor<16x1x1x64xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<64xi32>}> : () -> tensor<64xi32>
  %b2 = "tosa.const"() <{values = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<[[[[0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5, 0.0625, 0.125, 0.25, 0.5]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %scale2 = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x32xi8>, tensor<64x1x1x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x64xi32> loc("expand")
  %f = tosa.cast %c : (tensor<2x4x4x64xi32>) -> tensor<2x4x4x64xf32> loc("expand.convert")
  %m = tosa.mul %f, %scale, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("expand.dequantize")
  %h = tosa.cast %m : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf16> loc("expand.half")
  %a = tosa.add %h, %skip : (tensor<2x4x4x64xf16>, tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16> loc("expand.residual")
  %r = tosa.clamp %a {max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16> loc("expand.relu")
  %rf = tosa.cast %r : (tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf32> loc("next.convert")
  %rs = tosa.mul %rf, %inv, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("next.scale")
  %rk = tosa.clamp %rs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf32> loc("next.clamp")
  %rq = tosa.cast %rk : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xi8> loc("next.quantize")
  %c2 = tosa.conv2d %y, %w2, %b2, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x64xi8>, tensor<16x1x1x64xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x16xi32> loc("reduce")
  %f2 = tosa.cast %c2 : (tensor<2x4x4x16xi32>) -> tensor<2x4x4x16xf32> loc("reduce.convert")
  %m2 = tosa.mul %f2, %scale2, %shift : (tensor<2x4x4x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<2x4x4x16xf32> loc("reduce.dequantize")
  %s2 = tosa.mul %m2, %inv, %shift : (tensor<2x4x4x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x16xf32> loc("reduce.scale")
  %k2 = tosa.clamp %s2 {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xf32> loc("reduce.clamp")
  %q = tosa.cast %k2 : (tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xi8> loc("reduce.quantize")
  %w3 = "tosa.const"() <{values = dense<2> : tensor<24x3x3x16xi8>}> : () -> tensor<24x3x3x16xi8>
  %b3 = "tosa.const"() <{values = dense<0> : tensor<24xi32>}> : () -> tensor<24xi32>
  %rows = "tosa.const"() <{values = dense<[[[0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0, 0.5, 0.25, 2.0]]]> : tensor<1x1x96xf32>}> : () -> tensor<1x1x96xf32>
  %flat = tosa.const_shape {values = dense<[2, 4, 96]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %c3 = tosa.conv2d %z, %w3, %b3, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x4x4x16xi8>, tensor<24x3x3x16xi8>, tensor<24xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x24xi32> loc("flat")
  %f3 = tosa.cast %c3 : (tensor<2x4x4x24xi32>) -> tensor<2x4x4x24xf32> loc("flat.convert")
  %v3 = tosa.reshape %f3, %flat : (tensor<2x4x4x24xf32>, !tosa.shape<3>) -> tensor<2x4x96xf32> loc("flat.view")
  %m3 = tosa.mul %v3, %rows, %shift : (tensor<2x4x96xf32>, tensor<1x1x96xf32>, tensor<1xi8>) -> tensor<2x4x96xf32> loc("flat.scale")
  %h3 = tosa.cast %m3 : (tensor<2x4x96xf32>) -> tensor<2x4x96xf16> loc("flat.half")
  %b4 = "tosa.const"() <{values = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]> : tensor<24xi32>}> : () -> tensor<24xi32>
  %c4 = tosa.conv2d %z, %w3, %b4, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x4x4x16xi8>, tensor<24x3x3x16xi8>, tensor<24xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x24xi32> loc("biased")
  %f4 = tosa.cast %c4 : (tensor<2x4x4x24xi32>) -> tensor<2x4x4x24xf32> loc("biased.convert")
  return %r, %q, %h3, %f4, %rq : tensor<2x4x4x64xf16>, tensor<2x4x4x16xi8>, tensor<2x4x96xf16>, tensor<2x4x4x24xf32>, tensor<2x4x4x64xi8>
}
