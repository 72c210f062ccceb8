// Checks that the tensor-core attention kernel's packed logits are bit for
// bit the program's: for f16 and bf16, scale then mask and mask then scale,
// and head sizes' scales rounded to the type, it compares
//   round(round(round(s) * scale) + m)   (each step in f32, then rounded)
// with the packed form the emitter writes for such an engine.attention
//   to_float(__hadd2(__hmul2_rn(round(s), splat(scale)), m))
// over 2^26 random pairs per case: scores across the whole f32 range and
// masks with random 16-bit patterns (infinities and NaNs included).
//
//   nvcc -O2 -arch=sm_90 check_packed_logits.cu -o check_packed_logits
//   ./check_packed_logits        # prints each case; exits 1 on a mismatch
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../../codegen/runtime/AttentionKernel.cuh"

__device__ inline uint64_t splitmix(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <typename T> __device__ inline float rounded(float x) {
  return prec_to_float(prec_from_float<T>(x));
}

template <typename T> __device__ inline T fromBits(uint16_t bits) {
  T value;
  memcpy(&value, &bits, sizeof(bits));
  return value;
}

__device__ inline bool same(float a, float b) {
  return __float_as_uint(a) == __float_as_uint(b) || (isnan(a) && isnan(b));
}

template <typename T, bool MASK_FIRST>
__global__ void compare(float scale, unsigned long long *mismatches) {
  using Pair = prec_pair<T>;
  uint64_t state = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  for (int i = 0; i < 16; ++i) {
    const uint64_t bits = splitmix(state);
    // Scores: random sign and mantissa, exponents across f32's range
    // (most of them within the 16-bit type's).
    float s[2];
    for (int e = 0; e < 2; ++e) {
      const uint32_t word = (uint32_t)(bits >> (32 * e));
      const uint32_t exponent = 127 - 30 + (word >> 24) % 64;
      s[e] = __uint_as_float((word & 0x807fffffu) | (exponent << 23));
    }
    const uint64_t maskBits = splitmix(state);
    const T m0 = fromBits<T>((uint16_t)maskBits),
            m1 = fromBits<T>((uint16_t)(maskBits >> 16));
    const float2 packed = Pair::to_float(
        MASK_FIRST ? __hmul2_rn(__hadd2(Pair::round(make_float2(s[0], s[1])),
                                        Pair::make(m0, m1)),
                                Pair::splat(scale))
                   : __hadd2(__hmul2_rn(Pair::round(make_float2(s[0], s[1])),
                                        Pair::splat(scale)),
                             Pair::make(m0, m1)));
    const T masks[2] = {m0, m1};
    for (int e = 0; e < 2; ++e) {
      const float score = rounded<T>(s[e]), m = prec_to_float(masks[e]);
      const float scalar = MASK_FIRST
                               ? rounded<T>(rounded<T>(score + m) * scale)
                               : rounded<T>(rounded<T>(score * scale) + m);
      if (!same(scalar, e == 0 ? packed.x : packed.y))
        atomicAdd(mismatches, 1ull);
    }
  }
}

template <typename T, bool MASK_FIRST>
static bool check(const char *type, float scale) {
  unsigned long long *mismatches = nullptr;
  cudaMalloc(&mismatches, sizeof(*mismatches));
  cudaMemset(mismatches, 0, sizeof(*mismatches));
  // 2^26 pairs: 2^22 threads of 16.
  compare<T, MASK_FIRST><<<1 << 14, 256>>>(scale, mismatches);
  unsigned long long count = 0;
  cudaMemcpy(&count, mismatches, sizeof(count), cudaMemcpyDeviceToHost);
  cudaFree(mismatches);
  const cudaError_t error = cudaGetLastError();
  std::printf("%-4s scale %.10g %-15s: %s, %llu mismatches\n", type, scale,
              MASK_FIRST ? "mask then scale" : "scale then mask",
              error == cudaSuccess ? "ran" : cudaGetErrorString(error), count);
  return error == cudaSuccess && count == 0;
}

int main() {
  bool ok = true;
  for (int headSize : {32, 64, 80, 128}) {
    const float scale = 1.0f / std::sqrt((float)headSize);
    const float halfScale = __half2float(__float2half_rn(scale));
    const float bfloatScale = __bfloat162float(__float2bfloat16_rn(scale));
    ok &= check<__half, false>("f16", halfScale);
    ok &= check<__half, true>("f16", halfScale);
    ok &= check<__nv_bfloat16, false>("bf16", bfloatScale);
    ok &= check<__nv_bfloat16, true>("bf16", bfloatScale);
  }
  std::printf("%s\n", ok ? "packed logits: bit for bit" : "MISMATCH");
  return ok ? 0 : 1;
}
