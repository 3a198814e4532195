//===- GapRegions.cpp - branches the gap search crosses in one step -------===//
//
// The gap search (PathGaps.cpp) follows one path at a time, so each branch
// on the way doubles what it may have to explore before it reaches the
// gap's site. Host code branches a lot where no stream, event or
// stream-ordered allocation is touched: a log line under `if (verbose &&
// v[i] > 0)`, a size chosen one way or another. Ten such branches before
// the site were enough to spend the search's bounds on paths that all
// decided one flag the wrong way, and a gap that a path can leave open
// went unreported.
//
// A branch whose ways all meet again at a block J, with no loop, return,
// throw or sink between, is a region. The search crosses it in one step
// when it is inert for the state the path brings:
//
//   inert when     every block of the region, run from that state, leaves
//                  it as it was (then so does every way through it), no
//                  edge of it is a poll's that orders work, and the gap's
//                  site is not in it
//   formula at J   whatever a statement of the region may write is unknown
//                  (PathFormula::forgetWritesOf); no branch of the region
//                  is assumed either way
//
// A crossed region stands for every way through it with the same ordering
// facts and a weaker formula, so no path the search would have found is
// lost, and every path it confirms still passes each branch outside the
// region as the solver allows. This is the lifetime witness search's
// merging of regions a resource passes unchanged (Lifetime/Reports/
// MergedRegions.cpp), kept to the simplest case the stream state allows:
// unchanged on every block.
//
//===----------------------------------------------------------------------===//
#include "Streams/GapRegions.h"
#include "Streams/StreamEngine.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {
/// Blocks a region may hold (its blocks are run at every visit of the
/// branch on every path).
constexpr unsigned MaxRegionBlocks = 32;

bool leavesByThrow(const CFGBlock *B) {
  return isa_and_nonnull<CXXTryStmt, CXXThrowExpr>(B->getTerminatorStmt());
}
} // namespace

BranchRegions::BranchRegions(const CFG &Cfg, const std::set<std::pair<unsigned, unsigned>> &BackEdges)
    : Cfg(Cfg), BackEdges(BackEdges), Order(Cfg.getNumBlockIDs(), ~0u) {
  for (const auto &[From, To] : BackEdges)
    Heads.insert(To);
  // Post-order of the forward edges from the entry, numbered backwards.
  std::vector<const CFGBlock *> Post;
  std::vector<char> Seen(Cfg.getNumBlockIDs(), 0);
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  Stack.push_back({&Cfg.getEntry(), Cfg.getEntry().succ_begin()});
  Seen[Cfg.getEntry().getBlockID()] = 1;
  while (!Stack.empty()) {
    auto &[B, It] = Stack.back();
    if (It == B->succ_end()) {
      Post.push_back(B);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Succ = (It++)->getReachableBlock();
    if (Succ && !Seen[Succ->getBlockID()] && !isBack(B, Succ)) {
      Seen[Succ->getBlockID()] = 1;
      Stack.push_back({Succ, Succ->succ_begin()});
    }
  }
  for (size_t I = 0; I < Post.size(); ++I)
    Order[Post[I]->getBlockID()] = Post.size() - 1 - I;
}

bool BranchRegions::isLoopHead(const CFGBlock *B) const { return Heads.count(B->getBlockID()); }

std::vector<char> BranchRegions::leadingTo(const Stmt *Site) const {
  std::vector<char> Leads(Cfg.getNumBlockIDs(), 0);
  std::vector<const CFGBlock *> Work;
  for (const CFGBlock *B : Cfg)
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>(); CS && CS->getStmt() == Site && !Leads[B->getBlockID()]) {
        Leads[B->getBlockID()] = 1;
        Work.push_back(B);
      }
  while (!Work.empty()) {
    const CFGBlock *X = Work.back();
    Work.pop_back();
    for (const CFGBlock::AdjacentBlock &Pred : X->preds())
      if (const CFGBlock *P = Pred.getReachableBlock();
          P && !isBack(P, X) && !Leads[P->getBlockID()]) {
        Leads[P->getBlockID()] = 1;
        Work.push_back(P);
      }
  }
  return Leads;
}

const BranchRegions::Region *BranchRegions::at(const CFGBlock *Branch) {
  auto [It, New] = Found.try_emplace(Branch->getBlockID());
  if (New)
    It->second = meet(Branch);
  return It->second ? &*It->second : nullptr;
}

/// Expands the branch's ways in reverse post-order, so a block is taken
/// only after every block of the region before it; the first block left
/// alone on the frontier is where every way meets.
std::optional<BranchRegions::Region> BranchRegions::meet(const CFGBlock *Branch) const {
  auto ByOrder = [&](const CFGBlock *X, const CFGBlock *Y) {
    return Order[X->getBlockID()] < Order[Y->getBlockID()];
  };
  std::set<const CFGBlock *, decltype(ByOrder)> Frontier(ByOrder);
  auto Enter = [&](const CFGBlock *From) {
    for (const CFGBlock::AdjacentBlock &Succ : From->succs())
      if (const CFGBlock *To = Succ.getReachableBlock()) {
        if (isBack(From, To) || Order[To->getBlockID()] == ~0u)
          return false;
        Frontier.insert(To);
      }
    return true;
  };
  if (Branch->succ_size() != 2 || !Enter(Branch) || Frontier.size() != 2)
    return std::nullopt;
  Region R;
  while (Frontier.size() > 1) {
    const CFGBlock *X = *Frontier.begin();
    Frontier.erase(Frontier.begin());
    if (X == &Cfg.getExit() || X->hasNoReturnElement() || leavesByThrow(X) || X->succ_empty() ||
        isLoopHead(X) || R.Blocks.size() == MaxRegionBlocks || !Enter(X))
      return std::nullopt;
    R.Blocks.push_back(X);
  }
  R.Join = *Frontier.begin();
  if (R.Join == &Cfg.getExit())
    return std::nullopt;
  return R;
}

bool FunctionRun::passesUnchanged(const CFGBlock *Branch, const BranchRegions::Region &R,
                                  const OrderState &St) {
  auto EdgesKeep = [&](const CFGBlock *X) {
    for (unsigned I = 0; I < X->succ_size(); ++I)
      if (auto Edge = alongEdge(X, I, St); Edge && !(*Edge == St))
        return false;
    return true;
  };
  if (!EdgesKeep(Branch))
    return false;
  bool HitBefore = Searching->Hit;
  for (const CFGBlock *X : R.Blocks) {
    OrderState T = St;
    for (const CFGElement &E : *X)
      if (auto CS = E.getAs<CFGStmt>())
        transfer(T, CS->getStmt());
    if (Searching->Hit != HitBefore) {
      Searching->Hit = HitBefore;
      return false;
    }
    if (!(T == St) || !EdgesKeep(X))
      return false;
  }
  return true;
}

} // namespace streams
} // namespace cgt
