// PLANTED(BUGGY): handle-leak line 12
// 3D volume upload into a CUDA array; BUGGY: array not freed when texture creation fails.
#include <cuda_runtime.h>
#include <string.h>

typedef struct { cudaArray_t vol; cudaTextureObject_t tex; } volume_t;

cudaError_t volume_load(volume_t *v, const unsigned char *host, int nx, int ny, int nz) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned char>();
  cudaExtent ext = make_cudaExtent(nx, ny, nz);
  cudaArray_t arr;
  cudaError_t e = cudaMalloc3DArray(&arr, &cd, ext, 0); /*BUGLINE*/
  if (e != cudaSuccess) return e;
  cudaMemcpy3DParms cp; memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr((void *)host, nx, nx, ny);
  cp.dstArray = arr; cp.extent = ext; cp.kind = cudaMemcpyHostToDevice;
  e = cudaMemcpy3D(&cp);
  if (e != cudaSuccess) { cudaFreeArray(arr); return e; }
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeNormalizedFloat; td.normalizedCoords = 1;
  cudaTextureObject_t t;
  e = cudaCreateTextureObject(&t, &rd, &td, NULL);
  if (e != cudaSuccess) {
#ifndef BUGGY
    cudaFreeArray(arr);
#endif
    return e;
  }
  v->vol = arr; v->tex = t;
  return cudaSuccess;
}

void volume_free(volume_t *v) { cudaDestroyTextureObject(v->tex); cudaFreeArray(v->vol); }

int main(void) {
  static unsigned char h[64 * 64 * 64];
  volume_t v;
  if (volume_load(&v, h, 64, 64, 64) != cudaSuccess) return 1;
  volume_free(&v);
  return 0;
}
