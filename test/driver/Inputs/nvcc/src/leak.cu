// Compiled by nvcc in the database. The finding appears only if -I, -D and
// the -Xcompiler-wrapped -D survived the translation to clang.
#include "graph_util.h"

#if defined(USE_GRAPHS) && defined(FROM_XCOMPILER) && defined(FROM_XCOMPILER2)
void leak(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
}
#endif
