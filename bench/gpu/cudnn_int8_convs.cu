// What cuDNN's INT8 NHWC convolutions would give prec's quantized
// convolutions: ResNet-50's convolution shapes at batch 64, through the
// legacy API, f16 (the fastest algorithm cuDNN finds) against int8 inputs
// with a float output (INT8_EXT_CONFIG, which prec's per-channel
// dequantization would need) and with an int8 output (INT8_CONFIG, one
// scalar scale). GPU time of 20 calls replayed as one CUDA graph, zero data.
//
//   nvcc -arch=sm_90 -o cudnn_int8_convs cudnn_int8_convs.cu -lcudnn
//   ./cudnn_int8_convs
#include <cstdio>
#include <cuda_runtime.h>
#include <cudnn.h>
#define CK(x)                                                                  \
  do {                                                                         \
    auto s = (x);                                                              \
    if (s != CUDNN_STATUS_SUCCESS) {                                           \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudnnGetErrorString(s));        \
      return -1;                                                               \
    }                                                                          \
  } while (0)

static void *ws;
static size_t wsBytes = 512u << 20;

float timeIt(cudnnHandle_t h, cudnnTensorDescriptor_t x, void *px,
             cudnnFilterDescriptor_t w, void *pw,
             cudnnConvolutionDescriptor_t c, cudnnConvolutionFwdAlgo_t a,
             cudnnTensorDescriptor_t y, void *py) {
  float one = 1, zero = 0;
  for (int i = 0; i < 5; ++i)
    cudnnConvolutionForward(h, &one, x, px, w, pw, c, a, ws, wsBytes, &zero, y,
                            py);
  // GPU time: the 20 calls replayed as one CUDA graph (each legacy call costs
  // tens of us on the host).
  cudaStream_t st;
  cudaStreamCreate(&st);
  cudnnSetStream(h, st);
  cudaGraph_t g;
  cudaGraphExec_t ge;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < 20; ++i)
    cudnnConvolutionForward(h, &one, x, px, w, pw, c, a, ws, wsBytes, &zero, y,
                            py);
  cudaStreamEndCapture(st, &g);
  cudaGraphInstantiate(&ge, g, 0);
  cudaGraphLaunch(ge, st);
  cudaStreamSynchronize(st);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0, st);
  cudaGraphLaunch(ge, st);
  cudaEventRecord(e1, st);
  cudaEventSynchronize(e1);
  cudnnSetStream(h, 0);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(st);
  float ms;
  cudaEventElapsedTime(&ms, e0, e1);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudnnStatus_t s = cudnnConvolutionForward(h, &one, x, px, w, pw, c, a, ws,
                                            wsBytes, &zero, y, py);
  cudaDeviceSynchronize();
  if (s != CUDNN_STATUS_SUCCESS)
    return -1;
  return ms / 20;
}

int run(cudnnHandle_t h, int n, int c, int hw, int k, int r, int stride,
        cudnnDataType_t in, cudnnDataType_t comp, cudnnDataType_t out,
        bool find, float *ms) {
  int pad = r / 2, oh = (hw + 2 * pad - r) / stride + 1;
  cudnnTensorDescriptor_t x, y;
  cudnnFilterDescriptor_t w;
  cudnnConvolutionDescriptor_t cd;
  CK(cudnnCreateTensorDescriptor(&x));
  CK(cudnnCreateTensorDescriptor(&y));
  CK(cudnnCreateFilterDescriptor(&w));
  CK(cudnnCreateConvolutionDescriptor(&cd));
  CK(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, in, n, c, hw, hw));
  CK(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NHWC, out, n, k, oh, oh));
  CK(cudnnSetFilter4dDescriptor(w, in, CUDNN_TENSOR_NHWC, k, c, r, r));
  CK(cudnnSetConvolution2dDescriptor(cd, pad, pad, stride, stride, 1, 1,
                                     CUDNN_CROSS_CORRELATION, comp));
  CK(cudnnSetConvolutionMathType(cd, CUDNN_TENSOR_OP_MATH));
  void *px, *pw, *py;
  cudaMalloc(&px, (size_t)n * c * hw * hw * 2);
  cudaMalloc(&pw, (size_t)k * c * r * r * 2);
  cudaMalloc(&py, (size_t)n * k * oh * oh * 4);
  cudaMemset(px, 0, (size_t)n * c * hw * hw * 2);
  cudaMemset(pw, 0, (size_t)k * c * r * r * 2);
  cudnnConvolutionFwdAlgo_t algo =
      CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  if (find) {
    cudnnConvolutionFwdAlgoPerf_t p[8];
    int cnt = 0;
    CK(cudnnFindConvolutionForwardAlgorithmEx(h, x, px, w, pw, cd, y, py, 8,
                                              &cnt, p, ws, wsBytes));
    for (int i = 0; i < cnt; ++i)
      if (p[i].status == CUDNN_STATUS_SUCCESS) {
        algo = p[i].algo;
        break;
      }
  }
  *ms = timeIt(h, x, px, w, pw, cd, algo, y, py);
  cudaFree(px);
  cudaFree(pw);
  cudaFree(py);
  cudnnDestroyTensorDescriptor(x);
  cudnnDestroyTensorDescriptor(y);
  cudnnDestroyFilterDescriptor(w);
  cudnnDestroyConvolutionDescriptor(cd);
  return 0;
}

int main() {
  cudnnHandle_t h;
  CK(cudnnCreate(&h));
  cudaMalloc(&ws, wsBytes);
  printf("cudnn %zu\n", cudnnGetVersion());
  int shapes[][5] = {
      {64, 56, 64, 3, 1},   {128, 56, 128, 3, 2},  {128, 28, 128, 3, 1},
      {256, 28, 256, 3, 2}, {256, 14, 256, 3, 1},  {512, 14, 512, 3, 2},
      {512, 7, 512, 3, 1},  {256, 56, 64, 1, 1},   {64, 56, 256, 1, 1},
      {512, 28, 128, 1, 1}, {1024, 14, 256, 1, 1}, {256, 14, 1024, 1, 1},
      {2048, 7, 512, 1, 1}};
  double tf = 0, ti = 0, tq = 0;
  for (auto &s : shapes) {
    float f16 = -1, i8f = -1, i8i = -1;
    run(h, 64, s[0], s[1], s[2], s[3], s[4], CUDNN_DATA_HALF, CUDNN_DATA_FLOAT,
        CUDNN_DATA_HALF, true, &f16);
    run(h, 64, s[0], s[1], s[2], s[3], s[4], CUDNN_DATA_INT8, CUDNN_DATA_INT32,
        CUDNN_DATA_FLOAT, false, &i8f);
    run(h, 64, s[0], s[1], s[2], s[3], s[4], CUDNN_DATA_INT8, CUDNN_DATA_INT32,
        CUDNN_DATA_INT8, false, &i8i);
    printf("C%4d HW%3d K%4d R%d s%d: f16 %.4f ms  i8->f32 %.4f ms (%.2fx)  "
           "i8->i8 %.4f ms (%.2fx)\n",
           s[0], s[1], s[2], s[3], s[4], f16, i8f, f16 / i8f, i8i, f16 / i8i);
    tf += f16;
    ti += i8f;
    tq += i8i;
  }
  printf("sum: f16 %.3f  i8->f32 %.3f (%.2fx)  i8->i8 %.3f (%.2fx)\n", tf, ti,
         tf / ti, tq, tf / tq);
}
