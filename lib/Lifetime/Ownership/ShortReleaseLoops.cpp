//===- ShortReleaseLoops.cpp - a release loop that skips an element -------===//
//
// The elements of a container are one place to the dataflow (ContainerFlow.cpp):
// a release through a loop index releases "the elements", every one. That
// is right for the loops real code writes, and wrong for the bug it also
// writes, the loop one short:
//
//   ~StreamPool() {
//     for (size_t i = 1; i < streams_.size(); ++i)   // streams_[0] leaks
//       cudaStreamDestroy(streams_[i]);
//   }
//
// A member container's elements, which the class's methods fill with
// handles it acquires (push_back and friends fill from index 0), whose only
// release in the class is a counted loop over their indices that provably
// skips one:
//
//   for (i = C; i < c.size(); ++i)  C > 0 constant    -> c[0] never released
//   for (i = 0; i < c.size() - K; ++i)  K > 0          -> the last never released
//   for (i = ...; i > C; --i)  C >= 0 constant         -> c[0] never released
//
// is reported as a leak at the loop. Anything else about the loop (another
// step, a body that leaves it, a bound that is not the container's size, a
// second release site anywhere in the class) keeps the rule silent.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

#include "Lifetime/AnalyzerImpl.h"

namespace cgt {
namespace lifetime {

namespace {

/// `streams_[i]`, `streams_.at(i)`: the member of this and the index variable.
std::pair<const FieldDecl *, const VarDecl *> memberElementAt(const Expr *E) {
  E = strip(E);
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    Base = Op->getArg(0);
    Index = Op->getArg(1);
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
             MC && MC->getNumArgs() == 1 && MC->getMethodDecl()->getIdentifier() &&
             MC->getMethodDecl()->getName() == "at") {
    Base = MC->getImplicitObjectArgument();
    Index = MC->getArg(0);
  }
  const auto *ME = Base ? dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts()) : nullptr;
  const auto *DRE = Index ? dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()) : nullptr;
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) || !DRE)
    return {nullptr, nullptr};
  return {dyn_cast<FieldDecl>(ME->getMemberDecl()), dyn_cast<VarDecl>(DRE->getDecl())};
}

bool namesVar(const Expr *E, const VarDecl *V) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return DRE && DRE->getDecl() == V;
}

/// `c.size()` on the member `F` of this.
bool isSizeOf(const Expr *E, const FieldDecl *F) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  if (!MC || MC->getNumArgs() != 0 || !MC->getMethodDecl()->getIdentifier() ||
      MC->getMethodDecl()->getName() != "size")
    return false;
  const auto *ME = dyn_cast<MemberExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return ME && ME->getMemberDecl() == F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
}

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The value `For`'s init gives `V`: `size_t i = 1`, `i = 1`.
const Expr *initialValue(const ForStmt *For, const VarDecl *V) {
  const Stmt *Init = For->getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init))
    return DS->isSingleDecl() && DS->getSingleDecl() == V ? V->getInit() : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init);
      BO && BO->getOpcode() == BO_Assign && namesVar(BO->getLHS(), V))
    return BO->getRHS();
  return nullptr;
}

/// +1 for `++i`, `i++`, `i += 1`; -1 for the decrements; 0 otherwise.
int stepOf(const ForStmt *For, const VarDecl *V, const ASTContext &Ctx) {
  const Expr *Inc = For->getInc();
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc); UO && namesVar(UO->getSubExpr(), V))
    return UO->isIncrementOp() ? 1 : UO->isDecrementOp() ? -1 : 0;
  if (const auto *BO = dyn_cast_or_null<CompoundAssignOperator>(Inc);
      BO && namesVar(BO->getLHS(), V) && constantOf(BO->getRHS(), Ctx) == 1)
    return BO->getOpcode() == BO_AddAssign ? 1 : BO->getOpcode() == BO_SubAssign ? -1 : 0;
  return 0;
}

/// `c.size() - K` with a constant K > 0.
bool isSizeMinusConstant(const Expr *E, const FieldDecl *F, const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Sub || !isSizeOf(BO->getLHS(), F))
    return false;
  std::optional<int64_t> K = constantOf(BO->getRHS(), Ctx);
  return K && *K > 0;
}

/// Which element a counted loop over `F`'s indices in `V` never reaches:
/// "0", "last", or empty when it reaches every one (or it cannot tell).
std::string skippedElement(const ForStmt *For, const FieldDecl *F, const VarDecl *V,
                           const ASTContext &Ctx) {
  const Expr *Test = For->getCond(); // `for (i = 1;; ++i)` has none
  const auto *Cond = Test ? dyn_cast<BinaryOperator>(Test->IgnoreParenImpCasts()) : nullptr;
  int Step = stepOf(For, V, Ctx);
  if (!Cond || !Step || !namesVar(Cond->getLHS(), V))
    return "";
  std::optional<int64_t> Start = constantOf(initialValue(For, V), Ctx);
  BinaryOperatorKind Op = Cond->getOpcode();
  if (Step > 0 && (Op == BO_LT || Op == BO_NE)) {
    if (isSizeOf(Cond->getRHS(), F) && Start && *Start > 0)
      return "0";
    if (isSizeMinusConstant(Cond->getRHS(), F, Ctx) && Start == 0)
      return "last";
    return "";
  }
  std::optional<int64_t> Low = constantOf(Cond->getRHS(), Ctx);
  if (Step < 0 && Op == BO_GT && Low && *Low >= 0)
    return "0";
  return "";
}

/// The innermost loop around `S` in the body `Parents` indexes, when it is
/// a `for`; null also when `S` is not in that body.
const ForStmt *enclosingFor(const Stmt *S, const ParentIndex &Parents) {
  for (const Stmt *P = Parents.getParent(S); P; P = Parents.getParent(P)) {
    if (const auto *For = dyn_cast<ForStmt>(P))
      return For;
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return nullptr;
  }
  return nullptr;
}

/// A `break`, `return` or `goto` in the loop's body (a `break` of a nested
/// switch or loop aside): it may stop before the bound.
bool bodyMayLeave(const Stmt *S, bool Nested = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt>(S) || (isa<BreakStmt>(S) && !Nested))
    return true;
  bool InnerNested = Nested || isa<SwitchStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    if (bodyMayLeave(Child, InnerNested))
      return true;
  return false;
}

} // namespace

void OwnershipIndex::shortReleaseLoops(const FunctionDecl *FD, std::vector<LifetimeFinding> &Out) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || MD->isStatic())
    return;
  for (const FieldDecl *F : MD->getParent()->fields()) {
    if (!isHandleContainerType(F->getType()))
      continue;
    const ContainerMemberFacts *Facts = A.containerMemberFacts(F);
    if (!Facts || !Facts->Acquisition || Facts->Releases.size() != 1)
      continue;
    const CallExpr *Release = Facts->Releases.front();
    const FunctionModel *M = A.modelFor(Release);
    if (!M || M->Releases.empty() || M->Releases.front().Arg < 0 ||
        M->Releases.front().Arg >= static_cast<int>(Release->getNumArgs()))
      continue;
    auto [Field, Index] = memberElementAt(Release->getArg(M->Releases.front().Arg));
    if (Field != F || !Index)
      continue;
    // Only the function whose body holds the loop reports it.
    const ForStmt *For = FD->getBody() ? enclosingFor(Release, A.parentsOf(FD->getBody()))
                                       : nullptr;
    if (!For || bodyMayLeave(For->getBody()))
      continue;
    std::string Skipped = skippedElement(For, F, Index, A.Ctx);
    if (Skipped.empty())
      continue;
    std::string Name = F->getNameAsString();
    std::string Element = Skipped == "0" ? Name + "[0]" : "the last element of '" + Name + "'";
    LifetimeFinding L = memberFinding(FindingKind::Leak, Release, Facts->Kind, F);
    L.Loc = loc(For);
    L.Range = SourceRange(For->getBeginLoc(), For->getRParenLoc());
    L.AcquiredBy = Facts->By;
    L.VarName = Skipped == "0" ? Element : Name;
    L.Notes.push_back({loc(Facts->Acquisition), "the elements of '" + Name + "' are made here by '" +
                                                    Facts->By + "'"});
    L.Notes.push_back({loc(Release), "the only release of them is here, in a loop that never "
                                     "reaches " + (Skipped == "0" ? "'" + Element + "'" : Element)});
    Out.push_back(std::move(L));
  }
}

} // namespace lifetime
} // namespace cgt
