// PLANTED: none
// Virtual memory management: reserve/create/map/access with full unwinding; result returned in struct.
#include <cuda.h>
#include <stddef.h>

typedef struct { CUdeviceptr va; size_t size; CUmemGenericAllocationHandle h; int ok; } vbuf_t;

vbuf_t vbuf_make(CUdevice dev, size_t want) {
  vbuf_t r = {0, 0, 0, 0};
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = (int)dev;
  size_t gran = 0;
  if (cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS) return r;
  size_t sz = ((want + gran - 1) / gran) * gran;
  CUdeviceptr va = 0;
  CUmemGenericAllocationHandle h;
  if (cuMemAddressReserve(&va, sz, 0, 0, 0) != CUDA_SUCCESS) return r;
  if (cuMemCreate(&h, sz, &prop, 0) != CUDA_SUCCESS) goto free_va;
  if (cuMemMap(va, sz, 0, h, 0) != CUDA_SUCCESS) goto release;
  {
    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (cuMemSetAccess(va, sz, &acc, 1) != CUDA_SUCCESS) goto unmap;
  }
  r.va = va; r.size = sz; r.h = h; r.ok = 1;
  return r;
unmap:
  cuMemUnmap(va, sz);
release:
  cuMemRelease(h);
free_va:
  cuMemAddressFree(va, sz);
  return r;
}

void vbuf_free(vbuf_t *b) {
  if (!b->ok) return;
  cuMemUnmap(b->va, b->size);
  cuMemRelease(b->h);
  cuMemAddressFree(b->va, b->size);
  b->ok = 0;
}

int main(void) {
  CUdevice dev; CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) return 1;
  if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS) return 1;
  cuCtxSetCurrent(ctx);
  vbuf_t b = vbuf_make(dev, 3u << 20);
  int rc = b.ok ? 0 : 1;
  if (b.ok) cuMemsetD8(b.va, 0, b.size);
  vbuf_free(&b);
  cuDevicePrimaryCtxRelease(dev);
  return rc;
}
