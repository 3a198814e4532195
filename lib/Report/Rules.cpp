//===- Rules.cpp - metadata of every cudagraph-* check --------------------===//
#include "Report/Rules.h"

#include <algorithm>

namespace cgt {

static const char DocsBase[] =
    "https://github.com/cudagraph-tidy/cudagraph-tidy/blob/main/docs/checks/";

const std::vector<RuleInfo> &allRules() {
  // Only checks that exist: SARIF's rules[], --list-checks and the docs
  // must not promise one that is not registered.
  static const std::vector<RuleInfo> Rules = [] {
    std::vector<RuleInfo> R = {
        {"cudagraph-unpaired-instantiate", "UnpairedInstantiate",
         "Graph exec from cudaGraphInstantiate is not destroyed on some path",
         "A cudaGraphInstantiate*/cuGraphInstantiate* exec that is neither "
         "destroyed with cudaGraphExecDestroy nor handed to an owner on some "
         "path out of the function, or that is instantiated again while the "
         "previous exec in the same variable is still alive. Each leaked exec "
         "keeps its device memory until the process exits.",
         "warning", "high", "", {"cuda", "resource-leak", "reliability"}},
        {"cudagraph-handle-leak", "HandleLeak",
         "CUDA stream, event, pool or allocation is not released on some path",
         "A stream, event, memory pool, user object, texture or surface "
         "object, CUDA array or device, managed, stream-ordered or pinned "
         "host allocation that is neither released by its API family's "
         "release function nor handed to an owner on some path out of the "
         "function, or that is acquired again into a variable whose previous "
         "resource is still alive.",
         "warning", "high", "", {"cuda", "resource-leak", "reliability"}},
        {"cudagraph-mismatched-dealloc", "MismatchedDealloc",
         "CUDA resource released by a function of the wrong family",
         "A resource released by a function that cannot release it: cudaFree "
         "on cudaMallocHost memory, free on cudaMalloc memory, "
         "cudaGraphDestroy on a graph exec. The release fails or corrupts "
         "the allocator, and the resource leaks.",
         "warning", "high", "", {"cuda", "correctness", "reliability"}},
        {"cudagraph-use-after-dealloc", "UseAfterDealloc",
         "CUDA resource used or released again after it was released",
         "A graph, graph exec, stream, event, pool or allocation that is "
         "used, launched or released again on a path where it was already "
         "released.",
         "warning", "high", "", {"cuda", "use-after-free", "correctness"}},
        {"cudagraph-shared-index-overflow", "SharedIndexOverflow",
         "__shared__ array index can exceed its bounds",
         "An index into a __shared__ array that leaves the array for the "
         "thread ranges known from __launch_bounds__ or the launch "
         "configuration.",
         "error", "high", "", {"cuda", "out-of-bounds", "correctness"}},
        {"cudagraph-shared-bank-conflict", "SharedBankConflict",
         "__shared__ access with an n-way bank conflict",
         "A __shared__ memory access whose addresses across a warp fall into "
         "the same bank, serialising the access into several wavefronts.",
         "warning", "high", "", {"cuda", "performance"}},
        {"cudagraph-shared-race", "SharedRace",
         "Two threads touch the same __shared__ bytes in one barrier interval",
         "Two threads of a block access overlapping __shared__ bytes between the "
         "same two barriers, at least one of them writing, with no __syncthreads() "
         "(or, for two lanes of one warp, no __syncwarp()) between them: the value "
         "read or kept depends on scheduling. Reported only where the block shape "
         "and every thread's path make the overlap certain.",
         "warning", "high", "", {"cuda", "concurrency", "correctness"}},
        {"cudagraph-barrier-divergence", "BarrierDivergence",
         "Block barrier not reached by every live thread, or reached at different calls",
         "A __syncthreads() (or cooperative groups block sync) that some live threads "
         "of a block reach and others skip without exiting, barriers at different "
         "call sites reached by different threads at the same point, or a __syncwarp "
         "mask that omits the calling lane: undefined behaviour that hangs or "
         "misaligns later barriers.",
         "warning", "high", "", {"cuda", "concurrency", "correctness"}},
        {"cudagraph-capture-without-destroy", "CaptureWithoutDestroy",
         "Captured graph is not destroyed, or a stream capture is not ended, on some path",
         "A graph produced by cudaStreamEndCapture/cuStreamEndCapture that is neither "
         "destroyed with cudaGraphDestroy nor handed to an owner on some path, or a "
         "cudaStreamBeginCapture* whose stream is not ended on some path out of the "
         "function (an error return leaves the stream capturing, and every later call "
         "on it fails).",
         "warning", "high", "", {"cuda", "resource-leak", "reliability"}},
        {"cudagraph-capture-unsafe-call", "CaptureUnsafeCall",
         "Call prohibited during stream capture made while a stream is capturing",
         "A call that the CUDA Programming Guide prohibits during stream capture "
         "(synchronization, synchronous copies and memsets, cudaMalloc/cudaFree in "
         "global mode) made between a cudaStreamBeginCapture* and its "
         "cudaStreamEndCapture: it invalidates the capture or fails.",
         "warning", "high", "", {"cuda", "correctness"}},
        {"cudagraph-stream-order", "StreamOrder",
         "Stream-ordered memory used or freed without an ordering edge between streams",
         "Memory from cudaMallocAsync used by work on another stream with no "
         "event record and wait, host synchronisation or implicit legacy-stream "
         "synchronisation since the allocation, or freed with cudaFreeAsync while "
         "work on another stream that uses it is not ordered before the free: a "
         "race compute-sanitizer reports at run time.",
         "warning", "high", "", {"cuda", "concurrency", "correctness"}},
        {"cudagraph-capture-structure", "CaptureStructure",
         "Stream capture with a structure CUDA refuses at run time",
         "A stream forked into a capture and not joined back before "
         "cudaStreamEndCapture, a wait inside a capture on an event recorded "
         "outside it, work on the legacy default stream while a stream captures, "
         "or a graph from an unchecked cudaStreamEndCapture that is instantiated.",
         "warning", "high", "", {"cuda", "correctness"}},
    };
    std::sort(R.begin(), R.end(), [](const RuleInfo &A, const RuleInfo &B) {
      return std::string(A.Id) < B.Id;
    });
    return R;
  }();
  return Rules;
}

const RuleInfo *findRule(const std::string &Id) {
  for (const RuleInfo &R : allRules())
    if (Id == R.Id)
      return &R;
  return nullptr;
}

std::string ruleHelpUri(const RuleInfo &R) {
  return std::string(DocsBase) + R.Id + ".md";
}

} // namespace cgt
