// prec-build --benchmark: times an engine as trtexec does. prec-build writes
// this file beside the engine and compiles it with -DPREC_ENGINE=<the
// engine's prefix> -include <its header>, linked to the engine's library.
//
//   <engine>_benchmark WEIGHTS ITERATIONS
//
// Inputs are the same pseudo-random values in [-1, 1] every run for f32,
// f16 and bf16 bindings, zeros for the others (indices stay in range). An
// engine with a dynamic batch runs at its OPT batch. After 10 warm-up
// runs, each of ITERATIONS runs is timed with CUDA events, launched on the
// stream (`run`) and replayed as a CUDA graph (`run_graph`); prints the
// median, the 90th and 99th percentiles and the mean of each.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define PREC_CONCAT2(a, b) a##b
#define PREC_CONCAT(a, b) PREC_CONCAT2(a, b)
#define PREC_API(name) PREC_CONCAT(PREC_ENGINE, name)

namespace {

// Bytes of one element of a manifest dtype.
size_t elementBytes(const char *dtype) {
  if (!std::strcmp(dtype, "f64") || !std::strcmp(dtype, "i64"))
    return 8;
  if (!std::strcmp(dtype, "f32") || !std::strcmp(dtype, "i32"))
    return 4;
  if (!std::strcmp(dtype, "f16") || !std::strcmp(dtype, "bf16") ||
      !std::strcmp(dtype, "i16"))
    return 2;
  return 1;
}

// `count` elements of `dtype` in [-1, 1] from a fixed sequence, or zeros.
std::vector<unsigned char> inputValues(const char *dtype, size_t count) {
  std::vector<unsigned char> bytes(count * elementBytes(dtype), 0);
  uint32_t state = 12345;
  for (size_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    float value = (state >> 8) / 8388608.0f - 1.0f;
    if (!std::strcmp(dtype, "f32"))
      std::memcpy(&bytes[i * 4], &value, 4);
    else if (!std::strcmp(dtype, "f16")) {
      __half h = __float2half(value);
      std::memcpy(&bytes[i * 2], &h, 2);
    } else if (!std::strcmp(dtype, "bf16")) {
      __nv_bfloat16 h = __float2bfloat16(value);
      std::memcpy(&bytes[i * 2], &h, 2);
    }
  }
  return bytes;
}

struct Summary {
  float median, p90, p99, mean;
};

Summary summarize(std::vector<float> ms) {
  std::sort(ms.begin(), ms.end());
  auto rank = [&](double q) {
    size_t index = (size_t)(q * ms.size() + 0.999999);
    return ms[std::min(ms.size(), std::max<size_t>(index, 1)) - 1];
  };
  double total = 0;
  for (float m : ms)
    total += m;
  return {rank(0.5), rank(0.9), rank(0.99), (float)(total / ms.size())};
}

// A CUDA call that fails stops the benchmark: its timings would be noise.
#define PREC_BENCHMARK_CUDA(call)                                              \
  do {                                                                         \
    if (cudaError_t error = (call); error != cudaSuccess) {                    \
      std::fprintf(stderr, "%s failed: %s\n", #call,                           \
                   cudaGetErrorString(error));                                 \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int check(int status, const char *what) {
  if (status != 0)
    std::fprintf(stderr, "%s failed: %s (status %d)\n", what,
                 PREC_API(_status_message)(status), status);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s WEIGHTS ITERATIONS\n", argv[0]);
    return 2;
  }
  int iterations = std::atoi(argv[2]);
  PREC_API(_engine) *engine = nullptr;
  if (check(PREC_API(_create)(argv[1], &engine), "create"))
    return 1;
  std::vector<void *> bindings;
  for (int i = 0; i < PREC_API(_num_bindings)(); ++i) {
    size_t count = 1;
    for (int d = 0; d < PREC_API(_binding_rank)(i); ++d)
      count *= PREC_API(_binding_shape)(i)[d];
    const char *dtype = PREC_API(_binding_dtype)(i);
    void *binding = nullptr;
    if (cudaMalloc(&binding, count * elementBytes(dtype)) != cudaSuccess) {
      std::fprintf(stderr, "cannot allocate binding '%s'\n",
                   PREC_API(_binding_name)(i));
      return 1;
    }
    if (PREC_API(_binding_is_input)(i)) {
      std::vector<unsigned char> values = inputValues(dtype, count);
      PREC_BENCHMARK_CUDA(
          cudaMemcpy(binding, values.data(), values.size(), cudaMemcpyDefault));
    }
    bindings.push_back(binding);
  }
  cudaStream_t stream;
  cudaEvent_t start, stop;
  PREC_BENCHMARK_CUDA(cudaStreamCreate(&stream));
  PREC_BENCHMARK_CUDA(cudaEventCreate(&start));
  PREC_BENCHMARK_CUDA(cudaEventCreate(&stop));
  const char *names[] = {"run", "run_graph"};
  for (int graph = 0; graph < 2; ++graph) {
    auto launch = [&] {
      return graph ? PREC_API(_run_graph)(engine, bindings.data(), stream)
                   : PREC_API(_run)(engine, bindings.data(), stream);
    };
    for (int i = 0; i < 10; ++i)
      if (check(launch(), names[graph]))
        return 1;
    std::vector<float> ms(iterations);
    for (float &m : ms) {
      PREC_BENCHMARK_CUDA(cudaEventRecord(start, stream));
      if (check(launch(), names[graph]))
        return 1;
      PREC_BENCHMARK_CUDA(cudaEventRecord(stop, stream));
      PREC_BENCHMARK_CUDA(cudaEventSynchronize(stop));
      PREC_BENCHMARK_CUDA(cudaEventElapsedTime(&m, start, stop));
    }
    Summary s = summarize(ms);
    std::printf("%-9s median %.4f ms, p90 %.4f ms, p99 %.4f ms, mean %.4f ms "
                "(%d runs)\n",
                names[graph], s.median, s.p90, s.p99, s.mean, iterations);
  }
  PREC_API(_destroy)(engine);
  return 0;
}
