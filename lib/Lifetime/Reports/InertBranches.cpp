//===- InertBranches.cpp - branches a witness search need not fork on -----===//
//
// Long host functions branch on logging flags between an acquisition and
// its release: `if (o.verbose && v[k % nv] > k) printf(...)`, a dozen of
// them. A witness search (Witness.cpp) that forks on each explores 2^12
// paths and runs out of budget, so a finding that every real path refutes
// is kept unconfirmed. A branch need not be forked on when one way goes
// straight to a block J and the other only passes through a few blocks
// that end in J (no loop, no exit, no noreturn call) whose statements are
// inert: reads, and calls of functions the model does not know whose
// arguments are all numbers or string literals (nothing tracked is handed
// on, nothing is written through them).
//
// The search then goes on at J once, with the condition assumed neither
// way and the arm's effects applied anyway (what its unknown calls make
// the engine and the formula forget): the path stands for both ways. Its
// formula is weaker than either way's and its states are those both ways
// reach, so no path the search would have found is lost, and refutation
// stays sound. This is path merging at a join whose arms are irrelevant,
// as bounded model checkers merge diamonds whose arms write nothing.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

/// Blocks a skipped arm may hold, at most.
constexpr unsigned MaxArmBlocks = 6;

} // namespace

bool Analysis::isInertStmt(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call) || Callee->isNoReturn() ||
        A.modelFor(Call))
      return false;
    return llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
      if (isa<StringLiteral>(Arg->IgnoreParenImpCasts()))
        return true;
      QualType T = Arg->getType();
      return (T->isArithmeticType() || T->isEnumeralType()) && isInertStmt(Arg);
    });
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      return false;
  } else if (!isa<DeclRefExpr, IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral,
                  CXXBoolLiteralExpr, ParenExpr, ImplicitCastExpr, MemberExpr,
                  ArraySubscriptExpr, ConditionalOperator, CStyleCastExpr>(S)) {
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  return llvm::all_of(S->children(), [&](const Stmt *C) { return isInertStmt(C); });
}

/// The blocks from `From` to `Join` (not included), when every way from
/// `From` reaches `Join` through a few inert blocks.
bool Analysis::inertArm(const CFGBlock *From, const CFGBlock *Join,
                        std::vector<const CFGBlock *> &Arm) {
  llvm::SmallVector<const CFGBlock *, 8> Work{From};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (B == Join || llvm::is_contained(Arm, B))
      continue;
    if (B == &Cfg->getExit() || Arm.size() >= MaxArmBlocks || isLoopHead(B) ||
        B->hasNoReturnElement() || (B->pred_size() != 1 && B != From))
      return false;
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS || !isInertStmt(CS->getStmt()))
        return false;
    }
    Arm.push_back(B);
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To)
        continue;
      if (Order[To->getBlockID()] <= Order[B->getBlockID()])
        return false; // a back edge
      Work.push_back(To);
    }
  }
  return true;
}

void Analysis::findInertBranches() {
  InertBranches.emplace();
  for (const CFGBlock *B : *Cfg) {
    const Stmt *Term = B->getTerminatorStmt();
    if (B->succ_size() != 2 || !isa_and_nonnull<IfStmt, BinaryOperator>(Term) || isLoopHead(B))
      continue;
    const CFGBlock *Succ[2] = {B->succ_begin()[0].getReachableBlock(),
                               B->succ_begin()[1].getReachableBlock()};
    if (!Succ[0] || !Succ[1])
      continue;
    for (unsigned Skip = 0; Skip < 2; ++Skip) {
      InertBranch Branch{Succ[Skip], {}};
      const CFGBlock *ArmStart = Succ[1 - Skip];
      if (Branch.Join == &Cfg->getExit() || ArmStart->pred_size() != 1 ||
          !inertArm(ArmStart, Branch.Join, Branch.Arm))
        continue;
      llvm::sort(Branch.Arm, [&](const CFGBlock *X, const CFGBlock *Y) {
        return Order[X->getBlockID()] < Order[Y->getBlockID()];
      });
      (*InertBranches)[B] = std::move(Branch);
      break;
    }
  }
}

/// Where a witness search goes on from `B` without forking, if `B` is an
/// inert branch.
const Analysis::InertBranch *Analysis::inertBranch(const CFGBlock *B) {
  if (!InertBranches)
    findInertBranches();
  auto It = InertBranches->find(B);
  return It == InertBranches->end() ? nullptr : &It->second;
}

} // namespace lifetime
} // namespace cgt
