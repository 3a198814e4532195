// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int BS = 256;

// Connected components of a 1D chain with cuts, inside one block: min-label
// propagation until no label changes, the loop test being a block-wide vote.
__global__ void label_prop(const unsigned char* __restrict__ cut, int* __restrict__ labels) {
  __shared__ int lab[BS];
  const int tid = threadIdx.x;
  const unsigned char* cb = cut + blockIdx.x * BS;
  lab[tid] = tid;
  __syncthreads();
  int changed;
  int rounds = 0;
  do {
    int best = lab[tid];
    if (tid > 0 && !cb[tid]) best = min(best, lab[tid - 1]);
    if (tid + 1 < BS && !cb[tid + 1]) best = min(best, lab[tid + 1]);
    __syncthreads();
    changed = best < lab[tid];
    lab[tid] = best;
    ++rounds;
  } while (__syncthreads_or(changed));
  labels[blockIdx.x * BS + tid] = lab[tid];
  if (tid == 0) labels[gridDim.x * BS + blockIdx.x] = rounds;
}

int main() {
  const int blocks = 2;
  std::vector<unsigned char> c(blocks * BS);
  for (int i = 0; i < blocks * BS; ++i) c[i] = (i % 37) == 0;
  unsigned char* dc;
  int* dl;
  cudaMalloc(&dc, c.size());
  cudaMalloc(&dl, (blocks * BS + blocks) * 4);
  cudaMemcpy(dc, c.data(), c.size(), cudaMemcpyHostToDevice);
  label_prop<<<blocks, BS>>>(dc, dl);
  std::vector<int> l(blocks * BS + blocks);
  cudaMemcpy(l.data(), dl, l.size() * 4, cudaMemcpyDeviceToHost);
  printf("l[100]=%d rounds=%d %s\n", l[100], l[blocks * BS], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dc); cudaFree(dl);
  return 0;
}
