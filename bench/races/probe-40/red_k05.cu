// Reduction of k05 (missed race, documented skip: data-dependent offset).
// Zeroing shared bins, then atomics at a data-dependent bin with no barrier between.
// With -DCONTROL the bin index is thread-derived and the race is reported.
__global__ void k(const unsigned char* data, unsigned int* hist) {
  __shared__ unsigned int bins[256];
  bins[threadIdx.x] = 0;
#ifdef CONTROL
  atomicAdd(&bins[(threadIdx.x + 32) & 255], 1u);
#else
  atomicAdd(&bins[data[threadIdx.x]], 1u);  // may hit a bin another warp has not cleared yet
#endif
  __syncthreads();
  hist[threadIdx.x] = bins[threadIdx.x];
}
int main() { k<<<1, 256>>>(0, 0); }
