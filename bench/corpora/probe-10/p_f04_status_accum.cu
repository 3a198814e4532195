// HPC library: status accumulation ("if (!err) err = ...") and a cleanup
// section that tests each handle for null before destroying it.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void stencil(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

struct Workspace {
  double *a;
  double *b;
  double *host;
  cudaStream_t s;
  cudaEvent_t ev;
};

static cudaError_t ws_init(Workspace *w, int n) {
  w->a = w->b = w->host = nullptr;
  w->s = nullptr;
  w->ev = nullptr;
  cudaError_t err = cudaSuccess;
  if (!err) err = cudaMalloc(&w->a, n * sizeof(double));
  if (!err) err = cudaMalloc(&w->b, n * sizeof(double));
  if (!err) err = cudaMallocHost(&w->host, n * sizeof(double));
  if (!err) err = cudaStreamCreateWithFlags(&w->s, cudaStreamNonBlocking);
  if (!err) err = cudaEventCreateWithFlags(&w->ev, cudaEventDisableTiming);
  return err;
}

static void ws_destroy(Workspace *w) {
  if (w->ev != nullptr) cudaEventDestroy(w->ev);
  if (w->s != nullptr) cudaStreamDestroy(w->s);
  if (w->host != nullptr) cudaFreeHost(w->host);
  if (w->b != nullptr) cudaFree(w->b);
  if (w->a != nullptr) cudaFree(w->a);
  w->a = w->b = w->host = nullptr;
  w->s = nullptr;
  w->ev = nullptr;
}

static cudaError_t iterate(int n, int steps, double *result) {
  Workspace w;
  cudaError_t err = ws_init(&w, n);
  const cudaError_t init_status = err;
  if (init_status == cudaSuccess) {
    for (int i = 0; i < n; ++i) w.host[i] = (i == n / 2) ? 1.0 : 0.0;
    err = cudaMemcpyAsync(w.a, w.host, n * sizeof(double), cudaMemcpyHostToDevice, w.s);
    for (int t = 0; t < steps && err == cudaSuccess; ++t) {
      stencil<<<(n + 127) / 128, 128, 0, w.s>>>(w.a, w.b, n);
      err = cudaGetLastError();
      double *tmp = w.a;
      w.a = w.b;
      w.b = tmp;
    }
    if (!err) err = cudaMemcpyAsync(w.host, w.a, n * sizeof(double), cudaMemcpyDeviceToHost, w.s);
    if (!err) err = cudaEventRecord(w.ev, w.s);
    if (!err) err = cudaEventSynchronize(w.ev);
    if (!err) *result = w.host[n / 2];
  }
  ws_destroy(&w);
  return err;
}

int main() {
  double r = 0;
  cudaError_t st = iterate(1 << 14, 100, &r);
  if (st != cudaSuccess) {
    std::fprintf(stderr, "error: %s\n", cudaGetErrorString(st));
    return 1;
  }
  std::printf("center %g\n", r);
  return 0;
}
