//===- PathGaps.cpp - work ordered on some paths only, confirmed on one ---===//
//
// The dataflow's join unites what orders work (StreamEngine.h), so a use
// reached by one path that waited and one that did not looks ordered:
//
//   cudaEventRecord(done, s);
//   if (cudaEventQuery(done) == cudaSuccess) { ... }     // s's work is done
//   else            cudaStreamWaitEvent(p, done, 0);     // p waits for it
//   cudaFreeAsync(d_in, cs);                             // cs: neither
//
// The every-path facts (MustOrdered, ...) find such a *gap*: ordered on
// some path, not on every one. A gap may still sit on paths that cannot
// happen together (`if (p) sync(s); ... if (!p) wait(b, e);`), so it is
// reported only when a witness is found, as the lifetime engine confirms
// its findings (Lifetime/Reports/Witness.cpp):
//
//   entry --(depth first over the CFG, one OrderState per path, never
//            joined)--> the gap's site, with its work still unordered
//     at each block:  the engine's own transfer; the formula
//                     (Values/PathFormula.h) takes the assignments and calls
//     at each branch (what a condition says beyond the formula:
//                     GapConditions.cpp):
//                     the solver must accept the condition; two tests of
//                     one unmodelled call (`if (cfg.overlap())` twice) are
//                     held to one value, where the formula would decide
//                     them apart; a test of two handles for identity
//                     (`s != b`, a bool bound to one) is not followed where
//                     the streams may be one, since two places are two
//                     streams to this engine; nor is the way on which a
//                     CUDA call's status says it failed (error handling: a
//                     failed call in a capture invalidates it, a failed
//                     wait is no race the program makes)
//     at the site:    the transfer finds the gap's token unordered (hit)
//
// Only a hit reports; a search cut by its bounds, like one that finds
// nothing, says nothing. The notes add the branches the path takes whose
// other way ordered the work (read from the fixpoint's states), so the
// reader sees which way skips the wait.
//
//===----------------------------------------------------------------------===//
#include "Streams/GapConditions.h"
#include "Report/BranchNotes.h"
#include "Values/PathFormula.h"


namespace cgt {
namespace streams {

using namespace clang;

namespace {

/// Bounds of one search: visits of a block on one path, blocks entered,
/// solver queries.
constexpr unsigned MaxUnroll = 2;
constexpr unsigned MaxSteps = 3000;
constexpr unsigned MaxQueries = 300;
/// Blocks read ahead of a branch's other way for the ordering it holds.
constexpr unsigned MaxAheadBlocks = 24;

/// The blocks reached from Start without going round a loop, at most
/// Limit of them, entering none of Stop.
std::vector<const CFGBlock *> aheadOf(const CFGBlock *Start, size_t Limit,
                                      const std::set<std::pair<unsigned, unsigned>> &BackEdges,
                                      const std::set<const CFGBlock *> &Stop) {
  std::vector<const CFGBlock *> Seen;
  std::set<const CFGBlock *> Entered;
  std::vector<const CFGBlock *> Work{Start};
  while (!Work.empty() && Seen.size() < Limit) {
    const CFGBlock *X = Work.back();
    Work.pop_back();
    if (!X || Stop.count(X) || !Entered.insert(X).second)
      continue;
    Seen.push_back(X);
    for (const CFGBlock::AdjacentBlock &Succ : X->succs())
      if (const CFGBlock *To = Succ.getReachableBlock();
          To && !BackEdges.count({X->getBlockID(), To->getBlockID()}))
        Work.push_back(To);
  }
  return Seen;
}

} // namespace

/// One search's goal and what it has found.
struct FunctionRun::WitnessSearch {
  const PathGap &Goal;
  bool Hit = false;
  /// The same finding as the goal: at its site, for its token; for a
  /// capture's member, for the member (a path's last work on it may be
  /// another statement than the one the joined states named).
  bool matches(const PathGap &G) const {
    return G.Site == Goal.Site && G.Kind == Goal.Kind &&
           (G.Kind == FindingKind::CaptureUnjoined ? G.Detail == Goal.Detail
                                                    : G.Token == Goal.Token);
  }
};

void FunctionRun::unordered(const PathGap &G) {
  if (Searching) {
    Searching->Hit |= Searching->matches(G);
    return;
  }
  report(G.Kind, G.Site, G.Var, G.Called, G.Detail, G.Notes);
}

void FunctionRun::notePathGap(PathGap G) {
  if (!Reporting)
    return;
  for (const PathGap &Known : Gaps)
    if (Known.Kind == G.Kind && Known.Site == G.Site && Known.Token == G.Token &&
        Known.Detail == G.Detail)
      return;
  Gaps.push_back(std::move(G));
}

void FunctionRun::confirmPathGaps(const CFG &Cfg) {
  if (Gaps.empty() || !values::PathFormula::available())
    return;
  std::vector<PathGap> Pending = std::move(Gaps);
  for (PathGap &G : Pending) {
    // Reported already: a path into the site where nothing ordered it.
    if (Reported.count({G.Site, G.Var + "\n" + G.Detail}))
      continue;
    std::vector<PathNote> PathNotes;
    if (!searchWitness(Cfg, G, PathNotes))
      continue;
    std::vector<PathNote> Notes = std::move(PathNotes);
    Notes.insert(Notes.end(), G.Notes.begin(), G.Notes.end());
    Reporting = true;
    report(G.Kind, G.Site, G.Var, G.Called, G.Detail, std::move(Notes));
    Reporting = false;
  }
}

bool FunctionRun::searchWitness(const CFG &Cfg, const PathGap &G, std::vector<PathNote> &Notes) {
  values::PathFormula Formula(Ctx, FD, [&](const CallExpr *Call) { return A.modelFor(Call); });
  if (!HandleTests)
    HandleTests = localsBoundToHandleTests(FD, Ctx);
  WitnessSearch Goal{G};
  Searching = &Goal;

  // The blocks ahead of a branch's other way, up to where the ways meet
  // again or a loop goes round: does one of them order the work the path
  // has left unordered?
  auto OtherWayOrders = [&](const CFGBlock *Other, const CFGBlock *Taken) {
    std::vector<const CFGBlock *> TakenWay = aheadOf(Taken, 4 * MaxAheadBlocks, BackEdges, {});
    std::set<const CFGBlock *> Meet(TakenWay.begin(), TakenWay.end());
    return llvm::any_of(aheadOf(Other, MaxAheadBlocks, BackEdges, Meet), [&](const CFGBlock *X) {
      const OrderState &Fixed = FixedOut[X->getBlockID()];
      return Fixed.Tokens.count(G.Token) && isOrdered(Fixed, G.Token, G.Stream);
    });
  };

  struct WayOn {
    const CFGBlock *Block;
    OrderState St;
    values::PathFormula::Mark Formula;
    size_t Visited;
    size_t NotesKept;
    const Expr *Cond;
    bool Taken;
    bool Noteworthy;
    size_t CallTestsKept;
  };
  // The tests of unmodelled calls the path decided, by text (callTestOf).
  std::vector<std::pair<std::string, bool>> CallTests;
  std::vector<unsigned> Visits(Cfg.getNumBlockIDs(), 0);
  std::vector<unsigned> VisitLog;
  std::vector<WayOn> Stack;
  {
    OrderState Start;
    Start.Reached = true;
    Stack.push_back(
        {&Cfg.getEntry(), std::move(Start), Formula.mark(), 0, 0, nullptr, false, false, 0});
  }
  unsigned Steps = 0;
  while (!Stack.empty() && !Goal.Hit) {
    WayOn W = std::move(Stack.back());
    Stack.pop_back();
    Formula.backTo(W.Formula);
    for (; VisitLog.size() > W.Visited; VisitLog.pop_back())
      --Visits[VisitLog.back()];
    Notes.resize(W.NotesKept);
    CallTests.resize(W.CallTestsKept);
    if (auto Test = W.Cond ? callTestOf(W.Cond, W.Taken, A, Ctx) : std::nullopt) {
      auto Earlier = llvm::find_if(CallTests, [&](const auto &T) { return T.first == Test->first; });
      if (Earlier != CallTests.end() && Earlier->second != Test->second)
        continue;
      CallTests.push_back(std::move(*Test));
    }
    if (W.Cond && !Formula.assume(W.Cond, W.Taken))
      continue;
    if (W.Cond && W.Noteworthy)
      if (std::string T = branchAssumption(W.Cond, W.Taken, Ctx); !T.empty())
        Notes.push_back({W.Cond->getExprLoc(), std::move(T)});
    const CFGBlock *B = W.Block;
    if (++Steps > MaxSteps || Formula.queries() > MaxQueries)
      break;
    if (Visits[B->getBlockID()] >= MaxUnroll)
      continue;
    ++Visits[B->getBlockID()];
    VisitLog.push_back(B->getBlockID());

    OrderState St = std::move(W.St);
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>()) {
        Formula.apply(CS->getStmt());
        transfer(St, CS->getStmt());
        if (Goal.Hit)
          break;
      }
    if (Goal.Hit || B->hasNoReturnElement())
      continue;
    const Expr *Cond = !isa_and_nonnull<SwitchStmt>(B->getTerminatorStmt()) && B->succ_size() == 2
                           ? B->getLastCondition()
                           : nullptr;
    const BinaryOperator *Identity = Cond ? handleComparison(Cond, Ctx) : nullptr;
    // A way on which a CUDA call failed is error handling: a capture or an
    // ordering it skips is not the program's (a failed call inside a
    // capture invalidates it anyway), so no gap is confirmed there.
    std::optional<unsigned> Failing = Cond ? failingWayOf(Cond, St) : std::nullopt;
    bool Opaque = Cond && !Identity && testsHandleIdentity(Cond, Ctx, *HandleTests);
    // Pushed last to first, so the first way on is explored first.
    for (unsigned I = B->succ_size(); I-- > 0;) {
      const CFGBlock *To = B->succ_begin()[I].getReachableBlock();
      if (!To || To == &Cfg.getExit() || Opaque || Failing == I)
        continue;
      bool Taken = I == 0;
      // The way on which the two handles may be one.
      if (Identity && Taken == (Identity->getOpcode() == BO_EQ))
        continue;
      auto Edge = alongEdge(B, I, St);
      const CFGBlock *Other =
          B->succ_size() == 2 ? B->succ_begin()[1 - I].getReachableBlock() : nullptr;
      bool Noteworthy = Cond && Other && St.Tokens.count(G.Token) &&
                        !isOrdered(St, G.Token, G.Stream) && OtherWayOrders(Other, To);
      Stack.push_back({To, Edge ? std::move(*Edge) : St, Formula.mark(), VisitLog.size(),
                       Notes.size(), Cond, Taken, Noteworthy, CallTests.size()});
    }
  }
  Searching = nullptr;
  if (!Goal.Hit)
    Notes.clear();
  return Goal.Hit;
}

} // namespace streams
} // namespace cgt
