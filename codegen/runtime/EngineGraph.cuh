// An engine's run replayed as a CUDA graph: a model of many small kernels
// (a transformer at batch 1) spends more time launching them than running
// them, and one graph launch replaces them all. The emitter copies this file
// into each engine after EngineRuntime.cuh; <engine>_run_graph uses it.

#include <algorithm>
#include <vector>

// The captured run: valid while the bindings and the batch are those it was
// captured with. Captures happen on a stream of the engine's own, since the
// legacy default stream cannot capture; the graph then launches on any.
struct prec_graph {
  cudaStream_t capture = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::vector<void *> bindings;
  long long batch = 0;
};

static inline int prec_graph_create(prec_graph *graph) {
  return (int)cudaStreamCreateWithFlags(&graph->capture, cudaStreamNonBlocking);
}

// Captures `enqueue(stream)`, the engine's run, into graph->exec: updated in
// place when the new graph has the old one's shape, instantiated otherwise.
template <typename Enqueue>
static int prec_graph_capture(prec_graph *graph, Enqueue enqueue) {
  cudaError_t begun =
      cudaStreamBeginCapture(graph->capture, cudaStreamCaptureModeThreadLocal);
  if (begun != cudaSuccess)
    return (int)begun;
  int status = enqueue(graph->capture);
  cudaGraph_t captured = nullptr;
  cudaError_t ended = cudaStreamEndCapture(graph->capture, &captured);
  if (status == 0 && ended != cudaSuccess)
    status = (int)ended;
  if (status == 0 && graph->exec) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(graph->exec, captured, &info) != cudaSuccess) {
      // Not sticky, but left for the next cudaGetLastError to report.
      (void)cudaGetLastError();
      cudaGraphExecDestroy(graph->exec);
      graph->exec = nullptr;
    }
  }
  if (status == 0 && !graph->exec)
    status = (int)cudaGraphInstantiate(&graph->exec, captured, 0);
  if (captured)
    cudaGraphDestroy(captured);
  return status;
}

// Launches the run's graph on `stream`, capturing it first when there is
// none yet or the bindings or the batch have changed since.
template <typename Enqueue>
static int prec_graph_run(prec_graph *graph, void *const *bindings, int count,
                          long long batch, cudaStream_t stream,
                          Enqueue enqueue) {
  bool current = graph->exec && batch == graph->batch &&
                 std::equal(bindings, bindings + count, graph->bindings.begin(),
                            graph->bindings.end());
  if (!current) {
    if (int status = prec_graph_capture(graph, enqueue)) {
      graph->bindings.clear();
      return status;
    }
    graph->bindings.assign(bindings, bindings + count);
    graph->batch = batch;
  }
  return (int)cudaGraphLaunch(graph->exec, stream);
}

static inline void prec_graph_destroy(prec_graph *graph) {
  if (graph->exec)
    cudaGraphExecDestroy(graph->exec);
  if (graph->capture)
    cudaStreamDestroy(graph->capture);
}
