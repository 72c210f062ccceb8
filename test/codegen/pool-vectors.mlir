// Pools over NHWC channels a multiple of a vector, with 2^18 threads or
// more of them (prec-plan-copy-vectors): a thread reads each tap's 8 f16 channels as one uint4 and writes its 8
// outputs as one, each lane computed as one element would be (max in f32,
// the average's sum rounded each step and divided by the taps inside). The
// 3-channel pool of the input binding keeps one element a thread.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=pools
// RUN: FileCheck %s < %t/pools.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/pools.cu -o %t/pools.o %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -c %t/pools.cu -o %t/pools80.o %}

// CHECK-LABEL: // tosa.max_pool2d max
// CHECK-NEXT: __global__ void [[MAX:k[0-9]+]]_max_pool2d(const uint4 *__restrict__ in0, uint4 *__restrict__ out)
// CHECK: if (i >= 1048576) return;
// CHECK-NEXT: int c = i % 8, ow = (i / 8) % 256, oh = (i / (8 * 256)) % 256, n = i / (8 * 256 * 256);
// CHECK-NEXT: float acc[8];
// CHECK-NEXT: for (int l = 0; l < 8; ++l) acc[l] = -INFINITY;
// CHECK: int iy = oh * 2 - 1 + y, ix = ow * 2 - 1 + z;
// CHECK: const uint4 word = in0[((n * 512 + iy) * 512 + ix) * 8 + c];
// CHECK-NEXT: const __half *v = reinterpret_cast<const __half *>(&word);
// CHECK: for (int l = 0; l < 8; ++l) acc[l] = fmaxf(acc[l], __half2float(v[l]));
// CHECK: __align__(16) __half w[8];
// CHECK: for (int l = 0; l < 8; ++l) w[l] = __float2half_rn(acc[l]);
// CHECK-NEXT: out[i] = *reinterpret_cast<const uint4 *>(w);
// CHECK-LABEL: // tosa.avg_pool2d avg
// CHECK-NEXT: __global__ void [[AVG:k[0-9]+]]_avg_pool2d(const uint4 *__restrict__ in0, uint4 *__restrict__ out)
// CHECK: acc[l] = __fadd_rn(acc[l], __half2float(v[l]));
// CHECK: w[l] = __float2half_rn(__fdiv_rn(acc[l], (float)count));
// An average pool widening bf16 to f32 reads its input as bf16, an
// element a thread.
// CHECK-LABEL: // tosa.avg_pool2d widen
// CHECK-NEXT: __global__ void k{{[0-9]+}}_avg_pool2d(const __nv_bfloat16 *__restrict__ in0, float *__restrict__ out)
// CHECK: const __nv_bfloat16 word = in0[
// CHECK-LABEL: // tosa.max_pool2d narrow
// CHECK-NEXT: __global__ void k{{[0-9]+}}_max_pool2d(const __half *__restrict__ in0, __half *__restrict__ out)
// CHECK: int c = i % 3,
// CHECK: float acc[1];
// An i8 max pool compares integers, 16 channels a thread, four an
// instruction: each word of the tap's uint4 against its accumulator,
// starting from -128 in every byte.
// CHECK-LABEL: // tosa.max_pool2d max_i8
// CHECK-NEXT: __global__ void k{{[0-9]+}}_max_pool2d(const uint4 *__restrict__ in0, uint4 *__restrict__ out)
// CHECK: unsigned acc[4];
// CHECK-NEXT: for (int l = 0; l < 4; ++l) acc[l] = 0x80808080u;
// CHECK: const unsigned *v = reinterpret_cast<const unsigned *>(&word);
// CHECK: for (int l = 0; l < 4; ++l) acc[l] = __vmaxs4(acc[l], v[l]);
// CHECK: __align__(16) unsigned w[4];
// CHECK: for (int l = 0; l < 4; ++l) w[l] = acc[l];
// CHECK-NEXT: out[i] = *reinterpret_cast<const uint4 *>(w);
// 2 x 256 x 256 x 64 outputs: 2^20 threads of 8 channels.
// CHECK: prec_launch(e->early_launch, [[MAX]]_max_pool2d, 4096, 256, 0, stream, ((uint4 *)(e->arena + {{[0-9]+}})), ((uint4 *)(e->arena + {{[0-9]+}})));
// The widening pool's launch passes its input as bf16.
// CHECK: prec_launch(e->early_launch, k{{[0-9]+}}_avg_pool2d, {{[0-9]+}}, 256, 0, stream, ((__nv_bfloat16 *)(e->arena + {{[0-9]+}})), ((float *)(e->arena + {{[0-9]+}})));
func.func @pools(%x: tensor<2x512x512x64xf16>, %image: tensor<2x4x4x3xf16>, %y: tensor<2x512x512x64xbf16>) -> (tensor<2x256x256x64xf16>, tensor<2x256x256x64xf16>, tensor<2x2x2x3xf16>, tensor<2x256x256x64xf32>, tensor<2x256x256x64xf16>) {
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.exp %x : (tensor<2x512x512x64xf16>) -> tensor<2x512x512x64xf16> loc("exp")
  %m = tosa.max_pool2d %a {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x512x512x64xf16>) -> tensor<2x256x256x64xf16> loc("max")
  %v = tosa.avg_pool2d %a, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x512x512x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x256x256x64xf16> loc("avg")
  %b = tosa.exp %y : (tensor<2x512x512x64xbf16>) -> tensor<2x512x512x64xbf16> loc("exp_bf16")
  %w = tosa.avg_pool2d %b, %zb, %zf {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x512x512x64xbf16>, tensor<1xbf16>, tensor<1xf32>) -> tensor<2x256x256x64xf32> loc("widen")
  %u = tosa.exp %w : (tensor<2x256x256x64xf32>) -> tensor<2x256x256x64xf32> loc("after_widen")
  %n = tosa.max_pool2d %image {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x4x4x3xf16>) -> tensor<2x2x2x3xf16> loc("narrow")
  %q = tosa.cast %a : (tensor<2x512x512x64xf16>) -> tensor<2x512x512x64xi8> loc("to_i8")
  %mq = tosa.max_pool2d %q {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x512x512x64xi8>) -> tensor<2x256x256x64xi8> loc("max_i8")
  %fq = tosa.cast %mq : (tensor<2x256x256x64xi8>) -> tensor<2x256x256x64xf16> loc("from_i8")
  %r = tosa.exp %m : (tensor<2x256x256x64xf16>) -> tensor<2x256x256x64xf16> loc("after_max")
  %s = tosa.exp %v : (tensor<2x256x256x64xf16>) -> tensor<2x256x256x64xf16> loc("after_avg")
  return %r, %s, %n, %u, %fq : tensor<2x256x256x64xf16>, tensor<2x256x256x64xf16>, tensor<2x2x2x3xf16>, tensor<2x256x256x64xf32>, tensor<2x256x256x64xf16>
}
