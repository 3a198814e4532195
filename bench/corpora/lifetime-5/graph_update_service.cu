// Graph-update service: clients submit parameter changes for a long-lived
// compute graph; the service tries cudaGraphExecUpdate first and falls back to
// re-instantiation when the topology changed.
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace gsvc {

__global__ void scale_kernel(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void bias_kernel(float* x, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += b;
}

struct Params {
  float scale = 1.f;
  float bias = 0.f;
  bool with_bias = false;
};

static cudaError_t capture(cudaStream_t s, float* buf, int n, const Params& p, cudaGraph_t* out) {
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (err != cudaSuccess) return err;
  scale_kernel<<<(n + 255) / 256, 256, 0, s>>>(buf, p.scale, n);
  if (p.with_bias) bias_kernel<<<(n + 255) / 256, 256, 0, s>>>(buf, p.bias, n);
  return cudaStreamEndCapture(s, out);
}

struct Entry {
  cudaGraphExec_t exec = nullptr;
  Params params;
  unsigned long version = 0;
};

class UpdateService {
 public:
  UpdateService(cudaStream_t s, float* buf, int n) : s_(s), buf_(buf), n_(n) {}
  ~UpdateService() {
    std::lock_guard<std::mutex> lk(mu_);
    for (auto& kv : entries_) cudaGraphExecDestroy(kv.second.exec);
  }

  cudaError_t create(const std::string& name, const Params& p) {
    cudaGraph_t g = nullptr;
    cudaError_t err = capture(s_, buf_, n_, p, &g);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t e = nullptr;
    err = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return err;
    std::lock_guard<std::mutex> lk(mu_);
    auto it = entries_.find(name);
    if (it != entries_.end()) cudaGraphExecDestroy(it->second.exec);
    entries_[name] = Entry{e, p, 1};
    return cudaSuccess;
  }

  // Correct update-then-fallback.
  cudaError_t update(const std::string& name, const Params& p) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = entries_.find(name);
    if (it == entries_.end()) return cudaErrorInvalidValue;
    cudaGraph_t g = nullptr;
    cudaError_t err = capture(s_, buf_, n_, p, &g);
    if (err != cudaSuccess) return err;
    cudaGraphExecUpdateResultInfo info{};
    err = cudaGraphExecUpdate(it->second.exec, g, &info);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      cudaGraphExecDestroy(it->second.exec);
      it->second.exec = nullptr;
      err = cudaGraphInstantiate(&it->second.exec, g, 0);
    }
    cudaGraphDestroy(g);
    if (err == cudaSuccess) {
      it->second.params = p;
      ++it->second.version;
    }
    return err;
  }

  cudaError_t launch(const std::string& name) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = entries_.find(name);
    if (it == entries_.end()) return cudaErrorInvalidValue;
    return cudaGraphLaunch(it->second.exec, s_);
  }

 private:
  cudaStream_t s_;
  float* buf_;
  int n_;
  std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

// Stand-alone variant used by the batch tool: keeps a local exec across a
// list of parameter sets. The fallback forgets to destroy the stale exec.
int replay_param_sweep(cudaStream_t s, float* buf, int n, const Params* sets, int count) {
  cudaGraph_t g = nullptr;
  if (capture(s, buf, n, sets[0], &g) != cudaSuccess) return -1;
  cudaGraphExec_t exec = nullptr;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  int launched = 0;
  for (int i = 0; i < count; ++i) {
    if (capture(s, buf, n, sets[i], &g) != cudaSuccess) break;
    cudaGraphExecUpdateResultInfo info{};
    if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
      cudaGetLastError();
      if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {  // EXPECT: cudagraph-unpaired-instantiate
        cudaGraphDestroy(g);
        return -1;
      }
    }
    cudaGraphDestroy(g);
    if (cudaGraphLaunch(exec, s) == cudaSuccess) ++launched;
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  return launched;
}

// Driver-API variant for the C++ client library. Correct fallback.
CUresult driver_update_or_rebuild(CUgraphExec* exec, CUgraph g) {
  CUgraphExecUpdateResultInfo info;
  CUresult r = cuGraphExecUpdate(*exec, g, &info);
  if (r == CUDA_SUCCESS) return r;
  cuGraphExecDestroy(*exec);
  *exec = nullptr;
  return cuGraphInstantiate(exec, g, 0);
}

// Driver-API single-shot: instantiate, try an update with a second graph,
// and fall back. The first exec is destroyed; the replacement is returned.
CUresult driver_two_phase(CUgraph first, CUgraph second, CUgraphExec* out) {
  CUgraphExec e = nullptr;
  CUresult r = cuGraphInstantiate(&e, first, 0);
  if (r != CUDA_SUCCESS) return r;
  CUgraphExecUpdateResultInfo info;
  r = cuGraphExecUpdate(e, second, &info);
  if (r != CUDA_SUCCESS) {
    cuGraphExecDestroy(e);
    r = cuGraphInstantiate(&e, second, 0);
    if (r != CUDA_SUCCESS) return r;
  }
  *out = e;
  return CUDA_SUCCESS;
}

// Health probe: checks that an update is possible for the given params
// without touching the live entry; it instantiates a private copy.
bool can_update_in_place(cudaStream_t s, float* buf, int n, const Params& from, const Params& to) {
  cudaGraph_t g0 = nullptr, g1 = nullptr;
  if (capture(s, buf, n, from, &g0) != cudaSuccess) return false;
  if (capture(s, buf, n, to, &g1) != cudaSuccess) {
    cudaGraphDestroy(g0);
    return false;
  }
  cudaGraphExec_t e = nullptr;
  bool ok = cudaGraphInstantiate(&e, g0, 0) == cudaSuccess;  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g0);
  if (!ok) {
    cudaGraphDestroy(g1);
    return false;
  }
  cudaGraphExecUpdateResultInfo info{};
  ok = cudaGraphExecUpdate(e, g1, &info) == cudaSuccess;
  cudaGraphDestroy(g1);
  if (ok) cudaGraphExecDestroy(e);
  return ok;  // an exec whose update failed is left alive
}

}  // namespace gsvc

int gsvc_main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* buf;
  cudaMalloc(&buf, 1 << 20);
  {
    gsvc::UpdateService svc(s, buf, 1 << 18);
    gsvc::Params p;
    svc.create("a", p);
    p.scale = 2.f;
    svc.update("a", p);
    p.with_bias = true;
    svc.update("a", p);
    svc.launch("a");
    gsvc::Params sets[3] = {{1.f, 0.f, false}, {2.f, 0.f, false}, {2.f, 1.f, true}};
    gsvc::replay_param_sweep(s, buf, 1 << 18, sets, 3);
    gsvc::can_update_in_place(s, buf, 1 << 18, sets[0], sets[2]);
  }
  cudaStreamSynchronize(s);
  cudaFree(buf);
  cudaStreamDestroy(s);
  return 0;
}
