// The driver parses what clang parses: a translation unit that includes
// CCCL's cub (whose placement new needs clang's cuda_wrappers/<new> from the
// resource directory) parses through the driver as it does through the
// clang-tidy-22 plugin, and both find the same leak. A driver that looked for
// clang's headers next to its own binary (build/bin/../lib/clang/22) said
// "the translation unit does not parse" here.
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -- -- -I%cuda_path/include/cccl
#include <cub/cub.cuh>

int sort_keys(const unsigned *in, unsigned *out, int n, cudaStream_t s) {
  size_t bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n, 0, 32, s);
  void *temp = nullptr;
  if (cudaMalloc(&temp, bytes) != cudaSuccess)
    return -1;
  if (n == 0)
    return 0;
  // CHECK-MESSAGES: :[[@LINE-4]]:7: warning: {{.*}}'temp'
  cudaError_t e = cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, 32, s);
  cudaFree(temp);
  return e == cudaSuccess ? 0 : -2;
}
