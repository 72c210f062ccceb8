// prec-debug and prec-calibrate --device gpu: an engine called on host
// memory. The tools compile this file into the engine's library with
// -DPREC_ENGINE=<the engine's prefix> -include <its header>, load the
// library, and call:
//
//   int  <engine>_host_create(const char *weights, const size_t *bytes,
//                             void **runner);
//   int  <engine>_host_run(void *runner, const void *const *inputs,
//                          void *const *outputs);
//   void <engine>_host_destroy(void *runner);
//
// A runner owns the engine, a stream and a device buffer per binding, of
// the size `bytes` gives in binding order (the tool has checked the
// bindings' types and shapes). A run copies the inputs in, runs the engine
// on its stream, copies the outputs out and waits for them. Statuses are
// the engine's (read with <engine>_status_message); CUDA errors are below
// 10000, as the engine's own.
#include <cuda_runtime.h>

#include <new>
#include <vector>

#define PREC_CONCAT2(a, b) a##b
#define PREC_CONCAT(a, b) PREC_CONCAT2(a, b)
#define PREC_API(name) PREC_CONCAT(PREC_ENGINE, name)

namespace {

// The engine's status for host memory running out.
constexpr int kOutOfHostMemory = 30009;

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

extern "C" int PREC_API(_host_create)(const char *weights, const size_t *bytes,
                                      void **out) {
  Runner *runner = new (std::nothrow) Runner;
  if (!runner)
    return kOutOfHostMemory;
  int status = PREC_API(_create)(weights, &runner->engine);
  if (status == 0)
    status = cudaStreamCreateWithFlags(&runner->stream, cudaStreamNonBlocking);
  int bindings = PREC_API(_num_bindings)();
  try {
    runner->buffers.reserve(bindings);
    runner->bytes.assign(bytes, bytes + bindings);
  } catch (const std::bad_alloc &) {
    status = status ? status : kOutOfHostMemory;
  }
  for (int i = 0; status == 0 && i < bindings; ++i) {
    void *buffer = nullptr;
    status = cudaMalloc(&buffer, bytes[i] ? bytes[i] : 1);
    if (status == 0)
      runner->buffers.push_back(buffer);
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
