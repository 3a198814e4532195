// PLANTED: none
// Texture lookup table owned by a returned struct; released by lut_release.
#include <cuda_runtime.h>
#include <string.h>

typedef struct { cudaArray_t arr; cudaTextureObject_t tex; int valid; } lut_t;

__global__ void sample(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, (i + 0.5f) / n);
}

cudaError_t lut_create(lut_t *out, const float *host, int w) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaError_t e = cudaMallocArray(&arr, &cd, w, 0, 0);
  if (e != cudaSuccess) return e;
  e = cudaMemcpy2DToArray(arr, 0, 0, host, w * sizeof(float), w * sizeof(float), 1, cudaMemcpyHostToDevice);
  if (e != cudaSuccess) { cudaFreeArray(arr); return e; }
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.addressMode[0] = cudaAddressModeClamp; td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType; td.normalizedCoords = 1;
  cudaTextureObject_t tex = 0;
  e = cudaCreateTextureObject(&tex, &rd, &td, NULL);
  if (e != cudaSuccess) { cudaFreeArray(arr); return e; }
  out->arr = arr; out->tex = tex; out->valid = 1;
  return cudaSuccess;
}

void lut_release(lut_t *l) {
  if (!l->valid) return;
  cudaDestroyTextureObject(l->tex);
  cudaFreeArray(l->arr);
  l->valid = 0;
}

int main(void) {
  float h[256]; for (int i = 0; i < 256; ++i) h[i] = i * 0.5f;
  lut_t lut = {0, 0, 0};
  float *d = NULL;
  int rc = 1;
  if (lut_create(&lut, h, 256) != cudaSuccess) return 1;
  if (cudaMalloc((void **)&d, 1024 * sizeof(float)) == cudaSuccess) {
    sample<<<4, 256>>>(lut.tex, d, 1024);
    rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
    cudaFree(d);
  }
  lut_release(&lut);
  return rc;
}
