// Reduction of 10_histogram.cu (BUGGY), not counted as an FN: compute-sanitizer racecheck
// is silent on it (it does not compare atomics with plain stores), so per the protocol it
// was relabelled race-free. By the CUDA memory model it is still a lost-update race: the
// zeroing store s[i] = 0 (thread i) and the atomicAdd on s[data[t]] of other threads are
// in the same barrier interval. The analyzer is silent too: the atomic's offset is
// data-dependent (documented skip); with atomicAdd(&s[(threadIdx.x * 7) & 255], 1u) it
// reports the store/atomic pair.
__global__ void hist(const unsigned char* data, unsigned* h) {
  __shared__ unsigned s[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) s[i] = 0;
  atomicAdd(&s[data[threadIdx.x]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = s[i];
}

void launch_hist(const unsigned char* d, unsigned* h) { hist<<<1, 128, 0, 0>>>(d, h); }
