// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK_EXIT(call)                                                  \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

void pinned_freed_by_cudaFree(size_t n) {
  float *h_bad1;
  cudaMallocHost(&h_bad1, n);
  cudaFree(h_bad1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h_bad1' allocated by 'cudaMallocHost' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cudaFreeHost(h_bad1);
}

void pinned_freed_by_cudaFreeHost(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  cudaFreeHost(h);
}

void host_alloc_freed_in_macro(size_t n) {
  float *h_bad2;
  CUDA_CHECK_EXIT(cudaHostAlloc(&h_bad2, n, cudaHostAllocDefault));
  CUDA_CHECK_EXIT(cudaFree(h_bad2));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: pinned host memory 'h_bad2' allocated by 'cudaHostAlloc' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  CUDA_CHECK_EXIT(cudaFreeHost(h_bad2));
}

void host_alloc_freed_right(size_t n) {
  float *h;
  CUDA_CHECK_EXIT(cudaHostAlloc(&h, n, cudaHostAllocDefault));
  CUDA_CHECK_EXIT(cudaFreeHost(h));
}

void device_freed_by_cudaFreeHost(size_t n) {
  float *d_bad3;
  cudaMalloc(&d_bad3, n);
  cudaFreeHost(d_bad3);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd_bad3' allocated by 'cudaMalloc' is released by 'cudaFreeHost'; release it with cudaFree [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cudaFree(d_bad3);
}

void device_freed_by_free(size_t n) {
  float *d_bad4;
  cudaMalloc(&d_bad4, n);
  free(d_bad4);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd_bad4' allocated by 'cudaMalloc' is released by 'free'; release it with cudaFree [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cudaFree(d_bad4);
}

void heap_freed_by_cudaFree(size_t n) {
  float *p_bad5 = (float *)malloc(n);
  cudaFree(p_bad5);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: heap memory allocated by 'malloc' is released by 'cudaFree'; release it with free [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  free(p_bad5);
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
  float *h_bad6;
  cudaMallocHost(&h_bad6, n);
  cudaFreeAsync(h_bad6, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h_bad6' allocated by 'cudaMallocHost' is released by 'cudaFreeAsync'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cudaFreeAsync(h_bad6, s);
}

// A graph exec destroyed as a graph: the parameter types differ, no fix-it.
void exec_destroyed_as_graph(cudaGraph_t g) {
  cudaGraphExec_t exec_bad7;
  cudaGraphInstantiate(&exec_bad7, g, 0);
  cudaGraphDestroy((cudaGraph_t)exec_bad7);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'exec_bad7' allocated by 'cudaGraphInstantiate' is released by 'cudaGraphDestroy'; release it with cudaGraphExecDestroy [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cudaGraphDestroy((cudaGraph_t)exec_bad7);
}

void exec_destroyed_right(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
}

void driver_host_freed_by_cuMemFree(size_t n) {
  void *h_bad8;
  cuMemAllocHost(&h_bad8, n);
  cuMemFree((CUdeviceptr)h_bad8);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h_bad8' allocated by 'cuMemAllocHost' is released by 'cuMemFree'; release it with cuMemFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cuMemFree((CUdeviceptr)h_bad8);
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
  float *h_bad9;
  if (pinned)
    cudaMallocHost(&h_bad9, n);
  else
    h_bad9 = (float *)malloc(n);
  if (verbose)
    printf("%f\n", h_bad9[0]);
  if (pinned)
    free(h_bad9);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: pinned host memory 'h_bad9' allocated by 'cudaMallocHost' is released by 'free'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:    cudaFreeHost(h_bad9);
  else
    free(h_bad9);
}

void suppressed(size_t n) {
  float *h;
  cudaMallocHost(&h, n);
  cudaFree(h); // NOLINT(cudagraph-mismatched-dealloc)
}

// Registered host memory still belongs to malloc: unregister, then free.
int register_then_free_host(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  if (!h)
    return -1;
  cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: heap memory allocated by 'malloc' is released by 'cudaFreeHost'; release it with free [cudagraph-mismatched-dealloc]
  return 0;
}

int register_unregister_free(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  if (!h)
    return -1;
  cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(h);
  free(h);
  return 0;
}

// Driver pinned memory read back through memcpy, then released as device memory.
CUresult driver_pinned_as_device(CUdeviceptr src, void *dst, size_t bytes) {
  void *staging = nullptr;
  CUresult r = cuMemAllocHost(&staging, bytes);
  if (r != CUDA_SUCCESS)
    return r;
  r = cuMemcpyDtoH(staging, src, bytes);
  memcpy(dst, staging, bytes);
  cuMemFree((CUdeviceptr)staging);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'staging' allocated by 'cuMemAllocHost' is released by 'cuMemFree'; release it with cuMemFreeHost [cudagraph-mismatched-dealloc]
  return r;
}

// The handle's declared type says its family, wherever it was made.
struct Lut {
  float *data;
  cudaArray_t table;
};

void free_lut_wrong(Lut *l) {
  cudaFree(l->data);
  cudaArray_t t = l->table;
  cudaFree(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: CUDA array 't' is released by 'cudaFree'; release it with cudaFreeArray [cudagraph-mismatched-dealloc]
}

void free_lut(Lut *l) {
  cudaFree(l->data);
  cudaFreeArray(l->table);
}

void destroy_exec_as_graph(cudaGraphExec_t e) {
  cudaGraphDestroy((cudaGraph_t)e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'e' is released by 'cudaGraphDestroy'; release it with cudaGraphExecDestroy [cudagraph-mismatched-dealloc]
}

// --- Runtime and driver releases are interchangeable (measured on an H200,
// CUDA 13.0, clean under compute-sanitizer: docs/capture-modes.md) ----------

void driver_device_freed_by_runtime(size_t n, cudaStream_t s) {
  CUdeviceptr a, b, m;
  cuMemAlloc(&a, n);
  cudaFree((void *)a);
  cuMemAllocAsync(&b, n, (CUstream)s);
  cudaFreeAsync((void *)b, s);
  cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL);
  cudaFree((void *)m);
}

void runtime_device_freed_by_driver(size_t n, cudaStream_t s) {
  float *a, *b, *m;
  cudaMalloc(&a, n);
  cuMemFree((CUdeviceptr)a);
  cudaMallocAsync(&b, n, s);
  cuMemFreeAsync((CUdeviceptr)b, (CUstream)s);
  cudaMallocManaged(&m, n);
  cuMemFree((CUdeviceptr)m);
}

void pinned_host_across_apis(size_t n) {
  void *a, *b;
  cuMemAllocHost(&a, n);
  cudaFreeHost(a);
  cudaMallocHost(&b, n);
  cuMemFreeHost(b);
}

// cudaFreeAsync refuses managed memory (cudaErrorNotSupported), whichever API made it.
void managed_freed_by_cudaFreeAsync(size_t n, cudaStream_t s) {
  float *m_bad;
  cudaMallocManaged(&m_bad, n);
  cudaFreeAsync(m_bad, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed memory 'm_bad' allocated by 'cudaMallocManaged' is released by 'cudaFreeAsync'; release it with cudaFree [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:  cudaFreeAsync(m_bad, s);
}

// Host and device memory still do not mix, in either API.
void driver_device_freed_as_host(size_t n) {
  CUdeviceptr d_bad;
  cuMemAlloc(&d_bad, n);
  cudaFreeHost((void *)d_bad);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd_bad' allocated by 'cuMemAlloc' is released by 'cudaFreeHost'; release it with cuMemFree [cudagraph-mismatched-dealloc]
}

// ---- handles a getter lends ("owned": false in the model) ----------------

int bug_default_pool_destroyed(int dev, bool private_pool) {
  cudaMemPool_t pool = nullptr;
  if (private_pool) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess)
      return -1;
  } else if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess) {
    return -1;
  }
  cudaMemPoolDestroy(pool);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: memory pool 'pool' is released by 'cudaMemPoolDestroy', but 'cudaDeviceGetDefaultMemPool' only lends it; the caller does not own it and must not release it [cudagraph-mismatched-dealloc]
  return 0;
}
int ok_only_own_pool_destroyed(int dev, bool private_pool) {
  cudaMemPool_t pool = nullptr;
  if (private_pool) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess)
      return -1;
  } else if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess) {
    return -1;
  }
  if (private_pool)
    cudaMemPoolDestroy(pool);
  return 0;
}

// C++ new and delete (issue 36): a CUDA release of new memory, or a delete of
// CUDA memory, is a mismatch. No fix-it: a delete expression is no callee
// to rename.
void bug_cudafree_new_array(size_t n) {
  float *h = new float[n];
  cudaFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: host array memory allocated by 'new[]' is released by 'cudaFree'; release it with delete[] [cudagraph-mismatched-dealloc]
}
void bug_cudafreehost_new(size_t n) {
  double *h = new double;
  cudaFreeHost(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: host memory allocated by 'new' is released by 'cudaFreeHost'; release it with delete [cudagraph-mismatched-dealloc]
}
void bug_delete_pinned(size_t n) {
  float *h_bad_del;
  if (cudaMallocHost(&h_bad_del, n) != cudaSuccess)
    return;
  delete h_bad_del;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: pinned host memory 'h_bad_del' allocated by 'cudaMallocHost' is released by 'delete'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
}
void bug_delete_array_device(size_t n) {
  float *d_bad_del;
  cudaMalloc(&d_bad_del, n);
  delete[] d_bad_del;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd_bad_del' allocated by 'cudaMalloc' is released by 'delete[]'; release it with cudaFree [cudagraph-mismatched-dealloc]
}
// Each family releases its own, next to each other; a new stored in a
// variable that later takes pinned memory is released by its own family.
void ok_new_delete_next_to_cuda(size_t n) {
  float *d;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  float *h = new float[n];
  float *one = new float;
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
  *one = h[0];
  delete one;
  delete[] h;
  cudaFree(d);
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  cudaFreeHost(h);
}
// Host heap against host heap (delete of new[] memory, free of new memory)
// is clang-analyzer's unix.MismatchedDeallocator, not ours (placement new and
// a class's own operator new: cudagraph-mismatched-dealloc-new.cu).
void not_ours_host_heap_mixups(size_t n) {
  float *a = new float[n];
  delete a;
  float *b = new float;
  free(b);
  float *c = (float *)malloc(n);
  delete[] c;
}

void bug_child_graph_destroyed(cudaGraphNode_t child) {
  cudaGraph_t g;
  if (cudaGraphChildGraphNodeGetGraph(child, &g) != cudaSuccess)
    return;
  cudaGraphDestroy(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph 'g' is released by 'cudaGraphDestroy', but 'cudaGraphChildGraphNodeGetGraph' only lends it; the caller does not own it and must not release it [cudagraph-mismatched-dealloc]
}
void ok_child_graph_used(cudaGraphNode_t child, cudaGraphNode_t *nodes, size_t *n) {
  cudaGraph_t g;
  if (cudaGraphChildGraphNodeGetGraph(child, &g) != cudaSuccess)
    return;
  cudaGraphGetNodes(g, nodes, n); // a lent graph is used, never leaked
}

// Refetched into a variable whose own pool was destroyed first: only the
// pool this function created is released.
void ok_own_pool_then_default(int dev) {
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
