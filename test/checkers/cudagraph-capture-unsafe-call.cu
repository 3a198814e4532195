// RUN: %check_cudagraph_tidy %s cudagraph-capture-unsafe-call %t
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

void sync_inside(cudaStream_t s, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 's' is capturing: synchronizing a capturing stream invalidates the capture [cudagraph-capture-unsafe-call]
  cudaStreamEndCapture(s, g);
}

// The fix: synchronize after the capture ends.
void sync_after(cudaStream_t s, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, g);
  cudaStreamSynchronize(s);
}

void malloc_inside(cudaStream_t s, float **d, cudaGraph_t *g) {
  CUDA_CHECK_EXIT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK_EXIT(cudaMalloc(d, 128));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaMalloc' is called while stream 's' is capturing: cudaMalloc is not captured and is prohibited in global and thread-local capture mode; use cudaMallocAsync
  CUDA_CHECK_EXIT(cudaStreamEndCapture(s, g));
}

// Allocate before capturing, or with cudaMallocAsync inside.
void malloc_before(cudaStream_t s, float **d, float **e, cudaGraph_t *g) {
  CUDA_CHECK_EXIT(cudaMalloc(d, 128));
  CUDA_CHECK_EXIT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK_EXIT(cudaMallocAsync(e, 128, s));
  CUDA_CHECK_EXIT(cudaStreamEndCapture(s, g));
}

// Relaxed mode allows cudaMalloc (the model marks it legalInRelaxedCapture)...
void malloc_relaxed(cudaStream_t s, float **d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaMalloc(d, 128);
  cudaStreamEndCapture(s, g);
}

// ... but not synchronization.
void sync_relaxed(cudaStream_t s, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  kern<<<1, 32, 0, s>>>(d);
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' is called while stream 's' is capturing: synchronizing the device while a stream is capturing invalidates the capture
  cudaStreamEndCapture(s, g);
}

void memcpy_inside(cudaStream_t s, float *d, float *h, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  kern<<<1, 32, 0, s>>>(d);
  cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' is called while stream 's' is capturing: synchronous copies use the legacy stream
  cudaStreamEndCapture(s, g);
}

void memcpy_async_inside(cudaStream_t s, float *d, float *h, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  kern<<<1, 32, 0, s>>>(d);
  cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, g);
}

// Where the begin failed, nothing captures: the fallback path may synchronize.
void begin_failed_fallback(cudaStream_t s, float *d, cudaGraph_t *g) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) {
    kern<<<1, 32, 0, s>>>(d);
    cudaStreamSynchronize(s);
    *g = nullptr;
    return;
  }
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, g);
}

// On a path that may or may not capture: only the capturing one warns.
void flag_guarded(cudaStream_t s, float *d, cudaGraph_t *g, bool use_graph) {
  if (use_graph)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  if (!use_graph)
    cudaStreamSynchronize(s);
  if (use_graph)
    cudaStreamEndCapture(s, g);
}

void flag_guarded_buggy(cudaStream_t s, float *d, cudaGraph_t *g, bool use_graph) {
  if (use_graph)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaEventSynchronize(nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaEventSynchronize' is called while stream 's' is capturing: synchronizing an event is prohibited in global and thread-local capture mode
  if (use_graph)
    cudaStreamEndCapture(s, g);
}

void driver_inside(CUstream s, CUdeviceptr *d, CUgraph *g) {
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemAlloc(d, 128);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemAlloc' is called while stream 's' is capturing: cuMemAlloc is not captured and is prohibited in global and thread-local capture mode
  cuStreamEndCapture(s, g);
}

void driver_relaxed(CUstream s, CUdeviceptr *d, CUgraph *g) {
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
  cuMemAlloc(d, 128);
  cuStreamEndCapture(s, g);
}

// Ended through a helper: after it nothing captures.
void end_helper(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }

void sync_after_helper_end(cudaStream_t s, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  end_helper(s, g);
  cudaStreamSynchronize(s);
}

// ---- a long function: several streams, flags and early returns -----------

struct Opts { bool fork; bool verbose; bool check; int iters; };

cudaError_t long_function_clean(const Opts &o, cudaStream_t s0, cudaStream_t s1, float *d,
                                float *h, float **scratch, cudaGraph_t *out) {
  CUDA_CHECK_RETURN(cudaMalloc(scratch, 1024));
  cudaEvent_t forkEv;
  CUDA_CHECK_RETURN(cudaEventCreate(&forkEv));
  cudaError_t st = cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) {
    cudaEventDestroy(forkEv);
    cudaDeviceSynchronize();
    return st;
  }
  if (o.verbose)
    printf("capturing\n");
  for (int i = 0; i < o.iters; ++i)
    kern<<<1, 32, 0, s0>>>(d);
  if (o.fork) {
    cudaEventRecord(forkEv, s0);
    cudaStreamWaitEvent(s1, forkEv, 0);
    kern<<<1, 32, 0, s1>>>(*scratch);
  }
  st = cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s0);
  if (st != cudaSuccess) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(s0, &broken);
    cudaStreamSynchronize(s0);
    cudaEventDestroy(forkEv);
    return st;
  }
  st = cudaStreamEndCapture(s0, out);
  cudaEventDestroy(forkEv);
  if (o.check) {
    cudaStreamSynchronize(s0);
    cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);
  }
  if (o.verbose)
    printf("done\n");
  return st;
}

cudaError_t long_function_buggy(const Opts &o, cudaStream_t s0, float *d, float *h,
                                cudaGraph_t *out) {
  cudaError_t st = cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess)
    return st;
  for (int i = 0; i < o.iters; ++i)
    kern<<<1, 32, 0, s0>>>(d);
  if (o.check)
    cudaStreamSynchronize(s0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' is called while stream 's0' is capturing
  st = cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s0);
  cudaStreamEndCapture(s0, out);
  return st;
}

// A thread switched to relaxed mode (a caching allocator's guard) may allocate
// inside a global-mode capture; synchronizing stays illegal in every mode.
cudaError_t capture_with_relaxed_thread(cudaStream_t s, float **pool, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureMode prev = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&prev);
  cudaError_t st = cudaMalloc(pool, 4096);
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 's' is capturing: synchronizing a capturing stream invalidates the capture [cudagraph-capture-unsafe-call]
  cudaThreadExchangeStreamCaptureMode(&prev);
  cudaMalloc(pool + 1, 4096);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' is called while stream 's' is capturing: cudaMalloc is not captured and is prohibited in global and thread-local capture mode; use cudaMallocAsync [cudagraph-capture-unsafe-call]
  cudaError_t end = cudaStreamEndCapture(s, g);
  return st != cudaSuccess ? st : end;
}

// A helper of this file that does the prohibited thing, called during capture.
static void debug_sync(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
}

static void stage(float *d, size_t n, cudaStream_t s) {
  cudaMemsetAsync(d, 0, n, s);
}

cudaError_t capture_with_helpers(cudaStream_t s, float *d, size_t n, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  stage(d, n, s);
  debug_sync("stage");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'debug_sync' is called while stream 's' is capturing: it calls 'cudaDeviceSynchronize' at line {{[0-9]+}}: synchronizing the device while a stream is capturing invalidates the capture [cudagraph-capture-unsafe-call]
  return cudaStreamEndCapture(s, g);
}

cudaError_t helpers_outside_capture(cudaStream_t s, float *d, size_t n, cudaGraph_t *g) {
  debug_sync("before");
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  stage(d, n, s);
  cudaError_t e = cudaStreamEndCapture(s, g);
  debug_sync("after");
  return e;
}

// A helper that asks whether its stream captures takes the legal branch then.
static cudaError_t scratch_for(cudaStream_t s, float **p, size_t n) {
  cudaStreamCaptureStatus cs;
  cudaStreamIsCapturing(s, &cs);
  if (cs == cudaStreamCaptureStatusActive)
    return cudaMallocAsync(p, n, s);
  return cudaMalloc(p, n);
}

cudaError_t capture_with_adaptive_helper(cudaStream_t s, float **p, size_t n, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scratch_for(s, p, n);
  return cudaStreamEndCapture(s, g);
}

// ---- capture guards: code that asks, or remembers, whether it captures ----

#define GUARD_CK(e) do { cudaError_t st_ = (e); if (st_ != cudaSuccess) abort(); } while (0)
__global__ void guard_kernel(float *d) {}

static bool stream_is_capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  GUARD_CK(cudaStreamIsCapturing(s, &st));
  return st != cudaStreamCaptureStatusNone;
}

void guarded_by_helper(float *d, cudaStream_t s, bool debug, cudaGraph_t *g) {
  GUARD_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  guard_kernel<<<1, 1, 0, s>>>(d);
  if (debug && !stream_is_capturing(s))
    GUARD_CK(cudaStreamSynchronize(s));
  GUARD_CK(cudaStreamEndCapture(s, g));
}

void guarded_by_status(float *d, cudaStream_t s, cudaGraph_t *g) {
  GUARD_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  guard_kernel<<<1, 1, 0, s>>>(d);
  cudaStreamCaptureStatus st;
  GUARD_CK(cudaStreamIsCapturing(s, &st));
  if (st == cudaStreamCaptureStatusNone)
    GUARD_CK(cudaStreamSynchronize(s));
  GUARD_CK(cudaStreamEndCapture(s, g));
}

void guarded_by_copied_flag(float *d, cudaStream_t s, bool debug, bool use_graph) {
  cudaGraph_t g = nullptr;
  bool capturing = use_graph;
  if (use_graph)
    GUARD_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  guard_kernel<<<1, 1, 0, s>>>(d);
  if (debug && !capturing)
    GUARD_CK(cudaStreamSynchronize(s));
  if (use_graph) {
    GUARD_CK(cudaStreamEndCapture(s, &g));
    GUARD_CK(cudaGraphDestroy(g));
  }
}

void guarded_by_flag_set_at_begin(float *d, cudaStream_t s, int step) {
  cudaGraph_t g = nullptr;
  bool recording = false;
  if (step == 0) {
    GUARD_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    recording = true;
  }
  guard_kernel<<<1, 1, 0, s>>>(d);
  if (!recording)
    GUARD_CK(cudaStreamSynchronize(s));
  if (recording) {
    GUARD_CK(cudaStreamEndCapture(s, &g));
    GUARD_CK(cudaGraphDestroy(g));
  }
}

// The guard protects one call, not the next one.
void guard_then_unguarded(float *d, cudaStream_t s, bool debug, cudaGraph_t *g) {
  GUARD_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (debug && !stream_is_capturing(s))
    GUARD_CK(cudaStreamSynchronize(s));
  if (debug)
    GUARD_CK(cudaStreamSynchronize(s));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaStreamSynchronize' is called while stream 's' is capturing: synchronizing a capturing stream invalidates the capture [cudagraph-capture-unsafe-call]
  GUARD_CK(cudaStreamEndCapture(s, g));
}

// A status asked before the capture began says nothing about it.
void status_asked_too_early(float *d, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamCaptureStatus st;
  GUARD_CK(cudaStreamIsCapturing(s, &st));
  GUARD_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (st == cudaStreamCaptureStatusNone)
    GUARD_CK(cudaStreamSynchronize(s));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaStreamSynchronize' is called while stream 's' is capturing: synchronizing a capturing stream invalidates the capture [cudagraph-capture-unsafe-call]
  GUARD_CK(cudaStreamEndCapture(s, g));
}

// --- Measured on an H200, CUDA 13.0 (docs/capture-modes.md) -----------------

// A captured free frees only graph allocations: cudaMalloc'd memory is refused
// with cudaErrorInvalidValue and stays allocated.
void free_async_of_malloc(cudaStream_t s, cudaGraph_t *g) {
  float *d_bad;
  cudaMalloc(&d_bad, 128);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d_bad);
  cudaFreeAsync(d_bad, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeAsync' is called while stream 's' is capturing: 'd_bad' was not allocated by the capture: a captured free frees only graph allocations, so the call fails with cudaErrorInvalidValue and the memory stays allocated [cudagraph-capture-unsafe-call]
  cudaStreamEndCapture(s, g);
}

// The same before the capture began: still not a graph allocation.
void free_async_of_async_before(cudaStream_t s, cudaGraph_t *g) {
  float *d_early;
  cudaMallocAsync(&d_early, 128, s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  kern<<<1, 32, 0, s>>>(d_early);
  cudaFreeAsync(d_early, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeAsync' is called while stream 's' is capturing: 'd_early' was not allocated by the capture
  cudaStreamEndCapture(s, g);
}

void driver_free_async_of_alloc(CUstream s, CUgraph *g) {
  CUdeviceptr d_drv;
  cuMemAlloc(&d_drv, 128);
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemFreeAsync(d_drv, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemFreeAsync' is called while stream 's' is capturing: 'd_drv' was not allocated by the capture
  cuStreamEndCapture(s, g);
}

// Clean twins: allocated and freed inside the capture (memory nodes); freed
// after the capture ends; freed on the capture's stream before it begins.
void free_async_of_graph_allocation(cudaStream_t s, cudaGraph_t *g) {
  float *d;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&d, 128, s);
  kern<<<1, 32, 0, s>>>(d);
  cudaFreeAsync(d, s);
  cudaStreamEndCapture(s, g);
}

void free_async_after_capture(cudaStream_t s, cudaGraph_t *g) {
  float *d;
  cudaMalloc(&d, 128);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, g);
  cudaFreeAsync(d, s);
}

void driver_free_async_of_graph_allocation(CUstream s, CUgraph *g) {
  CUdeviceptr d;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemAllocAsync(&d, 128, s);
  cuMemFreeAsync(d, s);
  cuStreamEndCapture(s, g);
}

// Allocated inside the capture by a helper (which picks cudaMallocAsync when
// its stream captures): it may be a graph allocation, silent.
void free_async_of_helper_allocation(cudaStream_t s, cudaGraph_t *g) {
  float *d;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scratch_for(s, &d, 128);
  cudaFreeAsync(d, s);
  cudaStreamEndCapture(s, g);
}

// A pointer whose allocation this function does not see: silent.
void free_async_of_parameter(cudaStream_t s, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaFreeAsync(d, s);
  cudaStreamEndCapture(s, g);
}

// A status test on the begin call splits the paths where the capture is open
// from the buffer's: the rule still needs both on one path (issue 36).
#define ABORT_CK(x) do { if ((x) != cudaSuccess) abort(); } while (0)
void free_async_of_malloc_checked_begin(cudaStream_t s, cudaGraph_t *g) {
  float *d_ck;
  ABORT_CK(cudaMalloc(&d_ck, 128));
  ABORT_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  kern<<<1, 32, 0, s>>>(d_ck);
  cudaFreeAsync(d_ck, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeAsync' is called while stream 's' is capturing: 'd_ck' was not allocated by the capture
  ABORT_CK(cudaStreamEndCapture(s, g));
}

void free_async_of_malloc_begin_tested(cudaStream_t s, cudaGraph_t *g) {
  float *d_if;
  if (cudaMalloc(&d_if, 128) != cudaSuccess)
    return;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return;
  kern<<<1, 32, 0, s>>>(d_if);
  cudaFreeAsync(d_if, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeAsync' is called while stream 's' is capturing: 'd_if' was not allocated by the capture
  cudaStreamEndCapture(s, g);
}

cudaError_t free_async_of_malloc_status_var(cudaStream_t s, cudaGraph_t *g) {
  float *d_st = nullptr;
  cudaError_t err = cudaMalloc(&d_st, 128);
  if (err)
    goto fail;
  err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (err)
    goto fail;
  kern<<<1, 32, 0, s>>>(d_st);
  cudaFreeAsync(d_st, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeAsync' is called while stream 's' is capturing: 'd_st' was not allocated by the capture
  err = cudaStreamEndCapture(s, g);
fail:
  return err;
}

// Clean twins of the three: a graph allocation made in the capture; the
// free after the capture ends; the capture on another stream.
void free_async_of_graph_allocation_checked_begin(cudaStream_t s, cudaGraph_t *g) {
  float *d;
  ABORT_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  ABORT_CK(cudaMallocAsync(&d, 128, s));
  kern<<<1, 32, 0, s>>>(d);
  cudaFreeAsync(d, s);
  ABORT_CK(cudaStreamEndCapture(s, g));
}

void free_async_after_checked_capture(cudaStream_t s, cudaGraph_t *g) {
  float *d;
  if (cudaMalloc(&d, 128) != cudaSuccess)
    return;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return;
  kern<<<1, 32, 0, s>>>(d);
  if (cudaStreamEndCapture(s, g) != cudaSuccess)
    return;
  cudaFreeAsync(d, s);
}

cudaError_t free_async_on_other_stream_status_var(cudaStream_t s, cudaStream_t other,
                                                  cudaGraph_t *g) {
  float *d = nullptr;
  cudaError_t err = cudaMalloc(&d, 128);
  if (err)
    goto fail;
  err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (err)
    goto fail;
  kern<<<1, 32, 0, s>>>(d);
  err = cudaStreamEndCapture(s, g);
  cudaFreeAsync(d, other);
fail:
  return err;
}

// The capture and the buffer on disjoint paths: begun only under `graphs`,
// allocated only without it.
void free_async_capture_and_malloc_exclusive(cudaStream_t s, bool graphs, cudaGraph_t *g) {
  float *d = nullptr;
  if (graphs)
    ABORT_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  else
    ABORT_CK(cudaMalloc(&d, 128));
  if (!graphs)
    cudaFreeAsync(d, s);
  if (graphs)
    ABORT_CK(cudaStreamEndCapture(s, g));
}

// Prohibited in every mode: prefetching, launching a graph into the capture.
void prefetch_inside(cudaStream_t s, float *m, cudaGraph_t *g) {
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaMemPrefetchAsync(m, 128, loc, 0, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemPrefetchAsync' is called while stream 's' is capturing: prefetching is not supported during stream capture (cudaErrorStreamCaptureUnsupported in every mode; the capture is invalidated)
  cudaStreamEndCapture(s, g);
}

void prefetch_before(cudaStream_t s, float *m, float *d, cudaGraph_t *g) {
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(m, 128, loc, 0, s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, g);
}

void graph_launch_inside(cudaStream_t s, cudaGraphExec_t other, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaGraphLaunch(other, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGraphLaunch' is called while stream 's' is capturing: launching a graph into a capturing stream is not supported
  cudaStreamEndCapture(s, g);
}

void graph_launch_after(cudaStream_t s, cudaGraphExec_t other, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kern<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, g);
  cudaGraphLaunch(other, s);
}

// Prohibited in global and thread-local mode only: frees, event queries,
// cudaMemAdvise, instantiation.
void free_global(cudaStream_t s, float *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  cudaFree(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' is called while stream 's' is capturing: cudaFree is not captured and is prohibited in global and thread-local capture mode; use cudaFreeAsync on memory the capture allocated
  cudaStreamEndCapture(s, g);
}

void free_relaxed(cudaStream_t s, float *d, float *h, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaFree(d);
  cudaFreeHost(h);
  cudaStreamEndCapture(s, g);
}

void event_query_global(cudaStream_t s, cudaEvent_t e, CUevent ce, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventQuery(e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaEventQuery' is called while stream 's' is capturing: querying an event is prohibited in global and thread-local capture mode
  cuEventQuery(ce);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuEventQuery' is called while stream 's' is capturing: querying an event is prohibited in global and thread-local capture mode
  cudaStreamEndCapture(s, g);
}

void event_query_relaxed(cudaStream_t s, cudaEvent_t e, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaEventQuery(e);
  cudaEventSynchronize(e);
  cudaStreamEndCapture(s, g);
}

void advise_and_instantiate(cudaStream_t s, float *m, cudaGraph_t other, cudaGraph_t *g) {
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemAdvise(m, 128, cudaMemAdviseSetReadMostly, loc);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemAdvise' is called while stream 's' is capturing: cudaMemAdvise is prohibited in global and thread-local capture mode
  cudaGraphInstantiate(&exec, other, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGraphInstantiate' is called while stream 's' is capturing: instantiating a graph is prohibited in global and thread-local capture mode
  cudaStreamEndCapture(s, g);
  cudaGraphExecDestroy(exec);
}

void advise_and_instantiate_relaxed(cudaStream_t s, float *m, cudaGraph_t other, cudaGraph_t *g) {
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaMemAdvise(m, 128, cudaMemAdviseSetReadMostly, loc);
  cudaGraphInstantiate(&exec, other, 0);
  cudaStreamEndCapture(s, g);
  cudaGraphExecDestroy(exec);
}

// Legal in every mode: the virtual memory calls.
void vmm_inside(CUstream s, CUmemGenericAllocationHandle *h, const CUmemAllocationProp *prop,
                CUgraph *g) {
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemCreate(h, 1 << 21, prop, 0);
  cuStreamEndCapture(s, g);
}

// Streams kept in a struct passed by const reference: `st.work` names one
// stream throughout, as `st->work` through a pointer does, so the capture
// begun on it is followed.
struct CaptureStreams {
  cudaStream_t work;
  cudaStream_t copy;
};
cudaError_t record_debug(const CaptureStreams &st, bool debug, cudaGraph_t *out) {
  cudaError_t err = cudaStreamBeginCapture(st.work, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess)
    return err;
  if (debug)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' is called while stream 'st.work' is capturing
  return cudaStreamEndCapture(st.work, out);
}
cudaError_t record_quiet(const CaptureStreams &st, void *buf, cudaGraph_t *out) {
  cudaError_t err = cudaStreamBeginCapture(st.work, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess)
    return err;
  cudaMemsetAsync(buf, 0, 64, st.work);
  return cudaStreamEndCapture(st.work, out);
}

// A helper of the file that begins a capture on the stream it is given, on
// every call and in a mode that is not relaxed, begins its caller's
// capture: what the caller calls before its end helper runs during it.
cudaError_t begin_on(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
}
cudaError_t begin_with(cudaStream_t s, cudaStreamCaptureMode mode) {
  CUDA_CHECK_RETURN(cudaStreamBeginCapture(s, mode));
  return cudaSuccess;
}
cudaError_t end_on(cudaStream_t s, cudaGraph_t *g) { return cudaStreamEndCapture(s, g); }
cudaError_t record_through_helpers(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  if (begin_on(s) != cudaSuccess)
    return cudaErrorUnknown;
  cudaMalloc(scratch, 1024);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' is called while stream 's' is capturing
  return end_on(s, g);
}
cudaError_t record_global_mode(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  if (begin_with(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return cudaErrorUnknown;
  cudaMalloc(scratch, 1024);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' is called while stream 's' is capturing
  return end_on(s, g);
}
// Clean twins: relaxed mode allows cudaMalloc; the allocation after the end
// helper, or on the path where the begin failed, runs outside the capture.
cudaError_t record_relaxed_mode(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  if (begin_with(s, cudaStreamCaptureModeRelaxed) != cudaSuccess)
    return cudaErrorUnknown;
  cudaMalloc(scratch, 1024);
  return end_on(s, g);
}
cudaError_t record_then_allocate(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  if (begin_on(s) != cudaSuccess) {
    cudaMalloc(scratch, 1024);
    return cudaErrorUnknown;
  }
  cudaError_t e = end_on(s, g);
  cudaMalloc(scratch, 1024);
  return e;
}
// A helper whose begin is under a condition of its own, or in relaxed mode,
// or that also ends a capture it may begin, says nothing to its callers.
cudaError_t begin_if(cudaStream_t s, bool enabled) {
  if (!enabled)
    return cudaSuccess;
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
}
cudaError_t begin_relaxed(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
}
void record_optional(cudaStream_t s, bool enabled, float **scratch, cudaGraph_t *g) {
  if (begin_if(s, enabled) != cudaSuccess)
    return;
  cudaMalloc(scratch, 1024);
  if (enabled)
    end_on(s, g);
}
void record_relaxed_helper(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  if (begin_relaxed(s) != cudaSuccess)
    return;
  cudaMalloc(scratch, 1024);
  end_on(s, g);
}

// A class that begins the capture on a stream it keeps in a member and ends
// it in another method: between `g.begin(s)` and `g.end()` its caller's
// calls run during the capture, before and after them they do not.
class StepGraph {
public:
  ~StepGraph() { reset(); }
  cudaError_t begin(cudaStream_t s) {
    reset();
    s_ = s;
    return cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
  }
  cudaError_t end() {
    cudaGraph_t g = nullptr;
    cudaError_t e = cudaStreamEndCapture(s_, &g);
    if (e != cudaSuccess)
      return e;
    e = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return e;
  }
  void reset() {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
  }
  // Inside the class too.
  cudaError_t record(float *d, int n) {
    if (begin(s_) != cudaSuccess)
      return cudaErrorUnknown;
    cudaMemset(d, 0, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemset' is called while stream 's_' is capturing
    return end();
  }
  cudaError_t recordAsync(float *d, int n) {
    if (begin(s_) != cudaSuccess)
      return cudaErrorUnknown;
    cudaMemsetAsync(d, 0, n, s_);
    return end();
  }

private:
  cudaStream_t s_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};
cudaError_t step_graph_sync(cudaStream_t s, float *d, int n) {
  StepGraph runner;
  if (runner.begin(s) != cudaSuccess)
    return cudaErrorUnknown;
  cudaMemsetAsync(d, 0, n, s);
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 'runner.s_' is capturing
  return runner.end();
}
cudaError_t step_graph_clean(cudaStream_t s, float *d, int n) {
  StepGraph runner;
  cudaStreamSynchronize(s);
  if (runner.begin(s) != cudaSuccess) {
    cudaStreamSynchronize(s);
    return cudaErrorUnknown;
  }
  cudaMemsetAsync(d, 0, n, s);
  cudaError_t e = runner.end();
  cudaStreamSynchronize(s);
  return e;
}
// Two objects: ending one leaves the other's capture open.
class Recorder {
public:
  cudaError_t begin(cudaStream_t s) {
    s_ = s;
    return cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
  }
  cudaError_t end(cudaGraph_t *g) { return cudaStreamEndCapture(s_, g); }

private:
  cudaStream_t s_ = nullptr;
};
cudaError_t two_recorders(cudaStream_t a, cudaStream_t b, float **scratch, cudaGraph_t *g) {
  Recorder first, second;
  if (first.begin(a) != cudaSuccess)
    return cudaErrorUnknown;
  if (second.begin(b) != cudaSuccess)
    return cudaErrorUnknown;
  first.end(g);
  cudaMalloc(scratch, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' is called while stream 'second.s_' is capturing
  second.end(g + 1);
  cudaMalloc(scratch + 1, 64);
  return cudaSuccess;
}

// A capture ended through a local copy of its stream is ended: the copy
// names the same stream, and neither is written again. The twin
// synchronises before the end, through the other name.
struct AliasCtx {
  cudaStream_t stream;
  cudaGraph_t graph;
};
__global__ void aliasKernel(float *x) { x[0] = 1.0f; }
int endThroughCopy(AliasCtx *ctx, float *a) {
  cudaStream_t stream = ctx->stream;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return 1;
  aliasKernel<<<1, 1, 0, stream>>>(a);
  if (cudaStreamEndCapture(stream, &ctx->graph) != cudaSuccess)
    return 1;
  cudaStreamSynchronize(ctx->stream);
  return 0;
}
int syncThroughCopy(AliasCtx *ctx, float *a) {
  cudaStream_t stream = ctx->stream;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return 1;
  aliasKernel<<<1, 1, 0, stream>>>(a);
  cudaStreamSynchronize(stream);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 'ctx->stream' is capturing: synchronizing a capturing stream invalidates the capture [cudagraph-capture-unsafe-call]
  cudaStreamEndCapture(stream, &ctx->graph);
  return 0;
}
// A copy taken before the stream is replaced is another stream.
int copyThenReplaced(AliasCtx *ctx, cudaStream_t other, float *a) {
  cudaStream_t old = ctx->stream;
  ctx->stream = other;
  cudaGraph_t g;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return 1;
  cudaStreamEndCapture(old, &g);
  cudaStreamSynchronize(ctx->stream);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 'ctx->stream' is capturing: synchronizing a capturing stream invalidates the capture [cudagraph-capture-unsafe-call]
  return 0;
}

// Captures begun in a loop over an array of streams: a device-wide call
// between the begin loop and the end loop runs during them; what follows
// the first end call does not (the loops' counts are not paired).
int captureAllThenSync(cudaStream_t *streams, int n, cudaGraph_t *graphs, float *a) {
  for (int i = 0; i < n; ++i)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  for (int i = 0; i < n; ++i)
    kern<<<1, 32, 0, streams[i]>>>(a);
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' is called while stream 'streams[]' is capturing: synchronizing the device while a stream is capturing invalidates the capture [cudagraph-capture-unsafe-call]
  for (int i = 0; i < n; ++i)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  return 0;
}
// The end loop of an error exit that returns has not run where the code
// after it synchronises: the captures are still open there.
int captureAllErrorExitThenSync(cudaStream_t *streams, int n, cudaGraph_t *graphs, float *a) {
  for (int i = 0; i < n; ++i)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  if (cudaMemsetAsync(a, 0, sizeof(float), streams[0]) != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaStreamEndCapture(streams[i], &graphs[i]);
    return 1;
  }
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' is called while stream 'streams[]' is capturing: synchronizing the device while a stream is capturing invalidates the capture [cudagraph-capture-unsafe-call]
  for (int i = 0; i < n; ++i)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  return 0;
}
// An end loop in a branch that falls through may have ended them.
int captureAllEndInBranchThenSync(cudaStream_t *streams, int n, cudaGraph_t *graphs,
                                  float *a, bool early) {
  for (int i = 0; i < n; ++i)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  if (early) {
    for (int i = 0; i < n; ++i)
      cudaStreamEndCapture(streams[i], &graphs[i]);
  } else {
    for (int i = 0; i < n; ++i)
      kern<<<1, 32, 0, streams[i]>>>(a);
    for (int i = 0; i < n; ++i)
      cudaStreamEndCapture(streams[i], &graphs[i]);
  }
  cudaDeviceSynchronize();
  return 0;
}
// An error exit whose end loop falls through to a status check (that
// throws, which the analysis cannot see): on the path that skipped the
// exit the captures are still open at the synchronisation.
void checkStatus(cudaError_t e);
int captureAllExitFallsToCheckThenSync(cudaStream_t *streams, int n, cudaGraph_t *graphs,
                                       float *a) {
  for (int i = 0; i < n; ++i)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  cudaError_t e = cudaMemsetAsync(a, 0, sizeof(float), streams[0]);
  if (e != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaStreamEndCapture(streams[i], &graphs[i]);
  }
  checkStatus(e);
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' is called while stream 'streams[]' is capturing: synchronizing the device while a stream is capturing invalidates the capture [cudagraph-capture-unsafe-call]
  for (int i = 0; i < n; ++i)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  return 0;
}
int captureAllExitFallsToCheckThenEnd(cudaStream_t *streams, int n, cudaGraph_t *graphs,
                                      float *a) {
  for (int i = 0; i < n; ++i)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  cudaError_t e = cudaMemsetAsync(a, 0, sizeof(float), streams[0]);
  if (e != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaStreamEndCapture(streams[i], &graphs[i]);
  }
  checkStatus(e);
  for (int i = 0; i < n; ++i)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  cudaDeviceSynchronize();
  return 0;
}
int captureAllThenInstantiate(cudaStream_t *streams, int n, cudaGraph_t *graphs,
                              cudaGraphExec_t *execs, float *a) {
  for (int i = 0; i < n; ++i)
    cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  for (int i = 0; i < n; ++i)
    kern<<<1, 32, 0, streams[i]>>>(a);
  for (int i = 0; i < n; ++i)
    cudaStreamEndCapture(streams[i], &graphs[i]);
  for (int i = 0; i < n; ++i)
    cudaGraphInstantiate(&execs[i], graphs[i], 0);
  cudaDeviceSynchronize();
  return 0;
}
