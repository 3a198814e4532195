// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: :[[@LINE+35]]:3: warning: host array memory allocated by 'new[]' is released by 'cudaFree'; release it with delete[] [cudagraph-mismatched-dealloc]
// BUGGY: :[[@LINE+35]]:3: warning: pinned host memory 'pinned' allocated by 'cudaMallocHost' is released by 'delete[]'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
// BUGGY-NOT: warning:
// Shape of corpus/09-new-delete-unmodelled.cu of ../shared/shapes/2026-12-04 (issue 36).
// Class: host memory from a C++ `new[]` next to CUDA allocations, each released by the
// other's family. `new`/`delete` are the model's pseudo entries of mismatchOnly kinds:
// only a mismatch with a CUDA family is reported.
// Clean: the staging copy from new[] goes back with delete[], the pinned buffer with
//   cudaFreeHost, the device buffer with cudaFree; silent.
// Buggy twin (-DBUGGY): the two host buffers are released by each other's family:
//   cudaFree on new[] memory (cudaErrorInvalidValue, the array leaks) and delete[] on
//   pinned memory (undefined behaviour); both reported.
#include <cuda_runtime.h>

float checksum(const float *d_in, int n) {
  float *staging = new float[n];
  float *pinned = nullptr;
  float *d_tmp = nullptr;
  if (cudaMallocHost(&pinned, n * sizeof(float)) != cudaSuccess) {
    delete[] staging;
    return 0.f;
  }
  cudaMalloc(&d_tmp, n * sizeof(float));
  cudaMemcpy(d_tmp, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaMemcpy(pinned, d_tmp, n * sizeof(float), cudaMemcpyDeviceToHost);
  float sum = 0.f;
  for (int i = 0; i < n; ++i) {
    staging[i] = pinned[i] * 2.f;
    sum += staging[i];
  }
  cudaFree(d_tmp);
#ifndef BUGGY
  delete[] staging;
  cudaFreeHost(pinned);
#else
  cudaFree(staging);
  delete[] pinned;
#endif
  return sum;
}
