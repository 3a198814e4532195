// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=NOTES
//
// Checking helpers written as functions, not macros: FasterTransformer's and
// TensorRT-LLM's `check_cuda_error(x)` expands to `check((x), #x, __FILE__,
// __LINE__)`, a template whose body is `if (result) throw ...`. A failing
// check there leaves the function as `if (e) throw` written in place does:
// what was acquired before and is still live leaks, and the failed call itself
// acquired nothing. Helpers that end the program, have an else, or that main
// alone calls stay sinks. The same holds for a temporary whose destructor
// throws (TVM's ICHECK), and a destructor that aborts (glog) is a sink.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sstream>
#include <string>

template <typename T>
void check(T result, char const *const func, const char *const file, int const line) {
  if (result) {
    throw std::runtime_error(std::string("CUDA runtime error: ") + func + " " + file + ":" +
                             std::to_string(line));
  }
}
#define check_cuda_error(val) check((val), #val, __FILE__, __LINE__)

inline void require(bool ok, const char *what) {
  if (!ok)
    throw std::runtime_error(what);
}

inline void checkOrExit(cudaError_t e) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s\n", cudaGetErrorString(e));
    exit(1);
  }
}

inline void checkOrLog(cudaError_t e) {
  if (e != cudaSuccess)
    throw std::runtime_error("cuda");
  else
    fprintf(stderr, "ok\n");
}

void twoBuffers(size_t n) {
  float *a;
  check_cuda_error(cudaMalloc(&a, n));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: device memory 'a' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  float *b;
  // NOTES: checking-helpers.cu:[[@LINE+1]]:3: note: 'a' is leaked when the exception thrown here leaves the function
  check_cuda_error(cudaMalloc(&b, n));
  cudaFree(b);
  cudaFree(a);
}

// FasterTransformer's LongformerAttentionLayer::forward: an event made for one
// call, a checked copy before it is destroyed.
void eventAroundCopy(cudaStream_t s, int *host, const int *dev) {
  cudaEvent_t copied;
  check_cuda_error(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: event 'copied' created by 'cudaEventCreateWithFlags' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
  // NOTES: checking-helpers.cu:[[@LINE+1]]:3: note: 'copied' is leaked when the exception thrown here leaves the function
  check_cuda_error(cudaMemcpyAsync(host, dev, sizeof(int), cudaMemcpyDeviceToHost, s));
  check_cuda_error(cudaEventRecord(copied, s));
  check_cuda_error(cudaEventSynchronize(copied));
  check_cuda_error(cudaEventDestroy(copied));
}

void requireTwo(size_t n) {
  float *a;
  require(cudaMalloc(&a, n) == cudaSuccess, "a");
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: device memory 'a' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  float *b;
  // NOTES: checking-helpers.cu:[[@LINE+1]]:3: note: 'a' is leaked when the exception thrown here leaves the function
  require(cudaMalloc(&b, n) == cudaSuccess, "b");
  cudaFree(b);
  cudaFree(a);
}

// Silent: one resource, checked where it is made; the failing call made nothing.
void checkedOnce(size_t n) {
  float *a;
  check_cuda_error(cudaMalloc(&a, n));
  cudaFree(a);
}

// Silent: the helper ends the program, a sink.
void exitingHelper(size_t n) {
  float *a;
  checkOrExit(cudaMalloc(&a, n));
  float *b;
  checkOrExit(cudaMalloc(&b, n));
  cudaFree(b);
  cudaFree(a);
}

// Silent: a helper with an else arm is not read as a check.
void helperWithElse(size_t n) {
  float *a;
  checkOrLog(cudaMalloc(&a, n));
  float *b;
  checkOrLog(cudaMalloc(&b, n));
  cudaFree(b);
  cudaFree(a);
}

// Silent: the handler of this function releases and rethrows.
void caughtHere(size_t n) {
  float *a;
  check_cuda_error(cudaMalloc(&a, n));
  try {
    float *b;
    check_cuda_error(cudaMalloc(&b, n));
    cudaFree(b);
  } catch (...) {
    cudaFree(a);
    throw;
  }
  cudaFree(a);
}

// TVM's ICHECK: the failing arm builds a temporary whose [[noreturn]]
// destructor throws at the end of the full expression. glog's CHECK aborts
// there instead: a sink.
class InternalError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};
class LogFatal {
public:
  LogFatal(const char *, int) {}
  std::ostringstream &stream() { return text_; }
  [[noreturn]] ~LogFatal() noexcept(false) { throw InternalError(text_.str()); }

private:
  std::ostringstream text_;
};
class LogMessageFatal {
public:
  LogMessageFatal(const char *, int) {}
  std::ostringstream &stream() { return text_; }
  [[noreturn]] ~LogMessageFatal() { abort(); }

private:
  std::ostringstream text_;
};
#define ICHECK(x) if (!(x)) LogFatal(__FILE__, __LINE__).stream() << "Check failed: " #x
#define CUDA_CALL(func) { cudaError_t e = (func); ICHECK(e == cudaSuccess) << cudaGetErrorString(e); }
#define GLOG_CHECK(x) if (!(x)) LogMessageFatal(__FILE__, __LINE__).stream() << #x

void tvmStyle(size_t n) {
  float *a;
  CUDA_CALL(cudaMalloc(&a, n));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: device memory 'a' created by 'cudaMalloc' is not released on every path; call cudaFree or hand it to an owner [cudagraph-handle-leak]
  float *b;
  // NOTES: checking-helpers.cu:[[@LINE+1]]:3: note: 'a' is leaked when the exception thrown here leaves the function
  CUDA_CALL(cudaMalloc(&b, n));
  cudaFree(b);
  cudaFree(a);
}

// Silent: one resource, checked where it is made.
void tvmStyleOnce(size_t n) {
  float *a;
  CUDA_CALL(cudaMalloc(&a, n));
  cudaFree(a);
}

// Silent: the failing arm aborts.
void glogStyle(size_t n) {
  float *a;
  GLOG_CHECK(cudaMalloc(&a, n) == cudaSuccess);
  float *b;
  GLOG_CHECK(cudaMalloc(&b, n) == cudaSuccess);
  cudaFree(b);
  cudaFree(a);
}

// Silent: what leaves main reaches no handler; std::terminate ends the program.
int main() {
  float *a;
  check_cuda_error(cudaMalloc(&a, 4));
  float *b;
  check_cuda_error(cudaMalloc(&b, 4));
  cudaFree(b);
  cudaFree(a);
  twoBuffers(4);
  return 0;
}
