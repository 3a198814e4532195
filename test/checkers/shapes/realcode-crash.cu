// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/crash.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class: crash: a pointer parameter overwritten by malloc
#include <cstdlib>
#include <cstring>
int poll(void *respBuff, int size, bool mine) {
  if (!mine) respBuff = malloc(size);   // a pointer parameter overwritten by an allocation
  memset(respBuff, 0, size);
  return 1;
}
int caller(void *buf) { return poll(buf, 16, false); }
