// RUN: %check_cudagraph_tidy %s cudagraph-capture-structure %t
#include <cuda_runtime.h>
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

__global__ void step(float *x, int n) {}

// A side stream forked into the capture and never joined back.
void bug_unjoined(cudaStream_t s, cudaStream_t side, cudaEvent_t fork, float *x, int n,
                  cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork, s));
  CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
  step<<<1, 32, 0, side>>>(x, n);
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaStreamEndCapture' ends the capture of 's' while 'side', forked into it, is not joined back: the call fails with cudaErrorStreamCaptureUnjoined and the graph is lost; record an event on 'side' after its last work and make 's' wait for it before ending the capture [cudagraph-capture-structure]
}

void ok_joined(cudaStream_t s, cudaStream_t side, cudaEvent_t fork, cudaEvent_t join,
               float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork, s));
  CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
  step<<<1, 32, 0, side>>>(x, n);
  CUDA_CHECK(cudaEventRecord(join, side));
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamWaitEvent(s, join, 0));
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}

// Joined on one path only: the flag pairs the fork with the join.
void ok_fork_under_flag(cudaStream_t s, cudaStream_t side, cudaEvent_t fork,
                        cudaEvent_t join, bool overlap, float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (overlap) {
    CUDA_CHECK(cudaEventRecord(fork, s));
    CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    step<<<1, 32, 0, side>>>(x, n);
    CUDA_CHECK(cudaEventRecord(join, side));
    CUDA_CHECK(cudaStreamWaitEvent(s, join, 0));
  } else {
    step<<<1, 32, 0, s>>>(x, n);
  }
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}

// Waiting inside the capture on an event recorded before it began.
void bug_isolation(cudaStream_t s, cudaStream_t producer, cudaEvent_t ready, float *x, int n,
                   cudaGraph_t *out) {
  step<<<1, 32, 0, producer>>>(x, n);
  CUDA_CHECK(cudaEventRecord(ready, producer));
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaStreamWaitEvent(s, ready, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 's' waits during its capture on event 'ready', recorded outside the capture: the wait fails with cudaErrorStreamCaptureIsolation and invalidates the capture; record 'ready' inside this capture, or wait on it with cudaEventWaitExternal [cudagraph-capture-structure]
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}

void ok_external_wait(cudaStream_t s, cudaStream_t producer, cudaEvent_t ready, float *x,
                      int n, cudaGraph_t *out) {
  step<<<1, 32, 0, producer>>>(x, n);
  CUDA_CHECK(cudaEventRecord(ready, producer));
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaStreamWaitEvent(s, ready, cudaEventWaitExternal));
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}

// Legacy default stream work while a stream captures.
void bug_legacy_blocking(float *x, int n, cudaGraph_t *out) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  step<<<1, 32>>>(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'step' enqueues work on the legacy default stream while 's' is capturing: the implicit synchronisation with 's' invalidates the capture (cudaErrorStreamCaptureImplicit); enqueue it on 's' [cudagraph-capture-structure]
  CUDA_CHECK(cudaStreamEndCapture(s, out));
  CUDA_CHECK(cudaStreamDestroy(s));
}

void bug_legacy_nonblocking(float *x, int n, cudaGraph_t *out) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaMemsetAsync' enqueues work on the legacy default stream while 's' is capturing: 's' is non-blocking, so the work runs at once and is not part of the graph; enqueue it on 's' [cudagraph-capture-structure]
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
  CUDA_CHECK(cudaStreamDestroy(s));
}

void ok_legacy_after_capture(cudaStream_t s, float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
  step<<<1, 32>>>(x, n);
}

// The end-capture's status dropped, then the graph instantiated.
void bug_unchecked_end(cudaStream_t s, float *x, int n, cudaGraphExec_t *exec) {
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  step<<<1, 32, 0, s>>>(x, n);
  cudaStreamEndCapture(s, &graph);
  CUDA_CHECK(cudaGraphInstantiate(exec, graph, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: graph 'graph' is instantiated by 'cudaGraphInstantiate' without checking the status of 'cudaStreamEndCapture': a failed or invalidated capture leaves 'graph' NULL and the instantiation fails with cudaErrorInvalidValue; check the status 'cudaStreamEndCapture' returns first [cudagraph-capture-structure]
  cudaGraphDestroy(graph);
}

void bug_status_never_read(cudaStream_t s, float *x, int n, cudaGraphExec_t *exec) {
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  step<<<1, 32, 0, s>>>(x, n);
  cudaError_t st = cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(exec, graph, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph 'graph' is instantiated by 'cudaGraphInstantiate' without checking {{.*}} [cudagraph-capture-structure]
  cudaGraphDestroy(graph);
}

void ok_checked_end(cudaStream_t s, float *x, int n, cudaGraphExec_t *exec) {
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  step<<<1, 32, 0, s>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  CUDA_CHECK(cudaGraphInstantiate(exec, graph, 0));
  cudaGraphDestroy(graph);
}

void ok_graph_tested(cudaStream_t s, float *x, int n, cudaGraphExec_t *exec) {
  cudaGraph_t graph = nullptr;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  step<<<1, 32, 0, s>>>(x, n);
  cudaStreamEndCapture(s, &graph);
  if (graph == nullptr)
    return;
  cudaGraphInstantiate(exec, graph, 0);
  cudaGraphDestroy(graph);
}

void ok_last_error_checked(cudaStream_t s, float *x, int n, cudaGraphExec_t *exec) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step<<<1, 32, 0, s>>>(x, n);
  cudaStreamEndCapture(s, &graph);
  CUDA_CHECK(cudaGetLastError());
  cudaGraphInstantiate(exec, graph, 0);
  cudaGraphDestroy(graph);
}

// Waiting in one capture on an event recorded in another (H200: Merge).
void bug_cross_capture(cudaStream_t s1, cudaStream_t s2, cudaEvent_t e, float *x, int n,
                       cudaGraph_t *g1, cudaGraph_t *g2) {
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
  CUDA_CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeRelaxed));
  step<<<1, 32, 0, s2>>>(x, n);
  CUDA_CHECK(cudaEventRecord(e, s2));
  CUDA_CHECK(cudaStreamWaitEvent(s1, e, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 's1' waits during its capture on event 'e', recorded in the capture of 's2': the wait fails with cudaErrorStreamCaptureMerge and invalidates the capture; {{.*}} [cudagraph-capture-structure]
  step<<<1, 32, 0, s1>>>(x, n);
  CUDA_CHECK(cudaStreamEndCapture(s1, g1));
  CUDA_CHECK(cudaStreamEndCapture(s2, g2));
}

// A template the file never instantiates: its pattern is analysed.
template <class T>
void bug_unjoined_template(cudaStream_t s, cudaStream_t side, cudaEvent_t fork, T *x, int n,
                           cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork, s));
  CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
  step<<<1, 32, 0, side>>>((float *)x, n);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaStreamEndCapture' ends the capture of 's' while 'side', forked into it, is not joined back: {{.*}} [cudagraph-capture-structure]
}

// A helper that adapts to capture: its synchronous copy runs only when the
// stream is not capturing, so calling it inside the capture is fine.
cudaError_t scale_inplace(float *x, int n, float k, cudaStream_t s) {
  cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &cs);
  if (cs == cudaStreamCaptureStatusActive) {
    step<<<1, 32, 0, s>>>(x, n);
    return cudaSuccess;
  }
  cudaMemcpy(x, &k, sizeof(float), cudaMemcpyHostToDevice);
  step<<<1, 32, 0, s>>>(x, n);
  return cudaStreamSynchronize(s);
}
void ok_adaptive_helper_in_capture(cudaStream_t s, float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  scale_inplace(x, n, 2.f, s);
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}

// A helper whose stream parameter defaults to the legacy stream, called
// without one during a capture of the per-thread default stream: every call
// runs its launch, on the legacy stream.
void launch_step(float *x, int n, cudaStream_t stream = 0) {
  step<<<1, 32, 0, stream>>>(x, n);
}
void bug_defaulted_stream_helper(float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
  launch_step(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'launch_step' enqueues work on the legacy default stream while 'the per-thread default stream' is capturing: the implicit synchronisation with 'the per-thread default stream' invalidates the capture (cudaErrorStreamCaptureImplicit); enqueue it on 'the per-thread default stream' [cudagraph-capture-structure]
  CUDA_CHECK(cudaStreamEndCapture(cudaStreamPerThread, out));
}
void ok_defaulted_stream_helper_given_stream(float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
  launch_step(x, n, cudaStreamPerThread);
  CUDA_CHECK(cudaStreamEndCapture(cudaStreamPerThread, out));
}
// A launch behind the helper's own test says nothing of this call: silent.
void launch_step_if(float *x, int n, cudaStream_t stream = 0) {
  if (n > 1024)
    return;
  step<<<1, 32, 0, stream>>>(x, n);
}
void ok_conditional_helper_step(float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
  launch_step_if(x, 2048);
  CUDA_CHECK(cudaStreamEndCapture(cudaStreamPerThread, out));
}

// Forked under one test and joined under another: on the path where the
// fork happens and the join does not (the last step), the end call fails.
// Reported once the solver accepts that path; the twin joins under the
// same test, written again, and has no such path.
void bug_join_skipped_on_last_step(cudaStream_t s, cudaStream_t side, cudaEvent_t fork,
                                   cudaEvent_t join, bool overlap, bool last, float *x, int n,
                                   cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (overlap) {
    CUDA_CHECK(cudaEventRecord(fork, s));
    CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    step<<<1, 32, 0, side>>>(x, n);
  }
  step<<<1, 32, 0, s>>>(x, n);
  if (overlap && !last) {
    CUDA_CHECK(cudaEventRecord(join, side));
    CUDA_CHECK(cudaStreamWaitEvent(s, join, 0));
  }
  CUDA_CHECK(cudaStreamEndCapture(s, out));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaStreamEndCapture' ends the capture of 's' while 'side', forked into it, is not joined back: {{.*}} [cudagraph-capture-structure]
}
void ok_join_under_same_test(cudaStream_t s, cudaStream_t side, cudaEvent_t fork,
                             cudaEvent_t join, int n_side, float *x, int n, cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  bool overlap = n_side > 0;
  if (overlap) {
    CUDA_CHECK(cudaEventRecord(fork, s));
    CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    step<<<1, 32, 0, side>>>(x, n);
  }
  step<<<1, 32, 0, s>>>(x, n);
  if (n_side > 0) {
    CUDA_CHECK(cudaEventRecord(join, side));
    CUDA_CHECK(cudaStreamWaitEvent(s, join, 0));
  }
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}
// A join a failed call skips: the capture is invalid then anyway, and the
// status after the end call says so. Only the way on which every call
// succeeded can leave the member unjoined, and it does not.
cudaError_t ok_join_skipped_on_error(cudaStream_t s, cudaStream_t side, cudaEvent_t fork,
                                     cudaEvent_t join, float *x, int n, cudaGraph_t *out) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess)
    return st;
  st = cudaEventRecord(fork, s);
  if (st == cudaSuccess)
    st = cudaStreamWaitEvent(side, fork, 0);
  if (st == cudaSuccess) {
    step<<<1, 32, 0, side>>>(x, n);
    step<<<1, 32, 0, s>>>(x, n);
    st = cudaEventRecord(join, side);
    if (st == cudaSuccess)
      st = cudaStreamWaitEvent(s, join, 0);
  }
  cudaError_t end = cudaStreamEndCapture(s, out);
  return st == cudaSuccess ? end : st;
}
// Forked and joined under two calls of one getter: one value on a path.
struct CaptureConfig {
  bool overlap() const;
};
void ok_fork_and_join_under_getter(const CaptureConfig &cfg, cudaStream_t s, cudaStream_t side,
                                   cudaEvent_t fork, cudaEvent_t join, float *x, int n,
                                   cudaGraph_t *out) {
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (cfg.overlap()) {
    CUDA_CHECK(cudaEventRecord(fork, s));
    CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    step<<<1, 32, 0, side>>>(x, n);
  }
  step<<<1, 32, 0, s>>>(x, n);
  if (cfg.overlap()) {
    CUDA_CHECK(cudaEventRecord(join, side));
    CUDA_CHECK(cudaStreamWaitEvent(s, join, 0));
  }
  CUDA_CHECK(cudaStreamEndCapture(s, out));
}
// A fork under one flag and its join under another, in the rounds of two
// loops with an event made per round: the search follows the way that
// skips the join first, so the rounds and their `continue`s do not spend
// its bounds before it tries that way.
void bug_join_under_other_flag_in_rounds(cudaStream_t s, cudaStream_t side, cudaEvent_t fork,
                                         cudaEvent_t join, const int *v, int rounds, int nv,
                                         bool split, bool verbose, bool trace, int n, float *x) {
  for (int r = 0; r < rounds; ++r) {
    if (v[r % nv] < 0)
      continue;
    for (int i = 0; i < nv; ++i) {
      if (v[i] < 0)
        continue;
      if (v[i] > 4096)
        break;
      cudaEvent_t done = nullptr;
      if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess)
        return;
      if (v[i] == 0) {
        cudaEventDestroy(done);
        continue;
      }
      cudaGraph_t g = nullptr;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      if (split) {
        cudaEventRecord(fork, s);
        cudaStreamWaitEvent(side, fork, 0);
        step<<<1, 32, 0, side>>>(x, n);
      } else {
        step<<<1, 32, 0, s>>>(x, n);
      }
      if (verbose) {
        cudaEventRecord(join, side);
        cudaStreamWaitEvent(s, join, 0);
      }
      if (cudaStreamEndCapture(s, &g) != cudaSuccess) {
        // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'cudaStreamEndCapture' ends the capture of 's' while 'side', forked into it, is not joined back: {{.*}} [cudagraph-capture-structure]
        cudaEventDestroy(done);
        return;
      }
      cudaGraphDestroy(g);
      cudaEventRecord(done, s);
      cudaEventSynchronize(done);
      cudaEventDestroy(done);
      if (trace && i == 3)
        break;
    }
  }
}
