// Texture objects over a CUDA array for an image resampler. make_sampler_buggy
// loses the texture object when the first kernel launch reports an error.
#include <cuda_runtime.h>
#include <cstring>

__global__ void resample(cudaTextureObject_t tex, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = 0.f;
}

static cudaTextureDesc linear_desc() {
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof(td));
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  return td;
}

cudaError_t resample_buggy(cudaArray_t img, float *out, int w, int h, cudaStream_t s) {
  cudaResourceDesc rd;
  std::memset(&rd, 0, sizeof(rd));
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = img;
  cudaTextureDesc td = linear_desc();
  cudaTextureObject_t tex = 0;
  cudaError_t st = cudaCreateTextureObject(&tex, &rd, &td, nullptr); // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) return st;
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  resample<<<grid, block, 0, s>>>(tex, out, w, h);
  st = cudaGetLastError();
  if (st != cudaSuccess) return st;
  st = cudaStreamSynchronize(s);
  cudaDestroyTextureObject(tex);
  return st;
}

cudaError_t resample_ok(cudaArray_t img, float *out, int w, int h, cudaStream_t s) {
  cudaResourceDesc rd;
  std::memset(&rd, 0, sizeof(rd));
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = img;
  cudaTextureDesc td = linear_desc();
  cudaTextureObject_t tex = 0;
  cudaError_t st = cudaCreateTextureObject(&tex, &rd, &td, nullptr);
  if (st != cudaSuccess) return st;
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  resample<<<grid, block, 0, s>>>(tex, out, w, h);
  st = cudaGetLastError();
  if (st == cudaSuccess) st = cudaStreamSynchronize(s);
  cudaDestroyTextureObject(tex);
  return st;
}

struct Image {
  cudaArray_t arr = nullptr;
  cudaTextureObject_t tex = 0;
};

cudaError_t image_create(Image *im, int w, int h) {
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaError_t st = cudaMallocArray(&im->arr, &cf, w, h);
  if (st != cudaSuccess) return st;
  cudaResourceDesc rd;
  std::memset(&rd, 0, sizeof(rd));
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = im->arr;
  cudaTextureDesc td = linear_desc();
  st = cudaCreateTextureObject(&im->tex, &rd, &td, nullptr);
  if (st != cudaSuccess) {
    cudaFreeArray(im->arr);
    im->arr = nullptr;
  }
  return st;
}

void image_destroy(Image *im) {
  cudaDestroyTextureObject(im->tex);
  cudaFreeArray(im->arr);
  *im = Image{};
}
