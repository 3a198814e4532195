// OpenMM/GROMACS-style context: streams and events held in a struct, created
// by an init function that cleans up partially on failure via a destroy
// function that tolerates null handles.
#include <cuda_runtime.h>
#include <cstring>
#include <cstdio>

enum { kNumStreams = 4, kNumEvents = 3 };

struct DeviceContext {
  int device;
  cudaStream_t defaultStream;
  cudaStream_t nonbondedStream;
  cudaStream_t pmeStream;
  cudaStream_t updateStream;
  cudaEvent_t nonbondedDone;
  cudaEvent_t pmeDone;
  cudaEvent_t timer[2];
  float *posq;
  float *force;
  float *energy;
  float *pinnedEnergy;
  int numAtoms;
};

static void destroyContext(DeviceContext *c) {
  if (c->pinnedEnergy) cudaFreeHost(c->pinnedEnergy);
  if (c->energy) cudaFree(c->energy);
  if (c->force) cudaFree(c->force);
  if (c->posq) cudaFree(c->posq);
  for (int i = 0; i < 2; ++i)
    if (c->timer[i]) cudaEventDestroy(c->timer[i]);
  if (c->pmeDone) cudaEventDestroy(c->pmeDone);
  if (c->nonbondedDone) cudaEventDestroy(c->nonbondedDone);
  if (c->updateStream) cudaStreamDestroy(c->updateStream);
  if (c->pmeStream) cudaStreamDestroy(c->pmeStream);
  if (c->nonbondedStream) cudaStreamDestroy(c->nonbondedStream);
  if (c->defaultStream) cudaStreamDestroy(c->defaultStream);
  memset(c, 0, sizeof(*c));
}

static bool createContext(DeviceContext *c, int device, int numAtoms) {
  memset(c, 0, sizeof(*c));
  c->device = device;
  c->numAtoms = numAtoms;
  if (cudaSetDevice(device) != cudaSuccess) return false;
  int lo, hi;
  cudaDeviceGetStreamPriorityRange(&lo, &hi);
  bool ok = cudaStreamCreateWithFlags(&c->defaultStream, cudaStreamNonBlocking) == cudaSuccess;
  ok = ok && cudaStreamCreateWithPriority(&c->nonbondedStream, cudaStreamNonBlocking, hi) == cudaSuccess;
  ok = ok && cudaStreamCreateWithPriority(&c->pmeStream, cudaStreamNonBlocking, hi) == cudaSuccess;
  ok = ok && cudaStreamCreateWithFlags(&c->updateStream, cudaStreamNonBlocking) == cudaSuccess;
  ok = ok && cudaEventCreateWithFlags(&c->nonbondedDone, cudaEventDisableTiming) == cudaSuccess;
  ok = ok && cudaEventCreateWithFlags(&c->pmeDone, cudaEventDisableTiming) == cudaSuccess;
  for (int i = 0; ok && i < 2; ++i) ok = cudaEventCreate(&c->timer[i]) == cudaSuccess;
  ok = ok && cudaMalloc(&c->posq, sizeof(float) * 4 * numAtoms) == cudaSuccess;
  ok = ok && cudaMalloc(&c->force, sizeof(float) * 3 * numAtoms) == cudaSuccess;
  ok = ok && cudaMalloc(&c->energy, sizeof(float)) == cudaSuccess;
  ok = ok && cudaMallocHost(&c->pinnedEnergy, sizeof(float)) == cudaSuccess;
  if (!ok) {
    destroyContext(c);
    return false;
  }
  return true;
}

__global__ void nonbonded(const float *posq, float *force, float *energy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { force[3 * i] += posq[4 * i]; if (i == 0) *energy += 1.f; }
}
__global__ void pme(const float *posq, float *force, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) force[3 * i + 1] += posq[4 * i + 1];
}
__global__ void integrate(float *posq, const float *force, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) posq[4 * i] += 0.001f * force[3 * i];
}

static float step(DeviceContext *c, bool timing) {
  int n = c->numAtoms, b = (n + 127) / 128;
  if (timing) cudaEventRecord(c->timer[0], c->defaultStream);
  cudaMemsetAsync(c->force, 0, sizeof(float) * 3 * n, c->defaultStream);
  cudaMemsetAsync(c->energy, 0, sizeof(float), c->defaultStream);
  cudaEventRecord(c->nonbondedDone, c->defaultStream);
  cudaStreamWaitEvent(c->nonbondedStream, c->nonbondedDone, 0);
  cudaStreamWaitEvent(c->pmeStream, c->nonbondedDone, 0);
  nonbonded<<<b, 128, 0, c->nonbondedStream>>>(c->posq, c->force, c->energy, n);
  pme<<<b, 128, 0, c->pmeStream>>>(c->posq, c->force, n);
  cudaEventRecord(c->nonbondedDone, c->nonbondedStream);
  cudaEventRecord(c->pmeDone, c->pmeStream);
  cudaStreamWaitEvent(c->updateStream, c->nonbondedDone, 0);
  cudaStreamWaitEvent(c->updateStream, c->pmeDone, 0);
  integrate<<<b, 128, 0, c->updateStream>>>(c->posq, c->force, n);
  cudaMemcpyAsync(c->pinnedEnergy, c->energy, sizeof(float), cudaMemcpyDeviceToHost, c->updateStream);
  cudaEventRecord(c->pmeDone, c->updateStream);
  cudaStreamWaitEvent(c->defaultStream, c->pmeDone, 0);
  float ms = 0;
  if (timing) {
    cudaEventRecord(c->timer[1], c->defaultStream);
    cudaEventSynchronize(c->timer[1]);
    cudaEventElapsedTime(&ms, c->timer[0], c->timer[1]);
  } else {
    cudaStreamSynchronize(c->defaultStream);
  }
  return *c->pinnedEnergy + ms * 0.f;
}

int main() {
  DeviceContext ctx;
  if (!createContext(&ctx, 0, 1024)) return 1;
  float e = 0;
  for (int i = 0; i < 10; ++i) e += step(&ctx, i == 9);
  destroyContext(&ctx);
  std::printf("%f\n", e);
  return 0;
}
