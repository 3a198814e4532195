// Ground truth for test/checkers/cudagraph-barrier-divergence-grid.cu: each
// kernel of the lit test launched cooperatively (4 blocks of 256 threads, all
// co-resident) in its own process; run.sh gives each 20 s. A grid barrier
// that some blocks never reach hangs the grid (timeout); a clean kernel
// completes. problemSizeGuards runs twice: with nblocks = 4 (no block leaves)
// and nblocks = 2 (two blocks leave before the grid barrier), which is why
// the check gives that test no verdict.
#include "../../../../test/checkers/cudagraph-barrier-divergence-grid.cu"
#include <cstdio>
#include <cstring>
#include <string>

static int launch(const char *name, void *kernel, void **args) {
  cudaError_t e = cudaLaunchCooperativeKernel(kernel, dim3(4), dim3(N), args, 0, 0);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  printf("%s: %s\n", name, e == cudaSuccess ? "completes" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  std::string k = argv[1];
  float *d;
  int *a;
  cudaMalloc(&d, 8 * N * sizeof(float));
  cudaMalloc(&a, 8 * N * sizeof(int));
  cudaMemset(d, 0, 8 * N * sizeof(float));
  cudaMemset(a, 0, 8 * N * sizeof(int));
  int rounds = 3, n = 1 << 20, nblocks = 4, few = 2;
  void *argsD[] = {&d};
  void *argsA[] = {&a};
  void *argsR[] = {&d, &rounds};
  void *argsP[] = {&d, &nblocks, &n};
  void *argsQ[] = {&d, &few, &n};
#define K(NAME, ARGS)                                                          \
  if (k == #NAME)                                                              \
    return launch(#NAME, (void *)NAME, ARGS);
  K(firstBlockGridSync, argsD)
  K(everyBlockGridSync, argsD)
  K(firstWarpGridSync, argsD)
  K(laterWarpsGridSync, argsD)
  K(firstWarpThenBlockBarrier, argsD)
  K(firstWarpAfterGridSync, argsD)
  K(evenBlocksGridSync, argsA)
  K(oddBlocksGridSync, argsA)
  K(evenThenOddGridSync, argsA)
  K(evenBlocksBothArms, argsA)
  K(firstBlockLeaves, argsD)
  K(firstBlockIdles, argsD)
  K(uniformGridConditions, argsR)
  K(unlaunchedFirstBlock, argsD)
  if (k == "problemSizeGuards")
    return launch("problemSizeGuards(nblocks=4)", (void *)problemSizeGuards, argsP);
  if (k == "problemSizeGuardsFew")
    return launch("problemSizeGuards(nblocks=2)", (void *)problemSizeGuards, argsQ);
  return 2;
}
