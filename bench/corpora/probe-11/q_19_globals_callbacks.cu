// Handles that escape into globals and function-local statics, out-parameters
// by reference, host callbacks that own and free their payload
// (cudaLaunchHostFunc, cudaStreamAddCallback), and std::call_once init.
#include <cuda_runtime.h>
#include <mutex>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cstdio>

static cudaStream_t g_copy_stream = nullptr;
static float *g_lut = nullptr;
static std::once_flag g_once;

static void init_globals() {
  std::call_once(g_once, [] {
    cudaStreamCreateWithFlags(&g_copy_stream, cudaStreamNonBlocking);
    float *lut = nullptr;
    if (cudaMalloc(&lut, 256 * sizeof(float)) == cudaSuccess) g_lut = lut;
  });
}

static void shutdown_globals() {
  if (g_lut) cudaFree(g_lut);
  g_lut = nullptr;
  if (g_copy_stream) cudaStreamDestroy(g_copy_stream);
  g_copy_stream = nullptr;
}

static cudaStream_t high_priority_stream() {
  static cudaStream_t s = [] {
    int lo, hi;
    cudaDeviceGetStreamPriorityRange(&lo, &hi);
    cudaStream_t t = nullptr;
    cudaStreamCreateWithPriority(&t, cudaStreamNonBlocking, hi);
    return t;
  }();
  return s;
}

static cudaError_t make_event(cudaEvent_t &out, bool timing) {
  return cudaEventCreateWithFlags(&out, timing ? cudaEventDefault : cudaEventDisableTiming);
}

static cudaError_t make_buffer(float *&out, size_t n) {
  out = nullptr;
  return cudaMalloc(reinterpret_cast<void **>(&out), n * sizeof(float));
}

struct Completion {
  char *message;
  std::atomic<int> *counter;
};

static void CUDART_CB on_done(void *user) {
  Completion *c = static_cast<Completion *>(user);
  c->counter->fetch_add(1);
  free(c->message);
  delete c;
}

static void CUDART_CB on_stream_cb(cudaStream_t, cudaError_t status, void *user) {
  float *host = static_cast<float *>(user);
  if (status == cudaSuccess) std::printf("first=%f\n", host[0]);
  free(host);
}

static int enqueue_work(std::atomic<int> &counter, int n) {
  cudaStream_t s = high_priority_stream();
  float *d = nullptr;
  cudaEvent_t ev;
  if (make_buffer(d, n) != cudaSuccess) return 1;
  if (make_event(ev, false) != cudaSuccess) {
    cudaFree(d);
    return 1;
  }
  cudaMemsetAsync(d, 0, n * sizeof(float), s);
  cudaMemcpyAsync(d, g_lut, 256 * sizeof(float), cudaMemcpyDeviceToDevice, s);
  cudaEventRecord(ev, s);
  cudaStreamWaitEvent(g_copy_stream, ev, 0);

  float *host = static_cast<float *>(malloc(n * sizeof(float)));
  if (host) {
    cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, g_copy_stream);
    if (cudaStreamAddCallback(g_copy_stream, on_stream_cb, host, 0) != cudaSuccess) free(host);
  }
  Completion *c = new Completion{strdup("done"), &counter};
  if (cudaLaunchHostFunc(s, on_done, c) != cudaSuccess) {
    free(c->message);
    delete c;
  }
  cudaStreamSynchronize(g_copy_stream);
  cudaStreamSynchronize(s);
  cudaEventDestroy(ev);
  cudaFree(d);
  return 0;
}

int main() {
  init_globals();
  if (!g_copy_stream || !g_lut) {
    shutdown_globals();
    return 1;
  }
  std::atomic<int> counter{0};
  int rc = enqueue_work(counter, 1024);
  shutdown_globals();
  return rc;
}
