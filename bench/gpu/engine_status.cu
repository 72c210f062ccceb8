// Drives an emitted engine's create and run through their failure paths and
// prints each status with its message. Built with nvcc beside the engine's
// .cu, with -DENGINE=<the engine's prefix> and -include <its header>.
//
//   engine_status files WEIGHTS...   create from each file (no GPU needed
//                                    where the file is refused)
//   engine_status oom WEIGHTS        create with the device memory taken
//   engine_status streams WEIGHTS    run on a second stream while the first
//                                    is busy, then once it is done
//   engine_status run WEIGHTS        create, run once on zeros, run_graph
//                                    twice (capture, replay), destroy (for
//                                    compute-sanitizer)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define PREC_CONCAT2(a, b) a##b
#define PREC_CONCAT(a, b) PREC_CONCAT2(a, b)
#define ENGINE_API(name) PREC_CONCAT(ENGINE, name)

static void report(const char *what, int status) {
  std::printf("%s: %d %s\n", what, status, ENGINE_API(_status_message)(status));
}

static int createFromFiles(int count, char **paths) {
  for (int i = 0; i < count; ++i) {
    ENGINE_API(_engine) *engine = nullptr;
    int status = ENGINE_API(_create)(paths[i], &engine);
    const char *name = std::strrchr(paths[i], '/');
    report(name ? name + 1 : paths[i], status);
    ENGINE_API(_destroy)(engine);
  }
  return 0;
}

static int createWithoutMemory(const char *path) {
  size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  // Take all but a few MiB, so that the engine's allocations fail.
  void *hog = nullptr;
  size_t taken = free - (4u << 20);
  while (cudaMalloc(&hog, taken) != cudaSuccess && taken > (64u << 20))
    taken -= 64u << 20;
  ENGINE_API(_engine) *engine = nullptr;
  int status = ENGINE_API(_create)(path, &engine);
  report("create with the device memory taken", status);
  ENGINE_API(_destroy)(engine);
  cudaFree(hog);
  return 0;
}

/// Keeps its stream busy for about `nanoseconds`.
__global__ void spin(long long nanoseconds) {
  long long start = clock64();
  // clock64 counts SM cycles: at most 2 GHz, so this spins long enough.
  while (clock64() - start < nanoseconds * 2)
    __nanosleep(1000);
}

/// Zero-filled device buffers for every binding, 8 bytes per element (the
/// widest element type).
static std::vector<void *> allocateBindings() {
  std::vector<void *> bindings;
  for (int i = 0; i < ENGINE_API(_num_bindings)(); ++i) {
    size_t bytes = 8;
    for (int d = 0; d < ENGINE_API(_binding_rank)(i); ++d)
      bytes *= ENGINE_API(_binding_shape)(i)[d];
    void *binding = nullptr;
    cudaMalloc(&binding, bytes);
    cudaMemset(binding, 0, bytes);
    bindings.push_back(binding);
  }
  return bindings;
}

/// The engine from the weights at `path`, its status reported; null when
/// create fails.
static ENGINE_API(_engine) * createReported(const char *path) {
  ENGINE_API(_engine) *engine = nullptr;
  report("create", ENGINE_API(_create)(path, &engine));
  return engine;
}

static int runOnce(const char *path) {
  ENGINE_API(_engine) *engine = createReported(path);
  if (!engine)
    return 1;
  std::vector<void *> bindings = allocateBindings();
  int status = ENGINE_API(_run)(engine, bindings.data(), nullptr);
  report("run", status);
  // The first run_graph captures the run, the second replays it.
  for (const char *what : {"run_graph, captured", "run_graph, replayed"}) {
    int graphed = ENGINE_API(_run_graph)(engine, bindings.data(), nullptr);
    report(what, graphed);
    status = status != 0 ? status : graphed;
  }
  int synchronized = (int)cudaDeviceSynchronize();
  report("synchronize", synchronized);
  for (void *binding : bindings)
    cudaFree(binding);
  ENGINE_API(_destroy)(engine);
  return status != 0 || synchronized != 0;
}

static int runOnTwoStreams(const char *path) {
  ENGINE_API(_engine) *engine = createReported(path);
  if (!engine)
    return 1;
  std::vector<void *> bindings = allocateBindings();
  cudaStream_t first, second;
  cudaStreamCreate(&first);
  cudaStreamCreate(&second);
  // A first run loads the engine's kernels: with CUDA's lazy loading, the
  // first launch of a kernel waits for the device, which would let the
  // first stream drain before the second asks.
  report("warm-up run on the first stream",
         ENGINE_API(_run)(engine, bindings.data(), first));
  cudaStreamSynchronize(first);
  // The first stream is held up behind a kernel that spins for 300 ms, so
  // its run is still queued when the second stream asks.
  spin<<<1, 1, 0, first>>>(300000000LL);
  report("run on the first stream", ENGINE_API(_run)(engine, bindings.data(), first));
  report("run on the second stream while the first is busy",
         ENGINE_API(_run)(engine, bindings.data(), second));
  cudaStreamSynchronize(first);
  report("run on the second stream once the first is done",
         ENGINE_API(_run)(engine, bindings.data(), second));
  report("synchronize", (int)cudaStreamSynchronize(second));
  for (void *binding : bindings)
    cudaFree(binding);
  ENGINE_API(_destroy)(engine);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && std::strcmp(argv[1], "files") == 0)
    return createFromFiles(argc - 2, argv + 2);
  if (argc == 3 && std::strcmp(argv[1], "oom") == 0)
    return createWithoutMemory(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "streams") == 0)
    return runOnTwoStreams(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "run") == 0)
    return runOnce(argv[2]);
  std::fprintf(stderr,
               "usage: engine_status files|oom|streams|run WEIGHTS...\n");
  return 2;
}
