// 2-D fields for a stencil code: pitched linear memory and CUDA arrays.
// free_field_buggy releases a CUDA array with cudaFree.
#include <cuda_runtime.h>

struct Field {
  float *data = nullptr;
  size_t pitch = 0;
  cudaArray_t lut = nullptr;
  int nx = 0, ny = 0;
};

cudaError_t field_alloc(Field *f, int nx, int ny) {
  cudaError_t st = cudaMallocPitch((void **)&f->data, &f->pitch, nx * sizeof(float), ny);
  if (st != cudaSuccess) return st;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  st = cudaMallocArray(&f->lut, &cf, 256, 1);
  if (st != cudaSuccess) {
    cudaFree(f->data);
    f->data = nullptr;
    return st;
  }
  f->nx = nx;
  f->ny = ny;
  return cudaSuccess;
}

void free_field_buggy(Field *f) {
  cudaFree(f->data);
  cudaArray_t lut = f->lut;
  cudaFree(lut); // EXPECT: cudagraph-mismatched-dealloc
  *f = Field{};
}

void free_field(Field *f) {
  cudaFree(f->data);
  cudaFreeArray(f->lut);
  *f = Field{};
}

cudaError_t halo_exchange_scratch(int nx, int ny, cudaStream_t s) {
  float *tmp = nullptr;
  size_t pitch = 0;
  cudaError_t st = cudaMallocPitch((void **)&tmp, &pitch, nx * sizeof(float), ny);
  if (st != cudaSuccess) return st;
  cudaMemset2DAsync(tmp, pitch, 0, nx * sizeof(float), ny, s);
  cudaArray_t arr = nullptr;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  st = cudaMallocArray(&arr, &cf, nx, ny);
  if (st == cudaSuccess) {
    st = cudaMemcpy2DToArrayAsync(arr, 0, 0, tmp, pitch, nx * sizeof(float), ny,
                                  cudaMemcpyDeviceToDevice, s);
    cudaStreamSynchronize(s);
    cudaFreeArray(arr);
  }
  cudaFree(tmp);
  return st;
}

cudaError_t volume_scratch(int nx, int ny, int nz) {
  cudaArray_t vol = nullptr;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaError_t st = cudaMalloc3DArray(&vol, &cf, make_cudaExtent(nx, ny, nz)); // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) return st;
  float *plane = nullptr;
  st = cudaMalloc(&plane, (size_t)nx * ny * sizeof(float));
  if (st != cudaSuccess) return st;
  cudaMemset(plane, 0, (size_t)nx * ny * sizeof(float));
  cudaFree(plane);
  cudaFreeArray(vol);
  return cudaSuccess;
}
