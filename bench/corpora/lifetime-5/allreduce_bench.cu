// Multi-GPU all-reduce benchmark harness. Each device gets its own stream and
// a graph that performs a ring reduce-scatter + all-gather with peer copies.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench {

__global__ void reduce_add(float* dst, const float* src, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

struct Device {
  int id = 0;
  cudaStream_t stream = nullptr;
  float* send = nullptr;
  float* recv = nullptr;
  cudaGraphExec_t exec = nullptr;
};

// Reports results to the harness's CSV sink (implemented in reporter.cpp).
void report_row(const char* name, size_t bytes, int ndev, float us);
// Hands a ready graph exec to the external launcher thread pool (launcher.cpp).
void launcher_adopt(int device, cudaGraphExec_t exec);

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static void capture_ring(std::vector<Device>& devs, int d, size_t n, cudaGraph_t* out) {
  int ndev = static_cast<int>(devs.size());
  Device& me = devs[d];
  Device& next = devs[(d + 1) % ndev];
  size_t chunk = n / ndev;
  CK(cudaSetDevice(me.id));
  CK(cudaStreamBeginCapture(me.stream, cudaStreamCaptureModeRelaxed));
  for (int step = 0; step < ndev - 1; ++step) {
    size_t off = ((d - step + ndev) % ndev) * chunk;
    cudaMemcpyPeerAsync(next.recv + off, next.id, me.send + off, me.id, chunk * sizeof(float), me.stream);
    reduce_add<<<(chunk + 255) / 256, 256, 0, me.stream>>>(me.send + off, me.recv + off, chunk);
  }
  for (int step = 0; step < ndev - 1; ++step) {
    size_t off = ((d + 1 - step + ndev) % ndev) * chunk;
    cudaMemcpyPeerAsync(next.send + off, next.id, me.send + off, me.id, chunk * sizeof(float), me.stream);
  }
  CK(cudaStreamEndCapture(me.stream, out));
}

class Harness {
 public:
  explicit Harness(int ndev, size_t max_elems) : max_elems_(max_elems) {
    devs_.resize(ndev);
    for (int d = 0; d < ndev; ++d) {
      devs_[d].id = d;
      CK(cudaSetDevice(d));
      CK(cudaStreamCreateWithFlags(&devs_[d].stream, cudaStreamNonBlocking));
      CK(cudaMalloc(&devs_[d].send, max_elems * sizeof(float)));
      CK(cudaMalloc(&devs_[d].recv, max_elems * sizeof(float)));
      for (int p = 0; p < ndev; ++p)
        if (p != d) cudaDeviceEnablePeerAccess(p, 0);
    }
  }

  ~Harness() {
    for (auto& dv : devs_) {
      cudaSetDevice(dv.id);
      if (dv.exec) cudaGraphExecDestroy(dv.exec);
      cudaFree(dv.send);
      cudaFree(dv.recv);
      cudaStreamDestroy(dv.stream);
    }
  }

  // Builds one exec per device for message size n; stored in the Device record.
  void build(size_t n) {
    for (size_t d = 0; d < devs_.size(); ++d) {
      cudaGraph_t g;
      capture_ring(devs_, static_cast<int>(d), n, &g);
      if (devs_[d].exec) CK(cudaGraphExecDestroy(devs_[d].exec));
      CK(cudaGraphInstantiate(&devs_[d].exec, g, 0));
      CK(cudaGraphDestroy(g));
    }
  }

  float time_iters(int iters) {
    std::vector<cudaEvent_t> start(devs_.size()), stop(devs_.size());
    for (size_t d = 0; d < devs_.size(); ++d) {
      CK(cudaSetDevice(devs_[d].id));
      CK(cudaEventCreate(&start[d]));
      CK(cudaEventCreate(&stop[d]));
      CK(cudaEventRecord(start[d], devs_[d].stream));
    }
    for (int i = 0; i < iters; ++i)
      for (auto& dv : devs_) CK(cudaGraphLaunch(dv.exec, dv.stream));
    float worst = 0.f;
    for (size_t d = 0; d < devs_.size(); ++d) {
      CK(cudaSetDevice(devs_[d].id));
      CK(cudaEventRecord(stop[d], devs_[d].stream));
      CK(cudaEventSynchronize(stop[d]));
      float ms = 0.f;
      CK(cudaEventElapsedTime(&ms, start[d], stop[d]));
      if (ms > worst) worst = ms;
      cudaEventDestroy(start[d]);
      cudaEventDestroy(stop[d]);
    }
    return worst * 1000.f / iters;
  }

  // Latency sweep on device 0 alone: one local exec per message size.
  void latency_sweep(const std::vector<size_t>& sizes) {
    Device& d0 = devs_[0];
    CK(cudaSetDevice(d0.id));
    cudaGraphExec_t exec = nullptr;
    for (size_t n : sizes) {
      if (n > max_elems_) break;
      cudaGraph_t g;
      CK(cudaStreamBeginCapture(d0.stream, cudaStreamCaptureModeRelaxed));
      reduce_add<<<(n + 255) / 256, 256, 0, d0.stream>>>(d0.send, d0.recv, n);
      CK(cudaStreamEndCapture(d0.stream, &g));
      CK(cudaGraphInstantiate(&exec, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
      CK(cudaGraphDestroy(g));
      cudaEvent_t a, b;
      CK(cudaEventCreate(&a));
      CK(cudaEventCreate(&b));
      CK(cudaEventRecord(a, d0.stream));
      for (int i = 0; i < 100; ++i) CK(cudaGraphLaunch(exec, d0.stream));
      CK(cudaEventRecord(b, d0.stream));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      report_row("latency", n * sizeof(float), 1, ms * 10.f);
      cudaEventDestroy(a);
      cudaEventDestroy(b);
    }
    if (exec) cudaGraphExecDestroy(exec);
  }

  // Hands device graphs to the background launcher; it owns them from now on.
  void detach_to_launcher(size_t n) {
    for (size_t d = 0; d < devs_.size(); ++d) {
      cudaGraph_t g;
      capture_ring(devs_, static_cast<int>(d), n, &g);
      cudaGraphExec_t e;
      CK(cudaGraphInstantiate(&e, g, 0));
      CK(cudaGraphDestroy(g));
      launcher_adopt(devs_[d].id, e);
    }
  }

  // Quick validation of a single-device ring (n elements) without timing.
  bool validate(size_t n) {
    cudaGraph_t g;
    capture_ring(devs_, 0, n, &g);
    cudaGraphExec_t e;
    cudaError_t err = cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return false;
    if (cudaGraphLaunch(e, devs_[0].stream) != cudaSuccess) return false;
    bool ok = cudaStreamSynchronize(devs_[0].stream) == cudaSuccess;
    if (ok) cudaGraphExecDestroy(e);
    return ok;
  }

  int ndev() const { return static_cast<int>(devs_.size()); }

 private:
  size_t max_elems_;
  std::vector<Device> devs_;
};

}  // namespace bench

int allreduce_main(int argc, char** argv) {
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) return 0;
  bench::Harness h(ndev, size_t(1) << 26);
  if (!h.validate(1 << 20)) return 1;
  for (size_t n = 1 << 10; n <= (size_t(1) << 26); n <<= 2) {
    h.build(n);
    bench::report_row("ring", n * sizeof(float), ndev, h.time_iters(argc > 1 ? std::atoi(argv[1]) : 20));
  }
  h.latency_sweep({256, 4096, 65536});
  h.detach_to_launcher(1 << 20);
  return 0;
}
