//===- SyncModel.h - barrier phases of one kernel run -*- C++ -*-------------===//
//
// Internal to lib/SharedMem. What the interpreter records, beside the
// accesses, for cudagraph-shared-race and cudagraph-barrier-divergence
// (docs/checks/). The model (research note anchors-races.md §5.1):
//
//  * Every thread keeps a trace of events: block barriers (__syncthreads*,
//    __barrier_sync(0), cooperative groups' block and grid sync) and markers
//    (see below). An access carries the phase label current when it ran and
//    the length of the trace then. Threads that execute the same code get the
//    same traces and labels, so equal labels mean "same barrier interval".
//  * A branch on a block-uniform condition the interpreter cannot decide runs
//    both arms in every thread (Interpreter.cpp). Its arms are exclusive:
//    each access carries the interned list of (branch, arm) it sits under,
//    and accesses under different arms of one branch never pair. When the
//    arms end in different labels, a marker starts a fresh label after the
//    join, so code after it pairs with neither arm (recall lost, never
//    precision). A loop run symbolically whose body may hold a barrier is
//    bracketed by markers the same way; its body's last interval meets the
//    next iteration's first (WrapLoop), which is paired for offsets that do
//    not depend on the iteration.
//  * __syncwarp(full mask) and 32-thread tile syncs extend a per-interval
//    warp signature (a hash of the syncwarps met since the interval began):
//    two lanes of one warp at the same label and signature are unordered.
//    Partial or unknown masks make intra-warp pairs of that thread unjudged
//    until the next interval.
//  * Phases are lost (no verdict for the thread from there on) at a barrier
//    under an undecided thread-dependent guard, at a call that may hold a
//    barrier the interpreter does not see, at a named barrier, at an
//    asynchronous wait or barrier operation (arrive, wait, commit) and at
//    asm that synchronises. What came before is still judged.
//  * An asynchronous copy, shared-memory asm or a callee not followed that
//    is given a __shared__ array: that array gets no verdict; the others
//    keep theirs. Only when the shared operand is not known does the whole
//    kernel go without one (SyncLog::WholeKernel).
//  * Decisions: every decided branch or loop test whose code holds a block
//    barrier logs which arm each thread took and how many barriers it met
//    there; threads that disagree, one meeting barriers the other does not
//    while staying alive, is barrier divergence. A grid barrier in the arm
//    is divergence even when the skipping thread exits: cooperative groups
//    ask every thread of the grid to arrive, and the block's arrival is
//    thread 0's (cooperative_groups/details/sync.h).
//  * Grid barriers (grid_group::sync) are block barriers that also span the
//    blocks, which run the same code with different blockIdx. Every block
//    must meet as many of them (a count, not the call sites: the grid
//    barrier counts arrivals in global memory). The interpreter runs one
//    block, so it judges blocks against each other at the block-uniform
//    undecided branches whose condition is derived from blockIdx
//    (SymVal::BlockDep): arms that meet different numbers of grid barriers,
//    or one arm that leaves the kernel while the path after the other meets
//    a grid barrier, split the grid (GridSplit).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_SYNCMODEL_H
#define CUDAGRAPH_TIDY_SHAREDMEM_SYNCMODEL_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace cgt::smem {

/// Instance::Sync bits.
enum SyncBits : uint8_t {
  SB_Lost = 1,     ///< the thread's phase is unknown here
  SB_WarpLost = 2, ///< a partial or unknown __syncwarp mask in this interval
  SB_Stable = 4,   ///< the offset's symbols are kernel-wide (parameters, blockIdx)
  SB_Symbolic = 8, ///< inside a loop iteration run symbolically
  SB_LaneSym = 16, ///< the offset names one thread's unknown (Interp::LaneSyms)
};

struct SyncEvent {
  const void *Site = nullptr; ///< the barrier call, or the marker's statement
  uint64_t Iter = 0;          ///< hash of the enclosing loop iterations
  bool Barrier = false;       ///< false: a marker, no synchronisation
  bool Grid = false;          ///< a grid barrier (the site says so too)
  bool operator==(const SyncEvent &O) const {
    return Site == O.Site && Iter == O.Iter && Barrier == O.Barrier;
  }
  bool operator!=(const SyncEvent &O) const { return !(*this == O); }
};

/// One thread at one decided branch (or loop test) whose code holds a block
/// barrier.
struct Decision {
  const clang::Stmt *Branch = nullptr;
  uint64_t Iter = 0;     ///< enclosing iterations (and the loop's own test count)
  int8_t Arm = 0;        ///< 1: then / loop body, 0: else / loop exit
  unsigned Barriers = 0; ///< block barriers the thread met in the arm
  const clang::Expr *FirstBarrier = nullptr; ///< the first of them
  bool Left = false;     ///< the arm returned: an exited thread may skip barriers
  bool ShapeDep = false; ///< the condition depends on the block shape
  uint32_t At = 0;       ///< the thread's trace length at the test
};

struct ThreadSync {
  std::vector<SyncEvent> Trace;
  std::vector<Decision> Decisions;
  /// Trace length when the thread's phase was lost (UINT32_MAX: never).
  uint32_t LostAt = UINT32_MAX;
};

/// A loop run symbolically whose body met a barrier: label Tail (the body's
/// last interval) meets label Head (the next iteration's first).
struct WrapLoop {
  uint32_t Head = 0, Tail = 0;
  uint32_t Arm = 0; ///< the arm list at the loop's entry
  bool operator<(const WrapLoop &O) const {
    return std::tie(Head, Tail, Arm) < std::tie(O.Head, O.Tail, O.Arm);
  }
};

/// Why accesses get no race verdict (counted in the report).
enum class SkipReason : uint8_t {
  AsyncCopy,    ///< cp.async, memcpy_async, __pipeline_*, TMA, mbarrier
  NamedBarrier, ///< bar.sync with an id, __barrier_sync(id != 0)
  InlineAsm,    ///< asm touching shared memory or synchronising
  OpaqueCallee, ///< a call the interpreter does not follow, given a shared pointer
  MaySync,      ///< a call that may hold a barrier the interpreter does not see
  Count
};

/// A __syncwarp whose constant mask omits the calling lane.
struct MaskMisuse {
  const clang::Expr *Site = nullptr;
  unsigned Tid = 0;
  uint64_t Mask = 0;
};

/// A grid barrier that the blocks on one side of a block-dependent test meet
/// and the blocks on the other side do not: they skip it, or (OthersLeft)
/// they left the kernel at the test.
struct GridSplit {
  const clang::Expr *Barrier = nullptr;
  const clang::Stmt *Branch = nullptr;
  bool OthersLeft = false;
  /// Threads of the run that found it (the last one, to count each once).
  /// "Blocks left" needs every thread: where only some left at the test, the
  /// thread-level rule speaks.
  uint32_t Threads = 0;
  uint32_t LastTid = UINT32_MAX;
};

struct SyncLog {
  std::vector<ThreadSync> Threads; ///< by linear thread id
  /// Interned (branch, arm) lists of block-uniform undecided branches; 0 is
  /// the empty list.
  std::vector<llvm::SmallVector<std::pair<uint64_t, int8_t>, 2>> Arms{{}};
  std::set<WrapLoop> Wraps;
  /// Why some accesses got no verdict (counted in the report).
  std::set<SkipReason> Reasons;
  /// No array of the kernel gets a race verdict, for these reasons: a copy
  /// or asm whose shared operand is not known.
  std::set<SkipReason> WholeKernel;
  /// Arrays handed to a callee the interpreter does not follow, the target
  /// of an asynchronous copy, the operand of shared-memory asm: no verdict
  /// for any access to them.
  std::map<const clang::VarDecl *, SkipReason> SkippedArrays;
  std::vector<MaskMisuse> Masks;
  std::vector<GridSplit> GridSplits;
  /// Block-dependent tests whose unequal arms a later block-dependent test
  /// on the same path may balance (the blocks that met fewer grid barriers
  /// at the first can meet more at the second): their splits get no verdict.
  std::set<const clang::Stmt *> MaybeBalanced;
};

} // namespace cgt::smem

#endif
