// The host runtime every prec engine carries: reading its weights file,
// device allocation, status messages and the guard that keeps one engine on
// one stream at a time. prec-translate --emit-cuda copies this file into each
// engine's .cu, so that an engine is one self-contained source file.
//
// The weights file's layout and checksum are in WeightsFile.h, which comes
// first in every engine.

#ifndef PREC_CODEGEN_RUNTIME_WEIGHTSFILE_H
#error "WeightsFile.h comes first: the emitter copies both into each engine"
#endif

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

// Status codes of create and run, beside CUDA's own (below 10000), cuBLAS's
// (10000 + status) and cuDNN's (40000 + status).
enum {
  PREC_STATUS_CANNOT_OPEN_WEIGHTS = 30001,
  PREC_STATUS_NOT_A_WEIGHTS_FILE = 30002,
  PREC_STATUS_TRUNCATED_WEIGHTS = 30003,
  PREC_STATUS_CUDA_UNAVAILABLE = 30004,
  PREC_STATUS_OTHER_ENGINES_WEIGHTS = 30005,
  PREC_STATUS_CORRUPT_WEIGHTS = 30006,
  PREC_STATUS_OUT_OF_DEVICE_MEMORY = 30007,
  PREC_STATUS_BUSY_ON_ANOTHER_STREAM = 30008,
  PREC_STATUS_OUT_OF_HOST_MEMORY = 30009,
  PREC_STATUS_BATCH_OUT_OF_RANGE = 30010,
  // Choosing a GEMM's or convolution's algorithm (create, set_batch).
  PREC_STATUS_NO_GEMM_PREFERENCE = 20001,
  PREC_STATUS_NO_GEMM_ALGORITHM = 20002,
  PREC_STATUS_NO_CONV_ALGORITHM = 20003,
};

// Reads the weights of the engine `identity` (`bytes` of them) into a
// malloc'ed block at *host.
static inline int prec_read_weights(const char *path, uint64_t identity,
                                    uint64_t bytes, char **host) {
  *host = nullptr;
  FILE *file = std::fopen(path, "rb");
  if (!file)
    return PREC_STATUS_CANNOT_OPEN_WEIGHTS;
  char magic[8];
  uint64_t header[3];
  int status = 0;
  if (std::fread(magic, 1, 8, file) != 8 ||
      std::memcmp(magic, kPrecWeightsMagic, 8) != 0)
    status = PREC_STATUS_NOT_A_WEIGHTS_FILE;
  else if (std::fread(header, sizeof(uint64_t), 3, file) != 3)
    status = PREC_STATUS_TRUNCATED_WEIGHTS;
  else if (header[0] != identity)
    status = PREC_STATUS_OTHER_ENGINES_WEIGHTS;
  else if (header[1] != bytes)
    status = PREC_STATUS_CORRUPT_WEIGHTS;
  if (status == 0) {
    *host = (char *)std::malloc(bytes ? bytes : 1);
    if (!*host)
      status = PREC_STATUS_OUT_OF_HOST_MEMORY;
    else if (std::fread(*host, 1, bytes, file) != bytes)
      status = PREC_STATUS_TRUNCATED_WEIGHTS;
    else if (std::fgetc(file) != EOF ||
             prec_weights_checksum(*host, bytes) != header[2])
      status = PREC_STATUS_CORRUPT_WEIGHTS;
  }
  std::fclose(file);
  if (status != 0) {
    std::free(*host);
    *host = nullptr;
  }
  return status;
}

// cudaMalloc, with running out of memory told apart from CUDA being absent.
static inline int prec_device_alloc(void **pointer, uint64_t bytes) {
  cudaError_t status = cudaMalloc(pointer, bytes ? bytes : 1);
  if (status == cudaErrorMemoryAllocation)
    return PREC_STATUS_OUT_OF_DEVICE_MEMORY;
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
    return PREC_STATUS_CUDA_UNAVAILABLE;
  return (int)status;
}

static inline const char *prec_status_message(int status) {
  switch (status) {
  case 0:
    return "success";
  case PREC_STATUS_CANNOT_OPEN_WEIGHTS:
    return "cannot open the weights file";
  case PREC_STATUS_NOT_A_WEIGHTS_FILE:
    return "not a prec weights file (no PRECWTS2 header)";
  case PREC_STATUS_TRUNCATED_WEIGHTS:
    return "the weights file is truncated";
  case PREC_STATUS_CUDA_UNAVAILABLE:
    return "no CUDA device or driver";
  case PREC_STATUS_OTHER_ENGINES_WEIGHTS:
    return "the weights file belongs to another engine";
  case PREC_STATUS_CORRUPT_WEIGHTS:
    return "the weights file is corrupt (size or checksum differs)";
  case PREC_STATUS_OUT_OF_DEVICE_MEMORY:
    return "out of device memory";
  case PREC_STATUS_OUT_OF_HOST_MEMORY:
    return "out of host memory";
  case PREC_STATUS_BATCH_OUT_OF_RANGE:
    return "the batch is outside the engine's [min, max]";
  case PREC_STATUS_NO_GEMM_PREFERENCE:
    return "cuBLASLt cannot make a matmul preference";
  case PREC_STATUS_NO_GEMM_ALGORITHM:
    return "cuBLASLt has no algorithm for one of the engine's GEMMs on this "
           "GPU";
  case PREC_STATUS_NO_CONV_ALGORITHM:
    return "cuDNN has no algorithm for one of the engine's convolutions within "
           "its workspace limit";
  case PREC_STATUS_BUSY_ON_ANOTHER_STREAM:
    return "the engine is running on another stream or thread; create one "
           "engine per stream";
  }
  if (status > 0 && status < 10000)
    return cudaGetErrorString((cudaError_t)status);
  return nullptr; // cuBLAS's and cuDNN's: the engine asks their libraries
}

// One engine runs on one stream at a time, as a TensorRT execution context
// does: a run from a second host thread while one is in progress, or on a
// stream other than the last one's before that run has finished, is refused
// (the runs would share the engine's activation arena).
struct prec_stream_guard {
  std::atomic<int> inside{0};
  cudaEvent_t done = nullptr;
  bool ran = false;
  cudaStream_t last = nullptr;
};

// A timing event: on an H100 with CUDA 13, an event made with
// cudaEventDisableTiming and recorded behind a host function reads as
// complete before the host function has run.
static inline int prec_guard_create(prec_stream_guard *guard) {
  return (int)cudaEventCreate(&guard->done);
}

static inline int prec_guard_enter(prec_stream_guard *guard,
                                   cudaStream_t stream) {
  if (guard->inside.exchange(1))
    return PREC_STATUS_BUSY_ON_ANOTHER_STREAM;
  if (guard->ran && stream != guard->last &&
      cudaEventQuery(guard->done) == cudaErrorNotReady) {
    guard->inside.store(0);
    return PREC_STATUS_BUSY_ON_ANOTHER_STREAM;
  }
  return 0;
}

static inline int prec_guard_leave(prec_stream_guard *guard,
                                   cudaStream_t stream) {
  cudaError_t status = cudaEventRecord(guard->done, stream);
  guard->ran = true;
  guard->last = stream;
  guard->inside.store(0);
  return (int)status;
}

static inline void prec_guard_destroy(prec_stream_guard *guard) {
  if (guard->done)
    cudaEventDestroy(guard->done);
}

// Programmatic dependent launch (sm_90 and up): each kernel of an engine may
// be launched while the one before it in the stream is still running, so
// that its launch and its blocks' start overlap that kernel's last wave
// instead of following it. Every kernel calls this first: it waits until
// the kernels before it have completed and their writes are visible (it
// reads and writes nothing before), then lets the next kernel launch once
// all of its own blocks have started.
__device__ __forceinline__ void prec_kernel_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

// Whether the current device launches kernels early (compute capability 9
// and up), asked once at create.
static inline bool prec_device_launches_early() {
  int device = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                             device) != cudaSuccess)
    return false;
  return major >= 9;
}

// Launches `kernel` as <<<grid, block, shared, stream>>> would, allowing it
// to start early where `early` (prec_kernel_start waits in it).
template <typename... Parameters, typename... Arguments>
static inline void prec_launch(bool early, void (*kernel)(Parameters...),
                               dim3 grid, dim3 block, size_t shared,
                               cudaStream_t stream, Arguments &&...arguments) {
  cudaLaunchAttribute attribute = {};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = early ? 1 : 0;
  // A failed launch is found by the cudaGetLastError after the run.
  (void)cudaLaunchKernelEx(&config, kernel,
                           std::forward<Arguments>(arguments)...);
}
