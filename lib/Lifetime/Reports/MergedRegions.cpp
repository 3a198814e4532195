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
// reaches J or ends in a sink: a checked call's `exit` arm), with no loop,
// no exit and no throw in between, is a region. The search crosses it as
// one step when the engine says it may:
//
//   states at J   the engine's own dataflow over the region's blocks, from
//                 the branch to J, joined at each block as the walk joins
//                 (Join.h): an over-approximation of every way through it
//   formula at J  everything a statement of the region may write is
//                 unknown (PathFormula::forgetWritesOf); no branch of the
//                 region is assumed either way
//   taken when    the resources at J are in the states they had at the
//                 branch (no way through the region changed one), no
//                 report the search looks for was made in it, and nothing
//                 was widened or diverted to a handler
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

/// The region that starts at the branch `B`: its blocks are expanded in
/// reverse post-order, so each is reached only after every block of the
/// region before it; the first block left alone on the frontier is where
/// every way meets.
std::optional<Analysis::MergeRegion> Analysis::findBranchRegion(const CFGBlock *B) {
  if (!twoReachableSuccessors(B) || isLoopHead(B) ||
      isa_and_nonnull<SwitchStmt, CXXTryStmt>(B->getTerminatorStmt()))
    return std::nullopt;
  for (const CFGBlock::AdjacentBlock &Succ : B->succs())
    if (endsInSink(Succ.getReachableBlock()))
      return std::nullopt; // followed without a query already (Witness.cpp)
  auto ByOrder = [&](const CFGBlock *X, const CFGBlock *Y) {
    return Order[X->getBlockID()] < Order[Y->getBlockID()];
  };
  std::set<const CFGBlock *, decltype(ByOrder)> Frontier(ByOrder);
  for (const CFGBlock::AdjacentBlock &Succ : B->succs())
    Frontier.insert(Succ.getReachableBlock());
  MergeRegion Region;
  while (!Frontier.empty()) {
    const CFGBlock *X = *Frontier.begin();
    Frontier.erase(Frontier.begin());
    if (Frontier.empty()) {
      if (X == &Cfg->getExit())
        return std::nullopt;
      Region.Join = X;
      return Region;
    }
    if (X == &Cfg->getExit() || Order[X->getBlockID()] <= Order[B->getBlockID()] ||
        isLoopHead(X) || Region.Blocks.size() >= MaxRegionBlocks || throwsOrTries(X))
      return std::nullopt;
    Region.Blocks.push_back(X);
    for (const CFGBlock::AdjacentBlock &Succ : X->succs()) {
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To)
        continue;
      if (Order[To->getBlockID()] <= Order[X->getBlockID()])
        return std::nullopt; // a back edge
      if (!To->hasNoReturnElement())
        Frontier.insert(To);
      else if (!endsInSink(To))
        return std::nullopt;
      else if (!llvm::is_contained(Region.Sinks, To))
        Region.Sinks.push_back(To); // later in the order than the join, often
    }
  }
  return std::nullopt;
}

/// The natural loop of the head `H`: the blocks that reach a way back into
/// `H` without passing it. It is a region when every way out of it leads
/// to one block (the join) or into a sink.
std::optional<Analysis::MergeRegion> Analysis::findLoopRegion(const CFGBlock *H) {
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
    if (X == &Cfg->getEntry() || Body.size() > MaxRegionBlocks)
      return std::nullopt; // entered elsewhere than at its head, or too big
    for (const CFGBlock::AdjacentBlock &Pred : X->preds())
      if (Reached(Pred.getReachableBlock()))
        Work.push_back(Pred.getReachableBlock());
  }
  MergeRegion Loop;
  for (const CFGBlock *X : Body) {
    if (throwsOrTries(X) || X->hasNoReturnElement())
      return std::nullopt;
    Loop.Blocks.push_back(X);
    for (const CFGBlock::AdjacentBlock &Succ : X->succs()) {
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To || Body.count(To))
        continue;
      if (To->hasNoReturnElement()) {
        if (!endsInSink(To))
          return std::nullopt;
        if (!llvm::is_contained(Loop.Sinks, To))
          Loop.Sinks.push_back(To);
      } else if (To == &Cfg->getExit() || (Loop.Join && Loop.Join != To)) {
        return std::nullopt; // a return or a second way out
      } else {
        Loop.Join = To;
      }
    }
  }
  if (!Loop.Join)
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
      if (!To || (To != Region.Join && !Inside(To)))
        continue;
      StateSet Refined = propagateEdge(X, I, To, Out, TwoWay);
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
  }
  StateSet AtJoin = std::move(In[Region.Join]);
  bool LoopSettled = From || sameResources(S, In[Region.Blocks.front()]);
  if (!Widened.empty() || AtJoin.empty() || !LoopSettled || !sameResources(S, AtJoin))
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
