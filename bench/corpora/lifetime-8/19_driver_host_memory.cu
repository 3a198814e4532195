// Driver-API host buffers for a JIT runtime. cuMemAllocHost memory must go back
// through cuMemFreeHost; read_back_buggy uses cuMemFree on it.
#include <cuda.h>
#include <string.h>

CUresult read_back_buggy(CUdeviceptr src, void *dst, size_t bytes, CUstream s) {
  void *host = NULL;
  CUresult r = cuMemAllocHost(&host, bytes);
  if (r != CUDA_SUCCESS) return r;
  r = cuMemcpyDtoHAsync(host, src, bytes, s);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(s);
  if (r == CUDA_SUCCESS) memcpy(dst, host, bytes);
  cuMemFree((CUdeviceptr)host); // EXPECT: cudagraph-mismatched-dealloc
  return r;
}

CUresult read_back(CUdeviceptr src, void *dst, size_t bytes, CUstream s) {
  void *host = NULL;
  CUresult r = cuMemAllocHost(&host, bytes);
  if (r != CUDA_SUCCESS) return r;
  r = cuMemcpyDtoHAsync(host, src, bytes, s);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(s);
  if (r == CUDA_SUCCESS) memcpy(dst, host, bytes);
  cuMemFreeHost(host);
  return r;
}

CUresult write_mapped(CUdeviceptr *dev_alias, void **host_out, size_t bytes) {
  void *host = NULL;
  CUresult r = cuMemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_DEVICEMAP);
  if (r != CUDA_SUCCESS) return r;
  r = cuMemHostGetDevicePointer(dev_alias, host, 0);
  if (r != CUDA_SUCCESS) {
    cuMemFreeHost(host);
    return r;
  }
  *host_out = host;
  return CUDA_SUCCESS;
}

CUresult scratch_roundtrip(size_t bytes, CUstream s) {
  CUdeviceptr a = 0, b = 0;
  CUresult r = cuMemAlloc(&a, bytes);
  if (r != CUDA_SUCCESS) return r;
  r = cuMemAllocAsync(&b, bytes, s);
  if (r != CUDA_SUCCESS) {
    cuMemFree(a);
    return r;
  }
  cuMemsetD8Async(a, 0, bytes, s);
  cuMemcpyDtoDAsync(b, a, bytes, s);
  cuMemFreeAsync(b, s);
  r = cuStreamSynchronize(s);
  cuMemFree(a);
  return r;
}
