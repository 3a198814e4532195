// Reduction of 17_smem_carve.cu (BUGGY): FN of cudagraph-shared-race.
// Each thread reads s[0..N) in a fully known loop and thread 40 writes s[64] in the same
// barrier interval: a race (racecheck: 17_smem_carve.cu:39 vs :41). It is reported when
// the written element is among the first 64 iterations of the reading loop (write s[63],
// or loop from d = 1) and missed from the 65th iteration on, whatever the element size
// (with double s[] the limit is also element 64): only the first 64 executions of an
// access site per thread and interval seem to take part in the pairing. No skip is
// counted in --stats for it (a silent miss). In 17_smem_carve.cu a runtime T (the loop
// bound t < T and the T-dependent carve offset, counted as "data-dependent index") also
// blocks the verdict; with T fixed to 300 in the kernel the race is still missed at the
// file's D / 2 overlap (elements 64..127 of the read loop) and found at D / 4.
__global__ void cap64(float* out) {
  __shared__ float s[256];
  float acc = 0.f;
  for (int d = 0; d < 128; ++d) acc += s[d];
  if (threadIdx.x == 40) s[64] = acc;
  out[threadIdx.x] = acc;
}

void launch_cap64(float* out) { cap64<<<1, 64, 0, 0>>>(out); }
