// The write-write race of shared-race's clearWhileStoring (lit test, case
// 22) and its twin, with an input that is not all zeros: racecheck does not
// report two stores of one value, and the lit harness (gen.py) zeroes its
// input, which makes every warp's sum 0, the value the other warp clears
// the slot to. Generated from test/checkers/cudagraph-shared-race.cu.
#include <cstdio>
#include <string>
#define N 256
__global__ void clearWhileStoring(const float *in, float *out) {
  __shared__ float acc[N / 32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane < N / 32)
    acc[lane] = 0.f;
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0)
    acc[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < N / 32; ++w)
      t += acc[w];
    out[blockIdx.x] = t;
  }
}

__global__ void clearThenStore(const float *in, float *out) {
  __shared__ float acc[N / 32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane < N / 32)
    acc[lane] = 0.f;
  __syncthreads();
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0)
    acc[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < N / 32; ++w)
      t += acc[w];
    out[blockIdx.x] = t;
  }
}

int main(int argc, char **argv) {
  std::string k = argc > 1 ? argv[1] : "";
  float h[N], *in, *out;
  for (int i = 0; i < N; ++i) h[i] = 1.0f + i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  if (k == "clearWhileStoring") clearWhileStoring<<<1, N>>>(in, out);
  else if (k == "clearThenStore") clearThenStore<<<1, N>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  float r; cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%s: %s sum=%g (expected %g)\n", k.c_str(), cudaGetErrorName(e), r, N * (N + 1) / 2.0);
  return 0;
}
