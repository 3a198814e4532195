//===- Witness.cpp - a path that can happen, for every finding ------------===//
//
// The dataflow merges paths (Join.h), so a finding may stand only on a
// merge of paths none of which can happen: a resource acquired under
// `a || b` and released under `b || a`, a bool bound to a test of the
// handle, a guard that aborts. Before a finding leaves, this file looks
// for a witness: ONE path from the function's entry on which the engine's
// own transfer functions, applied without any join, make the same report,
// and whose branch decisions and assignments an SMT solver finds
// satisfiable (Values/PathFormula.h). This is what the Clang Static
// Analyzer's `crosscheck-with-z3` does with its bug paths, except that our
// paths are not kept, so they are searched again:
//
//   entry --(depth first over the CFG, with the path's own disjuncts,
//            never joined with another path's)--> report point
//     at each block:  the formula takes the block's assignments and calls;
//                     the engine transfers the block (no join, no widening)
//     at each edge:   the engine refines (it may already know the edge is
//                     dead); the solver must accept the branch condition,
//                     except into a sink (a checked call's `exit` arm:
//                     endsInSink), where only a report made there asks it
//     the report:     the engine reports the finding being searched for
//     an inert branch (logging under a flag; InertBranches.cpp): both ways
//                     at once, the condition assumed neither way
//     a region the finding's resource passes unchanged (a branch up to where its ways meet,
//                     a whole loop entered from before it;
//                     MergedRegions.cpp): crossed in one step, its writes
//                     unknown, its states the engine's join
//     an error check (one way leaves the function straight away: `exit`, or
//                     a clean-up and a return): both ways enter without a
//                     query; the next query checks them with the rest, and
//                     a report made before one is confirmed by one
//
// Verdicts: Found (the notes become that path's), Refuted (every path was
// explored, none reports it: the finding is dropped), GaveUp (a loop was
// cut after MaxUnroll visits, or the step or query budget ran out: the
// finding stays, and --stats counts it). Only a search that was never cut
// refutes, so a finding is dropped only when no path within the bounds the
// search explored completely can make it.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Values/PathFormula.h"

#include "llvm/Support/raw_ostream.h"

namespace cgt {
namespace lifetime {

namespace {

/// Bounds of one search: visits of a block on one path (loops unrolled
/// this often), blocks entered, solver queries.
constexpr unsigned MaxUnroll = 3;
/// Times one path may skip iterations at one loop head (acceleration).
constexpr unsigned MaxAccelerations = 2;
/// Skips more, one per iteration that started on a value its unit-step
/// counter is tested against (the counter moves past each such value once).
constexpr unsigned MaxPivotStarts = 4;
/// In the visit log: a visit that skipped iterations, counted nowhere.
constexpr unsigned SkippedIterations = ~0u;
constexpr unsigned MaxSteps = 4000;
constexpr unsigned MaxQueries = 400;

/// One pending way on: the block, the disjuncts that enter it (the path's
/// projections onto each resource, as the walk would have them had it
/// seen this path alone), where the formula and the visit counts stood,
/// and the branch taken to get there.
struct WayOn {
  const CFGBlock *Block;
  StateSet States;
  values::PathFormula::Mark Formula;
  size_t Visited;
  const Expr *Cond;
  bool Taken;
  /// Variables whose address the path handed out so far (the walk keeps
  /// one set for all paths, in the order it visits them).
  std::set<Key> AddressEscaped;
  /// The branch is decided without asking the solver: one of its ways
  /// leaves the function straight away (leavesStraightAway: an error check,
  /// whose ways both hold but where the call's status was decided before).
  bool UncheckedEdge = false;
  /// The formula holds decisions no query has checked yet: a report on
  /// this path is confirmed by one final query.
  bool Pending = false;
  /// The block the way comes from (null at the entry).
  const CFGBlock *From = nullptr;
};

} // namespace

void Analysis::refuteFindings() {
  if (!A.Opts.RefuteWithSolver || SummaryMode || CollectMembers || ReportedInWalk.empty())
    return;
  if (!values::PathFormula::available()) {
    static bool Said = false;
    if (!Said)
      llvm::errs() << "cudagraph-tidy: this build of LLVM has no Z3; findings are reported "
                      "without refutation\n";
    Said = true;
    return;
  }
  LifetimeStats &Stats = lifetimeStats();
  for (auto It = Findings.begin(); It != Findings.end();) {
    unsigned R = FindingResource[It->first];
    if (!ReportedInWalk.count(It->first) || llvm::is_contained(WidenedRes, R) ||
        DependentlyDecided.count(R)) {
      ++It;
      continue;
    }
    std::vector<PathNote> Notes;
    switch (searchWitness(It->first, Notes)) {
    case WitnessSearch::Found:
      ++Stats.Confirmed;
      if (!Notes.empty())
        It->second.Notes = std::move(Notes);
      ++It;
      break;
    case WitnessSearch::Refuted:
      ++Stats.Refuted;
      It = Findings.erase(It);
      break;
    case WitnessSearch::GaveUp:
      ++Stats.RefutationGaveUp;
      ++It;
      break;
    }
  }
}

/// The error arm of a checked call (`if (e != cudaSuccess) { log; exit(1);
/// }`) ends the path in its first block, through a call that neither
/// returns nor throws: nothing after it can report, so the search follows
/// the branch into it without a solver query (most branches of long host
/// functions are such arms, and each query counts against the budget).
bool Analysis::endsInSink(const CFGBlock *B) {
  if (!B->hasNoReturnElement())
    return false;
  const Stmt *Last = lastCall(B);
  return !handlerDispatchFor(Last) && !throwsOut(Last);
}

/// Every way from `B` ends the function within a few blocks, with no loop:
/// a sink, or a clean-up that returns (`if (e != cudaSuccess) { if (p)
/// cudaFree(p); return e; }`). A branch into such a way is an error check:
/// both its ways are entered without a query (a report made on the way out
/// is confirmed by one).
bool Analysis::leavesStraightAway(const CFGBlock *B) {
  std::vector<const CFGBlock *> Seen;
  return collectStraightAway(B, Seen);
}

/// leavesStraightAway, with the blocks on those ways in `Seen`.
bool Analysis::collectStraightAway(const CFGBlock *B, std::vector<const CFGBlock *> &Seen) {
  constexpr unsigned MaxBlocks = 8;
  llvm::SmallVector<const CFGBlock *, MaxBlocks> Work{B};
  while (!Work.empty()) {
    const CFGBlock *X = Work.pop_back_val();
    if (X == &Cfg->getExit() || llvm::is_contained(Seen, X))
      continue;
    if (X->hasNoReturnElement()) {
      if (!endsInSink(X))
        return false;
      Seen.push_back(X);
      continue;
    }
    if (Seen.size() == MaxBlocks || isLoopHead(X) || X->succ_empty())
      return false;
    Seen.push_back(X);
    for (const CFGBlock::AdjacentBlock &Succ : X->succs())
      if (const CFGBlock *To = Succ.getReachableBlock()) {
        if (Order[To->getBlockID()] <= Order[X->getBlockID()] && To != &Cfg->getExit())
          return false;
        Work.push_back(To);
      }
  }
  return true;
}

/// A block entered by an edge from later in reverse post-order. A block
/// the entry cannot reach has no place in that order (Order holds N): the
/// loop-back block of `do { ... } while (0)`, which every checking macro
/// expands to, is one, and its body is no loop head (a skip there would
/// let the counters of the loops around it jump: PathFormulaLoops.cpp).
bool Analysis::isLoopHead(const CFGBlock *B) const {
  unsigned Unreached = Cfg->getNumBlockIDs();
  return llvm::any_of(B->preds(), [&](const CFGBlock::AdjacentBlock &Pred) {
    const CFGBlock *From = Pred.getReachableBlock();
    return From && Order[From->getBlockID()] != Unreached &&
           Order[From->getBlockID()] >= Order[B->getBlockID()];
  });
}

/// At a loop head the path enters again with the resources as they were
/// at its previous visit: the iteration in between changed no resource, so
/// any number of such iterations may follow; the formula skips them
/// (PathFormula::accelerate) and the engine forgets what it knew of the
/// values they write. A path that comes back once more the same way after
/// such a skip, having written only what the skip made unknown, is one the
/// skip already stands for: it is not followed (Subsumed), unless the
/// iteration in between may have started where a unit-step counter was
/// tested (the skip may not pass such a value: PathFormulaLoops.cpp).
Analysis::LoopHeadStep Analysis::accelerateLoop(const CFGBlock *B,
                                                std::vector<LoopHeadVisit> &Heads,
                                                values::PathFormula &Formula, StateSet &S,
                                                LoopHeadVisit &Visit) {
  unsigned Accelerated = 0, PivotStarts = 0;
  const LoopHeadVisit *Previous = nullptr;
  std::set<unsigned> SkippedBefore; // by any skip at this head on the path
  for (const LoopHeadVisit &V : Heads)
    if (V.Block == B) {
      Previous = &V;
      Accelerated += V.Accelerated;
      PivotStarts += V.AfterPivot;
      SkippedBefore.insert(V.Skipped.begin(), V.Skipped.end());
    }
  if (!Previous || !sameResources(Previous->States, S))
    return LoopHeadStep::Enter;
  std::vector<unsigned> WrittenSince =
      Formula.placesWrittenSince(Previous->Formula, B->getTerminatorStmt());
  if (Previous->Accelerated &&
      llvm::all_of(WrittenSince, [&](unsigned P) { return llvm::is_contained(Previous->Skipped, P); })) {
    if (!Formula.startedOnPivot(Previous->Counter))
      return LoopHeadStep::Subsumed;
    Visit.AfterPivot = true;
    ++PivotStarts;
  }
  // An inner loop's head reached again around its outer loop: the skip
  // there made the outer iteration's writes unknown, the next inner
  // iteration writes the body's, which no skip at this head covered. One
  // more skip is allowed whenever the written places grow past every
  // earlier skip's here, which they can do only finitely often.
  bool Grows = llvm::any_of(WrittenSince, [&](unsigned P) { return !SkippedBefore.count(P); });
  if (Accelerated >= MaxAccelerations + std::min(PivotStarts, MaxPivotStarts) && !Grows)
    return LoopHeadStep::Enter;
  Visit.Skipped = std::move(WrittenSince);
  std::vector<const void *> Roots =
      Formula.accelerate(Previous->Formula, B->getTerminatorStmt(), &Visit.Counter);
  auto Written = [&](Key K) {
    return llvm::is_contained(Roots, static_cast<const void *>(K->Decl)) ||
           (K->Member && llvm::is_contained(Roots, static_cast<const void *>(K->Member)));
  };
  for (PathState &P : S)
    invalidateFactsIf(Written, P);
  return LoopHeadStep::Accelerate;
}

Analysis::WitnessSearch Analysis::searchWitness(const FindingId &Id, std::vector<PathNote> &Notes) {
  // The API's calls write only through their arguments; everything else
  // may write members and globals.
  values::PathFormula Formula(Ctx, FD, [&](const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && A.entryFor(Callee, Call->getNumArgs());
  });
  ReplayGoal Goal{Id, FindingResource[Id]};
  // What the replay must not leave behind: its reports are not findings,
  // and what it learns of members belongs to the walk.
  std::set<unsigned> SavedLeaked = std::move(Leaked);
  Leaked.clear();
  std::set<unsigned> SavedDecided = DependentlyDecided;
  auto SavedMembers = MembersLiveAtExit;
  const CFGBlock *SavedBlock = CurrentBlock;
  std::set<Key> SavedEscaped = AddressEscaped;
  Replay = &Goal;

  std::vector<unsigned> Visits(Cfg->getNumBlockIDs(), 0);
  std::vector<unsigned> VisitLog;
  std::vector<LoopHeadVisit> Heads; // this path's visits of loop heads
  std::vector<WayOn> Stack;
  bool Cut = false;
  unsigned Steps = 0;
  {
    StateSet Start;
    Start.push_back(entryState());
    splitDisjuncts(Start, &Cfg->getEntry());
    Stack.push_back({&Cfg->getEntry(), std::move(Start), Formula.mark(), 0, nullptr, false,
                     AddressEscapedOnEntry});
  }
  bool Pending = false;             // of the way being followed
  const CFGBlock *Current = nullptr; // its block
  auto PushWay = [&](const CFGBlock *To, StateSet S, const Expr *Cond, bool Taken,
                     bool Unchecked = false) {
    if (!S.empty())
      Stack.push_back({To, std::move(S), Formula.mark(), VisitLog.size(), Cond, Taken,
                       AddressEscaped, Unchecked, Pending, Current});
  };
  // A report on a way with unchecked decisions stands only if they hold.
  auto ConfirmHit = [&] {
    if (Goal.Hit && Pending && !Formula.feasible()) {
      Goal.Hit = false;
      Goal.Notes.clear();
    }
  };

  while (!Stack.empty() && !Goal.Hit) {
    WayOn W = std::move(Stack.back());
    Stack.pop_back();
    Formula.backTo(W.Formula);
    for (; VisitLog.size() > W.Visited; VisitLog.pop_back())
      if (VisitLog.back() != SkippedIterations)
        --Visits[VisitLog.back()];
    while (!Heads.empty() && Heads.back().Visited >= W.Visited)
      Heads.pop_back();
    // Reports are counted once per resource (Leaked); what another path,
    // or another way through a crossed region, reported must not hide the
    // report this path makes.
    Leaked.clear();
    Pending = W.Pending;
    if (W.Cond && W.UncheckedEdge)
      Pending |= Formula.assumeUnchecked(W.Cond, W.Taken);
    else if (W.Cond && !Formula.assume(W.Cond, W.Taken, &Pending))
      continue;
    const CFGBlock *B = W.Block;
    if (++Steps > MaxSteps || Formula.queries() > MaxQueries) {
      Cut = true;
      break;
    }
    Current = B;
    bool Head = isLoopHead(B);
    const std::set<const CFGBlock *> *Natural = Head ? naturalLoop(B) : nullptr;
    if (Natural && !Natural->count(W.From)) {
      // Entered from before the loop: the whole loop in one step, if the
      // finding's resource passes it unchanged (MergedRegions.cpp).
      const MergeRegion *Loop = mergeRegion(B);
      AddressEscaped = W.AddressEscaped;
      if (Loop && crossRegion(nullptr, *Loop, W.States, Formula)) {
        PushWay(Loop->Join, std::move(W.States), nullptr, false);
        continue;
      }
    }
    LoopHeadVisit Visit{B, {}, {}, 0, false, {}, {}, false};
    LoopHeadStep Step =
        Head ? accelerateLoop(B, Heads, Formula, W.States, Visit) : LoopHeadStep::Enter;
    if (Step == LoopHeadStep::Subsumed)
      continue;
    bool Accelerated = Step == LoopHeadStep::Accelerate;
    // Every cycle of the CFG passes a loop head (a block entered by an edge
    // from later in reverse post-order), so bounding heads bounds paths.
    if (Head && !Accelerated && Visits[B->getBlockID()] >= MaxUnroll) {
      Cut = true;
      continue;
    }
    if (!Accelerated)
      ++Visits[B->getBlockID()];
    VisitLog.push_back(Accelerated ? SkippedIterations : B->getBlockID());
    if (Head) {
      Visit.Formula = Formula.mark();
      Visit.States = W.States;
      Visit.Visited = VisitLog.size() - 1;
      Visit.Accelerated = Accelerated;
      Heads.push_back(std::move(Visit));
    }

    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>())
        Formula.apply(CS->getStmt());
    AddressEscaped = std::move(W.AddressEscaped);
    StateSet S = std::move(W.States);
    transferBlock(B, S);
    splitDisjuncts(S, B);
    for (auto &[Dispatch, Path] : Diverted) {
      StateSet One;
      One.push_back(std::move(Path));
      splitDisjuncts(One, B);
      PushWay(Dispatch, std::move(One), nullptr, false);
    }
    Diverted.clear();
    ConfirmHit();
    if (Goal.Hit || S.empty())
      continue;
    if (B->hasNoReturnElement()) {
      if (const CFGBlock *Dispatch = handlerDispatchFor(lastCall(B)))
        PushWay(Dispatch, std::move(S), nullptr, false);
      else if (throwsOut(lastCall(B)))
        for (const PathState &P : S)
          onThrowLeaving(lastCall(B), P);
      continue;
    }
    if (const InertBranch *Inert = inertBranch(B)) {
      // Both ways at once (InertBranches.cpp): the arm's effects, no
      // assumption, no refinement.
      for (const CFGBlock *ArmBlock : Inert->Arm) {
        for (const CFGElement &E : *ArmBlock)
          if (auto CS = E.getAs<CFGStmt>())
            Formula.apply(CS->getStmt());
        transferBlock(ArmBlock, S);
      }
      PushWay(Inert->Join, std::move(S), nullptr, false);
      continue;
    }
    if (const MergeRegion *Region = Head ? nullptr : mergeRegion(B);
        Region && crossRegion(B, *Region, S, Formula)) {
      PushWay(Region->Join, std::move(S), nullptr, false);
      continue;
    }
    const Expr *Cond = !isa_and_nonnull<SwitchStmt>(B->getTerminatorStmt()) && B->succ_size() == 2
                           ? B->getLastCondition()
                           : nullptr;
    bool TwoWay = B->succ_size() == 2 && B->succ_begin()[0].getReachableBlock() &&
                  B->succ_begin()[1].getReachableBlock();
    bool ErrorCheck = TwoWay && (leavesStraightAway(B->succ_begin()[0].getReachableBlock()) ||
                                 leavesStraightAway(B->succ_begin()[1].getReachableBlock()));
    // Pushed last to first, so the first way on is explored first.
    for (unsigned I = B->succ_size(); I-- > 0 && !Goal.Hit;) {
      const CFGBlock *To = B->succ_begin()[I].getReachableBlock();
      if (!To)
        continue;
      StateSet Refined = propagateEdge(B, I, To, S, TwoWay);
      if (Refined.empty())
        continue;
      if (To != &Cfg->getExit()) {
        PushWay(To, std::move(Refined), Cond, I == 0, Cond && ErrorCheck);
        continue;
      }
      if (A.Opts.SinkPathsAreSilent && isa_and_nonnull<CXXTryStmt>(B->getTerminatorStmt()))
        continue;
      values::PathFormula::Mark Before = Formula.mark();
      bool PendingBefore = Pending;
      if (!Cond || Formula.assume(Cond, I == 0, &Pending)) {
        checkExit(B, Refined);
        ConfirmHit();
      }
      Pending = PendingBefore;
      Formula.backTo(Before);
    }
  }

  Replay = nullptr;
  Leaked = std::move(SavedLeaked);
  DependentlyDecided = std::move(SavedDecided);
  MembersLiveAtExit = std::move(SavedMembers);
  CurrentBlock = SavedBlock;
  AddressEscaped = std::move(SavedEscaped);
  Diverted.clear();
  if (Goal.Hit) {
    Notes = std::move(Goal.Notes);
    return WitnessSearch::Found;
  }
  return Cut ? WitnessSearch::GaveUp : WitnessSearch::Refuted;
}

} // namespace lifetime
} // namespace cgt
