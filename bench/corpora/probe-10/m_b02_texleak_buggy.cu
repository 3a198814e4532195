#define BUGGY
// PLANTED(BUGGY): handle-leak line 20
// Per-frame texture object created over a pitched buffer; BUGGY: never destroyed.
#include <cuda_runtime.h>
#include <string.h>

__global__ void blur(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = 0.25f * (tex2D<float>(t, x - 1, y) + tex2D<float>(t, x + 1, y) + tex2D<float>(t, x, y - 1) + tex2D<float>(t, x, y + 1));
}

int process_frame(const float *dsrc, size_t pitch, float *dout, int w, int h, cudaStream_t s) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = (void *)dsrc; rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  rd.res.pitch2D.width = w; rd.res.pitch2D.height = h; rd.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  if (cudaCreateTextureObject(&tex, &rd, &td, NULL) != cudaSuccess) /*BUGLINE*/ return -1;  // EXPECT: cudagraph-handle-leak
  dim3 b(16, 16), g((w + 15) / 16, (h + 15) / 16);
  blur<<<g, b, 0, s>>>(tex, dout, w, h);
  cudaError_t e = cudaStreamSynchronize(s);
#ifndef BUGGY
  cudaDestroyTextureObject(tex);
#endif
  return e == cudaSuccess ? 0 : -1;
}

int main(void) {
  int w = 640, h = 480; size_t pitch; float *src, *out; cudaStream_t s;
  if (cudaMallocPitch((void **)&src, &pitch, w * sizeof(float), h) != cudaSuccess) return 1;
  if (cudaMalloc((void **)&out, w * h * sizeof(float)) != cudaSuccess) { cudaFree(src); return 1; }
  if (cudaStreamCreate(&s) != cudaSuccess) { cudaFree(out); cudaFree(src); return 1; }
  int rc = 0;
  for (int f = 0; f < 100 && rc == 0; ++f) rc = process_frame(src, pitch, out, w, h, s);
  cudaStreamDestroy(s); cudaFree(out); cudaFree(src);
  return rc ? 1 : 0;
}
