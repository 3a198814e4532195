// The shape of the stdexec unit whose preamble crashed clang's ASTReader: a
// header analysed as its own translation unit, a leading #include block to
// precompile, and two -std flags on the command line.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <memory>

inline void header_leak(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
}
