//===- PathFormulaLoops.cpp - iterations a path may skip ------------------===//
//
// A witness search (Lifetime/Witness.cpp) unrolls each loop a few times.
// Counting loops run longer than that: `for (r = 0; r < n; r++) if (r == k)
// free(p);` frees in iteration k, and a search cut after three iterations
// can neither find a path that frees twice nor prove there is none. When an
// iteration changed no resource (the engine's states at the loop head are
// the ones of the previous visit), every further such iteration can only
// change the values the loop writes; `accelerate` lets the path skip any
// number of them at once:
//
//   place written since the previous visit      after acceleration
//   a local only ever written by ++, += c > 0    a fresh x >= its value now
//   a local only ever written by --, -= c > 0    a fresh x <= its value now
//   anything else the iteration wrote            unknown (a fresh symbol)
//
// The monotone bounds are what refutes: the second `r == k` needs r >= k+1.
// Only signed counters get bounds (their overflow is undefined behaviour),
// and only locals whose address never leaves the function (stable places),
// so no write the formula does not see can move them backwards. This is the
// counter abstraction of loop acceleration (e.g. Bozga, Iosif, Konecny,
// "Fast acceleration of ultimately periodic relations", 2010) reduced to
// the case that refutes lifetime reports.
//
//===----------------------------------------------------------------------===//
#include "Values/PathFormula.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtVisitor.h"

using namespace clang;

namespace cgt {
namespace values {

namespace {

const VarDecl *writtenLocal(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// +1 or -1 for a compound assignment by a positive constant, 0 otherwise.
int stepOf(const CompoundAssignOperator *CA, ASTContext &Ctx) {
  Expr::EvalResult Step;
  if (CA->getRHS()->isValueDependent() || !CA->getRHS()->EvaluateAsInt(Step, Ctx))
    return 0;
  const llvm::APSInt &V = Step.Val.getInt();
  if (V.isZero())
    return 0;
  int Sign = V.isNegative() ? -1 : 1;
  if (CA->getOpcode() == BO_AddAssign)
    return Sign;
  if (CA->getOpcode() == BO_SubAssign)
    return -Sign;
  return 0;
}

} // namespace

/// The direction of every write to each local of the function: +1 or -1
/// when all its writes (after its initialiser) step that way, 0 otherwise.
void PathFormula::scanMonotoneLocals() {
  if (MonotoneScanned)
    return;
  MonotoneScanned = true;
  if (!FD->hasBody())
    return;
  llvm::SmallVector<const Stmt *, 64> Work{FD->getBody()};
  auto Note = [&](const VarDecl *VD, int Step) {
    if (!VD)
      return;
    auto [It, New] = Monotone.try_emplace(VD, Step);
    if (!New && It->second != Step)
      It->second = 0;
  };
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      Note(writtenLocal(UO->getSubExpr()), UO->isIncrementOp() ? 1 : -1);
    else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S))
      Note(writtenLocal(CA->getLHS()), stepOf(CA, Ctx));
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Note(writtenLocal(BO->getLHS()), 0);
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
}

std::vector<unsigned> PathFormula::placesWrittenSince(Mark Since) const {
  std::vector<unsigned> Written;
  for (size_t I = Since.Undo; I < Undo.size(); ++I)
    if (!Undo[I].IsCall) {
      PlaceId P = static_cast<PlaceId>(reinterpret_cast<uintptr_t>(Undo[I].Key));
      if (!llvm::is_contained(Written, P))
        Written.push_back(P);
    }
  return Written;
}

std::vector<const void *> PathFormula::accelerate(Mark Since) {
  scanMonotoneLocals();
  std::vector<unsigned> Written = placesWrittenSince(Since);
  Solver->push();
  ++Scopes;
  std::vector<const void *> Roots;
  for (PlaceId P : Written) {
    const PlaceInfo &Info = Places[P];
    Roots.push_back(Info.Path.back());
    auto Now = Env.find(P);
    std::optional<Val> Bound;
    if (Now != Env.end())
      Bound = Now->second;
    write(P, std::nullopt);
    int Step = 0;
    if (Info.Path.size() == 1 && Info.Stable)
      if (const auto *VD = static_cast<const VarDecl *>(Info.Path.front()))
        Step = Monotone.lookup(VD);
    if (!Bound || !Step || Bound->Width == 0 || !Bound->Signed)
      continue;
    std::string Name = "v" + std::to_string(Fresh++);
    Val X{Solver->mkSymbol(Name.c_str(), Solver->getBitvectorSort(Bound->Width)), Bound->Width,
          true};
    write(P, X);
    Solver->addConstraint(Step > 0 ? Solver->mkBVSge(X.E, Bound->E)
                                   : Solver->mkBVSle(X.E, Bound->E));
  }
  return Roots;
}

} // namespace values
} // namespace cgt
