NotAType int TILE = 32;
__global__ void k(float *out) {}
void launch(float *out, cudaStream_t s) {
  dim3 block(TILE, TILE);
  k<<<1, block, 0, s>>>(out);
}
