// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
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

void launch_after_destroy(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphExecDestroy(exec);
  cudaGraphLaunch(exec, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'exec' is used by 'cudaGraphLaunch' after it was released [cudagraph-use-after-dealloc]
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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'e' is used by 'cudaEventRecord' after it was released [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'e' was released here by 'cudaEventDestroy'
}

void double_free(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaFree(d);
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'd' is released again by 'cudaFree' [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'd' was released here by 'cudaFree'
}

void single_free(size_t n) {
  float *d;
  cudaMalloc(&d, n);
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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h' is released again by 'cudaFreeHost' [cudagraph-use-after-dealloc]
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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 's' is used by 'cudaMemsetAsync' after it was released [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 's' was released here by 'cudaStreamDestroy'
  cudaFree(d);
}

void graph_double_destroy(cudaGraph_t *unused) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphDestroy(g);
  cudaGraphDestroy(g);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'g' is released again by 'cudaGraphDestroy' [cudagraph-use-after-dealloc]
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
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 's' is used by 'cudaEventRecord' after it was released [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 's' was released here by 'cudaStreamDestroy'
  if (verbose)
    printf("%f\n", h[0]);
  if (timed)
    cudaEventDestroy(ev);
  cudaFreeHost(h);
  cudaFree(d);
  return cudaSuccess;
}
