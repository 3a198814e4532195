// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class08.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 8: a struct moved into a global map by a helper of the file
// FP: a local descriptor struct whose member holds pinned memory is moved into a global
// std::map by a helper of the same file; the member is reported as leaked at the return
// (warp volume.cpp:224). Silent when the member is filled by cudaMallocHost(&d.meta, n) directly.
#include <cuda_runtime.h>
#include <cstdint>
#include <map>
#include <utility>
struct Desc { void *meta = nullptr; size_t bytes = 0; };
std::map<uint64_t, Desc> g_descs;

void *alloc_pinned(size_t n) { void *p = nullptr; cudaMallocHost(&p, n); return p; }
static void add_desc(uint64_t id, Desc &&d) { g_descs[id] = std::move(d); }
void free_desc(uint64_t id) {
  auto it = g_descs.find(id);
  if (it == g_descs.end()) return;
  cudaFreeHost(it->second.meta);
  g_descs.erase(it);
}
uint64_t create_desc(size_t bytes) {
  Desc d;
  d.bytes = bytes;
  d.meta = alloc_pinned(bytes);
  uint64_t id = (uint64_t)d.bytes;
  add_desc(id, std::move(d));                        // owned by g_descs from here
  return id;                                         // reported: 'd.meta' not released
}
