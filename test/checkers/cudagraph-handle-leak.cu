// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

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

__global__ void kernel(float *p) {}

// ---- every kind, plain leak / released twin ------------------------------

void leak_stream() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
  cudaStreamSynchronize(s);
}

void clean_stream() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}

void leak_event_with_flags() {
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: event 'e' created by 'cudaEventCreateWithFlags' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
  cudaEventRecord(e, 0);
}

void clean_event_with_flags() {
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaEventRecord(e, 0);
  cudaEventDestroy(e);
}

void leak_device_memory(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  cudaMemset(d, 0, n);
}

void clean_device_memory(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaMemset(d, 0, n);
  cudaFree(d);
}

void leak_pinned_host(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h' created by 'cudaMallocHost' is not released on every path; call cudaFreeHost or hand it to an owner [cudagraph-handle-leak]
  h[0] = 1.0f;
}

void clean_pinned_host(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  h[0] = 1.0f;
  cudaFreeHost(h);
}

void leak_managed(size_t n) {
  float *m;
  cudaMallocManaged(&m, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed memory 'm' created by 'cudaMallocManaged' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
}

void leak_async(size_t n, cudaStream_t s) {
  float *a;
  cudaMallocAsync(&a, n, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream-ordered device memory 'a' created by 'cudaMallocAsync' is not released on every path; call cudaFreeAsync or hand it to an owner [cudagraph-handle-leak]
}

void clean_async(size_t n, cudaStream_t s) {
  float *a;
  cudaMallocAsync(&a, n, s);
  kernel<<<1, 1, 0, s>>>(a);
  cudaFreeAsync(a, s);
}

void leak_pool(cudaMemPoolProps *props) {
  cudaMemPool_t pool;
  cudaMemPoolCreate(&pool, props);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: memory pool 'pool' created by 'cudaMemPoolCreate' is not released on every path; call cudaMemPoolDestroy or hand it to an owner [cudagraph-handle-leak]
}

void clean_pool(cudaMemPoolProps *props) {
  cudaMemPool_t pool;
  cudaMemPoolCreate(&pool, props);
  cudaMemPoolDestroy(pool);
}

// The default pool is not the caller's to destroy.
void clean_default_pool() {
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemPoolTrimTo(pool, 0);
}

void leak_driver_memory(size_t n) {
  CUdeviceptr p;
  cuMemAlloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'p' created by 'cuMemAlloc' is not released on every path; call cuMemFree or hand it to an owner [cudagraph-handle-leak]
}

void clean_driver_memory(size_t n) {
  CUdeviceptr p;
  if (cuMemAlloc(&p, n) != CUDA_SUCCESS)
    return;
  cuMemFree(p);
}

void leak_driver_stream() {
  CUstream s;
  cuStreamCreate(&s, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream 's' created by 'cuStreamCreate' is not released on every path; call cuStreamDestroy or hand it to an owner [cudagraph-handle-leak]
}

// Leaks of other kinds belong to other checks.
void not_ours_exec(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
}

void not_ours_heap(size_t n) {
  void *p = malloc(n);
  (void)p;
}

// C++ new memory is followed only for its mismatches with CUDA families: its
// leaks are clang-analyzer's (cplusplus.NewDeleteLeaks), even next to CUDA
// memory that is released.
void not_ours_new(size_t n) {
  float *d;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  float *h = new float[n];
  float *one = new float;
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
  *one = h[0];
  cudaFree(d);
}

// ---- error paths ---------------------------------------------------------

cudaError_t leak_on_early_return(size_t n) {
  float *d;
  CUDA_CHECK_RETURN(cudaMalloc(&d, n));
  cudaStream_t s;
  CUDA_CHECK_RETURN(cudaStreamCreate(&s));
  // CHECK-MESSAGES: :[[@LINE-3]]:21: warning: device memory 'd' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: stream 's' created by 'cudaStreamCreate' is not released on every path
  CUDA_CHECK_RETURN(cudaMemsetAsync(d, 0, n, s));
  cudaStreamDestroy(s);
  cudaFree(d);
  return cudaSuccess;
}

cudaError_t clean_on_early_return(size_t n) {
  float *d;
  CUDA_CHECK_RETURN(cudaMalloc(&d, n));
  cudaStream_t s;
  cudaError_t st = cudaStreamCreate(&s);
  if (st != cudaSuccess) {
    cudaFree(d);
    return st;
  }
  st = cudaMemsetAsync(d, 0, n, s);
  cudaStreamDestroy(s);
  cudaFree(d);
  return st;
}

// Error paths that exit the process are silent (checkCudaErrors style).
void clean_exit_macro(size_t n) {
  float *d, *h;
  cudaEvent_t start, stop;
  CUDA_CHECK_EXIT(cudaMalloc(&d, n));
  CUDA_CHECK_EXIT(cudaMallocHost(&h, n));
  CUDA_CHECK_EXIT(cudaEventCreate(&start));
  CUDA_CHECK_EXIT(cudaEventCreate(&stop));
  CUDA_CHECK_EXIT(cudaEventRecord(start));
  CUDA_CHECK_EXIT(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  CUDA_CHECK_EXIT(cudaEventRecord(stop));
  CUDA_CHECK_EXIT(cudaEventDestroy(stop));
  CUDA_CHECK_EXIT(cudaEventDestroy(start));
  CUDA_CHECK_EXIT(cudaFreeHost(h));
  CUDA_CHECK_EXIT(cudaFree(d));
}

bool leak_on_condition(size_t n, bool dry_run) {
  cudaEvent_t e;
  if (cudaEventCreate(&e) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: event 'e' created by 'cudaEventCreate' is not released on every path
    return false;
  if (dry_run)
    return true;
  cudaEventSynchronize(e);
  cudaEventDestroy(e);
  return true;
}

bool clean_on_condition(size_t n, bool dry_run) {
  cudaEvent_t e;
  if (cudaEventCreate(&e) != cudaSuccess)
    return false;
  if (!dry_run)
    cudaEventSynchronize(e);
  cudaEventDestroy(e);
  return true;
}

// ---- loops and overwrites ------------------------------------------------

void leak_in_loop(int n) {
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: stream 's' created by 'cudaStreamCreate' is not released on every path
  }
}

void clean_in_loop(int n) {
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamDestroy(s);
  }
}

void overwrite_in_loop(int n, size_t bytes) {
  float *buf = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&buf, bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' overwrites 'buf', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
    cudaMemset(buf, 0, bytes);
  }
  cudaFree(buf);
}

void clean_realloc_in_loop(int n, size_t bytes) {
  float *buf = nullptr;
  for (int i = 0; i < n; ++i) {
    if (buf)
      cudaFree(buf);
    cudaMalloc(&buf, bytes);
    cudaMemset(buf, 0, bytes);
  }
  if (buf)
    cudaFree(buf);
}

void overwrite_straight() {
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaEventCreate(&e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaEventCreate' overwrites 'e', which still holds a live event; release it with cudaEventDestroy first [cudagraph-handle-leak]
  cudaEventDestroy(e);
}

void clean_recreate() {
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaEventDestroy(e);
  cudaEventCreate(&e);
  cudaEventDestroy(e);
}

// ---- ownership handed out, RAII, guarded frees ---------------------------

cudaStream_t clean_returned() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  return s;
}

cudaError_t clean_out_param(float **out, size_t n) { return cudaMalloc(out, n); }

struct Buffers {
  float *d_ = nullptr;
  cudaStream_t s_ = nullptr;
  void init(size_t n) {
    cudaMalloc(&d_, n);
    cudaStreamCreate(&s_);
  }
  ~Buffers() {
    if (d_)
      cudaFree(d_);
    if (s_)
      cudaStreamDestroy(s_);
  }
};

struct DeviceFree {
  void operator()(float *p) const { cudaFree(p); }
};
using DevicePtr = std::unique_ptr<float, DeviceFree>;

DevicePtr clean_unique_ptr(size_t n) {
  float *p;
  CUDA_CHECK_EXIT(cudaMalloc(&p, n));
  return DevicePtr(p);
}

void clean_unique_ptr_local(size_t n) {
  float *p = nullptr;
  cudaMalloc(&p, n);
  DevicePtr owner(p);
  cudaMemset(owner.get(), 0, n);
}

// cudaFree(nullptr) is legal: an unconditional free of a maybe-null pointer
// and a null-guarded one are both releases.
void clean_guarded_free(size_t n, bool want) {
  float *d = nullptr;
  if (want)
    cudaMalloc(&d, n);
  cudaFree(d);
  float *h = nullptr;
  if (want)
    cudaMallocHost(&h, n);
  if (h != nullptr)
    cudaFreeHost(h);
}

int clean_goto_cleanup(size_t n) {
  float *d = nullptr;
  cudaStream_t s = nullptr;
  int rc = -1;
  if (cudaMalloc(&d, n) != cudaSuccess)
    goto fail;
  if (cudaStreamCreate(&s) != cudaSuccess)
    goto fail;
  rc = 0;
fail:
  if (s)
    cudaStreamDestroy(s);
  if (d)
    cudaFree(d);
  return rc;
}

void suppressed() {
  cudaStream_t s;
  cudaStreamCreate(&s); // NOLINT(cudagraph-handle-leak)
}

// ---- long functions: several kinds, flags, early returns -----------------

cudaError_t long_leaky(size_t n, bool use_pinned, bool timed, bool verbose) {
  float *d = nullptr, *h = nullptr;
  cudaStream_t s;
  cudaEvent_t start = nullptr, stop = nullptr;
  CUDA_CHECK_RETURN(cudaStreamCreate(&s));
  if (cudaMalloc(&d, n) != cudaSuccess) {
    cudaStreamDestroy(s);
    return cudaErrorMemoryAllocation;
  }
  if (use_pinned)
    cudaMallocHost(&h, n);
  else
    h = (float *)malloc(n);
  if (timed) {
    cudaEventCreate(&start);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: event 'start' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
    cudaEventCreate(&stop);
    cudaEventRecord(start, s);
  }
  if (verbose)
    printf("copying %zu bytes\n", n);
  cudaError_t st = cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  if (st != cudaSuccess) {
    if (timed)
      cudaEventDestroy(stop);
    cudaFree(d);
    cudaStreamDestroy(s);
    if (use_pinned)
      cudaFreeHost(h);
    else
      free(h);
    return st; // 'start' leaks here
  }
  if (timed) {
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  if (use_pinned)
    cudaFreeHost(h);
  else
    free(h);
  cudaFree(d);
  cudaStreamDestroy(s);
  return cudaSuccess;
}

cudaError_t long_clean(size_t n, bool use_pinned, bool timed, bool verbose) {
  float *d = nullptr, *h = nullptr;
  cudaStream_t s;
  cudaEvent_t start = nullptr, stop = nullptr;
  CUDA_CHECK_RETURN(cudaStreamCreate(&s));
  if (cudaMalloc(&d, n) != cudaSuccess) {
    cudaStreamDestroy(s);
    return cudaErrorMemoryAllocation;
  }
  if (use_pinned)
    cudaMallocHost(&h, n);
  else
    h = (float *)malloc(n);
  if (timed) {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, s);
  }
  if (verbose)
    printf("copying %zu bytes\n", n);
  cudaError_t st = cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  if (st == cudaSuccess && timed) {
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
  }
  if (timed) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  if (use_pinned)
    cudaFreeHost(h);
  else
    free(h);
  cudaFree(d);
  cudaStreamDestroy(s);
  return st;
}

// A retry after an out-of-memory status: where the status equals that
// code the first call made nothing; any other status may be success.
int clean_retry_after_oom(size_t n) {
  void *ptr;
  cudaError_t err = cudaMalloc(&ptr, n);
  if (err == cudaErrorMemoryAllocation)
    err = cudaMalloc(&ptr, n / 2);
  if (err != cudaSuccess)
    return 1;
  cudaFree(ptr);
  return 0;
}

int leak_retry_on_any_other_status(size_t n) {
  void *ptr;
  cudaError_t err = cudaMalloc(&ptr, n);
  if (err != cudaErrorMemoryAllocation)
    err = cudaMalloc(&ptr, n / 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'cudaMalloc' overwrites 'ptr', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
  if (err != cudaSuccess)
    return 1;
  cudaFree(ptr);
  return 0;
}

// Graph allocations: cudaMallocAsync inside a capture is a memory node the
// graph allocates at every launch.
__global__ void fill(float *p) {}

void graph_alloc_relaunched(cudaStream_t s, int iters) {
  float *out;
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&out, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream-ordered device memory 'out' created by 'cudaMallocAsync' is not released on every path; call cudaFreeAsync or hand it to an owner [cudagraph-handle-leak]
  fill<<<1, 1, 0, s>>>(out);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e, g, 0);
  for (int i = 0; i < iters; ++i)
    cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

void graph_alloc_auto_freed(cudaStream_t s, int iters) {
  float *out;
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&out, 1024, s);
  fill<<<1, 1, 0, s>>>(out);
  cudaStreamEndCapture(s, &g);
  if (cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch) != cudaSuccess) {
    cudaGraphDestroy(g);
    return;
  }
  for (int i = 0; i < iters; ++i)
    cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaFree(out);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

void graph_alloc_freed_by_node(cudaStream_t s, int iters) {
  float *tmp;
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&tmp, 1024, s);
  fill<<<1, 1, 0, s>>>(tmp);
  cudaFreeAsync(tmp, s);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&e, g, 0);
  for (int i = 0; i < iters; ++i)
    cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

cudaGraph_t graph_alloc_graph_returned(cudaStream_t s) {
  float *out;
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&out, 1024, s);
  fill<<<1, 1, 0, s>>>(out);
  cudaStreamEndCapture(s, &g);
  return g;
}

// A project's own wrappers, marked with clang's handle attributes instead of a
// JSON model entry (declared here, defined in another file).
cudaError_t pool_stream_get(cudaStream_t *out [[clang::acquire_handle("cuda")]]);
void pool_stream_put(cudaStream_t s [[clang::release_handle("cuda")]]);
void *scratch_grab(size_t bytes) __attribute__((acquire_handle("cuda")));
void scratch_drop(void *p [[clang::release_handle("cuda")]]);

int attributed_wrappers_leak(bool fast) {
  cudaStream_t s;
  if (pool_stream_get(&s) != cudaSuccess)
    return -1;
  void *tmp = scratch_grab(256);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: handle created by 'scratch_grab' is not released on every path; call its release function or hand it to an owner [cudagraph-handle-leak]
  if (fast) {
    pool_stream_put(s);
    return 0;
  }
  scratch_drop(tmp);
  pool_stream_put(s);
  return 1;
}

int attributed_wrappers_ok(bool fast) {
  cudaStream_t s;
  if (pool_stream_get(&s) != cudaSuccess)
    return -1;
  void *tmp = scratch_grab(256);
  if (!fast)
    scratch_drop(tmp);
  else
    scratch_drop(tmp);
  pool_stream_put(s);
  return 0;
}

// ---- calls change only what they can reach as modifiable (CSA's rules) ----

#define LK(e) do { cudaError_t st_ = (e); if (st_ != cudaSuccess) abort(); } while (0)
struct RunOpts { bool use_scratch; int batch; };
void log_options(const RunOpts &o, cudaStream_t s);   // defined elsewhere
void tune_options(RunOpts &o);                        // defined elsewhere
void print_batch(int batch);

int options_by_const_ref(const RunOpts o, cudaStream_t s) {
  float *scratch = nullptr;
  if (o.use_scratch)
    LK(cudaMalloc(&scratch, 16));
  log_options(o, s);
  print_batch(o.batch);
  if (o.use_scratch)
    LK(cudaFree(scratch));
  return 0;
}

int options_by_value_compared(RunOpts o) {
  float *scratch = nullptr;
  if (o.batch > 32)
    LK(cudaMalloc(&scratch, 16));
  print_batch(o.batch);
  if (o.batch > 32)
    LK(cudaFree(scratch));
  return 0;
}

int options_changed_by_reference(RunOpts o) {
  float *scratch = nullptr;
  if (o.use_scratch)
    LK(cudaMalloc(&scratch, 16));
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: device memory 'scratch' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  tune_options(o);
  if (o.use_scratch)
    LK(cudaFree(scratch));
  return 0;
}

// ---- lambdas: a task acquires into the enclosing function's variable ----

struct TaskList {
  std::function<void()> tasks[4];
  int n = 0;
  void emplace(std::function<void()> f) { tasks[n++] = f; }
  void run() { for (int i = 0; i < n; ++i) tasks[i](); }
};

void tasks_share_a_buffer(size_t n) {
  float *d_x = nullptr;
  TaskList flow;
  flow.emplace([&] { LK(cudaMalloc(&d_x, n)); });
  flow.emplace([&] { kernel<<<1, 1>>>(d_x); });
  flow.emplace([&] { LK(cudaFree(d_x)); });
  flow.run();
}

void local_lambdas_pair(size_t n) {
  float *d_x = nullptr;
  auto alloc = [&] { LK(cudaMalloc(&d_x, n)); };
  auto release = [&] { LK(cudaFree(d_x)); };
  alloc();
  release();
}

void local_lambda_never_released(size_t n) {
  float *d_x = nullptr;
  auto alloc = [&] { LK(cudaMalloc(&d_x, n)); };
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: device memory 'd_x' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  alloc();
}

void lambda_own_local_leaks(size_t n) {
  auto task = [n] {
    float *q = nullptr;
    LK(cudaMalloc(&q, n));
    // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: device memory 'q' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  };
  task();
}

// ---- a check macro that evaluates its argument again in the message ----

#define CHECK_TWICE(e) do { if ((e) != cudaSuccess) { fprintf(stderr, "%s: %s\n", #e, cudaGetErrorString(e)); abort(); } } while (0)
#define CHECK_TWICE_RET(e) do { if ((e) != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return; } } while (0)

void check_twice_pair(size_t n) {
  float *p = nullptr;
  CHECK_TWICE(cudaMalloc(&p, n));
  CHECK_TWICE(cudaFree(p));
}

void check_twice_return_pair(size_t n) {
  float *p = nullptr;
  CHECK_TWICE_RET(cudaMalloc(&p, n));
  CHECK_TWICE_RET(cudaFree(p));
}

void check_twice_leak(size_t n) {
  float *p = nullptr;
  CHECK_TWICE(cudaMalloc(&p, n));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: device memory 'p' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
}

// CUDA 13's cuda.h maps cuCtxCreate to cuCtxCreate_v4 (a new signature, the
// context still its first argument): the model's entry applies.
CUresult context_for_stream(CUdevice dev, CUstream *out) {
  CUcontext ctx;
  CUresult r = cuCtxCreate(&ctx, nullptr, 0, dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: CUDA context 'ctx' created by 'cuCtxCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
  if (r != CUDA_SUCCESS)
    return r;
  r = cuStreamCreate(out, CU_STREAM_NON_BLOCKING);
  if (r != CUDA_SUCCESS)
    return r;
  cuCtxDestroy(ctx);
  return CUDA_SUCCESS;
}

// The launch configuration reads its stream (`<<<g, b, 0, st>>>` is a call
// of __cudaPushCallConfiguration): a stream only launched on still leaks.
void leak_stream_launched_on(float *d) {
  cudaStream_t st = nullptr;
  cudaStreamCreate(&st);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream 'st' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
  kernel<<<1, 1, 0, st>>>(d);
}
void clean_stream_launched_on(float *d) {
  cudaStream_t st = nullptr;
  cudaStreamCreate(&st);
  kernel<<<1, 1, 0, st>>>(d);
  cudaStreamSynchronize(st);
  cudaStreamDestroy(st);
}

// A plain struct's members start with their initialisers' values: the
// ownership flag set in the list decides the destroy (a write through
// `&p.stream` changes that member only).
struct StreamOwner { cudaStream_t stream; float *buf; int owns_stream; };
void clean_owner_flag_from_init_list(float *d) {
  StreamOwner p = {nullptr, d, 1};
  if (cudaStreamCreate(&p.stream) != cudaSuccess)
    return;
  kernel<<<1, 1, 0, p.stream>>>(p.buf);
  if (p.owns_stream)
    cudaStreamDestroy(p.stream);
}
void leak_owner_flag_off_in_init_list(float *d) {
  StreamOwner p = {nullptr, d, 0};
  if (cudaStreamCreate(&p.stream) != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: stream 'p.stream' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
    return;
  kernel<<<1, 1, 0, p.stream>>>(p.buf);
  if (p.owns_stream)
    cudaStreamDestroy(p.stream);
}
// A write through the whole object's address forgets what the list said.
void leak_owner_flag_rewritten_through_address(float *d, const StreamOwner *src) {
  StreamOwner p = {nullptr, d, 1};
  if (cudaStreamCreate(&p.stream) != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: stream 'p.stream' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
    return;
  kernel<<<1, 1, 0, p.stream>>>(p.buf);
  cudaStream_t mine = p.stream;
  memcpy(&p, src, sizeof p);
  if (p.owns_stream)
    cudaStreamDestroy(mine);
}
