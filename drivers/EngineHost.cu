// prec-debug and prec-calibrate --device gpu: an engine called on host
// memory. The tools compile this file into the engine's library with
// -DPREC_ENGINE=<the engine's prefix> -include <its header>, load the
// library, and call:
//
//   int  <engine>_host_create(const char *weights, void **runner);
//   int  <engine>_host_run(void *runner, const void *const *inputs,
//                          void *const *outputs);
//   void <engine>_host_destroy(void *runner);
//
// A runner owns the engine, a stream and a device buffer per binding. A run
// copies the inputs in (in binding order), runs the engine on its stream,
// copies the outputs out and waits for them. Statuses are the engine's
// (read with <engine>_status_message); CUDA errors are below 10000, as the
// engine's own.
#include <cuda_runtime.h>

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

struct Runner {
  PREC_API(_engine) *engine = nullptr;
  cudaStream_t stream = nullptr;
  std::vector<void *> buffers;
  std::vector<size_t> bytes;
};

void destroy(Runner *runner) {
  for (void *buffer : runner->buffers)
    cudaFree(buffer);
  if (runner->stream)
    cudaStreamDestroy(runner->stream);
  if (runner->engine)
    PREC_API(_destroy)(runner->engine);
  delete runner;
}

} // namespace

extern "C" int PREC_API(_host_create)(const char *weights, void **out) {
  Runner *runner = new Runner;
  int status = PREC_API(_create)(weights, &runner->engine);
  if (status == 0)
    status = cudaStreamCreateWithFlags(&runner->stream, cudaStreamNonBlocking);
  for (int i = 0; status == 0 && i < PREC_API(_num_bindings)(); ++i) {
    size_t bytes = elementBytes(PREC_API(_binding_dtype)(i));
    const long long *shape = PREC_API(_binding_shape)(i);
    for (int d = 0; d < PREC_API(_binding_rank)(i); ++d)
      bytes *= shape[d];
    void *buffer = nullptr;
    status = cudaMalloc(&buffer, bytes ? bytes : 1);
    runner->buffers.push_back(buffer);
    runner->bytes.push_back(bytes);
  }
  if (status != 0) {
    destroy(runner);
    return status;
  }
  *out = runner;
  return 0;
}

extern "C" int PREC_API(_host_run)(void *handle, const void *const *inputs,
                                   void *const *outputs) {
  Runner *runner = static_cast<Runner *>(handle);
  int inputIndex = 0;
  for (size_t i = 0; i < runner->buffers.size(); ++i)
    if (PREC_API(_binding_is_input)(i))
      if (int status = cudaMemcpyAsync(runner->buffers[i], inputs[inputIndex++],
                                       runner->bytes[i], cudaMemcpyHostToDevice,
                                       runner->stream))
        return status;
  if (int status = PREC_API(_run)(runner->engine, runner->buffers.data(),
                                  runner->stream))
    return status;
  int outputIndex = 0;
  for (size_t i = 0; i < runner->buffers.size(); ++i)
    if (!PREC_API(_binding_is_input)(i))
      if (int status = cudaMemcpyAsync(outputs[outputIndex++],
                                       runner->buffers[i], runner->bytes[i],
                                       cudaMemcpyDeviceToHost, runner->stream))
        return status;
  return cudaStreamSynchronize(runner->stream);
}

extern "C" void PREC_API(_host_destroy)(void *handle) {
  destroy(static_cast<Runner *>(handle));
}
