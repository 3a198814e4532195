// Driver-API engine class (CUgraphExec members, CUresult plumbing, move semantics).
#include <cuda.h>
#include <utility>
#include <vector>

class DriverGraph {
 public:
  DriverGraph() = default;
  DriverGraph(DriverGraph&& o) noexcept : exec_(std::exchange(o.exec_, nullptr)) {}
  DriverGraph& operator=(DriverGraph&&) = delete;
  ~DriverGraph() {
    if (exec_) cuGraphExecDestroy(exec_);
  }

  // Correct: member instantiation, old exec destroyed first.
  CUresult load(CUgraph g) {
    if (exec_) {
      cuGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cuGraphInstantiate(&exec_, g, 0);
  }

  // Buggy: tries an instantiation with device-launch flags into a local, falls back, leaks the first.
  CUresult load_device_or_host(CUgraph g) {
    CUgraphExec dev;
    CUresult r = cuGraphInstantiate(&dev, g, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH);  // EXPECT: cudagraph-unpaired-instantiate
    if (r == CUDA_SUCCESS) {
      CUresult up = cuGraphUpload(dev, nullptr);
      if (up != CUDA_SUCCESS) return up;
      exec_ = dev;
      return CUDA_SUCCESS;
    }
    return cuGraphInstantiate(&exec_, g, 0);
  }

  CUresult launch(CUstream s) const { return cuGraphLaunch(exec_, s); }

 private:
  CUgraphExec exec_ = nullptr;
};

// Correct: update with the driver API, fall back to destroy + re-instantiate.
CUresult refresh(CUgraphExec* exec, CUgraph g) {
  CUgraphExecUpdateResultInfo info;
  if (cuGraphExecUpdate(*exec, g, &info) == CUDA_SUCCESS) return CUDA_SUCCESS;
  cuGraphExecDestroy(*exec);
  return cuGraphInstantiate(exec, g, 0);
}

// Buggy: local driver exec in a benchmark loop; destroy is inside the wrong branch.
CUresult bench(CUgraph g, CUstream s, int iters, bool keep_stats) {
  CUgraphExec e;
  CUresult r = cuGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  if (r != CUDA_SUCCESS) return r;
  for (int i = 0; i < iters; ++i) cuGraphLaunch(e, s);
  cuStreamSynchronize(s);
  if (keep_stats) cuGraphExecDestroy(e);
  return CUDA_SUCCESS;
}

// Correct: exec vector owned by the caller.
void build_all(const std::vector<CUgraph>& gs, std::vector<CUgraphExec>& out) {
  for (CUgraph g : gs) {
    CUgraphExec e;
    if (cuGraphInstantiate(&e, g, 0) == CUDA_SUCCESS) out.push_back(e);
  }
}

// Correct: driver with-params, upload, launch, destroy.
CUresult one_shot(CUgraph g, CUstream s) {
  CUDA_GRAPH_INSTANTIATE_PARAMS p = {};
  p.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  p.hUploadStream = s;
  CUgraphExec e;
  CUresult r = cuGraphInstantiateWithParams(&e, g, &p);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphLaunch(e, s);
  cuGraphExecDestroy(e);
  return r;
}
