// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=OFF -config="{CheckOptions: {AnalyzeUninstantiatedTemplates: 'false', ReportLeaksOnThrow: 'false'}}"
//
// Templates the unit never instantiates are analysed in their pattern
// (lib/Lifetime/Templates.cpp); what is type-dependent is unknown and stays
// silent. Instantiated templates report once per defect, not once per
// instantiation. Throws that leave the function while a local resource is
// live leak it (lib/Lifetime/Transfer/Exceptions.cpp). Every bug has a clean twin.
// With both options off (OFF) only the instantiated template and the
// created graph a capture overwrites report.
#include <cuda_runtime.h>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <type_traits>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      throw std::runtime_error(cudaGetErrorString(e_));                        \
  } while (0)

#define CUDA_CHECK_ABORT(call)                                                 \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      abort();                                                                 \
  } while (0)

__global__ void fill(int *p) {}
template <class T> __global__ void fill_t(T *p) {}

// ---- function templates -------------------------------------------------

// Instantiated twice: one report, at the template's line.
template <class T> void leak_instantiated_twice(size_t n) {
  int *d;
  cudaMalloc(&d, n * sizeof(T));
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: device memory 'd' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  // CHECK-MESSAGES-OFF: :[[@LINE-2]]:3: warning: device memory 'd' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  fill<<<1, 1>>>(d);
}
template void leak_instantiated_twice<int>(size_t);
template void leak_instantiated_twice<float>(size_t);

template <class T> void clean_instantiated_twice(size_t n) {
  int *d;
  cudaMalloc(&d, n * sizeof(T));
  fill<<<1, 1>>>(d);
  cudaFree(d);
}
template void clean_instantiated_twice<int>(size_t);
template void clean_instantiated_twice<float>(size_t);

// Never instantiated: the pattern is analysed.
template <class T> void leak_never_instantiated(size_t n) {
  int *d;
  cudaMalloc(&d, n * sizeof(T));
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: device memory 'd' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  cudaMemset(d, 0, n * sizeof(T));
}

template <class T> void clean_never_instantiated(size_t n) {
  int *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemset(d, 0, n * sizeof(T));
  cudaFree(d);
}

// A type-dependent allocation (`T *`) is an unknown call: silent.
template <class T> void clean_dependent_allocation(size_t n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  fill_t<<<1, 1>>>(d);
}

// Released by a call the template cannot resolve: silent.
template <class T> struct Pool;
template <class T> void clean_released_by_dependent_call(Pool<T> &pool, size_t n) {
  int *d;
  cudaMalloc(&d, n);
  pool.adopt(d);
}

// Handed to an object of dependent type: silent.
template <class T, class Deleter> void clean_dependent_owner(size_t n) {
  int *d;
  cudaMalloc(&d, n);
  std::unique_ptr<int, Deleter> owner(d);
}

// A branch on a dependent condition may be decided the same way in every
// instantiation: silent.
template <bool Owned> void clean_constexpr_release(size_t n) {
  int *d;
  cudaMalloc(&d, n);
  if constexpr (Owned)
    cudaFree(d);
}
template <class T> void clean_sizeof_branch(size_t n) {
  int *d;
  if (sizeof(T) > 4)
    cudaMalloc(&d, n);
  fill<<<1, 1>>>(nullptr);
  if (sizeof(T) > 4)
    cudaFree(d);
}

// MatX's cgsolve: a flag tested around the creation and the release, with
// unresolved expression-template calls between that only read it.
template <class X> void clean_flag_across_dependent_calls(X x, X y, double tol, cudaStream_t s) {
  cudaStream_t d2h;
  if (tol > 0.0f)
    cudaStreamCreate(&d2h);
  (y = all(sqrt(x) < tol)).run(s);
  if (tol > 0.0f)
    cudaStreamDestroy(d2h);
}

// Graph execs in a pattern.
template <class T> void leak_exec_never_instantiated(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return;
  if (cudaGraphLaunch(e, s) != cudaSuccess)
    return;
  cudaGraphExecDestroy(e);
}

template <class T> void clean_exec_never_instantiated(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// ---- class templates ----------------------------------------------------

// bb_segsort-like: a member function of a class template, never
// instantiated, that forgets one of its buffers.
template <class K, class T> struct SegSort {
  void run(const K *keys, size_t n) {
    int *d_seg;
    int *d_bin;
    cudaMalloc((void **)&d_seg, n * sizeof(int));
    cudaMalloc((void **)&d_bin, n * sizeof(int));
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: device memory 'd_bin' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
    fill<<<1, 1>>>(d_seg);
    fill<<<1, 1>>>(d_bin);
    cudaFree(d_seg);
  }
  void run_clean(const K *keys, size_t n) {
    int *d_seg;
    int *d_bin;
    cudaMalloc((void **)&d_seg, n * sizeof(int));
    cudaMalloc((void **)&d_bin, n * sizeof(int));
    fill<<<1, 1>>>(d_seg);
    cudaFree(d_bin);
    cudaFree(d_seg);
  }
  // A member template of a class template.
  template <class U> void stage(size_t n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
    cudaStreamSynchronize(s);
  }
  template <class U> void stage_clean(size_t n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
};

// gpu-burn-like: the constructor allocates members, the destructor frees
// only one of them; the class is never instantiated.
template <class T> class GpuTest {
public:
  GpuTest(size_t n) {
    cudaMalloc((void **)&d_a, n);
    cudaMalloc((void **)&d_b, n);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: device memory 'd_b' created by 'cudaMalloc' and kept in a member of 'GpuTest' is not released on every path; call cudaFree in every path of the destructor (or a reset method) of 'GpuTest'
  }
  ~GpuTest() { cudaFree(d_a); }

private:
  int *d_a = nullptr;
  int *d_b = nullptr;
};

template <class T> class GpuTestClean {
public:
  GpuTestClean(size_t n) {
    cudaMalloc((void **)&d_a, n);
    cudaMalloc((void **)&d_b, n);
  }
  ~GpuTestClean() {
    cudaFree(d_a);
    cudaFree(d_b);
  }

private:
  int *d_a = nullptr;
  int *d_b = nullptr;
};

// The destructor is instantiated, the constructor is not: the pattern's
// methods are followed together, so the release is seen.
template <class T> class HalfInstantiated {
public:
  HalfInstantiated(size_t n) { cudaMalloc((void **)&d_a, n); }
  ~HalfInstantiated() { cudaFree(d_a); }

private:
  int *d_a = nullptr;
};
void destroy_half(HalfInstantiated<float> *h) { delete h; }

// Members of a dependent base are unresolved: silent.
template <class T> struct Base {
  int *buf;
};
template <class T> struct Derived : Base<T> {
  void init(size_t n) { cudaMalloc((void **)&this->buf, n); }
};

// ---- throws -------------------------------------------------------------

// The second allocation fails and throws while the first is live.
void leak_on_throw(size_t n) {
  int *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n));
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:14: warning: device memory 'a' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  CUDA_CHECK(cudaMalloc(&b, n));
  fill<<<1, 1>>>(a);
  cudaFree(b);
  cudaFree(a);
}

// One allocation: the throw is on its own failure, where nothing is live.
void clean_single_checked(size_t n) {
  int *a;
  CUDA_CHECK(cudaMalloc(&a, n));
  fill<<<1, 1>>>(a);
  cudaFree(a);
}

// Owned by RAII before the next throwing call.
struct CudaFree {
  void operator()(int *p) const { cudaFree(p); }
};
void clean_raii_before_throw(size_t n) {
  int *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n));
  std::unique_ptr<int, CudaFree> ga(a);
  CUDA_CHECK(cudaMalloc(&b, n));
  std::unique_ptr<int, CudaFree> gb(b);
}

// An explicit throw after a check.
void leak_explicit_throw(cudaGraph_t g, size_t n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
  if (n == 0)
    throw std::invalid_argument("empty");
  cudaStreamDestroy(s);
}

void clean_release_before_throw(size_t n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  if (n == 0) {
    cudaStreamDestroy(s);
    throw std::invalid_argument("empty");
  }
  cudaStreamDestroy(s);
}

// Calls that end the program stay sinks.
void clean_abort_check(size_t n) {
  int *a, *b;
  CUDA_CHECK_ABORT(cudaMalloc(&a, n));
  CUDA_CHECK_ABORT(cudaMalloc(&b, n));
  cudaFree(b);
  cudaFree(a);
}

// A throw caught in this function goes to the handler, which releases.
void clean_caught_throw(size_t n) {
  int *a = nullptr;
  CUDA_CHECK(cudaMalloc(&a, n));
  try {
    if (n > 1024)
      throw std::length_error("big");
  } catch (const std::exception &) {
    cudaFree(a);
    return;
  }
  cudaFree(a);
}

// A helper that always throws is a throw at its call.
[[noreturn]] inline void fail(const char *what) { throw std::runtime_error(what); }
void leak_throwing_helper(size_t n) {
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: event 'ev' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
  if (n == 0)
    fail("empty");
  cudaEventDestroy(ev);
}

// A [[noreturn]] function whose body is elsewhere may exit: a sink.
[[noreturn]] void fatal(const char *what);
void clean_unknown_noreturn(size_t n) {
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  if (n == 0)
    fatal("empty");
  cudaEventDestroy(ev);
}

// A throwing check in a template that is never instantiated.
template <class T> void leak_throw_in_template(size_t n) {
  int *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(T)));
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:14: warning: device memory 'a' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(T)));
  cudaFree(b);
  cudaFree(a);
}

// ---- a created graph overwritten by a capture ---------------------------

void leak_created_graph_captured_over(cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: graph 'g' created by 'cudaGraphCreate' is overwritten by cudaStreamEndCapture at line [[@LINE+4]] before it is destroyed; call cudaGraphDestroy first [cudagraph-handle-leak]
  // CHECK-MESSAGES-OFF: :[[@LINE-2]]:3: warning: graph 'g' created by 'cudaGraphCreate' is overwritten by cudaStreamEndCapture at line [[@LINE+3]] before it is destroyed; call cudaGraphDestroy first [cudagraph-handle-leak]
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill<<<1, 1, 0, s>>>(nullptr);
  cudaStreamEndCapture(s, &g);
  cudaGraphDestroy(g);
}

void clean_created_graph_destroyed_first(cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphDestroy(g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill<<<1, 1, 0, s>>>(nullptr);
  cudaStreamEndCapture(s, &g);
  cudaGraphDestroy(g);
}

void clean_capture_into_other_variable(cudaStream_t s) {
  cudaGraph_t g, captured;
  cudaGraphCreate(&g, 0);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill<<<1, 1, 0, s>>>(nullptr);
  cudaStreamEndCapture(s, &captured);
  cudaGraphDestroy(captured);
  cudaGraphDestroy(g);
}

// A class template's own members are `this->m` in its pattern, and `this`
// is dependent, so Clang marks every read of them value-dependent: a test
// of one is still a test of that member (issue 36, a CRTP graph runner).
template <class Derived> class GraphRunner {
public:
  ~GraphRunner() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }
  cudaError_t rebuild(cudaGraph_t g) {
    static_cast<Derived *>(this)->prepare();
    if (exec_ != nullptr) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) == cudaSuccess)
        return cudaSuccess;
    }
    return cudaGraphInstantiate(&exec_, g, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:12: warning: 'cudaGraphInstantiate' overwrites 'exec_', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first [cudagraph-unpaired-instantiate]
  }
  cudaError_t rebuild_clean(cudaGraph_t g) {
    static_cast<Derived *>(this)->prepare();
    if (exec_ != nullptr) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) == cudaSuccess)
        return cudaSuccess;
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cudaGraphInstantiate(&exec_, g, 0);
  }
  // A branch on the member alone is no dependent branch: the stream
  // leaks where it returns.
  void warm(cudaStream_t *out) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
    if (exec_)
      return;
    *out = s;
  }
  // A branch on the template's own parameter still is one: silent.
  void warm_dependent(cudaStream_t *out) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    if (Derived::kEager)
      return;
    *out = s;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};
