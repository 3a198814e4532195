// Image pre-processing pipeline (decode -> resize -> normalize) built with the
// CUDA driver API. Kernels come from a module loaded at start-up; each stage
// graph is built explicitly with kernel nodes.
#include <cuda.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace imgpipe {

struct Stage {
  CUfunction fn = nullptr;
  unsigned grid = 1, block = 256;
};

struct Frame {
  CUdeviceptr src = 0;
  CUdeviceptr dst = 0;
  int width = 0, height = 0;
};

static const char* err_name(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "?";
}

static CUresult add_stage(CUgraph g, const Stage& st, void** args, CUgraphNode* deps, size_t ndeps, CUgraphNode* out) {
  CUDA_KERNEL_NODE_PARAMS p;
  std::memset(&p, 0, sizeof(p));
  p.func = st.fn;
  p.gridDimX = st.grid; p.gridDimY = 1; p.gridDimZ = 1;
  p.blockDimX = st.block; p.blockDimY = 1; p.blockDimZ = 1;
  p.kernelParams = args;
  return cuGraphAddKernelNode(out, g, deps, ndeps, &p);
}

class Pipeline {
 public:
  Pipeline(CUcontext ctx, CUmodule mod) : ctx_(ctx), mod_(mod) {}
  ~Pipeline() { release(); }

  CUresult init() {
    CUresult r = cuModuleGetFunction(&decode_.fn, mod_, "decode_rgb");
    if (r == CUDA_SUCCESS) r = cuModuleGetFunction(&resize_.fn, mod_, "resize_bilinear");
    if (r == CUDA_SUCCESS) r = cuModuleGetFunction(&norm_.fn, mod_, "normalize_chw");
    if (r == CUDA_SUCCESS) r = cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING);
    return r;
  }

  // Full pipeline graph: three dependent kernel nodes.
  CUresult build(Frame& f) {
    CUgraph g = nullptr;
    CUresult r = cuGraphCreate(&g, 0);
    if (r != CUDA_SUCCESS) return r;
    void* a0[] = {&f.src, &f.dst, &f.width, &f.height};
    CUgraphNode n0, n1, n2;
    r = add_stage(g, decode_, a0, nullptr, 0, &n0);
    if (r == CUDA_SUCCESS) r = add_stage(g, resize_, a0, &n0, 1, &n1);
    if (r == CUDA_SUCCESS) r = add_stage(g, norm_, a0, &n1, 1, &n2);
    if (r != CUDA_SUCCESS) {
      cuGraphDestroy(g);
      return r;
    }
    CUgraphExec e = nullptr;
    r = cuGraphInstantiate(&e, g, 0);
    cuGraphDestroy(g);
    if (r != CUDA_SUCCESS) return r;
    if (full_) cuGraphExecDestroy(full_);
    full_ = e;
    return CUDA_SUCCESS;
  }

  // Resize-only graph used for thumbnails; built on demand, run once.
  CUresult thumbnail(Frame& f) {
    CUgraph g = nullptr;
    CUresult r = cuGraphCreate(&g, 0);
    if (r != CUDA_SUCCESS) return r;
    void* a[] = {&f.src, &f.dst, &f.width, &f.height};
    CUgraphNode n;
    r = add_stage(g, resize_, a, nullptr, 0, &n);
    if (r != CUDA_SUCCESS) { cuGraphDestroy(g); return r; }
    CUgraphExec e = nullptr;
    r = cuGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cuGraphDestroy(g);
    if (r != CUDA_SUCCESS) return r;
    r = cuGraphLaunch(e, stream_);
    if (r != CUDA_SUCCESS) {
      std::fprintf(stderr, "thumbnail launch: %s\n", err_name(r));
      return r;  // e leaks
    }
    r = cuStreamSynchronize(stream_);
    cuGraphExecDestroy(e);
    return r;
  }

  // Batch of frames: one exec per frame, all launched then destroyed. Correct.
  CUresult run_batch(std::vector<Frame>& frames) {
    std::vector<CUgraphExec> execs;
    execs.reserve(frames.size());
    CUresult r = CUDA_SUCCESS;
    for (auto& f : frames) {
      CUgraph g = nullptr;
      r = cuGraphCreate(&g, 0);
      if (r != CUDA_SUCCESS) break;
      void* a[] = {&f.src, &f.dst, &f.width, &f.height};
      CUgraphNode n;
      r = add_stage(g, norm_, a, nullptr, 0, &n);
      CUgraphExec e = nullptr;
      if (r == CUDA_SUCCESS) r = cuGraphInstantiate(&e, g, 0);
      cuGraphDestroy(g);
      if (r != CUDA_SUCCESS) break;
      execs.push_back(e);
    }
    if (r == CUDA_SUCCESS)
      for (CUgraphExec e : execs) {
        r = cuGraphLaunch(e, stream_);
        if (r != CUDA_SUCCESS) break;
      }
    cuStreamSynchronize(stream_);
    for (CUgraphExec e : execs) cuGraphExecDestroy(e);
    return r;
  }

  // Reconfigures the output size: the exec is rebuilt from a cloned graph.
  CUresult reconfigure(Frame& f, int w, int h) {
    f.width = w;
    f.height = h;
    CUgraph g = nullptr;
    CUresult r = cuGraphCreate(&g, 0);
    if (r != CUDA_SUCCESS) return r;
    void* a[] = {&f.src, &f.dst, &f.width, &f.height};
    CUgraphNode n;
    r = add_stage(g, resize_, a, nullptr, 0, &n);
    if (r != CUDA_SUCCESS) { cuGraphDestroy(g); return r; }
    r = cuGraphInstantiate(&full_, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cuGraphDestroy(g);
    return r;
  }

  CUresult process(Frame& f) {
    if (!full_) {
      CUresult r = build(f);
      if (r != CUDA_SUCCESS) return r;
    }
    CUresult r = cuGraphLaunch(full_, stream_);
    if (r != CUDA_SUCCESS) return r;
    return cuStreamSynchronize(stream_);
  }

  void release() {
    if (full_) { cuGraphExecDestroy(full_); full_ = nullptr; }
    if (stream_) { cuStreamDestroy(stream_); stream_ = nullptr; }
  }

 private:
  CUcontext ctx_;
  CUmodule mod_;
  CUstream stream_ = nullptr;
  Stage decode_, resize_, norm_;
  CUgraphExec full_ = nullptr;
};

}  // namespace imgpipe

int image_main(const char* ptx_path) {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  CUdevice dev;
  CUcontext ctx;
  cuDeviceGet(&dev, 0);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);
  CUmodule mod;
  if (cuModuleLoad(&mod, ptx_path) != CUDA_SUCCESS) return 2;
  int rc = 0;
  {
    imgpipe::Pipeline p(ctx, mod);
    if (p.init() != CUDA_SUCCESS) rc = 3;
    imgpipe::Frame f;
    f.width = 1920; f.height = 1080;
    cuMemAlloc(&f.src, 1920 * 1080 * 3);
    cuMemAlloc(&f.dst, 224 * 224 * 3 * 4);
    if (rc == 0 && p.process(f) != CUDA_SUCCESS) rc = 4;
    if (rc == 0) p.thumbnail(f);
    if (rc == 0) p.reconfigure(f, 640, 480);
    std::vector<imgpipe::Frame> batch(4, f);
    if (rc == 0) p.run_batch(batch);
    cuMemFree(f.src);
    cuMemFree(f.dst);
  }
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  return rc;
}
