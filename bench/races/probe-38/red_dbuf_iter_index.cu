// Reduction of 13_gemm_dbuf.cu (BUGGY): FN of cudagraph-shared-race.
// In a K loop with a runtime trip count, the shared buffer index depends on the
// iteration (buf = (k0 / 16) & 1). The store and the read below use the SAME buffer in
// the SAME barrier interval (thread (x, 0) writes sB[buf][0][x], thread (x, 2), in the
// next warp, reads it) - a real race (racecheck: 13_gemm_dbuf.cu:28 vs :31) - but nothing
// is reported. Replacing `buf` by 0, or `K` by the constant 64, makes the check report it;
// a toggled index (int buf = 0; ... buf ^= 1 at the end of the body) is missed as well.
// The documented skip covers pairs from DIFFERENT iterations; this pair is in one.
__global__ void dbuf(const float* B, float* C, int K) {
  __shared__ float sB[2][16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int buf = (k0 / 16) & 1;
    sB[buf][ty][tx] = B[(k0 + ty) * 16 + tx];
    for (int kk = 0; kk < 16; ++kk) acc += sB[buf][kk][tx];
    __syncthreads();
  }
  C[ty * 16 + tx] = acc;
}

void launch_dbuf(const float* B, float* C, int K) { dbuf<<<1, dim3(16, 16), 0, 0>>>(B, C, K); }
