// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-use-after-dealloc]
// Reduction corpus/24-handle-stored-through-local-pointer.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a handle copied into a struct through a local pointer (`Slot* sl = &slots[i];
// sl->ev = ev;`). Only members of a fixed pointer *parameter* are places, so the store counts
// as an escape and a release through `sl->ev` is not linked to `ev`: destroying the event
// through both names is not reported (with `Slot* sl` as the parameter it is).
// Clean: the error path destroys it once, through the slot; silent.
// Buggy twin (-DBUGGY): it is destroyed again through the local; must report, silent (FN).
#include <cuda_runtime.h>
struct Slot { cudaEvent_t ev; int id; };
int arm(Slot* slots, int i, cudaStream_t s) {
  cudaEvent_t ev = nullptr;
  if (cudaEventCreate(&ev) != cudaSuccess) return -1;
  Slot* sl = &slots[i];
  sl->ev = ev;
  sl->id = i;
  if (cudaEventRecord(sl->ev, s) != cudaSuccess) {
    cudaEventDestroy(sl->ev);
    sl->ev = nullptr;
#ifdef BUGGY
    cudaEventDestroy(ev);  // the same event, a second time
#endif
    return -1;
  }
  return 0;
}
