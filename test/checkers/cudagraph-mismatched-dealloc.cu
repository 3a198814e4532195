// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t
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

void pinned_freed_by_cudaFree(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  cudaFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h' allocated by 'cudaMallocHost' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  cudaFreeHost(h);{{$}}
}

void pinned_freed_by_cudaFreeHost(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  cudaFreeHost(h);
}

void host_alloc_freed_in_macro(size_t n) {
  float *h;
  CUDA_CHECK_EXIT(cudaHostAlloc(&h, n, cudaHostAllocDefault));
  CUDA_CHECK_EXIT(cudaFree(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: pinned host memory 'h' allocated by 'cudaHostAlloc' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  CUDA_CHECK_EXIT(cudaFreeHost(h));{{$}}
}

void host_alloc_freed_right(size_t n) {
  float *h;
  CUDA_CHECK_EXIT(cudaHostAlloc(&h, n, cudaHostAllocDefault));
  CUDA_CHECK_EXIT(cudaFreeHost(h));
}

void device_freed_by_cudaFreeHost(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  cudaFreeHost(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd' allocated by 'cudaMalloc' is released by 'cudaFreeHost'; release it with cudaFree [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  cudaFree(d);{{$}}
}

void device_freed_by_free(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  free(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd' allocated by 'cudaMalloc' is released by 'free'; release it with cudaFree [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  cudaFree(d);{{$}}
}

void heap_freed_by_cudaFree(size_t n) {
  float *p = (float *)malloc(n);
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: heap memory 'p' allocated by 'malloc' is released by 'cudaFree'; release it with free [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  free(p);{{$}}
}

void heap_freed_right(size_t n) {
  float *p = (float *)malloc(n);
  free(p);
}

// Async memory may be freed by cudaFree as well as cudaFreeAsync.
void async_freed_by_cudaFree(size_t n, cudaStream_t s) {
  float *a;
  cudaMallocAsync(&a, n, s);
  cudaStreamSynchronize(s);
  cudaFree(a);
}

// cudaFreeAsync takes a stream: no fix-it can keep the call as written.
void pinned_freed_by_cudaFreeAsync(size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n);
  cudaFreeAsync(h, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h' allocated by 'cudaMallocHost' is released by 'cudaFreeAsync'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  cudaFreeAsync(h, s);{{$}}
}

// A graph exec destroyed as a graph: the parameter types differ, no fix-it.
void exec_destroyed_as_graph(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy((cudaGraph_t)exec);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'exec' allocated by 'cudaGraphInstantiate' is released by 'cudaGraphDestroy'; release it with cudaGraphExecDestroy [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  cudaGraphDestroy((cudaGraph_t)exec);{{$}}
}

void exec_destroyed_right(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
}

void driver_host_freed_by_cuMemFree(size_t n) {
  void *h;
  cuMemAllocHost(&h, n);
  cuMemFree((CUdeviceptr)h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h' allocated by 'cuMemAllocHost' is released by 'cuMemFree'; release it with cuMemFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}  cuMemFree((CUdeviceptr)h);{{$}}
}

void driver_host_freed_right(size_t n) {
  void *h;
  cuMemAllocHost(&h, n);
  cuMemFreeHost(h);
}

// The right release on every path of a function that picks the allocator.
void clean_flag_picks_allocator(size_t n, bool pinned, bool verbose) {
  float *h;
  if (pinned)
    cudaMallocHost(&h, n);
  else
    h = (float *)malloc(n);
  if (verbose)
    printf("%f\n", h[0]);
  if (pinned)
    cudaFreeHost(h);
  else
    free(h);
}

void flag_picks_wrong_release(size_t n, bool pinned, bool verbose) {
  float *h;
  if (pinned)
    cudaMallocHost(&h, n);
  else
    h = (float *)malloc(n);
  if (verbose)
    printf("%f\n", h[0]);
  if (pinned)
    free(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: pinned host memory 'h' allocated by 'cudaMallocHost' is released by 'free'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES: {{^}}    cudaFreeHost(h);{{$}}
  else
    free(h);
}

void suppressed(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  cudaFree(h); // NOLINT(cudagraph-mismatched-dealloc)
}
