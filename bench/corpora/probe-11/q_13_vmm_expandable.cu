// PyTorch expandable-segments style VMM: reserve a large VA range once, map
// physical chunks on demand with cuMemCreate/cuMemMap, release the physical
// handle right after mapping (the mapping keeps it alive), unmap on shrink.
#include <cuda.h>
#include <vector>
#include <cstdio>

#define CU_TRY(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) return r_; } while (0)

class ExpandableSegment {
 public:
  ExpandableSegment(int device, size_t max_bytes) : device_(device), max_(max_bytes) {}

  CUresult init() {
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device_;
    CU_TRY(cuMemGetAllocationGranularity(&granularity_, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    max_ = (max_ + granularity_ - 1) / granularity_ * granularity_;
    CU_TRY(cuMemAddressReserve(&base_, max_, 0, 0, 0));
    return CUDA_SUCCESS;
  }

  ~ExpandableSegment() {
    if (!base_) return;
    unmap(0, mapped_);
    cuMemAddressFree(base_, max_);
  }

  // Grow the mapped prefix to at least `bytes`.
  CUresult map(size_t bytes) {
    bytes = (bytes + granularity_ - 1) / granularity_ * granularity_;
    if (bytes > max_) return CUDA_ERROR_OUT_OF_MEMORY;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device_;
    while (mapped_ < bytes) {
      CUmemGenericAllocationHandle h;
      CU_TRY(cuMemCreate(&h, granularity_, &prop, 0));
      CUresult r = cuMemMap(base_ + mapped_, granularity_, 0, h, 0);
      // The mapping holds a reference; the handle itself is no longer needed.
      CUresult rr = cuMemRelease(h);
      if (r != CUDA_SUCCESS) return r;
      if (rr != CUDA_SUCCESS) {
        cuMemUnmap(base_ + mapped_, granularity_);
        return rr;
      }
      CUmemAccessDesc access = {};
      access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      access.location.id = device_;
      access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      r = cuMemSetAccess(base_ + mapped_, granularity_, &access, 1);
      if (r != CUDA_SUCCESS) {
        cuMemUnmap(base_ + mapped_, granularity_);
        return r;
      }
      mapped_ += granularity_;
    }
    return CUDA_SUCCESS;
  }

  void unmap(size_t keep, size_t upto) {
    for (size_t off = upto; off > keep; off -= granularity_) cuMemUnmap(base_ + off - granularity_, granularity_);
    if (mapped_ > keep) mapped_ = keep;
  }

  CUdeviceptr ptr() const { return base_; }
  size_t mapped() const { return mapped_; }

 private:
  int device_;
  size_t max_;
  size_t granularity_ = 0;
  size_t mapped_ = 0;
  CUdeviceptr base_ = 0;
};

// Standalone helper: one mapped allocation, kept as (va, handle) pair and torn down in order.
static CUresult alloc_mapped(int device, size_t size, CUdeviceptr *va_out, CUmemGenericAllocationHandle *h_out) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  CUdeviceptr va = 0;
  CUmemGenericAllocationHandle h;
  CU_TRY(cuMemAddressReserve(&va, size, 0, 0, 0));
  CUresult r = cuMemCreate(&h, size, &prop, 0);
  if (r != CUDA_SUCCESS) {
    cuMemAddressFree(va, size);
    return r;
  }
  r = cuMemMap(va, size, 0, h, 0);
  if (r != CUDA_SUCCESS) {
    cuMemRelease(h);
    cuMemAddressFree(va, size);
    return r;
  }
  *va_out = va;
  *h_out = h;
  return CUDA_SUCCESS;
}

static void free_mapped(CUdeviceptr va, CUmemGenericAllocationHandle h, size_t size) {
  cuMemUnmap(va, size);
  cuMemRelease(h);
  cuMemAddressFree(va, size);
}

int main() {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  CUdevice dev;
  CUcontext ctx;
  cuDeviceGet(&dev, 0);
  if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS) return 1;
  cuCtxSetCurrent(ctx);
  {
    ExpandableSegment seg(0, size_t(1) << 30);
    if (seg.init() == CUDA_SUCCESS && seg.map(64 << 20) == CUDA_SUCCESS) {
      cuMemsetD8(seg.ptr(), 0, seg.mapped());
      seg.unmap(0, seg.mapped());
    }
  }
  CUdeviceptr va;
  CUmemGenericAllocationHandle h;
  if (alloc_mapped(0, 2 << 20, &va, &h) == CUDA_SUCCESS) free_mapped(va, h, 2 << 20);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
