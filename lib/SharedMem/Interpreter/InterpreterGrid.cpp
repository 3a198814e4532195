//===- InterpreterGrid.cpp - grid barriers across blocks --------------------===//
//
// `grid.sync()` (cooperative_groups::grid_group) waits for every thread of
// every block of the launch. Within a block it is a block barrier, and the
// trace and decisions of InterpreterSync.cpp judge it as one (a thread that
// skips it is divergence even when it then exits: RaceAnalysis.cpp). Across
// blocks the interpreter has no second block to compare with; what it has is
// where a block's path depends on its index. The model (SyncModel.h):
//
//  * Blocks run the same code with different blockIdx. A block-uniform test
//    the interpreter cannot decide runs both arms as exclusive worlds
//    (Interpreter.cpp); when its condition is derived from blockIdx
//    (SymVal::BlockDep, not from a kernel parameter, memory or a thread
//    coordinate), blocks of one grid take both arms.
//  * The grid barrier counts arrivals (cooperative_groups/details/sync.h:
//    thread 0 of each block adds to a counter in global memory), so blocks
//    agree when they meet as many grid barriers, whichever calls. The path
//    keeps that count (GridCursor::Met); an arm of such a test that meets
//    more grid barriers than the other is a split, reported at its first.
//    Where the count stops being exact (GridCursor::Vague), differences
//    taken after it still are. A second such test on the same path may
//    balance the first (`if (even) sync(); if (odd) sync();` meets one in
//    every block, and completes on an H200): neither gets a verdict
//    (GridCursor::Unbalanced, SyncLog::MaybeBalanced).
//  * An arm that leaves the kernel while the other goes on: the leaving
//    blocks never arrive at a grid barrier met after the test (reported
//    there; GridCursor::BlocksLeft carries the test along the path).
//  * What is not certain gets no verdict: a test under a thread-dependent
//    guard, arms whose count went vague (a loop run symbolically, the two
//    sides of a thread-dependent undecided branch, arms that disagree
//    behind a test on a kernel parameter), an arm that leaves after meeting
//    grid barriers, and block-dependent loops (their trip counts may agree).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include <algorithm>

using namespace clang;

namespace cgt::smem::detail {

namespace {

void noteSplit(SyncLog &Log, unsigned Tid, const Expr *Barrier, const Stmt *Branch,
               bool OthersLeft) {
  if (!Barrier)
    return;
  // Every thread of the block walks the same worlds: one entry for all,
  // counting the threads that found it.
  GridSplit *Found = nullptr;
  for (GridSplit &S : Log.GridSplits)
    if (S.Barrier == Barrier && S.Branch == Branch && S.OthersLeft == OthersLeft)
      Found = &S;
  if (!Found) {
    Log.GridSplits.push_back(GridSplit{Barrier, Branch, OthersLeft});
    Found = &Log.GridSplits.back();
  }
  if (Found->LastTid != Tid) {
    Found->LastTid = Tid;
    ++Found->Threads;
  }
}

} // namespace

void Interp::gridBarrier(const CallExpr *C) {
  blockBarrier(C, /*Grid=*/true);
  // The blocks on the other side of a block-dependent test left the kernel:
  // they never arrive here, and the grid waits for them.
  if (Grid.BlocksLeft && !Guarded)
    noteSplit(*Sync, Tid, C, Grid.BlocksLeft, /*OthersLeft=*/true);
  ++Grid.Met;
}

bool Interp::splitsBlocks(bool Uniform, bool OuterGuard) const {
  // Without a launch shape, a test on the assumed shape says nothing.
  return Uniform && LastCondBlock && !OuterGuard && (!LastCondShape || Cfg.known());
}

const Expr *Interp::firstGridIn(size_t From, size_t To) const {
  for (size_t I = From; I < To && I < TS->Trace.size(); ++I)
    if (TS->Trace[I].Grid)
      return static_cast<const Expr *>(TS->Trace[I].Site);
  return nullptr;
}

void Interp::joinGrid(const Stmt *Site, bool Splits, const GridCursor &G0,
                      const GridCursor &GT, Flow FT, Flow FE, size_t ThenFrom,
                      size_t ElseFrom) {
  GridCursor GE = Grid;
  bool TL = FT != Flow::Normal, EL = FE != Flow::Normal;
  // Only a return from the kernel's own frame leaves the kernel.
  bool TExit = FT == Flow::Return && Frames.empty();
  bool EExit = FE == Flow::Return && Frames.empty();
  size_t End = TS->Trace.size();
  const Stmt *Left = nullptr;
  const Stmt *Unbalanced = nullptr;
  // Both arms start from G0: what each met in it is exact when neither
  // went vague.
  bool Exact = GT.Vague == G0.Vague && GE.Vague == G0.Vague;
  if (Splits && Exact) {
    if (!TL && !EL && GT.Met != GE.Met) {
      if (G0.Unbalanced) {
        // `if (even) sync(); if (odd) sync();`: every block meets one.
        // Without tying the two tests together, neither gets a verdict.
        Sync->MaybeBalanced.insert(G0.Unbalanced);
      } else {
        noteSplit(*Sync, Tid,
                  GT.Met > GE.Met ? firstGridIn(ThenFrom, ElseFrom) : firstGridIn(ElseFrom, End),
                  Site, /*OthersLeft=*/false);
        Unbalanced = Site;
      }
    } else if ((TExit && !EL) || (EExit && !TL)) {
      const GridCursor &Leave = TExit ? GT : GE, &Stay = TExit ? GE : GT;
      // Blocks that leave after meeting grid barriers of their own may be
      // matched by later ones of the others: no verdict.
      if (Leave.Met == G0.Met) {
        if (Stay.Met > G0.Met)
          noteSplit(*Sync, Tid, TExit ? firstGridIn(ElseFrom, End) : firstGridIn(ThenFrom, ElseFrom),
                    Site, /*OthersLeft=*/true);
        else
          Left = Site;
      }
    }
  }
  // Where the path goes on: the arm that did not leave, or both joined.
  if (TL != EL) {
    Grid = TL ? GE : GT;
  } else {
    Grid.Met = std::max(GT.Met, GE.Met);
    Grid.Vague = std::max(GT.Vague, GE.Vague) + (GT.Met != GE.Met || GT.Vague != GE.Vague);
    Grid.BlocksLeft = GT.BlocksLeft == GE.BlocksLeft ? GT.BlocksLeft : nullptr;
    Grid.Unbalanced = GT.Unbalanced ? GT.Unbalanced : GE.Unbalanced;
  }
  if (Left && !Grid.BlocksLeft)
    Grid.BlocksLeft = Left;
  if (Unbalanced && !Grid.Unbalanced)
    Grid.Unbalanced = Unbalanced;
}

void Interp::forgetGrid(const GridCursor &G0) {
  if (Grid.Met != G0.Met)
    ++Grid.Vague;
  Grid.BlocksLeft = G0.BlocksLeft;
}

} // namespace cgt::smem::detail
