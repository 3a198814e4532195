// Reduced from a mutation-sweep crash: with the samples' helper header
// missing, `cudaDeviceProp` and `checkCudaErrors` are unknown, and
// `dim3 blocks(prop.maxGridSize[1], 1)` is initialised by a ParenListExpr
// with no type, which the lifetime engine's constant-fact reader asked the
// type of.
void runTest() {
  cudaDeviceProp prop;
  cudaStream_t stream;
  dim3 blocks(prop.maxGridSize[1], 1);
  checkCudaErrors(cudaStreamCreate(&stream));
}
