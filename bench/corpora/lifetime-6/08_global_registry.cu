// Global/static registries of execs keyed by shape.
#include <cuda_runtime.h>
#include <map>
#include <mutex>
#include <cstdint>

namespace {
std::mutex g_mu;
std::map<int64_t, cudaGraphExec_t> g_by_shape;
cudaGraphExec_t g_slots[16];
int g_nslots = 0;
}  // namespace

// Defined in another translation unit (telemetry library).
extern "C" void telemetry_track_exec(cudaGraphExec_t e, const char* tag);

static int64_t key_of(int b, int s) { return (int64_t(b) << 32) | uint32_t(s); }

// Correct: stored into the global map.
cudaError_t register_shape(int b, int s, cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  auto err = cudaGraphInstantiate(&e, g, 0);
  if (err != cudaSuccess) return err;
  std::lock_guard<std::mutex> lk(g_mu);
  auto it = g_by_shape.find(key_of(b, s));
  if (it != g_by_shape.end()) {
    cudaGraphExecDestroy(it->second);
    it->second = e;
  } else {
    g_by_shape.emplace(key_of(b, s), e);
  }
  return cudaSuccess;
}

// Correct: stored into a static array slot, or destroyed when full.
int register_slot(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1;
  std::lock_guard<std::mutex> lk(g_mu);
  if (g_nslots >= 16) {
    cudaGraphExecDestroy(e);
    return -1;
  }
  g_slots[g_nslots] = e;
  return g_nslots++;
}

// Correct: handed to an external function we cannot see (escape).
void register_tracked(cudaGraph_t g, const char* tag) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
    telemetry_track_exec(e, tag);
}

// Correct: function-local static, lives for the whole program.
cudaGraphExec_t warm_exec(cudaGraph_t g) {
  static cudaGraphExec_t s_exec = nullptr;
  static std::once_flag once;
  std::call_once(once, [&] { cudaGraphInstantiate(&s_exec, g, 0); });
  return s_exec;
}

void registry_clear() {
  std::lock_guard<std::mutex> lk(g_mu);
  for (auto& kv : g_by_shape) cudaGraphExecDestroy(kv.second);
  g_by_shape.clear();
  for (int i = 0; i < g_nslots; ++i) cudaGraphExecDestroy(g_slots[i]);
  g_nslots = 0;
}

cudaError_t launch_shape(int b, int s, cudaStream_t st) {
  std::lock_guard<std::mutex> lk(g_mu);
  auto it = g_by_shape.find(key_of(b, s));
  if (it == g_by_shape.end()) return cudaErrorInvalidValue;
  return cudaGraphLaunch(it->second, st);
}

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  register_shape(1, 128, g);
  register_shape(1, 128, g);
  register_slot(g);
  register_tracked(g, "init");
  cudaStream_t st;
  cudaStreamCreate(&st);
  cudaGraphLaunch(warm_exec(g), st);
  launch_shape(1, 128, st);
  registry_clear();
  cudaGraphDestroy(g);
  return 0;
}
