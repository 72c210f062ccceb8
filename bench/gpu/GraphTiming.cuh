// GPU time of a launch in the benchmarks here (conv_s8.cu,
// gemm_f16_epilogue.cu).
#include <cuda_runtime.h>

// The best of 5 timings of 20 launches, replayed as one CUDA graph where the
// launches can be captured (cuDNN's may not), else launched on the stream.
template <typename Launch> float graphMs(Launch launch) {
  cudaStream_t st;
  cudaStreamCreate(&st);
  for (int i = 0; i < 3; ++i)
    launch(st);
  cudaGraph_t g = nullptr;
  cudaGraphExec_t ge = nullptr;
  bool graph =
      cudaStreamBeginCapture(st, cudaStreamCaptureModeRelaxed) == cudaSuccess;
  if (graph) {
    for (int i = 0; i < 20; ++i)
      launch(st);
    graph = cudaStreamEndCapture(st, &g) == cudaSuccess &&
            cudaGraphInstantiate(&ge, g, 0) == cudaSuccess;
  }
  cudaGetLastError();
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(e0, st);
    if (graph)
      cudaGraphLaunch(ge, st);
    else
      for (int i = 0; i < 20; ++i)
        launch(st);
    cudaEventRecord(e1, st);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    best = ms < best ? ms : best;
  }
  if (ge)
    cudaGraphExecDestroy(ge);
  if (g)
    cudaGraphDestroy(g);
  cudaStreamDestroy(st);
  return best / 20;
}
