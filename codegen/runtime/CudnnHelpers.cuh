// cuDNN support, copied into the engines that run convolutions through it:
// its status range (40000 + cudnnStatus_t), the workspace limit, and the
// search for a convolution's algorithm.

#include <cudnn.h>

#define PREC_CHECK_DNN(call) do { cudnnStatus_t s_ = (call); if (s_ != CUDNN_STATUS_SUCCESS) return 40000 + (int)s_; } while (0)
#define PREC_DNN_WORKSPACE_LIMIT ((size_t)256 << 20)

// The fastest algorithm cuDNN measures for a convolution whose workspace
// needs at most `limit` bytes.
static int prec_find_conv_algo(cudnnHandle_t dnn, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                               cudnnConvolutionDescriptor_t c, cudnnTensorDescriptor_t y, size_t limit,
                               cudnnConvolutionFwdAlgo_t *algo) {
  cudnnConvolutionFwdAlgoPerf_t found[8];
  int count = 0;
  PREC_CHECK_DNN(cudnnFindConvolutionForwardAlgorithm(dnn, x, w, c, y, 8, &count, found));
  for (int i = 0; i < count; ++i)
    if (found[i].status == CUDNN_STATUS_SUCCESS && found[i].memory <= limit) {
      *algo = found[i].algo;
      return 0;
    }
  return PREC_STATUS_NO_CONV_ALGORITHM;
}
