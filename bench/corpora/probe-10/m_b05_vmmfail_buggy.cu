#define BUGGY
// PLANTED(BUGGY): handle-leak line 16
// Growable VMM buffer; BUGGY: physical chunk not released when cuMemMap fails.
#include <cuda.h>
#include <stddef.h>

#define MAXCH 64
typedef struct { CUdeviceptr base; size_t reserved, mapped, chunk; int dev; CUmemGenericAllocationHandle h[MAXCH]; int nh; } growbuf_t;

CUresult growbuf_grow(growbuf_t *b) {
  if (b->nh == MAXCH || b->mapped + b->chunk > b->reserved) return CUDA_ERROR_OUT_OF_MEMORY;
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = b->dev;
  CUmemGenericAllocationHandle h;
  CUresult r = cuMemCreate(&h, b->chunk, &prop, 0); /*BUGLINE*/  // EXPECT: cudagraph-handle-leak
  if (r != CUDA_SUCCESS) return r;
  r = cuMemMap(b->base + b->mapped, b->chunk, 0, h, 0);
  if (r != CUDA_SUCCESS) {
#ifndef BUGGY
    cuMemRelease(h);
#endif
    return r;
  }
  CUmemAccessDesc acc = {};
  acc.location = prop.location; acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  r = cuMemSetAccess(b->base + b->mapped, b->chunk, &acc, 1);
  if (r != CUDA_SUCCESS) { cuMemUnmap(b->base + b->mapped, b->chunk); cuMemRelease(h); return r; }
  b->h[b->nh++] = h;
  b->mapped += b->chunk;
  return CUDA_SUCCESS;
}

void growbuf_destroy(growbuf_t *b) {
  if (b->mapped) cuMemUnmap(b->base, b->mapped);
  for (int i = 0; i < b->nh; ++i) cuMemRelease(b->h[i]);
  cuMemAddressFree(b->base, b->reserved);
}

int main(void) {
  CUdevice dev; CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev)) return 1;
  cuCtxSetCurrent(ctx);
  growbuf_t b = {};
  b.reserved = 1ull << 30; b.chunk = 2u << 20; b.dev = 0;
  if (cuMemAddressReserve(&b.base, b.reserved, 0, 0, 0) == CUDA_SUCCESS) {
    for (int i = 0; i < 8; ++i) if (growbuf_grow(&b) != CUDA_SUCCESS) break;
    growbuf_destroy(&b);
  }
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
