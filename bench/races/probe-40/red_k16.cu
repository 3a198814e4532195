// Reduction of k16 (missed race, documented skip: iteration-dependent offsets in a
// loop with a runtime trip count). Double buffering with no barrier in the loop.
// With -DCONTROL the trip count is the constant 8 and the race is reported.
#ifdef CONTROL
#define TRIPS 8
#else
#define TRIPS ntiles
#endif
__global__ void k(const float* in, float* out, int ntiles) {
  __shared__ float buf[2][128];
  const int tid = threadIdx.x;
  float acc = 0.f;
  buf[0][tid] = in[tid];
  __syncthreads();
  for (int t = 0; t < TRIPS; ++t) {
    const int cur = t & 1;
    if (t + 1 < TRIPS) buf[cur ^ 1][tid] = in[(t + 1) * 128 + tid];
    acc += buf[cur][127 - tid];
  }
  out[tid] = acc;
}
int main() { k<<<1, 128>>>(0, 0, 8); }
