// Stream-ordered memory pool integration for captured graphs. Workspaces are
// allocated inside the capture with cudaMallocAsync (graph memory nodes);
// execs are instantiated with AutoFreeOnLaunch so repeated launches reuse the
// pool. Trim and statistics helpers report pool usage.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace gpool {

__global__ void scratch_kernel(float* tmp, const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { tmp[i] = in[i] * 2.f; out[i] = tmp[i] + 1.f; }
}

struct PoolConfig {
  int device = 0;
  size_t release_threshold = 64ull << 20;
};

class GraphPool {
 public:
  explicit GraphPool(const PoolConfig& cfg) : cfg_(cfg) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = cfg.device;
    if (cudaMemPoolCreate(&pool_, &props) != cudaSuccess) throw std::runtime_error("pool");
    uint64_t thr = cfg.release_threshold;
    cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &thr);
    cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  }

  ~GraphPool() {
    for (cudaGraphExec_t e : execs_) cudaGraphExecDestroy(e);
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
    cudaMemPoolDestroy(pool_);
  }

  // Captures a transform that allocates its scratch from the pool.
  cudaError_t capture_transform(const float* in, float* out, int n, cudaGraph_t* g) {
    cudaError_t err = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (err != cudaSuccess) return err;
    float* tmp = nullptr;
    cudaMallocFromPoolAsync(&tmp, n * sizeof(float), pool_, stream_);
    scratch_kernel<<<(n + 255) / 256, 256, 0, stream_>>>(tmp, in, out, n);
    cudaFreeAsync(tmp, stream_);
    return cudaStreamEndCapture(stream_, g);
  }

  // Registers a transform; the pool keeps its exec until destruction.
  int add_transform(const float* in, float* out, int n) {
    cudaGraph_t g = nullptr;
    if (capture_transform(in, out, n, &g) != cudaSuccess) return -1;
    cudaGraphInstantiateParams p = {};
    p.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload;
    p.uploadStream = stream_;
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiateWithParams(&e, g, &p) != cudaSuccess) {
      std::fprintf(stderr, "instantiate: result_out=%d\n", static_cast<int>(p.result_out));
      cudaGraphDestroy(g);
      return -1;
    }
    cudaGraphDestroy(g);
    execs_.push_back(e);
    return static_cast<int>(execs_.size()) - 1;
  }

  cudaError_t launch(int id) {
    if (id < 0 || id >= static_cast<int>(execs_.size())) return cudaErrorInvalidValue;
    return cudaGraphLaunch(execs_[id], stream_);
  }

  // One-shot transform: run once, then trim the pool. The exec is leaked
  // when the launch fails.
  cudaError_t run_once(const float* in, float* out, int n) {
    cudaGraph_t g = nullptr;
    cudaError_t err = capture_transform(in, out, n, &g);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t e = nullptr;
    err = cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return err;
    err = cudaGraphLaunch(e, stream_);
    if (err != cudaSuccess) return err;
    err = cudaStreamSynchronize(stream_);
    cudaGraphExecDestroy(e);
    cudaMemPoolTrimTo(pool_, 0);
    return err;
  }

  // Measures peak pool use of one launch. Correct: exec destroyed on all paths.
  size_t peak_usage(const float* in, float* out, int n) {
    cudaGraph_t g = nullptr;
    if (capture_transform(in, out, n, &g) != cudaSuccess) return 0;
    cudaGraphInstantiateParams p = {};
    p.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch;
    cudaGraphExec_t e = nullptr;
    cudaError_t err = cudaGraphInstantiateWithParams(&e, g, &p);
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return 0;
    uint64_t zero = 0, peak = 0;
    cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &zero);
    if (cudaGraphLaunch(e, stream_) == cudaSuccess) cudaStreamSynchronize(stream_);
    cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &peak);
    cudaGraphExecDestroy(e);
    return static_cast<size_t>(peak);
  }

  cudaStream_t stream() const { return stream_; }

 private:
  PoolConfig cfg_;
  cudaMemPool_t pool_ = nullptr;
  cudaStream_t stream_ = nullptr;
  std::vector<cudaGraphExec_t> execs_;
};

// Graph with explicit mem-alloc node built by hand (no capture). Returns the
// exec to the caller together with the device pointer it allocates.
struct AllocGraph {
  cudaGraphExec_t exec;
  void* dptr;
};

static bool build_alloc_graph(size_t bytes, int device, AllocGraph* out) {
  cudaGraph_t g = nullptr;
  if (cudaGraphCreate(&g, 0) != cudaSuccess) return false;
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = device;
  ap.bytesize = bytes;
  cudaGraphNode_t alloc = nullptr;
  if (cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap) != cudaSuccess) {
    cudaGraphDestroy(g);
    return false;
  }
  cudaGraphExec_t e = nullptr;
  cudaError_t err = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return false;
  out->exec = e;
  out->dptr = ap.dptr;
  return true;
}

// Allocates `bytes` through a graph once and frees it with cudaFreeAsync.
cudaError_t graph_alloc_roundtrip(size_t bytes, int device, cudaStream_t s) {
  AllocGraph ag{};
  if (!build_alloc_graph(bytes, device, &ag)) return cudaErrorMemoryAllocation;  // EXPECT: cudagraph-unpaired-instantiate
  cudaError_t err = cudaGraphLaunch(ag.exec, s);
  if (err != cudaSuccess) return err;
  cudaFreeAsync(ag.dptr, s);
  err = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(ag.exec);
  return err;
}

// Allocation graph that the caller must free; exits on OOM. Correct.
AllocGraph make_alloc_graph_or_die(size_t bytes, int device) {
  AllocGraph ag{};
  if (!build_alloc_graph(bytes, device, &ag)) {
    std::fprintf(stderr, "graph alloc of %zu bytes failed\n", bytes);
    std::exit(2);
  }
  return ag;
}

}  // namespace gpool

int mempool_main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  {
    gpool::GraphPool pool(gpool::PoolConfig{});
    int id = pool.add_transform(in, out, 1 << 20);
    for (int i = 0; i < 10; ++i) pool.launch(id);
    pool.run_once(in, out, 1 << 18);
    std::printf("peak %zu\n", pool.peak_usage(in, out, 1 << 20));
    gpool::graph_alloc_roundtrip(1 << 24, 0, pool.stream());
    gpool::AllocGraph ag = gpool::make_alloc_graph_or_die(1 << 20, 0);
    cudaGraphLaunch(ag.exec, pool.stream());
    cudaFreeAsync(ag.dptr, pool.stream());
    cudaStreamSynchronize(pool.stream());
    cudaGraphExecDestroy(ag.exec);
  }
  cudaFree(in);
  cudaFree(out);
  return 0;
}
