// PLANTED: cudagraph-handle-leak line 53
// Multi-GPU weight sharing with the CUDA virtual memory management API: a
// loader process exports a physical allocation as a POSIX fd, every worker
// imports it and maps it into its own reserved VA range.
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CU_CHECK_GOTO(call, label)                                             \
  do {                                                                         \
    CUresult r__ = (call);                                                     \
    if (r__ != CUDA_SUCCESS) {                                                 \
      const char *name__ = nullptr;                                            \
      cuGetErrorName(r__, &name__);                                            \
      std::fprintf(stderr, "%s failed: %s\n", #call, name__ ? name__ : "?");   \
      status = r__;                                                            \
      goto label;                                                              \
    }                                                                          \
  } while (0)

struct SharedWeights {
  CUdeviceptr va = 0;
  size_t size = 0;
  int device = -1;
  CUdevice retained = -1;  // primary context we hold while mapped
};

static size_t round_up(size_t x, size_t g) { return (x + g - 1) / g * g; }

static CUresult granularity_for(int device, size_t *gran) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return cuMemGetAllocationGranularity(gran, &prop,
                                       CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
}

// Imports the loader's allocation on `device` and maps it read-only.
CUresult import_weights(int device, int fd, size_t bytes, SharedWeights *out) {
  CUresult status = CUDA_SUCCESS;
  CUmemGenericAllocationHandle handle = 0;
  CUdeviceptr va = 0;
  size_t gran = 0;
  size_t size = 0;
  CUmemAccessDesc access = {};

  CU_CHECK_GOTO(granularity_for(device, &gran), done);
  size = round_up(bytes, gran);

  CU_CHECK_GOTO(cuMemImportFromShareableHandle(  // PLANTED (buggy variant): cudagraph-handle-leak
                    &handle, (void *)(uintptr_t)fd,
                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                done);
  CU_CHECK_GOTO(cuMemAddressReserve(&va, size, gran, 0, 0), release_handle);
  CU_CHECK_GOTO(cuMemMap(va, size, 0, handle, 0), free_va);

  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
  CU_CHECK_GOTO(cuMemSetAccess(va, size, &access, 1), unmap);

#ifdef BUGGY
  // mapping is live; keep the handle around "just in case"
#else
  // The mapping keeps the physical memory alive; drop our reference now.
  cuMemRelease(handle);
#endif
  out->va = va;
  out->size = size;
  out->device = device;
  return CUDA_SUCCESS;

unmap:
  cuMemUnmap(va, size);
free_va:
  cuMemAddressFree(va, size);
release_handle:
  cuMemRelease(handle);
done:
  return status;
}

void unmap_weights(SharedWeights *w) {
  if (w->va == 0) return;
  cuMemUnmap(w->va, w->size);
  cuMemAddressFree(w->va, w->size);
  if (w->retained >= 0) cuDevicePrimaryCtxRelease(w->retained);
  w->retained = -1;
  w->va = 0;
  w->size = 0;
}

int attach_all(const std::vector<int> &fds, size_t bytes,
               std::vector<SharedWeights> *mapped) {
  int ndev = 0;
  if (cuDeviceGetCount(&ndev) != CUDA_SUCCESS) return -1;
  mapped->assign(ndev, SharedWeights{});
  for (int d = 0; d < ndev && d < (int)fds.size(); ++d) {
    CUdevice dev;
    CUcontext ctx;
    if (cuDeviceGet(&dev, d) != CUDA_SUCCESS) return -1;
    if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS) return -1;
    cuCtxSetCurrent(ctx);
    if (import_weights(d, fds[d], bytes, &(*mapped)[d]) != CUDA_SUCCESS) {
      for (int j = 0; j < d; ++j) unmap_weights(&(*mapped)[j]);
      cuDevicePrimaryCtxRelease(dev);
      return -1;
    }
    (*mapped)[d].retained = dev;
  }
  return 0;
}
