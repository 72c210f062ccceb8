// A residual stream stored in i8 (prec-quantize residuals): the epilogue
// of a bottleneck's last convolution reads the i8 skip tensor of its
// output's shape as 16-byte runs ahead of the accumulators (`load`, into
// `Loaded`), held as stored and widened where the dequantization reads
// it; its only output is the next block's i8 input, 16 filters a run; and
// in the fragment form, which the one-tile kernel runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=residual
// RUN: FileCheck %s < %t/residual.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/residual.cu -o %t/residual.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/residual.cu -o %t/residual80.o %}

// CHECK: // tosa.cast 'next.quantize': the epilogue of tosa.conv2d expand
// CHECK-NEXT: struct [[EXPAND:k[0-9]+_cast_epilogue]] {
// CHECK-NEXT: using Output = int8_t;
// CHECK-NEXT: const int8_t *__restrict__ in0;
// CHECK-NEXT: int8_t *out0;
// CHECK-NEXT: __device__ bool aligned() const { return ((uintptr_t)in0 | (uintptr_t)out0) % 16 == 0; }
// CHECK: int8_t v0[1] = {in0[o0]};
// CHECK-NEXT: float a0 = ((float)(v0[k]));
// CHECK: struct Loaded {
// CHECK-NEXT: __align__(16) int8_t v0[16];
// CHECK-NEXT: };
// CHECK-NEXT: __device__ void load(long long row, long long filter, Loaded &loaded) const {
// CHECK-NEXT: const int i0 = (int)(row * 64 + filter);
// CHECK-NEXT: reinterpret_cast<uint4 *>(loaded.v0)[0] = reinterpret_cast<const uint4 *>(in0 + i0)[0];
// CHECK-NEXT: }
// No input of one element per filter: nothing in Columns.
// CHECK-NEXT: struct Columns {
// CHECK-NEXT: };
// CHECK-NEXT: __device__ void columns(long long, Columns &) const {}
// CHECK-NEXT: __device__ void run(long long row, long long filter, const int32_t *accs, const Loaded &loaded, const Columns &columns) const {
// CHECK: const auto &v0 = loaded.v0;
// CHECK-NEXT: __align__(16) int8_t w0[16];
// CHECK: float a0 = ((float)(v0[k]));
// The skip, widened, times its scale 1/32, rounded to f16 and added.
// CHECK-NEXT: float r0 = {{.*}}__hadd_rn({{.*}}, (__float2half_rn((__fmul_rn(((a0)), (0x1p-5f))))))
// CHECK-NEXT: w0[k] = prec_round_i8(r0);
// CHECK: *reinterpret_cast<uint4 *>(out0 + i0) = *reinterpret_cast<const uint4 *>(w0);
// The fragment form (K is one tile, on wgmma): the skip copied into the
// tile's rows at 0, the output beside it at 1 byte a filter, each read and
// written a pair of filters at a time.
// CHECK-NEXT: }
// CHECK-NEXT: static constexpr int STAGED_ROW_BYTES = 2, STAGED_FILTER_BYTES = 0;
// CHECK: tile.copy_rows(in0, 0);
// CHECK: __device__ void pair(
// CHECK: __align__(2) int8_t v0[2];
// CHECK-NEXT: *reinterpret_cast<unsigned short *>(v0) = tile.template row_pair<unsigned short>(r, c, 0);
// CHECK-NEXT: __align__(2) int8_t w0[2];
// CHECK: float a0 = ((float)(v0[k]));
// CHECK-NEXT: float r0 = {{.*}}__hadd_rn({{.*}}, (__float2half_rn((__fmul_rn(((a0)), (0x1p-5f))))))
// CHECK-NEXT: w0[k] = prec_round_i8(r0);
// CHECK-NEXT: }
// CHECK-NEXT: tile.put_pair(r, c, 1, *reinterpret_cast<const unsigned short *>(w0));
// CHECK: tile.store_rows(out0, 1);
// A conversion of a value no clamp bounded below (no fmaxf first) keeps
// prec_saturate_i8's NaN guard; a clamp bounded below -128 needs none.
// CHECK: // tosa.cast unclamped
// CHECK: out[i] = prec_saturate_i8(r);
// CHECK: // tosa.cast unbounded
// CHECK: out[i] = prec_saturate_i8(r);
// CHECK: // tosa.cast wide
// CHECK: out[i] = prec_round_i8(r);
// The skip and the output are bindings: the fragment form (ALIGNED) runs
// where they are 16-byte aligned too.
// CHECK: if ((reinterpret_cast<uintptr_t>(((int8_t *)bindings[0])) | reinterpret_cast<uintptr_t>({{.*}}) | reinterpret_cast<uintptr_t>(((int8_t *)bindings[1])) | reinterpret_cast<uintptr_t>(((int8_t *)bindings[3]))) % 16 == 0)
// CHECK-NEXT: prec_launch(false, prec_conv_s8<64, true, {{k[0-9]+_[a-z]+_geometry}}, [[EXPAND]]>
func.func @main(%x: tensor<2x4x4x32xi8> loc("x"), %skip: tensor<2x4x4x64xi8> loc("skip"), %y: tensor<64xf32> loc("y"))
    -> (tensor<2x4x4x64xi8>, tensor<64xi8>, tensor<64xi8>, tensor<64xi8>) {
  %w = "tosa.const"() <{values = dense<3> : tensor<64x1x1x32xi8>}> : () -> tensor<64x1x1x32xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<64xi32>}> : () -> tensor<64xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.0625> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %sskip = "tosa.const"() <{values = dense<0.03125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %inv1 = "tosa.const"() <{values = dense<4.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x32xi8>, tensor<64x1x1x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x64xi32> loc("expand")
  %f = tosa.cast %c : (tensor<2x4x4x64xi32>) -> tensor<2x4x4x64xf32> loc("expand.convert")
  %m = tosa.mul %f, %scale, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("expand.dequantize")
  %h = tosa.cast %m : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf16> loc("expand.half")
  %sf = tosa.cast %skip : (tensor<2x4x4x64xi8>) -> tensor<2x4x4x64xf32> loc("residual.dequantize.convert")
  %sm = tosa.mul %sf, %sskip, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("residual.dequantize")
  %sh = tosa.cast %sm : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf16> loc("residual")
  %a = tosa.add %h, %sh : (tensor<2x4x4x64xf16>, tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16> loc("expand.residual")
  %r = tosa.clamp %a {max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16> loc("expand.relu")
  %rf = tosa.cast %r : (tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf32> loc("next.convert")
  %rs = tosa.mul %rf, %inv, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("next.scale")
  %rk = tosa.clamp %rs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf32> loc("next.clamp")
  %rq = tosa.cast %rk : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xi8> loc("next.quantize")
  %ys = tosa.mul %y, %inv1, %shift : (tensor<64xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<64xf32> loc("unclamped.scale")
  %yq = tosa.cast %ys : (tensor<64xf32>) -> tensor<64xi8> loc("unclamped")
  %uc = tosa.clamp %ys {max_val = 100.0 : f32, min_val = 0xFF800000 : f32} : (tensor<64xf32>) -> tensor<64xf32> loc("unbounded.clamp")
  %uw = tosa.cast %uc : (tensor<64xf32>) -> tensor<64xi8> loc("unbounded")
  %yc = tosa.clamp %ys {max_val = 127.0 : f32, min_val = -200.0 : f32} : (tensor<64xf32>) -> tensor<64xf32> loc("wide.clamp")
  %yw = tosa.cast %yc : (tensor<64xf32>) -> tensor<64xi8> loc("wide")
  return %rq, %yq, %uw, %yw : tensor<2x4x4x64xi8>, tensor<64xi8>, tensor<64xi8>, tensor<64xi8>
}
