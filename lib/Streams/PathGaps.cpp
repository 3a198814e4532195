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
//                     wait is no race the program makes); two calls of
//                     one unmodelled function with one text (a bool bound
//                     to `timing_on(o)`, a test of it again) give one result
//     at a branch whose ways all leave the state as it is: one step to
//                     where they meet (GapRegions.cpp)
//     at a loop head reached again with the state of its last visit: any
//                     number of such rounds skipped (skipIterations)
//     the order:      ways that reach the site without going round a loop
//                     first, among them the way that skips an ordering the
//                     other way makes (the search is aimed at the gap)
//     at the site:    the transfer finds the gap's token unordered (hit)
//
// Only a hit reports; a search cut by its bounds, like one that finds
// nothing, says nothing (--stats counts both apart: streamStats()). The
// notes add the branches the path takes whose other way ordered the work
// (read from the fixpoint's states), so the reader sees which way skips
// the wait.
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
constexpr unsigned MaxUnroll = 3;
/// Times one path may skip iterations at one loop head.
constexpr unsigned MaxSkips = 3;
/// In the visit log: a visit that skipped iterations, counted nowhere.
constexpr unsigned SkippedIterations = ~0u;
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

/// One visit of a loop head on the path being followed.
struct HeadVisit {
  const CFGBlock *Block;
  OrderState St;
  values::PathFormula::Mark Formula;
  size_t Visited; ///< the path's visit log up to this visit
  bool Accelerated = false;
  std::vector<unsigned> Skipped; ///< places the skip made unknown
  values::PathFormula::Skip Counter;
};

enum class LoopStep { Enter, Skip, Subsumed };

/// At a loop head the path enters again with the state it had at its
/// previous visit: the iteration in between ordered nothing new, so any
/// number of such iterations may follow; the formula skips them
/// (PathFormula::accelerate), and the path may leave the loop however
/// many rounds its bound asks for (`for (k = 0; k < 4; ++k)` no longer
/// needs five visits). A path that comes back once more after a skip,
/// having written only what the skip made unknown, is one the skip stands
/// for (Subsumed), unless that iteration may have started where the loop's
/// counter is tested (PathFormulaLoops.cpp). As the lifetime witness
/// search does (Lifetime/Reports/Witness.cpp, accelerateLoop).
LoopStep skipIterations(const CFGBlock *B, const std::vector<HeadVisit> &Heads,
                        values::PathFormula &Formula, const OrderState &St, HeadVisit &Visit) {
  const HeadVisit *Previous = nullptr;
  unsigned Skips = 0;
  for (const HeadVisit &V : Heads)
    if (V.Block == B) {
      Previous = &V;
      Skips += V.Accelerated;
    }
  if (!Previous || !(Previous->St == St))
    return LoopStep::Enter;
  std::vector<unsigned> Written = Formula.placesWrittenSince(Previous->Formula, B->getTerminatorStmt());
  if (Previous->Accelerated &&
      llvm::all_of(Written, [&](unsigned P) { return llvm::is_contained(Previous->Skipped, P); }) &&
      !Formula.startedOnPivot(Previous->Counter))
    return LoopStep::Subsumed;
  if (Skips >= MaxSkips)
    return LoopStep::Enter;
  Visit.Skipped = std::move(Written);
  Formula.accelerate(Previous->Formula, B->getTerminatorStmt(), &Visit.Counter);
  return LoopStep::Skip;
}

} // namespace

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
    SearchEnd End = searchWitness(Cfg, G, PathNotes);
    StreamStats &Stats = streamStats();
    ++(End == SearchEnd::Found ? Stats.GapsConfirmed
                               : End == SearchEnd::Cut ? Stats.GapsCut : Stats.GapsNoPath);
    if (End != SearchEnd::Found)
      continue;
    std::vector<PathNote> Notes = std::move(PathNotes);
    Notes.insert(Notes.end(), G.Notes.begin(), G.Notes.end());
    Reporting = true;
    report(G.Kind, G.Site, G.Var, G.Called, G.Detail, std::move(Notes));
    Reporting = false;
  }
}

FunctionRun::SearchEnd FunctionRun::searchWitness(const CFG &Cfg, const PathGap &G,
                                                  std::vector<PathNote> &Notes) {
  values::PathFormula Formula(Ctx, FD, [&](const CallExpr *Call) { return A.modelFor(Call); });
  if (!HandleTests)
    HandleTests = localsBoundToHandleTests(FD, Ctx);
  WitnessSearch Goal{G};
  Searching = &Goal;
  BranchRegions Regions(Cfg, BackEdges);
  const std::vector<char> LeadsToSite = Regions.leadingTo(G.Site);

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
    size_t HeldKept;
  };
  // The tests of unmodelled calls the path decided, by text (callTestOf).
  std::vector<std::pair<std::string, bool>> CallTests;
  // The unmodelled calls the path applied, by text, each text's first
  // (heldCallKey): a later one gets its result.
  std::vector<std::pair<std::string, const CallExpr *>> Held;
  auto HoldToEarlier = [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    std::optional<std::string> Key = Call ? heldCallKey(Call, A, Ctx) : std::nullopt;
    if (!Key)
      return;
    auto Earlier = llvm::find_if(Held, [&](const auto &H) { return H.first == *Key; });
    if (Earlier == Held.end())
      Held.push_back({std::move(*Key), Call});
    else
      Formula.sameValue(Call, Earlier->second);
  };
  std::vector<unsigned> Visits(Cfg.getNumBlockIDs(), 0);
  std::vector<unsigned> VisitLog;
  std::vector<HeadVisit> Heads; // this path's visits of loop heads
  std::vector<WayOn> Stack;
  {
    OrderState Start;
    Start.Reached = true;
    Stack.push_back(
        {&Cfg.getEntry(), std::move(Start), Formula.mark(), 0, 0, nullptr, false, false, 0, 0});
  }
  unsigned Steps = 0;
  bool Cut = false;
  while (!Stack.empty() && !Goal.Hit) {
    WayOn W = std::move(Stack.back());
    Stack.pop_back();
    Formula.backTo(W.Formula);
    for (; VisitLog.size() > W.Visited; VisitLog.pop_back())
      if (VisitLog.back() != SkippedIterations)
        --Visits[VisitLog.back()];
    while (!Heads.empty() && Heads.back().Visited >= W.Visited)
      Heads.pop_back();
    Notes.resize(W.NotesKept);
    CallTests.resize(W.CallTestsKept);
    Held.resize(W.HeldKept);
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
    if (++Steps > MaxSteps || Formula.queries() > MaxQueries) {
      Cut = true;
      break;
    }
    bool Head = Regions.isLoopHead(B);
    HeadVisit Visit{B, {}, {}, 0};
    LoopStep Step = Head ? skipIterations(B, Heads, Formula, W.St, Visit) : LoopStep::Enter;
    if (Step == LoopStep::Subsumed)
      continue;
    bool Skipped = Step == LoopStep::Skip;
    // Every cycle of the CFG passes a loop head, so bounding heads bounds
    // paths.
    if (Head && !Skipped && Visits[B->getBlockID()] >= MaxUnroll) {
      Cut = true;
      continue;
    }
    if (!Skipped)
      ++Visits[B->getBlockID()];
    VisitLog.push_back(Skipped ? SkippedIterations : B->getBlockID());
    if (Head) {
      Visit.St = W.St;
      Visit.Formula = Formula.mark();
      Visit.Visited = VisitLog.size() - 1;
      Visit.Accelerated = Skipped;
      Heads.push_back(std::move(Visit));
    }

    OrderState St = std::move(W.St);
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>()) {
        Formula.apply(CS->getStmt());
        HoldToEarlier(CS->getStmt());
        transfer(St, CS->getStmt());
        if (Goal.Hit)
          break;
      }
    if (Goal.Hit || B->hasNoReturnElement())
      continue;
    // Ways that all leave the state as it is: crossed as one (GapRegions.cpp).
    if (const BranchRegions::Region *R = Head ? nullptr : Regions.at(B);
        R && passesUnchanged(B, *R, St)) {
      std::vector<const Stmt *> Written;
      for (const CFGBlock *X : R->Blocks)
        for (const CFGElement &E : *X)
          if (auto CS = E.getAs<CFGStmt>()) {
            Written.push_back(CS->getStmt());
            // A call's result is unknown either way, but one: a bool bound
            // after the region (`want = n > 0 && timing_on(o)`) reads it,
            // and a later call of the same text is held to it.
            if (isa<CallExpr>(CS->getStmt())) {
              Formula.apply(CS->getStmt());
              HoldToEarlier(CS->getStmt());
            }
          }
      Formula.forgetWritesOf(Written);
      Stack.push_back({R->Join, std::move(St), Formula.mark(), VisitLog.size(), Notes.size(),
                       nullptr, false, false, CallTests.size(), Held.size()});
      continue;
    }
    const Expr *Cond = !isa_and_nonnull<SwitchStmt>(B->getTerminatorStmt()) && B->succ_size() == 2
                           ? B->getLastCondition()
                           : nullptr;
    const BinaryOperator *Identity = Cond ? handleComparison(Cond, Ctx) : nullptr;
    // A way on which a CUDA call failed is error handling: a capture or an
    // ordering it skips is not the program's (a failed call inside a
    // capture invalidates it anyway), so no gap is confirmed there.
    std::optional<unsigned> Failing = Cond ? failingWayOf(Cond, St) : std::nullopt;
    bool Opaque = Cond && !Identity && testsHandleIdentity(Cond, Ctx, *HandleTests);
    // The ways on, aimed at the site: first those that reach it without
    // going round a loop (`if (skip) continue;` last), among them first
    // those that skip an ordering the other way makes, then the true way
    // before the false one.
    std::vector<std::pair<unsigned, WayOn>> Ways; // (rank, way): lower first
    for (unsigned I = 0; I < B->succ_size(); ++I) {
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
      // A loop's round or its end is no decision to skip an ordering.
      bool Noteworthy = Cond && Other && !Head && St.Tokens.count(G.Token) &&
                        !isOrdered(St, G.Token, G.Stream) && OtherWayOrders(Other, To);
      unsigned Rank = (LeadsToSite[To->getBlockID()] ? 0 : 4) + (Noteworthy ? 0 : 2) + (Taken ? 0 : 1);
      Ways.push_back({Rank, {To, Edge ? std::move(*Edge) : St, Formula.mark(), VisitLog.size(),
                             Notes.size(), Cond, Taken, Noteworthy, CallTests.size(), Held.size()}});
    }
    llvm::stable_sort(Ways, [](const auto &X, const auto &Y) { return X.first > Y.first; });
    for (auto &Way : Ways)
      Stack.push_back(std::move(Way.second));
  }
  Searching = nullptr;
  if (Goal.Hit)
    return SearchEnd::Found;
  Notes.clear();
  return Cut ? SearchEnd::Cut : SearchEnd::NoPath;
}

} // namespace streams
} // namespace cgt
