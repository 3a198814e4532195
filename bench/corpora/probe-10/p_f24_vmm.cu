// Expandable segment (as in PyTorch's expandable_segments / vLLM's sleep mode):
// reserve a VA range once, map physical chunks on demand, unmap and release
// them on shrink and at destruction.
#include <cuda.h>
#include <cstdio>
#include <vector>

class ExpandableSegment {
 public:
  ExpandableSegment(CUdevice dev, size_t max_bytes) : dev_(dev) {
    prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop_.location.id = dev;
    cuMemGetAllocationGranularity(&gran_, &prop_, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    reserved_ = (max_bytes + gran_ - 1) / gran_ * gran_;
    if (cuMemAddressReserve(&base_, reserved_, 0, 0, 0) != CUDA_SUCCESS) {
      base_ = 0;
      reserved_ = 0;
    }
  }
  ~ExpandableSegment() {
    while (!chunks_.empty()) unmap_last();
    if (base_) cuMemAddressFree(base_, reserved_);
  }
  ExpandableSegment(const ExpandableSegment &) = delete;
  ExpandableSegment &operator=(const ExpandableSegment &) = delete;

  bool grow() {
    size_t offset = chunks_.size() * gran_;
    if (!base_ || offset + gran_ > reserved_) return false;
    CUmemGenericAllocationHandle h;
    if (cuMemCreate(&h, gran_, &prop_, 0) != CUDA_SUCCESS) return false;
    if (cuMemMap(base_ + offset, gran_, 0, h, 0) != CUDA_SUCCESS) {
      cuMemRelease(h);
      return false;
    }
    CUmemAccessDesc access = {};
    access.location = prop_.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (cuMemSetAccess(base_ + offset, gran_, &access, 1) != CUDA_SUCCESS) {
      cuMemUnmap(base_ + offset, gran_);
      cuMemRelease(h);
      return false;
    }
    chunks_.push_back(h);
    return true;
  }

  void unmap_last() {
    size_t offset = (chunks_.size() - 1) * gran_;
    cuMemUnmap(base_ + offset, gran_);
    cuMemRelease(chunks_.back());
    chunks_.pop_back();
  }

  CUdeviceptr ptr() const { return base_; }
  size_t mapped() const { return chunks_.size() * gran_; }

 private:
  CUdevice dev_;
  CUmemAllocationProp prop_ = {};
  size_t gran_ = 0;
  size_t reserved_ = 0;
  CUdeviceptr base_ = 0;
  std::vector<CUmemGenericAllocationHandle> chunks_;
};

int main() {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  CUdevice dev;
  CUcontext ctx;
  if (cuDeviceGet(&dev, 0) != CUDA_SUCCESS) return 1;
  if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS) return 1;
  cuCtxSetCurrent(ctx);
  {
    ExpandableSegment seg(dev, size_t(1) << 30);
    for (int i = 0; i < 4; ++i) {
      if (!seg.grow()) break;
      cuMemsetD8(seg.ptr(), 0, seg.mapped());
    }
    if (seg.mapped() > 0) seg.unmap_last();  // shrink once
    std::printf("mapped %zu bytes\n", seg.mapped());
  }
  cuCtxSetCurrent(nullptr);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
