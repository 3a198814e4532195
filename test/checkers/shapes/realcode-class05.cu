// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class05.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 5: a release under `if (r == K)` in a counting loop
// FP: a release under `if (r == K)` inside `for (r = 0; r < N; r++)` runs in one iteration only
// (r increases every iteration); the loop's back edge is taken for a second release
// (nccl channel.cc:173/176). The cudaFree line shows it is not specific to host memory.
#include <cuda_runtime.h>
#include <cstdlib>
struct Channel { int *collnetPeers; int *nvlsPeers; float *collnetDev; };

void free_channel(Channel *c, int nRanks) {
  int nPeers = nRanks + 2;
  for (int r = 0; r < nPeers; r++) {
    if (r == nRanks) {
      free(c->collnetPeers);                         // reported: released again
      cudaFree(c->collnetDev);                       // reported: released again
    } else if (r == nPeers - 1) {
      free(c->nvlsPeers);                            // reported: released again
    }
  }
}
