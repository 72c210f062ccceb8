// A prototype warp-specialized f16 GEMM (WarpSpecializedGemm.cuh, beside this
// file) against cuBLASLt on transformer shapes, in f16 with f32 accumulation:
//  - with the bias alone (cuBLASLt's BIAS epilogue): the GEMMs' speed;
//  - with the bias and GELU in erf form, rounding to f16 after each op as a
//    prec program does: cuBLASLt (whose GELU epilogue is the tanh form) then
//    an elementwise kernel, against the GEMM computing it in its epilogue.
// Each shape is first checked against cuBLASLt, with f32 outputs and with
// the bias epilogue's f16 ones (largest difference relative to the largest
// output). GPU time of 20 calls replayed
// as one CUDA graph, the best of 5 (GraphTiming.cuh).
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o gemm_f16_epilogue gemm_f16_epilogue.cu
//   -lcublasLt
//   ./gemm_f16_epilogue
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector>

// In the order the emitter copies them into an engine.
#include "../../codegen/runtime/WeightsFile.h"

#include "../../codegen/runtime/EngineRuntime.cuh"

#include "../../codegen/runtime/TensorCoreCopies.cuh"

#include "../../codegen/runtime/WarpgroupMma.cuh"

#include "WarpSpecializedGemm.cuh"

#include "GraphTiming.cuh"

#define CHECK_LT(x)                                                            \
  do {                                                                         \
    if (cublasStatus_t s = (x); s != CUBLAS_STATUS_SUCCESS) {                  \
      printf("%s:%d cuBLASLt status %d\n", __FILE__, __LINE__, (int)s);        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct StoreFloat {
  using Output = float;
  float *out;
  __device__ float element(int, int, float acc) const { return acc; }
};

struct AddBias {
  using Output = __half;
  __half *out;
  const __half *bias;
  __device__ __half element(int, int column, float acc) const {
    return __float2half_rn(acc + __half2float(bias[column]));
  }
};

// x * 0.5 * (1 + erf(x * 0.70710678)) with every op rounded to f16.
__device__ inline __half gelu(__half x) {
  __half scaled = __hmul_rn(x, __float2half_rn(0.70710678f));
  __half e = __float2half_rn(erff(__half2float(scaled)));
  __half one = __hadd_rn(e, __float2half_rn(1.0f));
  return __hmul_rn(__hmul_rn(x, __float2half_rn(0.5f)), one);
}

struct AddBiasGelu {
  using Output = __half;
  __half *out;
  const __half *bias;
  __device__ __half element(int, int column, float acc) const {
    return gelu(__float2half_rn(acc + __half2float(bias[column])));
  }
};

// The elementwise kernel after cuBLASLt: 8 elements a thread.
__global__ void geluKernel(const __half *in, __half *out, long long n) {
  long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * 8;
  if (i >= n)
    return;
  uint4 v = *reinterpret_cast<const uint4 *>(in + i);
  __half *h = reinterpret_cast<__half *>(&v);
  for (int e = 0; e < 8; ++e)
    h[e] = gelu(h[e]);
  *reinterpret_cast<uint4 *>(out + i) = v;
}

// C (M x N, row-major) = A (M x K) * B (N x K)^T through cuBLASLt, its
// output f16 with the bias epilogue or f32 without.
struct LtGemm {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatmulAlgo_t algo;
  LtGemm(cublasLtHandle_t lt, int m, int n, int k, bool f16Out,
         const __half *bias, void *workspace, size_t workspaceBytes) {
    CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t t = CUBLAS_OP_T;
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                            &t, sizeof(t)));
    if (bias) {
      cublasLtEpilogue_t e = CUBLASLT_EPILOGUE_BIAS;
      CHECK_LT(cublasLtMatmulDescSetAttribute(
          desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof(e)));
      CHECK_LT(cublasLtMatmulDescSetAttribute(
          desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
    }
    // Column-major: C^T (N x M) = B (K x N)^T * A^T (K x M).
    CHECK_LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_16F, k, n, k));
    CHECK_LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16F, k, m, k));
    CHECK_LT(cublasLtMatrixLayoutCreate(&lc, f16Out ? CUDA_R_16F : CUDA_R_32F,
                                        n, m, n));
    cublasLtMatmulPreference_t pref;
    CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
    CHECK_LT(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
        sizeof(workspaceBytes)));
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 1,
                                            &result, &found));
    if (!found) {
      printf("no cuBLASLt algorithm\n");
      exit(1);
    }
    algo = result.algo;
    cublasLtMatmulPreferenceDestroy(pref);
  }
  void run(cublasLtHandle_t lt, const __half *a, const __half *b, void *c,
           void *workspace, size_t workspaceBytes, cudaStream_t st) {
    float one = 1, zero = 0;
    CHECK_LT(cublasLtMatmul(lt, desc, &one, b, la, a, lb, &zero, c, lc, c, lc,
                            &algo, workspace, workspaceBytes, st));
  }
};

template <typename Epilogue>
void launchPrec(const CUtensorMap &a, const CUtensorMap &b, int m, int n, int k,
                Epilogue epilogue, cudaStream_t st) {
  dim3 grid((m + prec_gemm_tiles::ROWS - 1) / prec_gemm_tiles::ROWS,
            (n + prec_gemm_tiles::COLUMNS - 1) / prec_gemm_tiles::COLUMNS);
  prec_gemm_f16<<<grid, prec_gemm_tiles::THREADS, prec_gemm_tiles::SHARED_BYTES,
                  st>>>(a, b, m, n, k, epilogue);
}

template <typename Epilogue> void allowShared() {
  cudaFuncSetAttribute(prec_gemm_f16<Epilogue>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                       prec_gemm_tiles::SHARED_BYTES);
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  allowShared<StoreFloat>();
  allowShared<AddBias>();
  allowShared<AddBiasGelu>();
  cublasLtHandle_t lt;
  CHECK_LT(cublasLtCreate(&lt));
  const size_t workspaceBytes = 64u << 20;
  void *workspace;
  cudaMalloc(&workspace, workspaceBytes);
  struct Shape {
    const char *name;
    int m, n, k;
  } shapes[] = {{"BERT 8x512 QKV", 4096, 2304, 768},
                {"BERT 8x512 FFN up", 4096, 3072, 768},
                {"BERT 8x512 FFN down", 4096, 768, 3072},
                {"LLaMA 2048 gate/up", 2048, 14336, 4096},
                {"LLaMA 2048 down", 2048, 4096, 14336},
                {"8192^3", 8192, 8192, 8192},
                {"edges 200x136x40", 200, 136, 40}};
  double worst = 0;
  for (const Shape &s : shapes) {
    const int m = s.m, n = s.n, k = s.k;
    std::vector<__half> ha((size_t)m * k), hb((size_t)n * k), hbias(n);
    srand(3);
    for (auto &v : ha)
      v = __float2half((rand() % 2001 - 1000) / 1000.0f);
    for (auto &v : hb)
      v = __float2half((rand() % 2001 - 1000) / 1000.0f / sqrtf(k));
    for (auto &v : hbias)
      v = __float2half((rand() % 2001 - 1000) / 2000.0f);
    __half *a, *b, *bias, *c, *c2;
    float *f, *ref;
    cudaMalloc(&a, ha.size() * 2);
    cudaMalloc(&b, hb.size() * 2);
    cudaMalloc(&bias, n * 2);
    cudaMalloc(&c, (size_t)m * n * 2);
    cudaMalloc(&c2, (size_t)m * n * 2);
    cudaMalloc(&f, (size_t)m * n * 4);
    cudaMalloc(&ref, (size_t)m * n * 4);
    cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(bias, hbias.data(), n * 2, cudaMemcpyHostToDevice);
    CUtensorMap ma, mb;
    if (!prec_describe_matrix(&ma, a, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, m, k,
                              prec_gemm_tiles::ROWS, prec_gemm_tiles::DEPTH) ||
        !prec_describe_matrix(&mb, b, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, n, k,
                              prec_gemm_tiles::COLUMNS,
                              prec_gemm_tiles::DEPTH)) {
      printf("%s: no tensor map\n", s.name);
      return 1;
    }
    LtGemm reference(lt, m, n, k, false, nullptr, workspace, workspaceBytes);
    LtGemm withBias(lt, m, n, k, true, bias, workspace, workspaceBytes);
    reference.run(lt, a, b, ref, workspace, workspaceBytes, 0);
    cudaMemset(f, 0xff, (size_t)m * n * 4);
    launchPrec(ma, mb, m, n, k, StoreFloat{f}, 0);
    std::vector<float> got((size_t)m * n), want((size_t)m * n);
    cudaMemcpy(got.data(), f, got.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(want.data(), ref, want.size() * 4, cudaMemcpyDeviceToHost);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
      printf("CUDA error: %s\n", cudaGetErrorString(e));
      return 1;
    }
    double largest = 0, diff = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      largest = fmax(largest, fabs(want[i]));
      double d = fabs((double)got[i] - want[i]);
      diff = std::isnan(d) ? INFINITY : fmax(diff, d);
    }
    double relative = diff / largest;
    // The bias epilogue against cuBLASLt's: both round acc + bias once.
    withBias.run(lt, a, b, c2, workspace, workspaceBytes, 0);
    launchPrec(ma, mb, m, n, k, AddBias{c, bias}, 0);
    std::vector<__half> gotBias((size_t)m * n), wantBias((size_t)m * n);
    cudaMemcpy(gotBias.data(), c, gotBias.size() * 2, cudaMemcpyDeviceToHost);
    cudaMemcpy(wantBias.data(), c2, wantBias.size() * 2,
               cudaMemcpyDeviceToHost);
    double biasDiff = 0;
    for (size_t i = 0; i < gotBias.size(); ++i)
      biasDiff = fmax(
          biasDiff, fabs(__half2float(gotBias[i]) - __half2float(wantBias[i])));
    relative = fmax(relative, biasDiff / largest);
    worst = fmax(worst, relative);
    float ltBias = graphMs([&](cudaStream_t st) {
      withBias.run(lt, a, b, c, workspace, workspaceBytes, st);
    });
    long long count = (long long)m * n;
    float ltGelu = graphMs([&](cudaStream_t st) {
      withBias.run(lt, a, b, c, workspace, workspaceBytes, st);
      geluKernel<<<(count / 8 + 255) / 256, 256, 0, st>>>(c, c2, count);
    });
    float precBias = graphMs([&](cudaStream_t st) {
      launchPrec(ma, mb, m, n, k, AddBias{c, bias}, st);
    });
    float precGelu = graphMs([&](cudaStream_t st) {
      launchPrec(ma, mb, m, n, k, AddBiasGelu{c, bias}, st);
    });
    double tflop = 2.0 * m * n * k / 1e12;
    printf("%-20s %5dx%5dx%5d: error %.1e | bias: cuBLASLt %.4f ms (%4.0f "
           "TFLOP/s), prec %.4f ms (%4.0f), cuBLASLt/prec %.2fx | bias+GELU: "
           "cuBLASLt+kernel %.4f ms, prec %.4f ms, %.2fx\n",
           s.name, m, n, k, relative, ltBias, tflop / ltBias * 1e3, precBias,
           tflop / precBias * 1e3, ltBias / precBias, ltGelu, precGelu,
           ltGelu / precGelu);
    cudaFree(a);
    cudaFree(b);
    cudaFree(bias);
    cudaFree(c);
    cudaFree(c2);
    cudaFree(f);
    cudaFree(ref);
  }
  printf("largest error relative to the largest output: %.1e (%s)\n", worst,
         worst < 1e-3 ? "ok" : "TOO LARGE");
  return worst < 1e-3 ? 0 : 1;
}
