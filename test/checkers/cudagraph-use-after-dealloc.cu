// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#define CUDA_CHECK_EXIT(call)                                                  \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

void launch_after_destroy(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphExecDestroy(exec);
  cudaGraphLaunch(exec, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'exec' is used by 'cudaGraphLaunch' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'exec' was released here by 'cudaGraphExecDestroy'
}

void launch_before_destroy(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
}

void record_after_destroy() {
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaEventDestroy(e);
  cudaEventRecord(e, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'e' is used by 'cudaEventRecord' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'e' was released here by 'cudaEventDestroy'
}

void double_free(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaFree(d);
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd' is released again by 'cudaFree' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'd' was released here by 'cudaFree'
}

void single_free(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaFree(d);
}

// C++ new memory deleted twice, or read after delete, is clang-analyzer's
// (cplusplus.NewDelete): new memory is followed only for its mismatches with
// CUDA families.
void not_ours_double_delete(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  float *h = new float[n];
  float *one = new float;
  delete[] h;
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  delete[] h;
  delete one;
  delete one;
  cudaFree(d);
}

// Freed again on the path where 'early' was true.
void double_free_on_a_path(size_t n, bool early, bool verbose) {
  float *h;
  CUDA_CHECK_EXIT(cudaMallocHost(&h, n));
  if (early)
    cudaFreeHost(h);
  if (verbose)
    printf("done\n");
  cudaFreeHost(h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h' is released again by 'cudaFreeHost' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'h' was released here by 'cudaFreeHost'
}

// Same shape, but the early free returns.
void clean_free_then_return(size_t n, bool early, bool verbose) {
  float *h;
  CUDA_CHECK_EXIT(cudaMallocHost(&h, n));
  if (early) {
    cudaFreeHost(h);
    return;
  }
  if (verbose)
    printf("done\n");
  cudaFreeHost(h);
}

// Flag-guarded release and re-release of the same flag: one release per path.
void clean_flag_guarded(size_t n, bool pinned, bool verbose) {
  float *h = nullptr;
  if (pinned)
    cudaMallocHost(&h, n);
  if (verbose)
    printf("allocated\n");
  if (pinned)
    cudaFreeHost(h);
}

// Reset to null after the release: the second free is a no-op.
void clean_reset_after_free(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaFree(d);
  d = nullptr;
  cudaFree(d);
}

void clean_reacquire(size_t n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamDestroy(s);
  cudaStreamCreate(&s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}

void stream_used_after_destroy(size_t n) {
  cudaStream_t s;
  float *d;
  cudaStreamCreate(&s);
  cudaMalloc(&d, n);
  cudaStreamDestroy(s);
  cudaMemsetAsync(d, 0, n, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 's' is used by 'cudaMemsetAsync' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 's' was released here by 'cudaStreamDestroy'
  cudaFree(d);
}

void graph_double_destroy(cudaGraph_t *unused) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphDestroy(g);
  cudaGraphDestroy(g);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'g' is released again by 'cudaGraphDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'g' was released here by 'cudaGraphDestroy'
}

void suppressed(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaFree(d);
  cudaFree(d); // NOLINT(cudagraph-use-after-dealloc)
}

// A long function: several kinds, flags, early returns; the correct version
// is silent and the buggy one reports the one use after release.
cudaError_t long_clean(size_t n, bool timed, bool verbose) {
  cudaStream_t s;
  float *d, *h;
  cudaEvent_t ev = nullptr;
  if (cudaStreamCreate(&s) != cudaSuccess)
    return cudaErrorUnknown;
  if (cudaMalloc(&d, n) != cudaSuccess) {
    cudaStreamDestroy(s);
    return cudaErrorMemoryAllocation;
  }
  if (cudaMallocHost(&h, n) != cudaSuccess) {
    cudaFree(d);
    cudaStreamDestroy(s);
    return cudaErrorMemoryAllocation;
  }
  if (timed)
    cudaEventCreate(&ev);
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  if (timed)
    cudaEventRecord(ev, s);
  cudaStreamSynchronize(s);
  if (verbose)
    printf("%f\n", h[0]);
  if (timed)
    cudaEventDestroy(ev);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
  return cudaSuccess;
}

cudaError_t long_buggy(size_t n, bool timed, bool verbose) {
  cudaStream_t s;
  float *d, *h;
  cudaEvent_t ev = nullptr;
  if (cudaStreamCreate(&s) != cudaSuccess)
    return cudaErrorUnknown;
  if (cudaMalloc(&d, n) != cudaSuccess) {
    cudaStreamDestroy(s);
    return cudaErrorMemoryAllocation;
  }
  if (cudaMallocHost(&h, n) != cudaSuccess) {
    cudaFree(d);
    cudaStreamDestroy(s);
    return cudaErrorMemoryAllocation;
  }
  if (timed)
    cudaEventCreate(&ev);
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  cudaStreamDestroy(s);
  if (timed)
    cudaEventRecord(ev, s);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 's' is used by 'cudaEventRecord' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 's' was released here by 'cudaStreamDestroy'
  if (verbose)
    printf("%f\n", h[0]);
  if (timed)
    cudaEventDestroy(ev);
  cudaFreeHost(h);
  cudaFree(d);
  return cudaSuccess;
}

// Memory captured into a graph: every launch of an exec made from it reads it.
__global__ void scale(float *p, size_t n) {}

void grow_keeps_stale_exec(cudaStream_t s, int steps, const size_t *sizes) {
  float *buf = nullptr;
  size_t cap = 1024;
  cudaMalloc(&buf, cap * sizeof(float));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 32, 0, s>>>(buf, cap);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  for (int i = 0; i < steps; ++i) {
    if (sizes[i] > cap) {
      cudaFree(buf);
      cap = sizes[i];
      cudaMalloc(&buf, cap * sizeof(float));
    }
    cudaGraphLaunch(exec, s);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: graph exec 'exec' is launched by 'cudaGraphLaunch' after 'buf', which its captured graph uses, was freed; the launch reads freed memory (undefined behaviour): re-capture or update the exec after reallocating [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-12]]:3: note: 'buf' is captured here into the graph 'exec' is instantiated from: every launch reads it
    // CHECK-NOTES: :[[@LINE-7]]:7: note: 'buf' is freed here by 'cudaFree' while 'exec' still references it
  }
  cudaGraphExecDestroy(exec);
  cudaFree(buf);
}

void grow_recaptures(cudaStream_t s, int steps, const size_t *sizes) {
  float *buf = nullptr;
  size_t cap = 1024;
  cudaMalloc(&buf, cap * sizeof(float));
  cudaGraph_t graph;
  cudaGraphExec_t exec = nullptr;
  for (int i = 0; i < steps; ++i) {
    if (sizes[i] > cap) {
      cudaFree(buf);
      cap = sizes[i];
      cudaMalloc(&buf, cap * sizeof(float));
      if (exec) {
        cudaGraphExecDestroy(exec);
        exec = nullptr;
      }
    }
    if (!exec) {
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      scale<<<1, 32, 0, s>>>(buf, cap);
      cudaStreamEndCapture(s, &graph);
      cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
    }
    cudaGraphLaunch(exec, s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
  cudaFree(buf);
}

void free_through_alias_then_launch(cudaStream_t s) {
  float *d;
  cudaMalloc(&d, 64);
  float *view = d;
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(view, 0, 16, s);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
  cudaGraphLaunch(e, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: graph exec 'e' is launched by 'cudaGraphLaunch' after 'd', which its captured graph uses, was freed; the launch reads freed memory (undefined behaviour): re-capture or update the exec after reallocating [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: 'd' is captured here into the graph 'e' is instantiated from: every launch reads it
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'd' is freed here by 'cudaFree' while 'e' still references it
  cudaGraphExecDestroy(e);
}

void free_after_last_launch(cudaStream_t s) {
  float *d;
  cudaMalloc(&d, 64);
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 1, 0, s>>>(d, 1);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e, g, 0);
  for (int i = 0; i < 10; ++i)
    cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

void update_after_realloc(cudaStream_t s, bool grow) {
  float *d;
  cudaMalloc(&d, 64);
  cudaGraph_t g, g2;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 1, 0, s>>>(d, 1);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e, g, 0);
  if (grow) {
    cudaFree(d);
    cudaMalloc(&d, 128);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    scale<<<1, 1, 0, s>>>(d, 1);
    cudaStreamEndCapture(s, &g2);
    cudaGraphExecUpdateResultInfo info;
    cudaGraphExecUpdate(e, g2, &info);
    cudaGraphDestroy(g2);
  }
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  cudaFree(d);
}

// Array elements: only the same element used again after its release counts.
int ping_pong_buffers(size_t bytes, int rounds, bool single) {
  void *slot[2] = {nullptr, nullptr};
  if (cudaMallocHost(&slot[0], bytes) != cudaSuccess)
    return -1;
  if (cudaMallocHost(&slot[1], bytes) != cudaSuccess) {
    cudaFreeHost(slot[0]);
    return -1;
  }
  if (single)
    cudaFreeHost(slot[1]);
  for (int r = 0; r < rounds; ++r)
    memset(slot[r & 1], 0, bytes);
  cudaFreeHost(slot[0]);
  cudaFreeHost(slot[1]);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'slot[]' is released again by 'cudaFreeHost' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: 'slot[]' was released here by 'cudaFreeHost'
  return 0;
}

int ping_pong_buffers_reset(size_t bytes, bool single) {
  void *slot[2] = {nullptr, nullptr};
  if (cudaMallocHost(&slot[0], bytes) != cudaSuccess)
    return -1;
  if (cudaMallocHost(&slot[1], bytes) != cudaSuccess) {
    cudaFreeHost(slot[0]);
    return -1;
  }
  if (single) {
    cudaFreeHost(slot[1]);
    slot[1] = nullptr;
  }
  cudaFreeHost(slot[0]);
  cudaFreeHost(slot[1]);
  return 0;
}

void per_device_streams(int ndev) {
  cudaStream_t st[8];
  for (int d = 0; d < ndev; ++d)
    cudaStreamCreate(&st[d]);
  for (int d = 0; d < ndev; ++d) {
    cudaStreamSynchronize(st[d]);
    cudaStreamDestroy(st[d]);
  }
}

void streams_used_after_all_destroyed(int ndev) {
  cudaStream_t st[8];
  for (int d = 0; d < ndev; ++d)
    cudaStreamCreate(&st[d]);
  for (int d = 0; d < ndev; ++d)
    cudaStreamDestroy(st[d]);
  for (int d = 0; d < ndev; ++d)
    cudaStreamSynchronize(st[d]);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'st[]' is used by 'cudaStreamSynchronize' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'st[]' was released here by 'cudaStreamDestroy'
}

// The buffer is replaced each time it grows; 'pos' always holds a live one.
void grow_by_swap(int steps) {
  float *pos = nullptr;
  size_t cap = 256;
  cudaMallocManaged(&pos, cap * sizeof(float));
  for (int s = 0; s < steps; ++s) {
    if ((size_t)s * 64 > cap) {
      cap *= 2;
      float *bigger = nullptr;
      cudaMallocManaged(&bigger, cap * sizeof(float));
      cudaMemcpy(bigger, pos, cap / 2 * sizeof(float), cudaMemcpyDefault);
      cudaFree(pos);
      pos = bigger;
    }
    scale<<<1, 32>>>(pos, cap);
  }
  cudaFree(pos);
}

// Destroyed inside the loop that keeps using it.
void event_destroyed_each_iteration(cudaStream_t s, int layers) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  int l = 0;
  do {
    cudaEventRecord(done, s);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'done' is used by 'cudaEventRecord' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE+4]]:5: note: 'done' was released here by 'cudaEventDestroy'
    cudaEventSynchronize(done);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'done' is used by 'cudaEventSynchronize' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE+1]]:5: note: 'done' was released here by 'cudaEventDestroy'
    cudaEventDestroy(done);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'done' is released again by 'cudaEventDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'done' was released here by 'cudaEventDestroy'
  } while (++l < layers);
}

// Handles this function did not create: released here, then used.
struct Pipeline {
  cudaStream_t copy;
  cudaEvent_t ready;
  cudaGraphExec_t exec;
};

void teardown_then_drain(Pipeline *p) {
  cudaEventDestroy(p->ready);
  cudaStreamDestroy(p->copy);
  cudaStreamSynchronize(p->copy);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'p->copy' is used by 'cudaStreamSynchronize' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'p->copy' was released here by 'cudaStreamDestroy'
}

void drain_then_teardown(Pipeline *p) {
  cudaStreamSynchronize(p->copy);
  cudaEventDestroy(p->ready);
  cudaStreamDestroy(p->copy);
}

cudaError_t relaunch_after_reset(Pipeline *p, cudaGraph_t g, bool shape_changed) {
  if (shape_changed)
    cudaGraphExecDestroy(p->exec);
  return cudaGraphLaunch(p->exec, p->copy);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'p->exec' is used by 'cudaGraphLaunch' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: 'p->exec' was released here by 'cudaGraphExecDestroy'
}

cudaError_t relaunch_after_rebuild(Pipeline *p, cudaGraph_t g, bool shape_changed) {
  if (shape_changed) {
    cudaGraphExecDestroy(p->exec);
    if (cudaGraphInstantiate(&p->exec, g, 0) != cudaSuccess)
      return cudaErrorUnknown;
  }
  return cudaGraphLaunch(p->exec, p->copy);
}

// A list walked through its parameter: each node's buffer is its own.
struct Node {
  float *buf;
  Node *next;
};

void free_list(Node *n) {
  for (; n; n = n->next)
    cudaFree(n->buf);
}

void free_twice(float *d, bool early) {
  if (early)
    cudaFree(d);
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd' is released again by 'cudaFree' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: 'd' was released here by 'cudaFree'
}

// A graph allocation handed out by a helper: freeing it outside the graph and
// launching the exec again allocates it again, at the same address.
void build_with_alloc_node(cudaGraphExec_t *exec, float **out);

void free_outside_then_relaunch(cudaStream_t s) {
  cudaGraphExec_t exec;
  float *d_out;
  build_with_alloc_node(&exec, &d_out);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaFree(d_out);
  cudaGraphLaunch(exec, s);
  scale<<<1, 32, 0, s>>>(d_out, 32);
  cudaFreeAsync(d_out, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
}

void free_outside_then_use(cudaStream_t s) {
  cudaGraphExec_t exec;
  float *d_out;
  build_with_alloc_node(&exec, &d_out);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaFree(d_out);
  scale<<<1, 32, 0, s>>>(d_out, 32);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd_out' is used by 'scale' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'd_out' was released here by 'cudaFree'
  cudaGraphExecDestroy(exec);
}

// A getter that lends a handle ("owned": false) fills the variable anew:
// the pool used after the re-fetch is the device's, not the destroyed one.
void refetched_default_pool_used(int dev) {
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  if (cudaMemPoolCreate(&pool, &props) != cudaSuccess)
    return;
  cudaMemPoolDestroy(pool);
  if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess)
    return;
  cudaMemPoolTrimTo(pool, 0);
}

// cuda-samples' cuDLA samples: a release whose status says it failed released
// nothing, so the clean-up its failure path runs destroys the stream once.
struct DlaResources {
  cudaStream_t stream;
  float *buf;
};
void cleanUpDla(DlaResources *r) {
  if (r->stream)
    cudaStreamDestroy(r->stream);
  if (r->buf)
    cudaFree(r->buf);
}
int failed_release_cleaned_up(size_t n) {
  DlaResources list{};
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  list.stream = stream;
  cudaError_t result = cudaStreamDestroy(stream);
  if (result != cudaSuccess) {
    printf("destroy failed\n");
    cleanUpDla(&list);
    return 1;
  }
  list.stream = nullptr;
  return 0;
}

// Its twin: on the path where the release succeeded, the second one is real.
int released_again_after_success(size_t n) {
  float *b;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return 1;
  cudaError_t e = cudaFree(b);
  if (e == cudaSuccess) {
    cudaFree(b);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'b' is released again by 'cudaFree' (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-4]]:19: note: 'b' was released here by 'cudaFree'
    return 0;
  }
  return 1;
}

// Per-device streams in an array: a failed second step destroys the one
// stream it made and leaves the loop before `created` counts it, so the
// unwind loop never reaches that element again. (Had it counted it first,
// the unwind would destroy it twice: the elements are one place, so that
// twin is not told apart and is not reported: a documented limit.)
int devices_unwound(float **bufs) {
  cudaStream_t streams[8];
  int created = 0;
  for (int d = 0; d < 8; ++d) {
    if (cudaStreamCreate(&streams[d]) != cudaSuccess)
      break;
    if (cudaMalloc(&bufs[d], 1024) != cudaSuccess) {
      cudaStreamDestroy(streams[d]);
      break;
    }
    created = d + 1;
  }
  for (int d = created - 1; d >= 0; --d) {
    cudaFree(bufs[d]);
    cudaStreamDestroy(streams[d]);
  }
  return created;
}


// One graph variable captured twice: each exec holds what the capture that
// last wrote the variable before its instantiation captured. `tmp` is in
// the second graph only, so the first exec may run after it is freed; the
// twin captures `tmp` into the first.
__global__ void reuseKernel(float *x) { x[0] = 1.0f; }
int graphVariableReused(cudaStream_t s, float *a) {
  float *tmp;
  cudaMalloc(&tmp, 64);
  cudaGraph_t g;
  cudaGraphExec_t e1, e2;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  reuseKernel<<<1, 1, 0, s>>>(a);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e1, g, 0);
  cudaGraphDestroy(g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  reuseKernel<<<1, 1, 0, s>>>(tmp);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e2, g, 0);
  cudaGraphDestroy(g);
  cudaGraphLaunch(e2, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e2);
  cudaFree(tmp);
  cudaGraphLaunch(e1, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e1);
  return 0;
}
int graphVariableReusedFirst(cudaStream_t s, float *a) {
  float *tmp;
  cudaMalloc(&tmp, 64);
  cudaGraph_t g;
  cudaGraphExec_t e1, e2;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  reuseKernel<<<1, 1, 0, s>>>(tmp);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e1, g, 0);
  cudaGraphDestroy(g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  reuseKernel<<<1, 1, 0, s>>>(a);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e2, g, 0);
  cudaGraphDestroy(g);
  cudaGraphLaunch(e2, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e2);
  cudaFree(tmp);
  cudaGraphLaunch(e1, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: graph exec 'e1' is launched by 'cudaGraphLaunch' after 'tmp', which its captured graph uses, was freed; the launch reads freed memory (undefined behaviour): re-capture or update the exec after reallocating [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-15]]:3: note: 'tmp' is captured here into the graph 'e1' is instantiated from: every launch reads it
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'tmp' is freed here by 'cudaFree' while 'e1' still references it
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e1);
  return 0;
}

// A handle swapped through a copy: the copy is released, the member still
// names the destroyed exec until it is given the new one.
struct SwapEntry {
  cudaGraphExec_t exec = nullptr;
  int tokens = 0;
};
class SwapRunner {
public:
  cudaError_t warm_before_swap(cudaGraphExec_t fresh, cudaStream_t s) {
    cudaGraphExec_t old = entry_.exec;
    cudaGraphExecDestroy(old);
    cudaError_t st = cudaGraphLaunch(entry_.exec, s);
    // CHECK-NOTES: :[[@LINE-1]]:22: warning: 'entry_.exec' is used by 'cudaGraphLaunch' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'old', a copy of 'entry_.exec', was released here by 'cudaGraphExecDestroy'
    entry_.exec = fresh;
    return st;
  }
  cudaError_t warm_after_swap(cudaGraphExec_t fresh, cudaStream_t s) {
    cudaGraphExec_t old = entry_.exec;
    cudaGraphExecDestroy(old);
    entry_.exec = fresh;
    return cudaGraphLaunch(entry_.exec, s);
  }
  cudaError_t swap_first(cudaGraphExec_t fresh, cudaStream_t s) {
    cudaGraphExec_t old = exec_;
    exec_ = fresh;
    cudaGraphExecDestroy(old);
    return cudaGraphLaunch(exec_, s);
  }
  cudaError_t through_optional(cudaGraphExec_t fresh, cudaStream_t s) {
    SwapEntry &e = *cached_;
    cudaGraphExec_t old = e.exec;
    cudaGraphExecDestroy(old);
    cudaError_t st = cudaGraphLaunch(cached_->exec, s);
    // CHECK-NOTES: :[[@LINE-1]]:22: warning: 'cached_.exec' is used by 'cudaGraphLaunch' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'old', a copy of 'cached_.exec', was released here by 'cudaGraphExecDestroy'
    e.exec = fresh;
    return st;
  }
  void destroy_member_of_member(cudaStream_t s) {
    cudaGraphExecDestroy(entry_.exec);
    cudaGraphLaunch(entry_.exec, s);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'entry_.exec' is used by 'cudaGraphLaunch' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'entry_.exec' was released here by 'cudaGraphExecDestroy'
  }
private:
  SwapEntry entry_;
  std::optional<SwapEntry> cached_;
  cudaGraphExec_t exec_ = nullptr;
};

// One array refilled by a new allocator after each round of frees (HeCBench's
// mallocFree): each slot's next release is the new block's, not a second
// release of the old one.
void refill_every_slot_after_free(size_t n) {
  void *slots[4];
  for (int j = 0; j < 4; j++)
    cudaMalloc(&slots[j], n);
  for (int j = 0; j < 4; j++)
    cudaFree(slots[j]);
  for (int j = 0; j < 4; j++)
    cudaMallocManaged(&slots[j], n);
  for (int j = 0; j < 4; j++)
    cudaFree(slots[j]);
  for (int j = 0; j < 4; j++)
    cudaMallocHost(&slots[j], n);
  for (int j = 0; j < 4; j++)
    cudaFreeHost(slots[j]);
}
void refill_slot_zero_after_free(size_t n) {
  void *slots[2];
  cudaMalloc(&slots[0], n);
  cudaMalloc(&slots[1], n);
  cudaFree(slots[0]);
  cudaMallocManaged(&slots[0], n);
  cudaFree(slots[0]);
  cudaFree(slots[1]);
}
// Loops of one count `n`: the path that released in the second loop entered
// the first, so it knows n >= 1 (`0 < n` with the counter at 0), and the
// refill loop's first test holds on it: the refill runs, and the last loop
// releases the new blocks.
void refill_every_slot_counted(size_t bytes, int n) {
  void *slots[8];
  if (n > 8)
    return;
  for (int j = 0; j < n; j++)
    cudaMalloc(&slots[j], bytes);
  for (int j = 0; j < n; j++)
    cudaFree(slots[j]);
  for (int j = 0; j < n; j++)
    cudaMallocManaged(&slots[j], bytes);
  for (int j = 0; j < n; j++)
    cudaFree(slots[j]);
}
// The refill stops one short: with n == 1 it runs no round, and the old
// block of slot 0 is released again.
void refill_one_short_counted(size_t bytes, int n) {
  void *slots[8];
  if (n > 8)
    return;
  for (int j = 0; j < n; j++)
    cudaMalloc(&slots[j], bytes);
  for (int j = 0; j < n; j++)
    cudaFree(slots[j]);
  for (int j = 0; j < n - 1; j++)
    cudaMallocManaged(&slots[j], bytes);
  for (int j = 0; j < n; j++)
    cudaFree(slots[j]);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'slots[]' is released again by 'cudaFree' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: 'slots[]' was released here by 'cudaFree'
}
// Only the first slot is filled again: the others are released twice.
void refill_one_slot_free_all(size_t n) {
  void *slots[4];
  for (int j = 0; j < 4; j++)
    cudaMalloc(&slots[j], n);
  for (int j = 0; j < 4; j++)
    cudaFree(slots[j]);
  cudaMalloc(&slots[0], n);
  for (int j = 0; j < 4; j++)
    cudaFree(slots[j]);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'slots[]' is released again by 'cudaFree' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'slots[]' was released here by 'cudaFree'
}
