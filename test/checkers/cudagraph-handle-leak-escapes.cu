// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak,cudagraph-capture-without-destroy,cudagraph-use-after-dealloc %t
//
// Escapes that are not escapes (issue 36 item 1): a handle given to a call
// that only reads it stays tracked, so a leak or a second release on a later
// path is still reported. Each bug_ function has an ok_ twin that must stay
// silent.
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

// --- read-only driver queries of a graph (cuGraphGetNodes, cuGraphDebugDotPrint) ---

CUresult bug_driver_graph_query(CUstream s, CUdeviceptr d, size_t words, bool dry_run,
                                CUgraphExec *out) {
  CUgraph g;
  if (cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL) != CUDA_SUCCESS)
    return CUDA_ERROR_UNKNOWN;
  cuMemsetD32Async(d, 0u, words, s);
  CUresult r = cuStreamEndCapture(s, &g);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: captured graph 'g' from 'cuStreamEndCapture' is not destroyed on every path{{.*}} [cudagraph-capture-without-destroy]
  if (r != CUDA_SUCCESS)
    return r;
  size_t nodes = 0;
  cuGraphGetNodes(g, nullptr, &nodes);
  cuGraphDebugDotPrint(g, "/tmp/fill.dot", 0);
  if (dry_run || nodes == 0)
    return CUDA_SUCCESS;
  r = cuGraphInstantiate(out, g, 0);
  cuGraphDestroy(g);
  return r;
}

CUresult ok_driver_graph_query(CUstream s, CUdeviceptr d, size_t words, bool dry_run,
                               CUgraphExec *out) {
  CUgraph g;
  if (cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL) != CUDA_SUCCESS)
    return CUDA_ERROR_UNKNOWN;
  cuMemsetD32Async(d, 0u, words, s);
  CUresult r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS)
    return r;
  size_t nodes = 0, roots = 0;
  cuGraphGetNodes(g, nullptr, &nodes);
  cuGraphGetRootNodes(g, nullptr, &roots);
  if (dry_run || nodes == 0) {
    cuGraphDestroy(g);
    return CUDA_SUCCESS;
  }
  r = cuGraphInstantiate(out, g, 0);
  cuGraphDestroy(g);
  return r;
}

// Runtime twins: an exec's flags, a node's enabled state.
void bug_runtime_exec_queries(cudaGraph_t g, cudaGraphNode_t n, cudaStream_t s, bool skip) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  unsigned long long flags = 0;
  cudaGraphExecGetFlags(e, &flags);
  cudaGraphNodeSetEnabled(e, n, skip ? 0 : 1);
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  cudaGraphExecDestroy(e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'e' is released again by 'cudaGraphExecDestroy'{{.*}} [cudagraph-use-after-dealloc]
}

void ok_runtime_exec_queries(cudaGraph_t g, cudaGraphNode_t n, cudaStream_t s, bool skip) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  unsigned int enabled = 0;
  cudaGraphNodeGetEnabled(e, n, &enabled);
  cudaGraphNodeSetEnabled(e, n, skip ? 0 : 1);
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// --- the kernel parameter array of cudaLaunchKernel / cuLaunchKernel ---

cudaError_t bug_launch_args_array(float *d_in, int n, int mode, float *h_out, cudaStream_t s) {
  float *d_tmp = nullptr;
  cudaError_t err = cudaMalloc(&d_tmp, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: device memory 'd_tmp' created by 'cudaMalloc' is not released on every path{{.*}} [cudagraph-handle-leak]
  if (err != cudaSuccess)
    return err;
  float a = 2.f;
  void *args[] = {&d_tmp, &n, &a};
  if (mode != 0)
    return cudaErrorNotSupported;
  err = cudaLaunchKernel((const void *)scale, dim3((n + 255) / 256), dim3(256), args, 0, s);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(h_out, d_tmp, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaFree(d_tmp);
  return err;
}

cudaError_t ok_launch_args_array(float *d_in, int n, int mode, float *h_out, cudaStream_t s) {
  float *d_tmp = nullptr;
  cudaError_t err = cudaMalloc(&d_tmp, n * sizeof(float));
  if (err != cudaSuccess)
    return err;
  float a = 2.f;
  void *args[] = {(void *)&d_tmp, (void *)&n, (void *)&a};
  if (mode != 0) {
    cudaFree(d_tmp);
    return cudaErrorNotSupported;
  }
  err = cudaLaunchKernel((const void *)scale, dim3((n + 255) / 256), dim3(256), args, 0, s);
  cudaStreamSynchronize(s);
  cudaFree(d_tmp);
  return err;
}

CUresult bug_cu_launch_args(CUfunction f, int n, CUstream s, bool bail) {
  CUdeviceptr d = 0;
  if (cuMemAlloc(&d, n * sizeof(float)) != CUDA_SUCCESS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: device memory 'd' created by 'cuMemAlloc' is not released on every path{{.*}} [cudagraph-handle-leak]
  void *params[] = {&d, &n};
  CUresult r = cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, params, nullptr);
  if (bail || r != CUDA_SUCCESS)
    return r;
  cuStreamSynchronize(s);
  cuMemFree(d);
  return CUDA_SUCCESS;
}

CUresult ok_cu_launch_args(CUfunction f, int n, CUstream s, bool bail) {
  CUdeviceptr d = 0;
  if (cuMemAlloc(&d, n * sizeof(float)) != CUDA_SUCCESS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *params[] = {&d, &n};
  CUresult r = cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, params, nullptr);
  if (!bail && r == CUDA_SUCCESS)
    cuStreamSynchronize(s);
  cuMemFree(d);
  return r;
}

// A value array (the pointers themselves, not their addresses) handed to an
// unknown function may be kept: that is still an escape.
void keep_all(void **ptrs, int n);
void ok_value_array_escapes(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  void *ptrs[] = {d};
  keep_all(ptrs, 1);
}

// --- the old parameter API: cuParamSetv copies the bytes ---

struct Launcher {
  CUdeviceptr buf;
};
CUresult bug_param_setv(CUfunction f, Launcher *l, size_t bytes, bool fail) {
  CUdeviceptr tmp = 0;
  if (cuMemAlloc(&tmp, bytes) != CUDA_SUCCESS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: device memory 'tmp' created by 'cuMemAlloc' is not released on every path{{.*}} [cudagraph-handle-leak]
  cuParamSetv(f, 0, &tmp, sizeof(tmp));
  cuParamSetv(f, sizeof(tmp), &l->buf, sizeof(l->buf));
  cuParamSetSize(f, 2 * sizeof(CUdeviceptr));
  if (fail)
    return CUDA_ERROR_INVALID_VALUE;
  cuMemFree(tmp);
  return CUDA_SUCCESS;
}

// --- a handle stored through a local pointer that names one object ---
// `Slot *sl = &slots[i];` never reseated: `sl->ev` is one place, so the event
// stored there and released through it is released under its own name too.

struct EvSlot {
  cudaEvent_t ev;
  int id;
};
int bug_released_through_slot_and_local(EvSlot *slots, int i, cudaStream_t s) {
  cudaEvent_t ev = nullptr;
  if (cudaEventCreate(&ev) != cudaSuccess)
    return -1;
  EvSlot *sl = &slots[i];
  sl->ev = ev;
  if (cudaEventRecord(sl->ev, s) != cudaSuccess) {
    cudaEventDestroy(sl->ev);
    cudaEventDestroy(ev);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ev' is released again by 'cudaEventDestroy'{{.*}} [cudagraph-use-after-dealloc]
    return -1;
  }
  return 0;
}
int ok_released_through_slot_only(EvSlot *slots, int i, cudaStream_t s) {
  cudaEvent_t ev = nullptr;
  if (cudaEventCreate(&ev) != cudaSuccess)
    return -1;
  EvSlot *sl = &slots[i];
  sl->ev = ev; // handed to the caller's slot: no leak on the success path
  if (cudaEventRecord(sl->ev, s) != cudaSuccess) {
    cudaEventDestroy(sl->ev);
    sl->ev = nullptr;
    return -1;
  }
  return 0;
}

// `&x` of a local struct: `sl->ev` and `x.ev` are one place.
void bug_released_through_local_struct_twice() {
  EvSlot x = {};
  EvSlot *sl = &x;
  cudaEvent_t ev;
  if (cudaEventCreate(&ev) != cudaSuccess)
    return;
  sl->ev = ev;
  cudaEventDestroy(x.ev);
  cudaEventDestroy(ev);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ev' is released again by 'cudaEventDestroy'{{.*}} [cudagraph-use-after-dealloc]
}
void ok_released_through_local_struct_once() {
  EvSlot x = {};
  EvSlot *sl = &x;
  cudaEvent_t ev;
  if (cudaEventCreate(&ev) != cudaSuccess)
    return;
  sl->ev = ev;
  cudaEventDestroy(x.ev);
}

// A copy of a pointer parameter names the parameter's object.
void bug_released_through_param_copy_and_local(EvSlot *slots) {
  cudaEvent_t ev;
  if (cudaEventCreate(&ev) != cudaSuccess)
    return;
  EvSlot *sl = slots;
  sl->ev = ev;
  cudaEventDestroy(slots->ev);
  cudaEventDestroy(ev);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ev' is released again by 'cudaEventDestroy'{{.*}} [cudagraph-use-after-dealloc]
}

// Declared in the loop: each iteration's `sl` is another slot, so creating
// into `sl->ev` again overwrites nothing.
int ok_slot_pointer_per_iteration(EvSlot *slots, int n) {
  for (int i = 0; i < n; ++i) {
    EvSlot *sl = &slots[i];
    if (cudaEventCreate(&sl->ev) != cudaSuccess)
      return -1;
  }
  return 0;
}

// Reseated: `sl->ev` after `sl = &slots[1]` is another slot's event.
void ok_reseated_slot_pointer(EvSlot *slots) {
  cudaEvent_t e;
  if (cudaEventCreate(&e) != cudaSuccess)
    return;
  EvSlot *sl = &slots[0];
  sl->ev = e;
  sl = &slots[1];
  cudaEventDestroy(sl->ev);
  cudaEventDestroy(e);
}

// The previous iteration's slot was released, not this one's.
void ok_destroy_every_slot(EvSlot *slots, int n) {
  for (int i = 0; i < n; ++i) {
    EvSlot *sl = &slots[i];
    cudaEventDestroy(sl->ev);
    sl->id = -1;
  }
}

// A handle written into a nested member of a local descriptor
// (`rd.res.array.array`) stays in the function: a texture object does not
// own its array, so the array leaks where creating the texture fails. The
// twin frees it there.
#include <cstring>
cudaError_t lut_texture(cudaTextureObject_t *tex, cudaArray_t *out, int w) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaError_t e = cudaMallocArray(&arr, &cd, w, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: CUDA array 'arr' created by 'cudaMallocArray' is not released on every path; {{.*}} [cudagraph-handle-leak]
  if (e != cudaSuccess)
    return e;
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  e = cudaCreateTextureObject(tex, &rd, &td, nullptr);
  if (e != cudaSuccess)
    return e;
  *out = arr;
  return cudaSuccess;
}

cudaError_t lut_texture_ok(cudaTextureObject_t *tex, cudaArray_t *out, int w) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaError_t e = cudaMallocArray(&arr, &cd, w, 0, 0);
  if (e != cudaSuccess)
    return e;
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  e = cudaCreateTextureObject(tex, &rd, &td, nullptr);
  if (e != cudaSuccess) {
    cudaFreeArray(arr);
    return e;
  }
  *out = arr;
  return cudaSuccess;
}
