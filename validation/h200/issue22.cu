// Ground truth for issue 22: stream-ordering and capture-topology cases, each
// with a fixed twin (argv[1] names the case; "list" prints them). Each case
// prints "case|key=value ..." with the CUDA results it saw; run_all.sh also
// runs every case under compute-sanitizer.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

constexpr int N = 1024;
constexpr long long SPIN = 20 * 1000 * 1000;  // clock64 cycles, ~10 ms on an H200

__global__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}
__global__ void writeAll(int *p) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) p[i] = i;
}
__global__ void slowWrite(int *p, long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
  for (int i = threadIdx.x; i < N; i += blockDim.x) p[i] = i;
}
__global__ void setFlag(int *f) { *f = 1; }

static const char *E(cudaError_t e) { return cudaGetErrorName(e); }

static std::string out;
static void kv(const char *k, const std::string &v) { out += std::string(" ") + k + "=" + v; }
static void kv(const char *k, cudaError_t e) { kv(k, std::string(E(e))); }

static const char *statusName(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(s, &st);
  if (e != cudaSuccess) return E(e);
  return st == cudaStreamCaptureStatusNone ? "none" : st == cudaStreamCaptureStatusActive ? "active" : "invalidated";
}

static std::string nodeTypes(cudaGraph_t g) {
  if (!g) return "-";
  size_t n = 0;
  cudaGraphGetNodes(g, nullptr, &n);
  std::vector<cudaGraphNode_t> nodes(n);
  if (n) cudaGraphGetNodes(g, nodes.data(), &n);
  static const char *names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "waitEvent",
                                "eventRecord", "extSemSignal", "extSemWait", "memAlloc", "memFree", "conditional"};
  std::string s = std::to_string(n) + "[";
  for (size_t i = 0; i < n; ++i) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    s += (i ? "," : "") + std::string(unsigned(t) < 13 ? names[t] : "?");
  }
  return s + "]";
}

static void endCapture(cudaStream_t s, const char *key = "end") {
  cudaGraph_t g = nullptr;
  kv(key, cudaStreamEndCapture(s, &g));
  kv("graph", g ? nodeTypes(g) : std::string("null"));
  if (g) cudaGraphDestroy(g);
}

// (1) allocation on A, use on B.
static void allocRace(bool fixed) {
  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  int *p = nullptr;
  spin<<<1, 1, 0, a>>>(SPIN);  // A's allocation comes after 10 ms of work
  kv("mallocAsync", cudaMallocAsync(&p, N * sizeof(int), a));
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  if (fixed) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  writeAll<<<1, 256, 0, b>>>(p);
  kv("launch", cudaGetLastError());
  kv("sync", cudaDeviceSynchronize());
  kv("freeAsync", cudaFreeAsync(p, a));
  kv("sync2", cudaDeviceSynchronize());
}

// (2) free on A while B still uses the memory.
static void freeRace(bool fixed) {
  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  int *p = nullptr;
  kv("mallocAsync", cudaMallocAsync(&p, N * sizeof(int), a));
  cudaStreamSynchronize(a);
  slowWrite<<<1, 256, 0, b>>>(p, SPIN);
  kv("launch", cudaGetLastError());
  if (fixed) {
    cudaEvent_t e;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    cudaEventRecord(e, b);
    cudaStreamWaitEvent(a, e, 0);
  }
  kv("freeAsync", cudaFreeAsync(p, a));
  kv("sync", cudaDeviceSynchronize());
}

// (3) a stream forked into the capture and not joined back.
static void fork(bool join) {
  cudaStream_t s, s2;
  cudaStreamCreate(&s);
  cudaStreamCreate(&s2);
  int *p;
  cudaMalloc(&p, N * sizeof(int));
  cudaEvent_t forkEv, joinEv;
  cudaEventCreateWithFlags(&forkEv, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&joinEv, cudaEventDisableTiming);
  kv("begin", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  writeAll<<<1, 256, 0, s>>>(p);
  cudaEventRecord(forkEv, s);
  kv("waitFork", cudaStreamWaitEvent(s2, forkEv, 0));
  kv("s2", statusName(s2));
  writeAll<<<1, 256, 0, s2>>>(p);
  if (join) {
    cudaEventRecord(joinEv, s2);
    kv("waitJoin", cudaStreamWaitEvent(s, joinEv, 0));
  }
  endCapture(s);
  kv("s2AfterEnd", statusName(s2));
  kv("last", cudaGetLastError());
  writeAll<<<1, 256, 0, s2>>>(p);
  kv("launchS2AfterEnd", cudaGetLastError());
  kv("syncS2", cudaStreamSynchronize(s2));
  kv("sync", cudaDeviceSynchronize());
}

// (4) inside a capture, wait on an event recorded outside it.
enum class Wait { Done, Pending, External, Internal };
static void waitOutside(Wait w) {
  cudaStream_t s, other;
  cudaStreamCreate(&s);
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  int *p;
  cudaMalloc(&p, N * sizeof(int));
  cudaEvent_t ev;
  cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  if (w == Wait::Pending) {
    spin<<<1, 1, 0, other>>>(SPIN * 10);
    cudaEventRecord(ev, other);  // still pending when the capture waits on it
  } else if (w != Wait::Internal) {
    cudaEventRecord(ev, other);
    cudaStreamSynchronize(other);
  }
  kv("begin", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  writeAll<<<1, 256, 0, s>>>(p);
  if (w == Wait::Internal) cudaEventRecord(ev, s);
  kv("wait", cudaStreamWaitEvent(s, ev, w == Wait::External ? cudaEventWaitExternal : 0));
  kv("status", statusName(s));
  writeAll<<<1, 256, 0, s>>>(p);
  endCapture(s);
  kv("last", cudaGetLastError());
  kv("sync", cudaDeviceSynchronize());
}

// (5) a kernel on the legacy default stream while s captures.
enum class Legacy { Blocking, NonBlocking, OnCapturing };
static void legacy(Legacy l) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, l == Legacy::NonBlocking ? cudaStreamNonBlocking : cudaStreamDefault);
  int *p, *flag;
  cudaMalloc(&p, N * sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaDeviceSynchronize();
  kv("begin", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  writeAll<<<1, 256, 0, s>>>(p);
  if (l == Legacy::OnCapturing)
    setFlag<<<1, 1, 0, s>>>(flag);
  else
    setFlag<<<1, 1>>>(flag);
  kv("launch", cudaGetLastError());
  kv("status", statusName(s));
  endCapture(s);
  kv("last", cudaGetLastError());
  kv("sync", cudaDeviceSynchronize());
  int ran = -1;
  cudaMemcpy(&ran, flag, sizeof(int), cudaMemcpyDeviceToHost);
  kv("flagKernelRanEagerly", std::to_string(ran));
}

// (6) a failed capture: what the end call hands back, and what NULL handles do.
static void failed(bool fail) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *p;
  cudaMalloc(&p, N * sizeof(int));
  kv("begin", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  writeAll<<<1, 256, 0, s>>>(p);
  if (fail) kv("sync", cudaStreamSynchronize(s));
  kv("status", statusName(s));
  cudaGraph_t sentinel = reinterpret_cast<cudaGraph_t>(0x1);
  cudaGraph_t g = sentinel;
  kv("end", cudaStreamEndCapture(s, &g));
  kv("graph", g == sentinel ? std::string("unchanged") : g ? nodeTypes(g) : std::string("NULL"));
  if (g == sentinel) g = nullptr;
  kv("last", cudaGetLastError());
  cudaGraphExec_t exec = nullptr;
  kv("instantiate(graph)", cudaGraphInstantiate(&exec, g, 0));
  kv("exec", exec ? "made" : "null");
  kv("launch(exec)", cudaGraphLaunch(exec, s));
  kv("syncAfterLaunch", cudaStreamSynchronize(s));
  if (exec) cudaGraphExecDestroy(exec);
  if (g) cudaGraphDestroy(g);
  kv("instantiate(NULL)", cudaGraphInstantiate(&exec, nullptr, 0));
  kv("graphDestroy(NULL)", cudaGraphDestroy(nullptr));
  kv("execDestroy(NULL)", cudaGraphExecDestroy(nullptr));
  kv("last2", cudaGetLastError());
  writeAll<<<1, 256, 0, s>>>(p);
  kv("streamUsableAfter", cudaStreamSynchronize(s));
  kv("beginAgain", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  writeAll<<<1, 256, 0, s>>>(p);
  endCapture(s, "endAgain");
}

int main(int argc, char **argv) {
  const std::vector<std::pair<const char *, std::function<void()>>> cases = {
      {"alloc_race", [] { allocRace(false); }},
      {"alloc_race_fixed", [] { allocRace(true); }},
      {"free_race", [] { freeRace(false); }},
      {"free_race_fixed", [] { freeRace(true); }},
      {"fork_unjoined", [] { fork(false); }},
      {"fork_joined", [] { fork(true); }},
      {"wait_outside_done", [] { waitOutside(Wait::Done); }},
      {"wait_outside_pending", [] { waitOutside(Wait::Pending); }},
      {"wait_outside_external_flag", [] { waitOutside(Wait::External); }},
      {"wait_inside", [] { waitOutside(Wait::Internal); }},
      {"legacy_while_blocking_captures", [] { legacy(Legacy::Blocking); }},
      {"legacy_while_nonblocking_captures", [] { legacy(Legacy::NonBlocking); }},
      {"launch_on_capturing", [] { legacy(Legacy::OnCapturing); }},
      {"failed_capture", [] { failed(true); }},
      {"good_capture", [] { failed(false); }},
  };
  for (const auto &c : cases) {
    if (argc < 2 || !strcmp(argv[1], "list")) {
      printf("%s\n", c.first);
      continue;
    }
    if (strcmp(argv[1], c.first)) continue;
    cudaFree(nullptr);
    c.second();
    printf("%s|%s\n", c.first, out.c_str());
    return 0;
  }
  return argc < 2 || !strcmp(argv[1], "list") ? 0 : 2;
}
