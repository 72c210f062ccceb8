// cuBLASLt helpers, copied into the engines that call GEMMs after their
// state: resizing a layout to a batch or a number of columns, and choosing a
// GEMM's algorithm. Needs cublasLt.h, PREC_WORKSPACE and EngineRuntime.cuh's
// statuses.

[[maybe_unused]] static void prec_set_batch(cublasLtMatrixLayout_t layout, int batch, long long stride) {
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch));
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride));
}

[[maybe_unused]] static void prec_set_columns(cublasLtMatrixLayout_t layout, long long columns) {
  uint64_t value = (uint64_t)columns;
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_COLS, &value, sizeof(value));
}

// The fastest of cuBLASLt's first 8 candidate algorithms for a GEMM, timed
// on zeroed scratch operands of the given sizes (the heuristic's first
// choice when nothing else can be timed). The heuristic's choice is the
// fastest for large GEMMs, but not always for small ones: on an H200,
// timing took ResNet-50's 1x1 convolutions down by 8 to 26%.
static int prec_pick_algo(cublasLtHandle_t lt, void *workspace, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a,
                          cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c, const void *alpha,
                          const void *beta, size_t aBytes, size_t bBytes, size_t cBytes,
                          size_t biasBytes, cublasLtMatmulAlgo_t *algo) {
  cublasLtMatmulPreference_t preference;
  if (cublasLtMatmulPreferenceCreate(&preference) != CUBLAS_STATUS_SUCCESS) return PREC_STATUS_NO_GEMM_PREFERENCE;
  size_t workspaceBytes = PREC_WORKSPACE;
  cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes, sizeof(workspaceBytes));
  cublasLtMatmulHeuristicResult_t results[8];
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, c, preference, 8, results, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  if (found == 0) return PREC_STATUS_NO_GEMM_ALGORITHM;
  *algo = results[0].algo;
  if (found == 1) return 0;
  auto aligned = [](size_t bytes) { return (bytes + 255) / 256 * 256; };
  size_t scratchBytes = aligned(aBytes) + aligned(bBytes) + aligned(cBytes) + aligned(biasBytes);
  char *scratch = nullptr;
  if (cudaMalloc(&scratch, scratchBytes) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  cudaMemset(scratch, 0, scratchBytes);
  char *pa = scratch, *pb = pa + aligned(aBytes), *pc = pb + aligned(bBytes), *pbias = pc + aligned(cBytes);
  // The engine sets its bias pointer on every run; a scratch one serves here.
  if (biasBytes) cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &pbias, sizeof(pbias));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float best = 0.0f;
  for (int i = 0; i < found; ++i) {
    bool ok = true;
    for (int run = 0; run < 2 && ok; ++run)
      ok = cublasLtMatmul(lt, desc, alpha, pa, a, pb, b, beta, pc, c, pc, c, &results[i].algo, workspace, PREC_WORKSPACE, 0) == CUBLAS_STATUS_SUCCESS;
    if (!ok) continue;
    cudaEventRecord(start, 0);
    for (int run = 0; run < 5; ++run)
      cublasLtMatmul(lt, desc, alpha, pa, a, pb, b, beta, pc, c, pc, c, &results[i].algo, workspace, PREC_WORKSPACE, 0);
    cudaEventRecord(stop, 0);
    float ms = 0.0f;
    if (cudaEventSynchronize(stop) != cudaSuccess || cudaEventElapsedTime(&ms, start, stop) != cudaSuccess) break;
    if (i == 0 || ms < best) {
      best = ms;
      *algo = results[i].algo;
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(scratch);
  return (int)cudaGetLastError();
}
