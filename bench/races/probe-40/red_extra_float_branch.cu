// Extra (outside the 30 files): a racing access under a block-uniform test on a float
// kernel parameter is not judged; the same test on an int parameter is (-DCONTROL).
#ifdef CONTROL
#define COND (mode != 1)
#else
#define COND (scale != 1.f)
#endif
__global__ void k(const float* in, float* out, float scale, int mode) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (COND) s[tid] *= scale;  // thread 0 writes s[0] ...
  out[tid] = s[255 - tid];    // ... which thread 255 reads, no barrier between
}
int main() { k<<<1, 256>>>(0, 0, 2.f, 2); }
