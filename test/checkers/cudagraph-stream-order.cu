// RUN: %check_cudagraph_tidy %s cudagraph-stream-order %t
#include <cuda.h>
#include <cuda_runtime.h>
#include <utility>
#include <vector>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void attention(float *q, int n) {}
__global__ void fill(float *q, float v, int n) {}

struct Options {
  int heads;
  bool verbose;
};
int headsOf(const Options &o) { return o.heads; }

// The seed's race: allocated on one stream, used on another.
void bug_alloc_other_stream(cudaStream_t stream_a, cudaStream_t stream_b, int n) {
  float *q = nullptr;
  CUDA_CHECK(cudaMallocAsync(&q, n * sizeof(float), stream_a));
  attention<<<1, 128, 0, stream_b>>>(q, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 'stream_b' by 'attention' before its allocation on stream 'stream_a' is ordered before that work; make stream 'stream_b' wait for an event recorded on stream 'stream_a' after the allocation (cudaEventRecord + cudaStreamWaitEvent), or allocate on the stream that uses it [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: 'q' is allocated on stream 'stream_a' here
  CUDA_CHECK(cudaFreeAsync(q, stream_b));
}

// The fixed twin: an event orders the allocation before stream_b's work.
void ok_event_orders(cudaStream_t stream_a, cudaStream_t stream_b, cudaEvent_t ready,
                     const Options &opts, int n) {
  float *q = nullptr;
  CUDA_CHECK(cudaMallocAsync(&q, n * sizeof(float), stream_a));
  CUDA_CHECK(cudaEventRecord(ready, stream_a));
  int heads = headsOf(opts); // reads only: orders nothing, breaks nothing
  CUDA_CHECK(cudaStreamWaitEvent(stream_b, ready, 0));
  for (int h = 0; h < heads; ++h)
    attention<<<1, 128, 0, stream_b>>>(q, n);
  CUDA_CHECK(cudaFreeAsync(q, stream_b));
}

void ok_host_sync(cudaStream_t a, cudaStream_t b, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaStreamSynchronize(a);
  fill<<<1, 32, 0, b>>>(q, 0.f, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}

// Freed on the allocating stream while the other stream may still read it.
void bug_free_while_used(cudaStream_t a, cudaStream_t b, cudaEvent_t ev, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaEventRecord(ev, a);
  cudaStreamWaitEvent(b, ev, 0);
  attention<<<1, 128, 0, b>>>(q, n);
  cudaFreeAsync(q, a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is freed on stream 'a' by 'cudaFreeAsync' while work on stream 'b' that uses it may still run; make stream 'a' wait for an event recorded on stream 'b' after that work before freeing it [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'q' is used on stream 'b' here, and nothing orders that work before the free
}

void ok_free_after_join(cudaStream_t a, cudaStream_t b, cudaEvent_t ev, cudaEvent_t done,
                        int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaEventRecord(ev, a);
  cudaStreamWaitEvent(b, ev, 0);
  attention<<<1, 128, 0, b>>>(q, n);
  cudaEventRecord(done, b);
  cudaStreamWaitEvent(a, done, 0);
  cudaFreeAsync(q, a);
}

// An async copy through a same-file helper that only enqueues.
void upload(float *dst, const float *src, int n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyHostToDevice, s);
}
void bug_through_helper(cudaStream_t compute, cudaStream_t copy, const float *host, int n) {
  float *buf;
  cudaMallocAsync(&buf, n * sizeof(float), compute);
  upload(buf, host, n, copy);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'buf' is used on stream 'copy' by 'upload' before its allocation on stream 'compute' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'buf' is allocated on stream 'compute' here
  cudaStreamSynchronize(copy);
  cudaFreeAsync(buf, compute);
}
void ok_helper_same_stream(cudaStream_t compute, const float *host, int n) {
  float *buf;
  cudaMallocAsync(&buf, n * sizeof(float), compute);
  upload(buf, host, n, compute);
  cudaFreeAsync(buf, compute);
}

// Blocking streams synchronise with the legacy default stream; a
// non-blocking stream does not.
void ok_legacy_orders_blocking(int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), 0);
  fill<<<1, 32, 0, s>>>(q, 1.f, n);
  cudaStreamSynchronize(s);
  cudaFreeAsync(q, 0);
  cudaStreamDestroy(s);
}
void bug_legacy_nonblocking(int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), 0);
  fill<<<1, 32, 0, s>>>(q, 1.f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 's' by 'fill' before its allocation on the legacy default stream is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'q' is allocated on the legacy default stream here
  cudaStreamSynchronize(s);
  cudaFreeAsync(q, s);
  cudaStreamDestroy(s);
}

// A flag that pairs the ordering with the work it orders stays silent.
void ok_flag_pairs_order(cudaStream_t a, cudaStream_t b, cudaEvent_t ev, bool multi, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (multi) {
    cudaEventRecord(ev, a);
    cudaStreamWaitEvent(b, ev, 0);
  }
  if (multi)
    attention<<<1, 128, 0, b>>>(q, n);
  else
    attention<<<1, 128, 0, a>>>(q, n);
  cudaDeviceSynchronize();
  cudaFreeAsync(q, a);
}

// A cache reset inside a loop: each iteration allocates and orders again.
struct Workspace {
  float *buf = nullptr;
  cudaStream_t alloc_stream, work_stream;
  cudaEvent_t ready;
};
void ok_loop_cache(Workspace &w, int steps, int n) {
  for (int i = 0; i < steps; ++i) {
    cudaMallocAsync(&w.buf, n * sizeof(float), w.alloc_stream);
    cudaEventRecord(w.ready, w.alloc_stream);
    cudaStreamWaitEvent(w.work_stream, w.ready, 0);
    fill<<<1, 32, 0, w.work_stream>>>(w.buf, 0.f, n);
    cudaFreeAsync(w.buf, w.work_stream);
  }
}
void bug_member_streams(Workspace &w, int n) {
  cudaMallocAsync(&w.buf, n * sizeof(float), w.alloc_stream);
  fill<<<1, 32, 0, w.work_stream>>>(w.buf, 0.f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'w.buf' is used on stream 'w.work_stream' by 'fill' before its allocation on stream 'w.alloc_stream' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'w.buf' is allocated on stream 'w.alloc_stream' here
  cudaFreeAsync(w.buf, w.work_stream);
}

// Streams of one array at variable indices may be the same stream.
void ok_variable_index(cudaStream_t *streams, int i, int j, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), streams[i]);
  fill<<<1, 32, 0, streams[j]>>>(q, 0.f, n);
  cudaFreeAsync(q, streams[j]);
}

// A stream handed to code this file does not define may be synchronised.
void sync_elsewhere(cudaStream_t s);
void ok_unknown_call_syncs(cudaStream_t a, cudaStream_t b, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  sync_elsewhere(a);
  fill<<<1, 32, 0, b>>>(q, 0.f, n);
  cudaDeviceSynchronize();
  cudaFreeAsync(q, a);
}

// Memory the function did not allocate: the free still races with the use.
void bug_free_param_other_stream(float *tmp, cudaStream_t compute, cudaStream_t copy, int n) {
  fill<<<1, 32, 0, compute>>>(tmp, 0.f, n);
  cudaFreeAsync(tmp, copy);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'tmp' is freed on stream 'copy' by 'cudaFreeAsync' while work on stream 'compute' that uses it may still run; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'tmp' is used on stream 'compute' here, and nothing orders that work before the free
}
void ok_free_param_after_event(float *tmp, cudaStream_t compute, cudaStream_t copy,
                               cudaEvent_t done, int n) {
  fill<<<1, 32, 0, compute>>>(tmp, 0.f, n);
  cudaEventRecord(done, compute);
  cudaStreamWaitEvent(copy, done, 0);
  cudaFreeAsync(tmp, copy);
}

// An allocating helper that returns the memory.
void *workspace_alloc(size_t bytes, cudaStream_t s) {
  void *p = nullptr;
  if (cudaMallocAsync(&p, bytes, s) != cudaSuccess)
    return nullptr;
  return p;
}
void bug_returned_workspace(cudaStream_t alloc_s, cudaStream_t run_s, int n) {
  float *ws = static_cast<float *>(workspace_alloc(n * sizeof(float), alloc_s));
  fill<<<1, 32, 0, run_s>>>(ws, 0.f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'ws' is used on stream 'run_s' by 'fill' before its allocation on stream 'alloc_s' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:36: note: 'ws' is allocated on stream 'alloc_s' here
  cudaFreeAsync(ws, run_s);
}
void ok_returned_workspace(cudaStream_t s, int n) {
  float *ws = static_cast<float *>(workspace_alloc(n * sizeof(float), s));
  fill<<<1, 32, 0, s>>>(ws, 0.f, n);
  cudaFreeAsync(ws, s);
}

// Driver-API stream-ordered memory: a CUdeviceptr is an integer, followed as
// memory once an allocation filled it (offsets into it too); the memset on
// the work stream is not ordered after the allocation on the other stream.
void bug_driver_alloc_other_stream(CUstream alloc_s, CUstream work_s, const float *h,
                                   size_t n) {
  CUdeviceptr d;
  cuMemAllocAsync(&d, 2 * n * sizeof(float), alloc_s);
  cuMemsetD32Async(d + n * sizeof(float), 0, n, work_s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd' is used on stream 'work_s' by 'cuMemsetD32Async' before its allocation on stream 'alloc_s' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'd' is allocated on stream 'alloc_s' here
  cuMemFreeAsync(d, work_s);
}
void ok_driver_event_orders(CUstream alloc_s, CUstream work_s, CUevent ready,
                            const float *h, size_t n) {
  CUdeviceptr d;
  cuMemAllocAsync(&d, 2 * n * sizeof(float), alloc_s);
  cuEventRecord(ready, alloc_s);
  cuStreamWaitEvent(work_s, ready, 0);
  cuMemcpyHtoDAsync(d + n * sizeof(float), h, n * sizeof(float), work_s);
  cuMemsetD32Async(d, 0, n, work_s); // an integer size is not memory
  cuMemFreeAsync(d, work_s);
}

// Streams created in an init function of the file: a member every creation
// makes non-blocking is not ordered after legacy-stream work; one every
// creation makes blocking is; one also assigned from a caller's stream may
// be either (silent).
struct Decoder {
  cudaStream_t copy;
  cudaStream_t work;
  cudaStream_t given;
};
void decoder_init(Decoder *d, cudaStream_t outer) {
  cudaStreamCreateWithFlags(&d->copy, cudaStreamNonBlocking);
  cudaStreamCreate(&d->work);
  cudaStreamCreateWithFlags(&d->given, cudaStreamNonBlocking);
  if (outer)
    d->given = outer;
}
void bug_member_made_nonblocking_in_init(Decoder *d, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), 0);
  fill<<<1, 32, 0, d->copy>>>(q, 0.f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 'd->copy' by 'fill' before its allocation on the legacy default stream is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'q' is allocated on the legacy default stream here
  cudaFreeAsync(q, d->copy);
}
void ok_member_made_blocking_in_init(Decoder *d, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), 0);
  fill<<<1, 32, 0, d->work>>>(q, 0.f, n);
  cudaFreeAsync(q, d->work);
}
void ok_member_also_assigned(Decoder *d, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), 0);
  fill<<<1, 32, 0, d->given>>>(q, 0.f, n);
  cudaFreeAsync(q, d->given);
}

// Two members every constructor sets from one parameter, and no method
// writes, are one stream under two names: no hand-over to order.
class OneStreamRunner {
public:
  OneStreamRunner(cudaStream_t s, int n) : fwd_(s), smp_(s), n_(n) {}
  void step() {
    float *q = nullptr;
    cudaMallocAsync(&q, n_ * sizeof(float), fwd_);
    fill<<<1, 32, 0, fwd_>>>(q, 0.f, n_);
    attention<<<1, 32, 0, smp_>>>(q, n_);
    cudaFreeAsync(q, smp_);
  }
private:
  cudaStream_t fwd_, smp_;
  int n_;
};

// Set from two parameters: two streams.
class TwoStreamRunner {
public:
  TwoStreamRunner(cudaStream_t a, cudaStream_t b, int n) : fwd_(a), smp_(b), n_(n) {}
  void step() {
    float *q = nullptr;
    cudaMallocAsync(&q, n_ * sizeof(float), fwd_);
    attention<<<1, 32, 0, smp_>>>(q, n_);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'q' is used on stream 'smp_' by 'attention' before its allocation on stream 'fwd_' is ordered before that work; {{.*}} [cudagraph-stream-order]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'q' is allocated on stream 'fwd_' here
    cudaStreamSynchronize(smp_);
    cudaFree(q);
  }
private:
  cudaStream_t fwd_, smp_;
  int n_;
};

// One constructor, one parameter, but a method gives the sampling stream a
// stream of its own: two streams.
class SplitLaterRunner {
public:
  SplitLaterRunner(cudaStream_t s, int n) : fwd_(s), smp_(s), n_(n) {}
  void split() { cudaStreamCreateWithFlags(&smp_, cudaStreamNonBlocking); }
  void step() {
    float *q = nullptr;
    cudaMallocAsync(&q, n_ * sizeof(float), fwd_);
    attention<<<1, 32, 0, smp_>>>(q, n_);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'q' is used on stream 'smp_' by 'attention' before its allocation on stream 'fwd_' is ordered before that work; {{.*}} [cudagraph-stream-order]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'q' is allocated on stream 'fwd_' here
    cudaStreamSynchronize(smp_);
    cudaFree(q);
  }
private:
  cudaStream_t fwd_, smp_;
  int n_;
};

// The same, when a method swaps a member with another object's (a move
// assignment through std::swap): each may hold a stream of its own.
class SwappedRunner {
public:
  SwappedRunner(cudaStream_t s, int n) : fwd_(s), smp_(s), n_(n) {}
  void take_sampling(SwappedRunner &o) { std::swap(smp_, o.smp_); }
  void step() {
    float *q = nullptr;
    cudaMallocAsync(&q, n_ * sizeof(float), fwd_);
    attention<<<1, 32, 0, smp_>>>(q, n_);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'q' is used on stream 'smp_' by 'attention' before its allocation on stream 'fwd_' is ordered before that work; {{.*}} [cudagraph-stream-order]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'q' is allocated on stream 'fwd_' here
    cudaStreamSynchronize(smp_);
    cudaFree(q);
  }
private:
  cudaStream_t fwd_, smp_;
  int n_;
};

// A graph owner whose begin(s) keeps the stream in a member and begins a
// capture on it: beginning or ending a capture orders no work, so the use
// on `s` before it is still unordered with the free on `copy` (before,
// the call was taken as one that may synchronise).
class CaptureOwner {
public:
  cudaError_t begin(cudaStream_t s) {
    s_ = s;
    return cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
  }
  cudaError_t end() {
    cudaGraph_t g = nullptr;
    if (cudaError_t e = cudaStreamEndCapture(s_, &g); e != cudaSuccess)
      return e;
    cudaError_t e = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return e;
  }
  cudaError_t replay() { return cudaGraphLaunch(exec_, s_); }
  ~CaptureOwner() { if (exec_) cudaGraphExecDestroy(exec_); }
private:
  cudaStream_t s_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};
void free_after_capture_owner(cudaStream_t s, cudaStream_t copy, float *act, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), copy);
  cudaEvent_t ready;
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  cudaEventRecord(ready, copy);
  cudaStreamWaitEvent(s, ready, 0);
  attention<<<1, 32, 0, s>>>(q, n);
  CaptureOwner g;
  if (g.begin(s) == cudaSuccess) {
    fill<<<1, 32, 0, s>>>(act, 0.f, n);
    if (g.end() == cudaSuccess)
      g.replay();
  }
  cudaFreeAsync(q, copy);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is freed on stream 'copy' by 'cudaFreeAsync' while work on stream 's' that uses it may still run; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: {{.*}}
  cudaEventDestroy(ready);
}
void ok_free_after_capture_owner_waits(cudaStream_t s, cudaStream_t copy, float *act, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), copy);
  cudaEvent_t ready;
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  cudaEventRecord(ready, copy);
  cudaStreamWaitEvent(s, ready, 0);
  attention<<<1, 32, 0, s>>>(q, n);
  CaptureOwner g;
  if (g.begin(s) == cudaSuccess) {
    fill<<<1, 32, 0, s>>>(act, 0.f, n);
    if (g.end() == cudaSuccess)
      g.replay();
  }
  cudaEventRecord(ready, s);
  cudaStreamWaitEvent(copy, ready, 0);
  cudaFreeAsync(q, copy);
  cudaEventDestroy(ready);
}

// A poll the program branches on: where the branch knows the status was
// cudaSuccess (or no longer cudaErrorNotReady), the host waited.
void ok_event_polled_until_done(cudaStream_t copy, cudaStream_t net, cudaEvent_t staged, int n) {
  float *q = nullptr;
  if (cudaMallocAsync(&q, n * sizeof(float), copy) != cudaSuccess)
    return;
  fill<<<1, 32, 0, copy>>>(q, 0.f, n);
  cudaEventRecord(staged, copy);
  cudaError_t st;
  while ((st = cudaEventQuery(staged)) == cudaErrorNotReady) {
  }
  if (st != cudaSuccess) {
    cudaFreeAsync(q, copy);
    return;
  }
  attention<<<1, 32, 0, net>>>(q, n);
  cudaStreamSynchronize(net);
  cudaFreeAsync(q, copy);
}
void ok_stream_polled_in_loop(cudaStream_t copy, cudaStream_t net, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), copy);
  for (;;) {
    cudaError_t st = cudaStreamQuery(copy);
    if (st == cudaSuccess)
      break;
    if (st != cudaErrorNotReady)
      return;
  }
  attention<<<1, 32, 0, net>>>(q, n);
  cudaStreamSynchronize(net);
  cudaFreeAsync(q, copy);
}
void ok_event_spin(cudaStream_t copy, cudaStream_t net, cudaEvent_t e, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), copy);
  cudaEventRecord(e, copy);
  while (cudaEventQuery(e) == cudaErrorNotReady) {
  }
  attention<<<1, 32, 0, net>>>(q, n);
  cudaStreamSynchronize(net);
  cudaFreeAsync(q, copy);
}
void bug_poll_ignored(cudaStream_t copy, cudaStream_t net, cudaEvent_t e, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), copy);
  cudaEventRecord(e, copy);
  cudaEventQuery(e);
  attention<<<1, 32, 0, net>>>(q, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 'net' by 'attention' before its allocation on stream 'copy' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'q' is allocated on stream 'copy' here
  cudaStreamSynchronize(net);
  cudaFreeAsync(q, copy);
}
void bug_work_on_the_not_ready_branch(cudaStream_t copy, cudaStream_t net, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), copy);
  if (cudaStreamQuery(copy) != cudaSuccess) {
    attention<<<1, 32, 0, net>>>(q, n);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'q' is used on stream 'net' by 'attention' before its allocation on stream 'copy' is ordered before that work; {{.*}} [cudagraph-stream-order]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: 'q' is allocated on stream 'copy' here
    cudaStreamSynchronize(net);
  }
  cudaStreamSynchronize(copy);
  cudaFreeAsync(q, copy);
}

// A stream a helper of the file creates and returns is a new stream:
// synchronising it orders nothing enqueued on the others. A stream a helper
// returns from elsewhere may be any stream: its synchronisation may be the
// one that orders the work.
static cudaStream_t make_side_stream() {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
    return nullptr;
  return s;
}
cudaStream_t g_worker_stream;
static cudaStream_t worker_stream() { return g_worker_stream; }
void bug_sync_of_new_helper_stream(cudaStream_t a, cudaStream_t b, cudaEvent_t ev, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaEventRecord(ev, a);
  cudaStreamWaitEvent(b, ev, 0);
  attention<<<1, 128, 0, b>>>(q, n);
  cudaStream_t side = make_side_stream();
  cudaStreamSynchronize(side);
  cudaStreamDestroy(side);
  cudaFreeAsync(q, a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is freed on stream 'a' by 'cudaFreeAsync' while work on stream 'b' that uses it may still run; make stream 'a' wait for an event recorded on stream 'b' after that work before freeing it [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: 'q' is used on stream 'b' here, and nothing orders that work before the free
}
void ok_sync_of_returned_stream(cudaStream_t a, cudaStream_t b, cudaEvent_t ev, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaEventRecord(ev, a);
  cudaStreamWaitEvent(b, ev, 0);
  attention<<<1, 128, 0, b>>>(q, n);
  cudaStream_t maybe_b = worker_stream();
  cudaStreamSynchronize(maybe_b);
  cudaFreeAsync(q, a);
}
// A helper that hands out one static stream, created on first use, gives
// every caller the same stream: `w` below may be `b`'s twin, so its
// synchronisation may be the one that orders the work.
static cudaStream_t shared_side_stream() {
  static cudaStream_t s = nullptr;
  if (!s)
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  return s;
}
void ok_sync_of_static_helper_stream(cudaEvent_t ev, cudaStream_t a, int n) {
  float *q;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaEventRecord(ev, a);
  cudaStream_t b = shared_side_stream();
  cudaStreamWaitEvent(b, ev, 0);
  attention<<<1, 128, 0, b>>>(q, n);
  cudaStream_t w = shared_side_stream();
  cudaStreamSynchronize(w);
  cudaFreeAsync(q, a);
}

// Ordered on one way of a branch only. The join of the two ways keeps the
// ordering (a union), so these are reported once one path the solver
// accepts reaches the work with nothing ordering it; the note names the
// branch whose other way waited.
void bug_wait_under_flag(cudaStream_t a, cudaStream_t b, cudaEvent_t e, bool overlap, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 'b' by 'attention' before its allocation on stream 'a' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: assuming 'overlap' is false
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 'q' is allocated on stream 'a' here
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
void bug_free_after_one_way_of_poll(cudaStream_t s, cudaStream_t cs, cudaStream_t p,
                                    cudaEvent_t done, int n) {
  float *d_in = nullptr;
  cudaMallocAsync(&d_in, n * sizeof(float), cs);
  cudaEventRecord(done, cs);
  cudaStreamWaitEvent(s, done, 0);
  attention<<<1, 32, 0, s>>>(d_in, n);
  cudaEventRecord(done, s);
  if (cudaEventQuery(done) == cudaSuccess) {
    attention<<<1, 32, 0, p>>>(nullptr, n);
  } else {
    cudaStreamWaitEvent(p, done, 0);
  }
  cudaFreeAsync(d_in, cs);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd_in' is freed on stream 'cs' by 'cudaFreeAsync' while work on stream 's' that uses it may still run; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-7]]:28: note: assuming 'cudaEventQuery(done) == cudaSuccess' is false
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'd_in' is used on stream 's' here, and nothing orders that work before the free
}
// Each round launches on one of two ways; the status of the poll after
// them is dropped, so the free on p_s is ordered after neither launch.
void bug_round_poll_dropped(cudaStream_t s, int iters, int n) {
  for (int i = 0; i < iters; ++i) {
    cudaStream_t p_s = nullptr;
    if (cudaStreamCreateWithFlags(&p_s, cudaStreamNonBlocking) != cudaSuccess)
      return;
    cudaEvent_t p_done = nullptr;
    if (cudaEventCreateWithFlags(&p_done, cudaEventDisableTiming) != cudaSuccess) {
      cudaStreamDestroy(p_s);
      return;
    }
    float *d_tmp = nullptr;
    if (cudaMallocAsync(&d_tmp, n * sizeof(float), p_s) != cudaSuccess) {
      cudaEventDestroy(p_done);
      cudaStreamDestroy(p_s);
      return;
    }
    if (cudaStreamQuery(p_s) != cudaErrorNotReady) {
      attention<<<1, 32, 0, s>>>(d_tmp, n);
    } else {
      cudaEventRecord(p_done, p_s);
      cudaStreamWaitEvent(s, p_done, 0);
      attention<<<1, 32, 0, s>>>(d_tmp, n);
    }
    cudaEventRecord(p_done, s);
    cudaEventQuery(p_done);
    cudaFreeAsync(d_tmp, p_s);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'd_tmp' is freed on stream 'p_s' by 'cudaFreeAsync' while work on stream 's' that uses it may still run; {{.*}} [cudagraph-stream-order]
    // CHECK-NOTES: :[[@LINE-10]]:7: note: 'd_tmp' is used on stream 's' here, and nothing orders that work before the free
    cudaEventDestroy(p_done);
    cudaStreamDestroy(p_s);
    cudaStreamSynchronize(s);
  }
}
// Their clean twins: every path that can happen orders the work.
void ok_flag_tested_both_ways(cudaStream_t a, cudaStream_t b, cudaEvent_t e, bool overlap, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (!overlap)
    cudaStreamSynchronize(a);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
void ok_flag_bound_to_size(cudaStream_t a, cudaStream_t b, cudaEvent_t e, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  bool small = n < 64;
  if (small)
    cudaStreamSynchronize(a);
  if (n >= 64) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
void ok_free_after_both_ways_of_poll(cudaStream_t s, cudaStream_t cs, cudaEvent_t done, int n) {
  float *d_in = nullptr;
  cudaMallocAsync(&d_in, n * sizeof(float), cs);
  cudaEventRecord(done, cs);
  cudaStreamWaitEvent(s, done, 0);
  attention<<<1, 32, 0, s>>>(d_in, n);
  cudaEventRecord(done, s);
  if (cudaEventQuery(done) != cudaSuccess)
    cudaStreamWaitEvent(cs, done, 0);
  cudaFreeAsync(d_in, cs);
}
void ok_round_poll_checked(cudaStream_t s, cudaStream_t p_s, cudaEvent_t p_done, int iters, int n) {
  for (int i = 0; i < iters; ++i) {
    float *d_tmp = nullptr;
    if (cudaMallocAsync(&d_tmp, n * sizeof(float), p_s) != cudaSuccess)
      return;
    if (cudaStreamQuery(p_s) != cudaErrorNotReady) {
      attention<<<1, 32, 0, s>>>(d_tmp, n);
    } else {
      cudaEventRecord(p_done, p_s);
      cudaStreamWaitEvent(s, p_done, 0);
      attention<<<1, 32, 0, s>>>(d_tmp, n);
    }
    cudaEventRecord(p_done, s);
    if (cudaEventQuery(p_done) != cudaSuccess)
      cudaStreamWaitEvent(p_s, p_done, 0);
    cudaFreeAsync(d_tmp, p_s);
  }
}
// Two places are two streams to the engine; a test of their identity says
// the wait is skipped only where they are one stream.
void ok_wait_unless_same_stream(cudaStream_t a, cudaStream_t b, cudaEvent_t e, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (a != b) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
void ok_wait_unless_same_stream_bound(cudaStream_t a, cudaStream_t b, cudaEvent_t e, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  const bool same = (a == b);
  if (!same) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
// A loop's rounds count as the loop's: the synchronisation in its body
// orders the work after it (the engine does not ask whether it ran).
void ok_sync_in_loop(cudaStream_t a, cudaStream_t b, int rounds, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  for (int i = 0; i < rounds; ++i)
    cudaStreamSynchronize(a);
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
// A standard container's members store and drop handles; they run no CUDA
// call, so handing one an event orders nothing.
void bug_free_after_pooling_events(cudaStream_t s, cudaStream_t cs, cudaEvent_t ready, int rounds,
                                   int n) {
  float *d_in = nullptr;
  cudaMallocAsync(&d_in, n * sizeof(float), cs);
  cudaEventRecord(ready, cs);
  cudaStreamWaitEvent(s, ready, 0);
  attention<<<1, 32, 0, s>>>(d_in, n);
  std::vector<cudaEvent_t> pool;
  for (int r = 0; r < rounds; ++r) {
    cudaEvent_t pe = nullptr;
    cudaEventCreateWithFlags(&pe, cudaEventDisableTiming);
    pool.push_back(pe);
  }
  for (cudaEvent_t pe : pool)
    cudaEventDestroy(pe);
  pool.clear();
  cudaFreeAsync(d_in, cs);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd_in' is freed on stream 'cs' by 'cudaFreeAsync' while work on stream 's' that uses it may still run; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-12]]:3: note: 'd_in' is used on stream 's' here, and nothing orders that work before the free
}
// An unknown function given a stream may synchronise it.
void sync_through_library(cudaStream_t s);
void ok_free_after_unknown_sync(cudaStream_t s, cudaStream_t cs, cudaEvent_t ready, int n) {
  float *d_in = nullptr;
  cudaMallocAsync(&d_in, n * sizeof(float), cs);
  cudaEventRecord(ready, cs);
  cudaStreamWaitEvent(s, ready, 0);
  attention<<<1, 32, 0, s>>>(d_in, n);
  sync_through_library(s);
  cudaFreeAsync(d_in, cs);
}
// A wait skipped when the record before it failed, the failure only
// logged: the way on which a call failed is error handling, not an
// ordering the program skips.
void ok_wait_skipped_on_error(cudaStream_t a, cudaStream_t b, cudaEvent_t e, int n) {
  float *q = nullptr;
  if (cudaMallocAsync(&q, n * sizeof(float), a) != cudaSuccess)
    return;
  cudaError_t st = cudaEventRecord(e, a);
  if (st == cudaSuccess)
    st = cudaStreamWaitEvent(b, e, 0);
  if (st != cudaSuccess)
    fprintf(stderr, "wait failed\n");
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
// One unmodelled call tested twice holds one value on a path: the solver
// alone would give each call a value of its own.
struct OverlapConfig {
  bool overlap() const;
};
void ok_getter_tested_twice(const OverlapConfig &cfg, cudaStream_t a, cudaStream_t b,
                            cudaEvent_t e, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (!cfg.overlap())
    cudaStreamSynchronize(a);
  if (cfg.overlap()) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}

// The search crosses a loop of a known count: its iterations order
// nothing, so the path skips them and leaves with the bound reached (a
// loop of two rounds cut every path before).
void log_round(int k);
void bug_wait_under_flag_after_fixed_loop(cudaStream_t a, cudaStream_t b, cudaEvent_t e,
                                          bool overlap, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  for (int k = 0; k < 4; ++k)
    log_round(k);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  attention<<<1, 32, 0, b>>>(q, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 'b' by 'attention' before its allocation on stream 'a' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: assuming 'overlap' is false
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'q' is allocated on stream 'a' here
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
// Branches that touch no stream are crossed in one step (a dozen log
// lines would otherwise double the paths a dozen times): the wait under
// the flag is still found skipped.
void bug_wait_under_flag_after_log_lines(cudaStream_t a, cudaStream_t b, cudaEvent_t e,
                                         const Options &o, const int *v, int nv, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  for (int i = 0; i < 12; ++i)
    if (o.verbose && v[i % nv] > i)
      printf("request %d\n", v[i % nv]);
  if (o.verbose && v[0] > 0) printf("a\n");
  if (o.verbose && v[1] > 1) printf("b\n");
  if (o.verbose && v[2] > 2) printf("c\n");
  if (o.verbose && v[3] > 3) printf("d\n");
  if (o.verbose && v[4] > 4) printf("e\n");
  if (o.verbose && v[5] > 5) printf("f\n");
  if (o.verbose && v[6] > 6) printf("g\n");
  if (o.verbose && v[7] > 7) printf("h\n");
  if (o.verbose && v[8] > 8) printf("i\n");
  if (o.verbose && v[9] > 9) printf("j\n");
  if (o.heads > 1) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  if (o.verbose) printf("launch\n");
  attention<<<1, 32, 0, b>>>(q, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'q' is used on stream 'b' by 'attention' before its allocation on stream 'a' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-7]]:15: note: assuming 'o.heads > 1' is false
  // CHECK-NOTES: :[[@LINE-22]]:3: note: 'q' is allocated on stream 'a' here
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
// A bool bound to a helper's answer and the helper asked again: one value
// on a path (the helper is given a const reference, which it cannot
// change), so the use under the bool is ordered by the wait under the call.
static bool multi_head(const Options &o) { return o.heads > 1; }
void ok_bound_helper_answer_asked_again(cudaStream_t a, cudaStream_t b, cudaEvent_t e,
                                        const Options &o, int n) {
  const bool split = n > 0 && multi_head(o);
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (n > 0 && multi_head(o)) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  if (split)
    attention<<<1, 32, 0, b>>>(q, n);
  else
    attention<<<1, 32, 0, a>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
void bug_bound_helper_answer_other_test(cudaStream_t a, cudaStream_t b, cudaEvent_t e,
                                        const Options &o, int n) {
  const bool split = n > 0 && multi_head(o);
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (n > 64 && multi_head(o)) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  if (split)
    attention<<<1, 32, 0, b>>>(q, n);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'q' is used on stream 'b' by 'attention' before its allocation on stream 'a' is ordered before that work; {{.*}} [cudagraph-stream-order]
  // CHECK-NOTES: :[[@LINE-7]]:9: note: assuming 'n > 64' is false
  // CHECK-NOTES: :[[@LINE-4]]:7: note: assuming 'split' is true
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'q' is allocated on stream 'a' here
  else
    attention<<<1, 32, 0, a>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
