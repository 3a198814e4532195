//===- MergedRegions.cpp - regions a witness search crosses in one step ---===//
//
// A witness search (Witness.cpp) follows one path at a time, so every
// branch on its way doubles the paths it may have to explore. Real host
// functions branch a lot where no resource changes: a peer-access set-up
// under `if (!nop2p) { ... if (canAccessPeer) ... }`, a chunk size chosen
// by rank, a result printed as CSV or as text, each inside a loop the
// search unrolls. On one of them (multi-GPU Jacobi, one function of 280
// lines and a dozen loops) the search ran out of its query budget long
// before it could show that the resource it was asked about is freed on
// every path, and a false alarm was kept.
//
// A branch whose ways meet again at a block J (every way from the branch
// reaches J, returns, or ends in a sink: a checked call's `exit` arm), with
// no loop and no throw in between, is a region; so is a loop whose ways
// out lead to one block J (or return, or end in a sink). The search crosses it as
// one step when the engine says it may:
//
//   states at J   the engine's own dataflow over the region's blocks, from
//                 the branch to J, joined at each block as the walk joins
//                 (Join.h): an over-approximation of every way through it
//   formula at J  everything a statement of the region may write is
//                 unknown (PathFormula::forgetWritesOf); no branch of the
//                 region is assumed either way
//   taken when    the finding's resource is at J (and, for a loop, back at
//                 its head) in the states it had at the entry (no way
//                 through the region changed it; other resources may be
//                 born and die there), the report the search looks for was
//                 not made in it (at a return inside it either), and
//                 nothing was widened or diverted to a handler
//
// Otherwise the search forks at the branch as before. A crossed region
// stands for every way through it, with a weaker formula and weaker facts
// than any one of them, so no path the search would have found is lost and
// refutation stays sound: this is path merging at a join, as bounded model
// checkers merge diamonds (the "veritesting" of Avgerinos et al., ICSE
// 2014), restricted to regions the tracked resources pass unchanged.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Values/PathFormula.h"

namespace cgt {
namespace lifetime {

namespace {

/// Blocks a region may hold, at most (a region is crossed at every visit
/// of its entry, so its cost is paid on every path through it).
constexpr unsigned MaxRegionBlocks = 64;
/// Passes of the dataflow over one block of a loop before the crossing is
/// given up (the join only loses facts and widens values, so it settles
/// in a few).
constexpr unsigned MaxPassesPerBlock = 6;

bool twoReachableSuccessors(const CFGBlock *B) {
  return B->succ_size() == 2 && B->succ_begin()[0].getReachableBlock() &&
         B->succ_begin()[1].getReachableBlock() &&
         B->succ_begin()[0].getReachableBlock() != B->succ_begin()[1].getReachableBlock();
}

bool throwsOrTries(const CFGBlock *B) {
  return isa_and_nonnull<CXXTryStmt, CXXThrowExpr>(B->getTerminatorStmt());
}

} // namespace

/// Expands `Frontier` (ways leaving `Above` forward) in reverse post-order,
/// so each block is reached only after every block of the region before it;
/// the first block left alone on the frontier is where every way meets
/// (the join). The blocks passed on the way go to `Region`. False when a
/// way loops, throws, or the region grows too big.
bool Analysis::meetWays(std::vector<const CFGBlock *> Starts, const CFGBlock *Above,
                        MergeRegion &Region) {
  auto ByOrder = [&](const CFGBlock *X, const CFGBlock *Y) {
    return Order[X->getBlockID()] < Order[Y->getBlockID()];
  };
  std::set<const CFGBlock *, decltype(ByOrder)> Frontier(Starts.begin(), Starts.end(), ByOrder);
  while (!Frontier.empty()) {
    const CFGBlock *X = *Frontier.begin();
    Frontier.erase(Frontier.begin());
    if (Frontier.empty()) {
      Region.Join = X;
      return X != &Cfg->getExit();
    }
    if (X == &Cfg->getExit() || Order[X->getBlockID()] <= Order[Above->getBlockID()] ||
        isLoopHead(X) || Region.Blocks.size() >= MaxRegionBlocks || throwsOrTries(X))
      return false;
    Region.Blocks.push_back(X);
    for (const CFGBlock::AdjacentBlock &Succ : X->succs()) {
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To)
        continue;
      if (To == &Cfg->getExit())
        continue; // a return: its ways end there (crossRegion checks them)
      if (Order[To->getBlockID()] <= Order[X->getBlockID()])
        return false; // a back edge
      if (!To->hasNoReturnElement())
        Frontier.insert(To);
      else if (!endsInSink(To))
        return false;
      else if (!llvm::is_contained(Region.Sinks, To))
        Region.Sinks.push_back(To); // later in the order than the join, often
    }
  }
  return false;
}

/// The region that starts at the branch `B`, up to where its ways meet.
std::optional<Analysis::MergeRegion> Analysis::findBranchRegion(const CFGBlock *B) {
  if (!twoReachableSuccessors(B) || isLoopHead(B) ||
      isa_and_nonnull<SwitchStmt, CXXTryStmt>(B->getTerminatorStmt()))
    return std::nullopt;
  for (const CFGBlock::AdjacentBlock &Succ : B->succs())
    if (leavesStraightAway(Succ.getReachableBlock()))
      return std::nullopt; // an error check: followed without a query (Witness.cpp)
  MergeRegion Region;
  if (!meetWays({B->succ_begin()[0].getReachableBlock(), B->succ_begin()[1].getReachableBlock()},
                B, Region))
    return std::nullopt;
  return Region;
}

/// The natural loop of the head `H`: the blocks that reach a way back into
/// `H` without passing it (null when the loop is entered elsewhere too).
const std::set<const CFGBlock *> *Analysis::naturalLoop(const CFGBlock *H) {
  auto [It, New] = LoopBodies.try_emplace(H);
  if (!New)
    return It->second ? &*It->second : nullptr;
  unsigned Unreached = Cfg->getNumBlockIDs();
  std::set<const CFGBlock *> Body{H};
  llvm::SmallVector<const CFGBlock *, 16> Work;
  auto Reached = [&](const CFGBlock *X) { return X && Order[X->getBlockID()] != Unreached; };
  for (const CFGBlock::AdjacentBlock &Pred : H->preds())
    if (Reached(Pred.getReachableBlock()) &&
        Order[Pred.getReachableBlock()->getBlockID()] >= Order[H->getBlockID()])
      Work.push_back(Pred.getReachableBlock());
  while (!Work.empty()) {
    const CFGBlock *X = Work.pop_back_val();
    if (!Body.insert(X).second)
      continue;
    if (X == &Cfg->getEntry())
      return nullptr; // entered elsewhere than at its head
    for (const CFGBlock::AdjacentBlock &Pred : X->preds())
      if (Reached(Pred.getReachableBlock()))
        Work.push_back(Pred.getReachableBlock());
  }
  It->second = std::move(Body);
  return &*It->second;
}

/// A loop is a region when its ways out meet at one block (the join), or
/// return, or end in a sink.
std::optional<Analysis::MergeRegion> Analysis::findLoopRegion(const CFGBlock *H) {
  const std::set<const CFGBlock *> *Natural = naturalLoop(H);
  if (!Natural || Natural->size() > MaxRegionBlocks)
    return std::nullopt;
  const std::set<const CFGBlock *> &Body = *Natural;
  MergeRegion Loop;
  std::vector<const CFGBlock *> Exits;
  for (const CFGBlock *X : Body) {
    if (throwsOrTries(X) || X->hasNoReturnElement())
      return std::nullopt;
    Loop.Blocks.push_back(X);
    for (const CFGBlock::AdjacentBlock &Succ : X->succs()) {
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To || Body.count(To) || To == &Cfg->getExit())
        continue; // a return: its ways end there (crossRegion checks them)
      if (To->hasNoReturnElement()) {
        if (!endsInSink(To))
          return std::nullopt;
        if (!llvm::is_contained(Loop.Sinks, To))
          Loop.Sinks.push_back(To);
      } else if (leavesStraightAway(To)) {
        // An error check's clean-up and return: its blocks end their ways.
        std::vector<const CFGBlock *> Out;
        collectStraightAway(To, Out);
        for (const CFGBlock *O : Out)
          if (!llvm::is_contained(Loop.Sinks, O))
            Loop.Sinks.push_back(O);
      } else if (!llvm::is_contained(Exits, To)) {
        Exits.push_back(To);
      }
    }
  }
  // `break` may pass through blocks of its own (scope ends) before it meets
  // the loop's exit: the ways out meet as a branch's ways do.
  if (Exits.empty() || !meetWays(Exits, H, Loop))
    return std::nullopt;
  llvm::sort(Loop.Blocks, [&](const CFGBlock *X, const CFGBlock *Y) {
    return Order[X->getBlockID()] < Order[Y->getBlockID()];
  });
  return Loop;
}

const Analysis::MergeRegion *Analysis::mergeRegion(const CFGBlock *B) {
  auto [It, New] = MergeRegions.try_emplace(B);
  if (New)
    It->second = isLoopHead(B) ? findLoopRegion(B) : findBranchRegion(B);
  return It->second ? &*It->second : nullptr;
}

/// The engine's dataflow over `Region` to its join, as the walk would run
/// it, from the states `S`: of the branch block `From` after its transfer,
/// or (From null) of the loop head before it. True, with the states at the
/// join in `S` and the formula past the region, when the region may be
/// crossed as one step (see the head comment). Otherwise nothing of the
/// search has changed.
bool Analysis::crossRegion(const CFGBlock *From, const MergeRegion &Region, StateSet &S,
                           values::PathFormula &Formula) {
  auto ByOrder = [&](const CFGBlock *X, const CFGBlock *Y) {
    return Order[X->getBlockID()] < Order[Y->getBlockID()];
  };
  std::set<const CFGBlock *, decltype(ByOrder)> Work(ByOrder);
  llvm::DenseMap<const CFGBlock *, StateSet> In;
  llvm::DenseMap<const CFGBlock *, unsigned> Passes;
  std::vector<unsigned> Widened;
  auto Inside = [&](const CFGBlock *X) {
    return llvm::is_contained(Region.Blocks, X) || llvm::is_contained(Region.Sinks, X);
  };
  auto Flow = [&](const CFGBlock *X, const StateSet &Out) {
    bool TwoWay = X->succ_size() == 2 && X->succ_begin()[0].getReachableBlock() &&
                  X->succ_begin()[1].getReachableBlock();
    for (unsigned I = 0; I < X->succ_size(); ++I) {
      const CFGBlock *To = X->succ_begin()[I].getReachableBlock();
      if (!To || (To != Region.Join && To != &Cfg->getExit() && !Inside(To)))
        continue;
      StateSet Refined = propagateEdge(X, I, To, Out, TwoWay);
      if (To == &Cfg->getExit()) {
        // A return inside the region: what it leaks is reported there,
        // and a report the search looks for ends the crossing.
        if (!Refined.empty())
          checkExit(X, Refined);
        continue;
      }
      bool Back = Order[To->getBlockID()] <= Order[X->getBlockID()];
      if (!Refined.empty() &&
          joinInto(In[To], std::move(Refined), A.Opts.MaxStatesPerPoint, Widened,
                   /*KeepFactsApart=*/false, /*WidenValues=*/Back) &&
          To != Region.Join)
        Work.insert(To);
    }
  };
  std::set<Key> EscapedBefore = AddressEscaped;
  auto GiveUp = [&] {
    Replay->Hit = false;
    Replay->Notes.clear();
    Diverted.clear();
    AddressEscaped = std::move(EscapedBefore);
    return false;
  };
  if (From) {
    Flow(From, S);
    if (Replay->Hit)
      return GiveUp();
  } else {
    In[Region.Blocks.front()] = S;
    Work.insert(Region.Blocks.front());
  }
  while (!Work.empty()) {
    const CFGBlock *X = *Work.begin();
    Work.erase(Work.begin());
    if (++Passes[X] > MaxPassesPerBlock)
      return GiveUp();
    StateSet XS = In[X];
    Leaked.clear(); // one way's report must not hide another's (Witness.cpp)
    transferBlock(X, XS);
    splitDisjuncts(XS, X);
    // A report the search looks for is one it must not merge away.
    if (Replay->Hit || !Diverted.empty())
      return GiveUp();
    if (!X->hasNoReturnElement()) // a sink's ways end there
      Flow(X, XS);
    if (Replay->Hit)
      return GiveUp();
  }
  StateSet AtJoin = std::move(In[Region.Join]);
  // Other resources may be born and die in the region (an event per
  // iteration): the join keeps their disjuncts apart, and the finding's
  // report is made on its own resource's disjuncts.
  unsigned Goal = Replay->Resource;
  bool LoopSettled = From || sameResources(S, In[Region.Blocks.front()], Goal);
  if (!Widened.empty() || AtJoin.empty() || !LoopSettled || !sameResources(S, AtJoin, Goal))
    return GiveUp();
  std::vector<const Stmt *> Written;
  for (const CFGBlock *X : Region.Blocks)
    for (const CFGElement &E : *X)
      if (auto CS = E.getAs<CFGStmt>())
        Written.push_back(CS->getStmt());
  S = std::move(AtJoin);
  Formula.forgetWritesOf(Written);
  return true;
}

} // namespace lifetime
} // namespace cgt
