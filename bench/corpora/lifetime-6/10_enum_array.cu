// Execs kept in arrays indexed by an enum.
#include <cuda_runtime.h>
#include <cstdio>

enum Phase { kEmbed = 0, kBody, kHead, kNumPhases };

static const char* kPhaseName[kNumPhases] = {"embed", "body", "head"};

static cudaGraph_t capture_phase(Phase p, cudaStream_t s, float* buf) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(buf, int(p), 256, s);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Correct: local enum-indexed array, every entry destroyed in a loop.
int run_pipeline(cudaStream_t s, float* buf, int steps) {
  cudaGraphExec_t exec[kNumPhases] = {};
  int rc = 0;
  for (int p = 0; p < kNumPhases; ++p) {
    cudaGraph_t g = capture_phase(Phase(p), s, buf);
    cudaError_t err = cudaGraphInstantiate(&exec[p], g, 0);
    cudaGraphDestroy(g);
    if (err != cudaSuccess) {
      std::fprintf(stderr, "instantiate %s failed\n", kPhaseName[p]);
      exec[p] = nullptr;
      rc = -1;
      goto cleanup;
    }
  }
  for (int i = 0; i < steps; ++i)
    for (int p = kEmbed; p < kNumPhases; ++p) cudaGraphLaunch(exec[p], s);
  cudaStreamSynchronize(s);
cleanup:
  for (int p = 0; p < kNumPhases; ++p)
    if (exec[p]) cudaGraphExecDestroy(exec[p]);
  return rc;
}

struct Model {
  cudaGraphExec_t phase_exec[kNumPhases];
  cudaStream_t s;
  float* buf;

  // Correct: stored straight into a member array.
  bool init() {
    for (int p = 0; p < kNumPhases; ++p) phase_exec[p] = nullptr;
    for (int p = 0; p < kNumPhases; ++p) {
      cudaGraph_t g = capture_phase(Phase(p), s, buf);
      auto err = cudaGraphInstantiate(&phase_exec[p], g, 0);
      cudaGraphDestroy(g);
      if (err != cudaSuccess) return false;
    }
    return true;
  }
  void fini() {
    for (auto& e : phase_exec)
      if (e) cudaGraphExecDestroy(e), e = nullptr;
  }
};

// Correct: only one enum slot is built, destroyed at end.
int run_head_only(cudaStream_t s, float* buf) {
  cudaGraphExec_t exec[kNumPhases] = {nullptr, nullptr, nullptr};
  cudaGraph_t g = capture_phase(kHead, s, buf);
  if (cudaGraphInstantiate(&exec[kHead], g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(exec[kHead], s);
  cudaGraphExecDestroy(exec[kHead]);
  return 0;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* buf;
  cudaMalloc(&buf, 1024);
  run_pipeline(s, buf, 2);
  run_head_only(s, buf);
  Model m{};
  m.s = s;
  m.buf = buf;
  if (m.init()) cudaGraphLaunch(m.phase_exec[kBody], s);
  m.fini();
  cudaFree(buf);
  cudaStreamDestroy(s);
  return 0;
}
