// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=CTOR -config="{CheckOptions: {ReportConstructorThrowLeaks: 'true'}}"
//
// ReportConstructorThrowLeaks (off by default): an exception that leaves a
// constructor ends an object whose destructor never runs, so what the
// constructor put in its own members is lost (Transfer/Exceptions.cpp).
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

template <typename T>
void check(T result, char const *const func, const char *const file, int const line) {
  if (result)
    throw std::runtime_error(std::string("CUDA runtime error: ") + func + " " + file + ":" +
                             std::to_string(line));
}
#define check_cuda_error(val) check((val), #val, __FILE__, __LINE__)

// A constructor whose second checked create throws: the object is never
// built, its destructor never runs, and the first member's event is lost.
// Reported with ReportConstructorThrowLeaks (off by default: most code
// treats a failed CUDA call in a constructor as fatal). The twin releases
// it before the exception leaves.
struct Timer {
  Timer() {
    check_cuda_error(cudaEventCreate(&start_));
    // CHECK-MESSAGES-CTOR: :[[@LINE-1]]:22: warning: event 'start_' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
    check_cuda_error(cudaEventCreate(&stop_));
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};
struct SafeTimer {
  SafeTimer() {
    check_cuda_error(cudaEventCreate(&start_));
    cudaError_t e = cudaEventCreate(&stop_);
    if (e != cudaSuccess) {
      cudaEventDestroy(start_);
      throw std::runtime_error("cudaEventCreate");
    }
  }
  ~SafeTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  SafeTimer(const SafeTimer &) = delete;
  SafeTimer &operator=(const SafeTimer &) = delete;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// A delegating constructor's object is built when its target returns: the
// destructor runs for what the delegating body throws.
struct DelegatingTimer {
  DelegatingTimer() : DelegatingTimer(0) {
    check_cuda_error(cudaEventCreate(&start_));
    check_cuda_error(cudaEventCreate(&stop_));
  }
  explicit DelegatingTimer(int flags) : flags_(flags) {}
  ~DelegatingTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  DelegatingTimer(const DelegatingTimer &) = delete;
  DelegatingTimer &operator=(const DelegatingTimer &) = delete;
  int flags_ = 0;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

