// prec's implicit-GEMM int8 convolution (codegen/runtime/ImplicitGemmConv.cuh:
// its wgmma kernel when built for sm_90a, its mma.sync one for sm_90 or sm_80)
// on ResNet-50's convolution shapes at batch 64, against cuDNN's f16
// convolution of the same shape (the fastest algorithm it finds), which is
// what prec's f16 engines call. Each shape is first checked bit for bit
// against a direct convolution on the CUDA cores (int32 accumulators), on
// random data; then timed with the epilogue a quantized ResNet layer needs:
// int32 times a per-channel scale, plus a bias, ReLU, rounded to int8 (cuDNN:
// f16 with its bias and ReLU). GPU time of 20 calls replayed as one graph.
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o conv_s8 conv_s8.cu -lcudnn
//   ./conv_s8      (and with -arch=sm_90 for the mma.sync kernel)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <vector>

// In the order the emitter copies them into an engine.
#include "../../codegen/runtime/WeightsFile.h"

#include "../../codegen/runtime/EngineRuntime.cuh"

#include "../../codegen/runtime/TensorCoreCopies.cuh"

#include "../../codegen/runtime/WarpgroupMma.cuh"

#include "../../codegen/runtime/ImplicitGemmConv.cuh"

#include "GraphTiming.cuh"

#define CK(x)                                                                  \
  do {                                                                         \
    auto s = (x);                                                              \
    if (s != CUDNN_STATUS_SUCCESS) {                                           \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudnnGetErrorString(s));        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// The epilogues, as the emitter writes them: an element at a time, a
// 16-byte run of filters stored as one vector (nothing to load ahead;
// Requantize's per-filter scale and bias loaded once a thread, `columns`),
// or a pair of filters where the accumulators are, staged in shared memory
// (Requantize's scale and bias staged there too).
template <typename Self, typename T> struct RunEpilogue {
  struct alignas(2 * sizeof(T)) Pair {
    T v[2];
  };
  static constexpr int STAGED_ROW_BYTES = sizeof(T), STAGED_FILTER_BYTES = 0;
  template <typename Tile> __device__ void stage(const Tile &) const {}
  template <typename Tile>
  __device__ void pair(const Tile &tile, int r, int c, long long row,
                       long long filter, const int (&accs)[2]) const {
    tile.put_pair(r, c, 0,
                  Pair{{self().value(row, filter, accs[0]),
                        self().value(row, filter + 1, accs[1])}});
  }
  template <typename Tile> __device__ void store(const Tile &tile) const {
    tile.store_rows(self().out, 0);
  }
  struct Loaded {};
  struct Columns {};
  __device__ bool aligned() const {
    return reinterpret_cast<uintptr_t>(self().out) % 16 == 0;
  }
  __device__ void element(long long row, long long filter, int acc) const {
    self().out[row * self().filters + filter] = self().value(row, filter, acc);
  }
  __device__ void load(long long, long long, Loaded &) const {}
  __device__ void columns(long long, Columns &) const {}
  __device__ void run(long long row, long long filter, const int32_t *accs,
                      const Loaded &, const Columns &) const {
    constexpr int RUN = 16 / sizeof(T);
    __align__(16) T w[RUN];
    for (int k = 0; k < RUN; ++k)
      w[k] = self().value(row, filter + k, accs[k]);
    *reinterpret_cast<uint4 *>(self().out + row * self().filters + filter) =
        *reinterpret_cast<const uint4 *>(w);
  }
  __device__ const Self &self() const {
    return *static_cast<const Self *>(this);
  }
};

struct StoreInt32 : RunEpilogue<StoreInt32, int> {
  using Output = int;
  int *out;
  int filters;
  __device__ int value(long long, long long, int acc) const { return acc; }
};

struct Requantize : RunEpilogue<Requantize, int8_t> {
  using Output = int8_t;
  int8_t *out;
  int filters;
  const float *scale, *bias;
  // The host's check computes the same.
  static __host__ __device__ int8_t requantize(int acc, float scale,
                                               float bias) {
    float v = fmaxf(fmaf((float)acc, scale, bias), 0.0f);
    return (int8_t)fminf(rintf(v), 127.0f);
  }
  __device__ int8_t value(long long, long long filter, int acc) const {
    return requantize(acc, scale[filter], bias[filter]);
  }
  __device__ bool aligned() const {
    return (reinterpret_cast<uintptr_t>(out) |
            reinterpret_cast<uintptr_t>(scale) |
            reinterpret_cast<uintptr_t>(bias)) %
               16 ==
           0;
  }
  struct Columns {
    __align__(16) float scale[16], bias[16];
  };
  __device__ void columns(long long filter, Columns &c) const {
    for (int i = 0; i < 4; ++i) {
      reinterpret_cast<float4 *>(c.scale)[i] =
          reinterpret_cast<const float4 *>(scale + filter)[i];
      reinterpret_cast<float4 *>(c.bias)[i] =
          reinterpret_cast<const float4 *>(bias + filter)[i];
    }
  }
  static constexpr int STAGED_FILTER_BYTES = 8;
  template <typename Tile> __device__ void stage(const Tile &tile) const {
    tile.copy_filters(scale, 0);
    tile.copy_filters(bias, 4);
  }
  template <typename Tile>
  __device__ void pair(const Tile &tile, int r, int c, long long,
                       long long, const int (&accs)[2]) const {
    const float2 s = tile.template filter_pair<float2>(c, 0),
                 b = tile.template filter_pair<float2>(c, 4);
    tile.put_pair(r, c, 0,
                  Pair{{requantize(accs[0], s.x, b.x),
                        requantize(accs[1], s.y, b.y)}});
  }
  __device__ void run(long long row, long long filter, const int32_t *accs,
                      const Loaded &, const Columns &c) const {
    __align__(16) int8_t w[16];
    for (int k = 0; k < 16; ++k)
      w[k] = requantize(accs[k], c.scale[k], c.bias[k]);
    *reinterpret_cast<uint4 *>(out + row * filters + filter) =
        *reinterpret_cast<const uint4 *>(w);
  }
};

__global__ void direct(const int8_t *x, const int8_t *w, int *y,
                       prec_conv_geometry g, int n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long total = (long long)n * g.out_height * g.out_width * g.filters;
  if (i >= total)
    return;
  int f = i % g.filters;
  long long p = i / g.filters;
  int ox = p % g.out_width, oy = (p / g.out_width) % g.out_height,
      b = p / ((long long)g.out_width * g.out_height);
  int acc = 0;
  for (int ky = 0; ky < g.kernel_height; ++ky)
    for (int kx = 0; kx < g.kernel_width; ++kx) {
      int iy = oy * g.stride_height - g.pad_top + ky * g.dilation_height;
      int ix = ox * g.stride_width - g.pad_left + kx * g.dilation_width;
      if (iy < 0 || iy >= g.height || ix < 0 || ix >= g.width)
        continue;
      for (int c = 0; c < g.channels; ++c)
        acc +=
            x[(((long long)b * g.height + iy) * g.width + ix) * g.channels +
              c] *
            w[((f * g.kernel_height + ky) * g.kernel_width + kx) * g.channels +
              c];
    }
  y[i] = acc;
}

// A convolution of ResNet-50's: C, HW, K, R, stride, padded by R / 2 (the
// kernel's geometry is a constant of it).
template <int C, int HW, int K, int R, int S> struct Shape {
  static constexpr int PAD = R / 2, OUT = (HW + 2 * PAD - R) / S + 1;
  static constexpr prec_conv_geometry value{HW, HW, C, OUT, OUT, K, R,
                                            R,  S,  S, PAD, PAD, 1, 1};
};

// Whether the device code runs the wgmma kernels, read as engines read it
// at create: each launch asks for that kernel's shared memory.
static bool wgmmaCompiled() {
  static int compiled = -1;
  if (compiled < 0 &&
      cudaMemcpyFromSymbol(&compiled, prec_conv_s8_wgmma_compiled,
                           sizeof(int)) != cudaSuccess) {
    printf("reading prec_conv_s8_wgmma_compiled failed\n");
    exit(1);
  }
  return compiled == 1;
}

// The engines' tile width (ConvolutionEmission.cpp): 64 filters a block
// where there are no more or K is one tile of 128 bytes; their grid.
// ALIGNED false: the copies the engines make byte by byte where a binding
// is not 16-byte aligned. `filter_blocks`: the grid's y, the engines' unless
// given.
template <typename Geometry, typename Epilogue, bool ALIGNED = true>
void launch(long long rows, const int8_t *x, const int8_t *w, Epilogue epilogue,
            cudaStream_t st, int filter_blocks = 0) {
  constexpr prec_conv_geometry g = Geometry::value;
  constexpr int COLUMNS = g.filters <= 64 || g.depth() <= 128 ? 64 : 128;
  const int bytes =
      prec_conv_s8_shared_bytes<COLUMNS, Geometry, Epilogue>(wgmmaCompiled());
  auto kernel = prec_conv_s8<COLUMNS, ALIGNED, Geometry, Epilogue>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       bytes);
  dim3 grid((rows + 127) / 128,
            filter_blocks
                ? filter_blocks
                : prec_conv_s8_filter_blocks<COLUMNS, Geometry>(rows));
  kernel<<<grid, 256, bytes, st>>>(x, w, rows, epilogue);
}

static void *workspace;
static const size_t workspaceBytes = 512u << 20;

float cudnnHalf(int n, const prec_conv_geometry &g) {
  // A handle per shape: one that captured a graph crashed in the next Find.
  cudnnHandle_t h;
  CK(cudnnCreate(&h));
  cudnnTensorDescriptor_t x, y, bias;
  cudnnFilterDescriptor_t w;
  cudnnConvolutionDescriptor_t cd;
  cudnnActivationDescriptor_t relu;
  CK(cudnnCreateTensorDescriptor(&x));
  CK(cudnnCreateTensorDescriptor(&y));
  CK(cudnnCreateTensorDescriptor(&bias));
  CK(cudnnCreateFilterDescriptor(&w));
  CK(cudnnCreateConvolutionDescriptor(&cd));
  CK(cudnnCreateActivationDescriptor(&relu));
  CK(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, n,
                                g.channels, g.height, g.width));
  CK(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, n,
                                g.filters, g.out_height, g.out_width));
  CK(cudnnSetTensor4dDescriptor(bias, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1,
                                g.filters, 1, 1));
  CK(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC,
                                g.filters, g.channels, g.kernel_height,
                                g.kernel_width));
  CK(cudnnSetConvolution2dDescriptor(cd, g.pad_top, g.pad_left, g.stride_height,
                                     g.stride_width, g.dilation_height,
                                     g.dilation_width, CUDNN_CROSS_CORRELATION,
                                     CUDNN_DATA_FLOAT));
  CK(cudnnSetConvolutionMathType(cd, CUDNN_TENSOR_OP_MATH));
  CK(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU,
                                  CUDNN_PROPAGATE_NAN, 0.0));
  size_t xs = (size_t)n * g.height * g.width * g.channels,
         ys = (size_t)n * g.out_height * g.out_width * g.filters,
         ws = (size_t)g.filters * g.kernel_height * g.kernel_width * g.channels;
  void *px, *pw, *py, *pb;
  cudaMalloc(&px, xs * 2);
  cudaMalloc(&pw, ws * 2);
  cudaMalloc(&py, ys * 2);
  cudaMalloc(&pb, g.filters * 2);
  cudaMemset(px, 0, xs * 2);
  cudaMemset(pw, 0, ws * 2);
  cudaMemset(pb, 0, g.filters * 2);
  // The engines' choice (CudnnHelpers.cuh): the fastest cuDNN measures
  // whose workspace fits 256 MiB.
  cudnnConvolutionFwdAlgoPerf_t perf[8];
  int found = 0;
  CK(cudnnFindConvolutionForwardAlgorithm(h, x, w, cd, y, 8, &found, perf));
  cudnnConvolutionFwdAlgo_t algo =
      CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  for (int i = found - 1; i >= 0; --i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS &&
        perf[i].memory <= (256u << 20))
      algo = perf[i].algo;
  float one = 1, zero = 0;
  float ms = graphMs([&](cudaStream_t st) {
    cudnnSetStream(h, st);
    cudnnConvolutionBiasActivationForward(h, &one, x, px, w, pw, cd, algo,
                                          workspace, workspaceBytes, &zero, y,
                                          py, bias, pb, relu, y, py);
  });
  cudaFree(px);
  cudaFree(pw);
  cudaFree(py);
  cudaFree(pb);
  cudnnDestroy(h);
  return ms;
}

struct Totals {
  double half = 0, s8 = 0;
  bool exact = true;
};

// Checks the shape against the direct convolution, with the asynchronous
// copies and byte by byte, and with one block taking all of a row tile's
// filter tiles (what the engines launch where K is one tile and the rows are
// many), into outputs filled with -1 first, and requantized to int8 (runs
// of 16 filters: where a tile is 64 filters, 4 a row, the staged tile read
// as rows 0, 2, 1, 3);
// then times the requantizing kernel against cuDNN's f16.
template <typename Geometry> void run(int n, Totals &totals) {
  constexpr prec_conv_geometry g = Geometry::value;
  const int c = g.channels, hw = g.height, k = g.filters, r = g.kernel_height,
            stride = g.stride_height;
  long long rows = (long long)n * g.out_height * g.out_width;
  size_t xs = (size_t)n * hw * hw * c, ws = (size_t)k * r * r * c,
         ys = rows * k;
  std::vector<int8_t> hx(xs), hw8(ws);
  srand(7);
  for (auto &v : hx)
    v = (int8_t)(rand() % 255 - 127);
  for (auto &v : hw8)
    v = (int8_t)(rand() % 255 - 127);
  int8_t *x, *w, *q;
  int *y, *ref;
  float *scale, *bias;
  cudaMalloc(&x, xs);
  cudaMalloc(&w, ws);
  cudaMalloc(&q, ys);
  cudaMalloc(&y, ys * 4);
  cudaMalloc(&ref, ys * 4);
  cudaMalloc(&scale, k * 4);
  cudaMalloc(&bias, k * 4);
  std::vector<float> hs(k), hb(k);
  for (int f = 0; f < k; ++f) {
    hs[f] = 1e-4f * (1 + f % 7);
    hb[f] = 0.5f - 0.25f * (f % 3);
  }
  cudaMemcpy(scale, hs.data(), k * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(bias, hb.data(), k * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(x, hx.data(), xs, cudaMemcpyHostToDevice);
  cudaMemcpy(w, hw8.data(), ws, cudaMemcpyHostToDevice);
  direct<<<(ys + 255) / 256, 256>>>(x, w, ref, g, n);
  std::vector<int> got(ys), want(ys);
  cudaMemcpy(want.data(), ref, ys * 4, cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (int check = 0; check < 3; ++check) {
    cudaMemset(y, 0xFF, ys * 4);
    if (check == 0)
      launch<Geometry>(rows, x, w, StoreInt32{{}, y, k}, 0);
    else if (check == 1)
      launch<Geometry, StoreInt32, false>(rows, x, w, StoreInt32{{}, y, k}, 0);
    else if (prec_conv_one_k_tile<Geometry>)
      launch<Geometry>(rows, x, w, StoreInt32{{}, y, k}, 0, 1);
    else
      continue;
    cudaMemcpy(got.data(), y, ys * 4, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < ys; ++i)
      wrong += got[i] != want[i];
  }
  cudaMemset(q, 0xFF, ys);
  launch<Geometry>(rows, x, w, Requantize{{}, q, k, scale, bias}, 0);
  std::vector<int8_t> quantized(ys);
  cudaMemcpy(quantized.data(), q, ys, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < ys; ++i)
    wrong +=
        quantized[i] != Requantize::requantize(want[i], hs[i % k], hb[i % k]);
  totals.exact &= wrong == 0;
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(e));
    exit(1);
  }
  float s8 = graphMs([&](cudaStream_t st) {
    launch<Geometry>(rows, x, w, Requantize{{}, q, k, scale, bias}, st);
  });
  float half = cudnnHalf(n, g);
  double flops = 2.0 * rows * k * r * r * c;
  printf("C%5d HW%3d K%5d R%d s%d: %s  int8 %.4f ms (%4.0f TOPS)  cuDNN f16 "
         "%.4f ms  f16/int8 %.2fx\n",
         c, hw, k, r, stride, wrong ? "WRONG" : "exact", s8, flops / s8 / 1e9,
         half, half / s8);
  totals.half += half;
  totals.s8 += s8;
  cudaFree(x);
  cudaFree(w);
  cudaFree(q);
  cudaFree(y);
  cudaFree(ref);
  cudaFree(scale);
  cudaFree(bias);
}

int main(int argc, char **argv) {
  // An argument runs only that shape (by index): for ncu.
  int only = argc > 1 ? atoi(argv[1]) : -1;
  setvbuf(stdout, nullptr, _IONBF, 0);
  cudaMalloc(&workspace, workspaceBytes);
  const int n = 64;
  Totals resnet, ragged;
  // ResNet-50's convolutions but its first, then shapes whose rows and
  // filters leave partial blocks and runs (checked, not counted).
  using Run = void (*)(int, Totals &);
  Run shapes[] = {
      run<Shape<64, 56, 64, 3, 1>>,    run<Shape<128, 56, 128, 3, 2>>,
      run<Shape<128, 28, 128, 3, 1>>,  run<Shape<256, 28, 256, 3, 2>>,
      run<Shape<256, 14, 256, 3, 1>>,  run<Shape<512, 14, 512, 3, 2>>,
      run<Shape<512, 7, 512, 3, 1>>,   run<Shape<256, 56, 64, 1, 1>>,
      run<Shape<64, 56, 256, 1, 1>>,   run<Shape<512, 28, 128, 1, 1>>,
      run<Shape<1024, 14, 256, 1, 1>>, run<Shape<256, 14, 1024, 1, 1>>,
      run<Shape<2048, 7, 512, 1, 1>>,  run<Shape<48, 9, 40, 3, 2>>,
      run<Shape<32, 9, 70, 1, 2>>,     run<Shape<16, 7, 130, 3, 1>>,
      run<Shape<48, 9, 40, 1, 1>>,     run<Shape<48, 9, 48, 1, 1>>};
  const int resnetShapes = 13;
  for (int index = 0; index < (int)(sizeof(shapes) / sizeof(shapes[0]));
       ++index)
    if (only < 0 || index == only)
      shapes[index](n, index < resnetShapes ? resnet : ragged);
  printf("ResNet-50's 13 shapes: int8 %.3f ms, cuDNN f16 %.3f ms, f16/int8 "
         "%.2fx; every shape exact: %s\n",
         resnet.s8, resnet.half, resnet.half / resnet.s8,
         resnet.exact && ragged.exact ? "yes" : "NO");
  return resnet.exact && ragged.exact ? 0 : 1;
}
