// RUN: %check_cudagraph_tidy %s cudagraph-capture-without-destroy %t
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK_EXIT(call)                                                  \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define CUDA_CHECK_RETURN(call)                                                \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess)                                                   \
      return err_;                                                             \
  } while (0)

__global__ void kern(float *p) { p[threadIdx.x] = 0; }

// ---- the captured graph ---------------------------------------------------

void graph_leak(cudaStream_t s, float *d, cudaGraphExec_t *out) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: captured graph 'g' from 'cudaStreamEndCapture' is not destroyed on every path; call cudaGraphDestroy (after instantiating it) or hand it to an owner [cudagraph-capture-without-destroy]
  cudaGraphInstantiate(out, g, 0);
}

// Destroying the graph right after instantiating is correct.
void graph_clean(cudaStream_t s, float *d, cudaGraphExec_t *out) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(out, g, 0);
  cudaGraphDestroy(g);
}

cudaError_t graph_leak_on_error(cudaStream_t s, float *d, cudaGraphExec_t *out) {
  cudaGraph_t g;
  CUDA_CHECK_RETURN(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  kern<<<1, 32, 0, s>>>(d);
  CUDA_CHECK_RETURN(cudaStreamEndCapture(s, &g));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: captured graph 'g' from 'cudaStreamEndCapture' is not destroyed on every path
  CUDA_CHECK_RETURN(cudaGraphInstantiate(out, g, 0));
  return cudaGraphDestroy(g);
}

// A failed end-capture yields no graph: nothing to destroy on that branch.
cudaError_t graph_failed_end_clean(cudaStream_t s, float *d, cudaGraphExec_t *out) {
  cudaGraph_t g;
  CUDA_CHECK_RETURN(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  kern<<<1, 32, 0, s>>>(d);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    return cudaErrorUnknown;
  cudaError_t st = cudaGraphInstantiate(out, g, 0);
  cudaGraphDestroy(g);
  return st;
}

// Handed to an owner: silent.
cudaGraph_t graph_returned(cudaStream_t s, float *d) {
  cudaGraph_t g;
  CUDA_CHECK_EXIT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  kern<<<1, 32, 0, s>>>(d);
  CUDA_CHECK_EXIT(cudaStreamEndCapture(s, &g));
  return g;
}

void driver_graph_leak(CUstream s, CUgraphExec *out) {
  CUgraph g;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuStreamEndCapture(s, &g);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: captured graph 'g' from 'cuStreamEndCapture' is not destroyed on every path; call cuGraphDestroy
  cuGraphInstantiate(out, g, 0);
}

void driver_graph_clean(CUstream s, CUgraphExec *out) {
  CUgraph g;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuStreamEndCapture(s, &g);
  cuGraphInstantiate(out, g, 0);
  cuGraphDestroy(g);
}

// Graphs built node by node are cudagraph-handle-leak's, not this check's.
void created_graph_not_ours(cudaGraphExec_t *out) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphInstantiate(out, g, 0);
}

// Capturing again into a live graph loses it.
void graph_overwrite(cudaStream_t s, float *d, cudaGraphExec_t *a, cudaGraphExec_t *b) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(a, g, 0);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamEndCapture' overwrites 'g', which still holds a live captured graph; destroy it with cudaGraphDestroy first
  cudaGraphInstantiate(b, g, 0);
  cudaGraphDestroy(g);
}

void graph_no_overwrite(cudaStream_t s, float *d, cudaGraphExec_t *a, cudaGraphExec_t *b) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(a, g, 0);
  cudaGraphDestroy(g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(b, g, 0);
  cudaGraphDestroy(g);
}

// ---- the capture left open ------------------------------------------------

cudaError_t capture_left_open(cudaStream_t s, float *d, float *h, cudaGraph_t *out) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream capture begun on 's' by 'cudaStreamBeginCapture' is not ended on every path; call cudaStreamEndCapture before leaving, or the stream stays capturing [cudagraph-capture-without-destroy]
  kern<<<1, 32, 0, s>>>(d);
  if (cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s) != cudaSuccess)
    return cudaErrorUnknown;
  return cudaStreamEndCapture(s, out);
}

// The fix: end the capture on the error path too (its graph is discarded).
cudaError_t capture_closed_on_error(cudaStream_t s, float *d, float *h, cudaGraph_t *out) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  if (cudaError_t st = cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s); st != cudaSuccess) {
    cudaGraph_t broken;
    cudaStreamEndCapture(s, &broken);
    if (broken)
      cudaGraphDestroy(broken);
    return st;
  }
  return cudaStreamEndCapture(s, out);
}

// A begin that failed left nothing open.
cudaError_t capture_begin_failed_clean(cudaStream_t s, float *d, cudaGraph_t *out) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return cudaErrorUnknown;
  kern<<<1, 32, 0, s>>>(d);
  return cudaStreamEndCapture(s, out);
}

cudaError_t capture_macro_left_open(cudaStream_t s, float *d, float *h, cudaGraph_t *out) {
  CUDA_CHECK_RETURN(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: stream capture begun on 's' by 'cudaStreamBeginCapture' is not ended on every path
  kern<<<1, 32, 0, s>>>(d);
  CUDA_CHECK_RETURN(cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK_RETURN(cudaStreamEndCapture(s, out));
  return cudaSuccess;
}

// Exiting macros end the process: nothing is left open.
void capture_exit_macros_clean(cudaStream_t s, float *d, float *h, cudaGraph_t *out) {
  CUDA_CHECK_EXIT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  kern<<<1, 32, 0, s>>>(d);
  CUDA_CHECK_EXIT(cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK_EXIT(cudaStreamEndCapture(s, out));
}

// A begin/end helper pair: the capture is left open by design (silent).
void begin_helper(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }
void end_helper(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }

void uses_helper_pair(cudaStream_t s, float *d, cudaGraphExec_t *out) {
  cudaGraph_t g;
  begin_helper(s);
  kern<<<1, 32, 0, s>>>(d);
  end_helper(s, &g);
  cudaGraphInstantiate(out, g, 0);
  cudaGraphDestroy(g);
}

// The end helper ends the caller's capture (its summary says so).
cudaError_t ends_through_helper_clean(cudaStream_t s, float *d, cudaGraph_t *out) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return cudaErrorUnknown;
  kern<<<1, 32, 0, s>>>(d);
  end_helper(s, out);
  return cudaSuccess;
}

void driver_left_open(CUstream s, CUgraph *out, bool bail) {
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream capture begun on 's' by 'cuStreamBeginCapture' is not ended on every path; call cuStreamEndCapture
  if (bail)
    return;
  cuStreamEndCapture(s, out);
}

void driver_closed(CUstream s, CUgraph *out, bool bail) {
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (bail) {
    CUgraph g;
    cuStreamEndCapture(s, &g);
    cuGraphDestroy(g);
    return;
  }
  cuStreamEndCapture(s, out);
}

// A local stream: created, captured, destroyed.
void local_stream_left_open(float *d, cudaGraph_t *out, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream capture begun on 's' by 'cudaStreamBeginCapture' is not ended on every path
  for (int i = 0; i < n; ++i) {
    if (!d)
      return;
    kern<<<1, 32, 0, s>>>(d);
  }
  cudaStreamEndCapture(s, out);
  cudaStreamDestroy(s);
}

void local_stream_clean(float *d, cudaGraph_t *out, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < n; ++i)
    kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, out);
  cudaStreamDestroy(s);
}

// ---- a long function: several streams, flags and early returns -----------

struct Opts { bool fork; bool verbose; bool upload; int iters; };

cudaError_t long_function_clean(const Opts &o, cudaStream_t s0, cudaStream_t s1, float *d,
                                float *h, cudaGraphExec_t *out) {
  cudaEvent_t forkEv, joinEv;
  CUDA_CHECK_RETURN(cudaEventCreateWithFlags(&forkEv, cudaEventDisableTiming));
  if (cudaEventCreateWithFlags(&joinEv, cudaEventDisableTiming) != cudaSuccess) {
    cudaEventDestroy(forkEv);
    return cudaErrorUnknown;
  }
  cudaError_t st = cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) {
    cudaEventDestroy(forkEv);
    cudaEventDestroy(joinEv);
    return st;
  }
  if (o.verbose)
    printf("capturing\n");
  for (int i = 0; i < o.iters; ++i)
    kern<<<1, 32, 0, s0>>>(d);
  if (o.fork) {
    cudaEventRecord(forkEv, s0);
    cudaStreamWaitEvent(s1, forkEv, 0);
    kern<<<1, 32, 0, s1>>>(d);
    cudaEventRecord(joinEv, s1);
    cudaStreamWaitEvent(s0, joinEv, 0);
  }
  if (o.verbose)
    printf("copy back\n");
  st = cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s0);
  if (st != cudaSuccess) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(s0, &broken);
    if (broken)
      cudaGraphDestroy(broken);
    cudaEventDestroy(forkEv);
    cudaEventDestroy(joinEv);
    return st;
  }
  cudaGraph_t g;
  st = cudaStreamEndCapture(s0, &g);
  cudaEventDestroy(forkEv);
  cudaEventDestroy(joinEv);
  if (st != cudaSuccess)
    return st;
  st = cudaGraphInstantiate(out, g, 0);
  cudaGraphDestroy(g);
  if (st != cudaSuccess)
    return st;
  if (o.upload)
    st = cudaGraphUpload(*out, s0);
  if (o.verbose)
    printf("done\n");
  return st;
}

// The same function with the error path's end-capture and destroy missing.
cudaError_t long_function_buggy(const Opts &o, cudaStream_t s0, cudaStream_t s1, float *d,
                                float *h, cudaGraphExec_t *out) {
  cudaError_t st = cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: stream capture begun on 's0' by 'cudaStreamBeginCapture' is not ended on every path
  if (st != cudaSuccess)
    return st;
  for (int i = 0; i < o.iters; ++i)
    kern<<<1, 32, 0, s0>>>(d);
  if (o.verbose)
    printf("copy back\n");
  st = cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s0);
  if (st != cudaSuccess)
    return st;
  cudaGraph_t g;
  st = cudaStreamEndCapture(s0, &g);
  if (st != cudaSuccess)
    return st;
  st = cudaGraphInstantiate(out, g, 0);
  // CHECK-MESSAGES: :[[@LINE-4]]:8: warning: captured graph 'g' from 'cudaStreamEndCapture' is not destroyed on every path
  if (st != cudaSuccess)
    return st;
  cudaGraphDestroy(g);
  return cudaSuccess;
}

// Capturing into an existing graph: the end call hands that graph back.
__global__ void append_kernel() {}

int capture_into_created_graph(cudaStream_t s) {
  cudaGraph_t graph;
  if (cudaGraphCreate(&graph, 0) != cudaSuccess)
    return -1;
  cudaStreamBeginCaptureToGraph(s, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
  append_kernel<<<1, 1, 0, s>>>();
  cudaStreamEndCapture(s, &graph);
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, graph, 0) == cudaSuccess) {
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
  }
  cudaGraphDestroy(graph);
  return 0;
}

int capture_into_graph_second_name(cudaStream_t s) {
  cudaGraph_t graph, same;
  if (cudaGraphCreate(&graph, 0) != cudaSuccess)
    return -1;
  cudaStreamBeginCaptureToGraph(s, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
  append_kernel<<<1, 1, 0, s>>>();
  cudaStreamEndCapture(s, &same);
  cudaGraphDestroy(graph);
  return 0;
}

// The same pause/resume protocol through helpers (warp's capture into a
// conditional node's body graph): `resume` begins a capture into the graph
// it is given and leaves it open, `pause` ends it; the graph `pause` hands
// back is the node's body, not a new one. A `begin` helper that captures
// into a new graph still hands its caller a graph to destroy.
static bool resume_into(cudaStream_t s, cudaGraph_t g) {
  return cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal) ==
         cudaSuccess;
}
static bool begin_fresh(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess;
}
static bool pause_capture(cudaStream_t s, cudaGraph_t *g) {
  return cudaStreamEndCapture(s, g) == cudaSuccess;
}
bool fill_body_through_helpers(cudaStream_t s, cudaGraph_t body) {
  if (!resume_into(s, body))
    return false;
  append_kernel<<<1, 1, 0, s>>>();
  cudaGraph_t tmp = nullptr;
  return pause_capture(s, &tmp);
}
bool capture_fresh_through_helpers(cudaStream_t s) {
  if (!begin_fresh(s))
    return false;
  append_kernel<<<1, 1, 0, s>>>();
  cudaGraph_t tmp = nullptr;
  return pause_capture(s, &tmp);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: captured graph 'tmp' from 'pause_capture' is not destroyed on every path
}

// A throw between the begin and the end leaves the stream capturing in the
// caller that catches it (a throwing CHECK macro); the twin ends the
// capture, and drops its graph, before throwing.
struct capture_error {
  const char *what;
};
cudaGraph_t record_or_throw(cudaStream_t s) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    throw capture_error{"begin"};
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: stream capture begun on 's' by 'cudaStreamBeginCapture' is not ended on every path
  append_kernel<<<1, 1, 0, s>>>();
  if (cudaGetLastError() != cudaSuccess)
    throw capture_error{"launch"};
  cudaGraph_t g = nullptr;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    throw capture_error{"end"};
  return g;
}
cudaGraph_t record_or_throw_ended(cudaStream_t s) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    throw capture_error{"begin"};
  append_kernel<<<1, 1, 0, s>>>();
  if (cudaGetLastError() != cudaSuccess) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(s, &broken);
    if (broken != nullptr)
      cudaGraphDestroy(broken);
    throw capture_error{"launch"};
  }
  cudaGraph_t g = nullptr;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    throw capture_error{"end"};
  return g;
}

// Captures begun in a loop over several streams (an array element, a
// pointer parameter's element, `*s`), ended in a later loop: one place
// stands for them all. Leaving between the loops leaves them capturing;
// the loops themselves are not paired by count (silent twins). A failed
// begin that returns inside the begin loop leaves the earlier streams
// capturing too.
struct BenchArgs {
  int nGpus;
  cudaStream_t *streams;
};
int capture_all_early_return(BenchArgs *args, cudaGraph_t *graphs) {
  for (int i = 0; i < args->nGpus; i++)
    CUDA_CHECK_RETURN(cudaStreamBeginCapture(args->streams[i], cudaStreamCaptureModeGlobal));
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: stream capture begun on 'args->streams[]' by 'cudaStreamBeginCapture' is not ended on every path; {{.*}} [cudagraph-capture-without-destroy]
  for (int i = 0; i < args->nGpus; i++)
    append_kernel<<<1, 1, 0, args->streams[i]>>>();
  CUDA_CHECK_RETURN(cudaGetLastError());
  for (int i = 0; i < args->nGpus; i++)
    CUDA_CHECK_RETURN(cudaStreamEndCapture(args->streams[i], graphs + i));
  return 0;
}
int capture_all_ended(BenchArgs *args, cudaGraph_t *graphs) {
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamBeginCapture(args->streams[i], cudaStreamCaptureModeGlobal);
  for (int i = 0; i < args->nGpus; i++)
    append_kernel<<<1, 1, 0, args->streams[i]>>>();
  cudaError_t launched = cudaGetLastError();
  for (int i = 0; i < args->nGpus; i++)
    CUDA_CHECK_RETURN(cudaStreamEndCapture(args->streams[i], graphs + i));
  return launched == cudaSuccess ? 0 : 1;
}
// The first error exit ends every capture; the second, after it in the
// file, does not, and the first exit's end loop never runs before it.
int capture_all_second_exit_open(BenchArgs *args, cudaGraph_t *graphs, float *d) {
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamBeginCapture(args->streams[i], cudaStreamCaptureModeGlobal);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: stream capture begun on 'args->streams[]' by 'cudaStreamBeginCapture' is not ended on every path; {{.*}} [cudagraph-capture-without-destroy]
  if (cudaMemsetAsync(d, 0, 4, args->streams[0]) != cudaSuccess) {
    for (int i = 0; i < args->nGpus; i++)
      cudaStreamEndCapture(args->streams[i], graphs + i);
    return 1;
  }
  if (cudaMemsetAsync(d, 1, 4, args->streams[0]) != cudaSuccess)
    return 1;
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamEndCapture(args->streams[i], graphs + i);
  return 0;
}
int capture_all_both_exits_end(BenchArgs *args, cudaGraph_t *graphs, float *d) {
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamBeginCapture(args->streams[i], cudaStreamCaptureModeGlobal);
  if (cudaMemsetAsync(d, 0, 4, args->streams[0]) != cudaSuccess) {
    for (int i = 0; i < args->nGpus; i++)
      cudaStreamEndCapture(args->streams[i], graphs + i);
    return 1;
  }
  if (cudaMemsetAsync(d, 1, 4, args->streams[0]) != cudaSuccess) {
    for (int i = 0; i < args->nGpus; i++)
      cudaStreamEndCapture(args->streams[i], graphs + i);
    return 1;
  }
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamEndCapture(args->streams[i], graphs + i);
  return 0;
}
int capture_first_early_return(cudaStream_t *streams, cudaGraph_t *graph) {
  CUDA_CHECK_RETURN(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: stream capture begun on 'streams[]' by 'cudaStreamBeginCapture' is not ended on every path; {{.*}} [cudagraph-capture-without-destroy]
  append_kernel<<<1, 1, 0, streams[0]>>>();
  CUDA_CHECK_RETURN(cudaGetLastError());
  return cudaStreamEndCapture(streams[0], graph);
}
int capture_through_pointer(cudaStream_t *s, cudaGraph_t *graph) {
  CUDA_CHECK_RETURN(cudaStreamBeginCapture(*s, cudaStreamCaptureModeGlobal));
  append_kernel<<<1, 1, 0, *s>>>();
  cudaError_t launched = cudaGetLastError();
  CUDA_CHECK_RETURN(cudaStreamEndCapture(*s, graph));
  return launched;
}
// A local array, ended in the same loop that began each capture.
int capture_each_in_turn(cudaGraph_t *graphs) {
  cudaStream_t streams[4];
  for (int i = 0; i < 4; i++)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < 4; i++) {
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeThreadLocal);
    append_kernel<<<1, 1, 0, streams[i]>>>();
    cudaStreamEndCapture(streams[i], &graphs[i]);
  }
  for (int i = 0; i < 4; i++)
    cudaStreamDestroy(streams[i]);
  return 0;
}
// A throw between the loops leaves them capturing; one after the error
// path's own end loop does not.
int capture_all_throwing(cudaStream_t *streams, int n, cudaGraph_t *graphs) {
  for (int i = 0; i < n; i++)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: stream capture begun on 'streams[]' by 'cudaStreamBeginCapture' is not ended on every path; {{.*}} [cudagraph-capture-without-destroy]
  if (n > 8)
    throw capture_error{"launch"};
  for (int i = 0; i < n; i++)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  return 0;
}
int capture_all_throwing_ended(cudaStream_t *streams, int n, cudaGraph_t *graphs) {
  for (int i = 0; i < n; i++)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  if (n > 8) {
    for (int i = 0; i < n; i++) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(streams[i], &broken);
      if (broken)
        cudaGraphDestroy(broken);
    }
    throw capture_error{"launch"};
  }
  for (int i = 0; i < n; i++)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  return 0;
}
