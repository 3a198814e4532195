//===- Lambdas.cpp - local lambdas ----------------------------------------===//
//
// A local lambda that is only called acts, at each call, as its body does
// on the variables it captures.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include <functional>

namespace cgt {
namespace lifetime {

/// The lambda a call invokes, when it is a local lambda that never escapes:
/// `auto f = [&] {...}; ... f();` or `[&] {...}()`.
const LambdaExpr *Analysis::invokedLocalLambda(const CallExpr *Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() < 1)
    return nullptr;
  const Expr *Obj = strip(Op->getArg(0));
  if (const auto *L = dyn_cast<LambdaExpr>(Obj))
    return L;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const LambdaExpr *L = localLambdaOf(VD))
        return L;
  return nullptr;
}

/// The lambda an initialiser holds: `[&] {...}` or `std::function<...>([&] {...})`.
const LambdaExpr *Analysis::lambdaIn(const Expr *Init) const {
  const Expr *E = strip(Init);
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(E); Cons && Cons->getNumArgs() == 1)
    E = strip(Cons->getArg(0));
  return dyn_cast<LambdaExpr>(E);
}

/// A local variable initialised with a lambda and used only to call it.
const LambdaExpr *Analysis::localLambdaOf(const VarDecl *VD) {
  auto It = LocalLambdas.find(VD);
  if (It != LocalLambdas.end())
    return It->second;
  const LambdaExpr *L = nullptr;
  if (VD->hasLocalStorage() && VD->getInit())
    L = lambdaIn(VD->getInit());
  if (L && !onlyCalled(VD))
    L = nullptr;
  return LocalLambdas[VD] = L;
}

bool Analysis::onlyCalled(const VarDecl *VD) {
  bool Only = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Only)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD) {
      const Stmt *Up = PM->getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(DRE));
      const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Up);
      if (!Op || Op->getOperator() != OO_Call || strip(Op->getArg(0)) != DRE)
        Only = false;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Only;
}

bool Analysis::isLocalLambda(const LambdaExpr *L) {
  const Stmt *Up = PM->getParentIgnoreParenImpCasts(const_cast<LambdaExpr *>(L));
  while (Up && (isa<MaterializeTemporaryExpr>(Up) || isa<CXXBindTemporaryExpr>(Up) ||
                isa<ExprWithCleanups>(Up) || isa<CXXConstructExpr>(Up)))
    Up = PM->getParentIgnoreParenImpCasts(const_cast<Stmt *>(Up));
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Up))
    return Op->getOperator() == OO_Call;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Up))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (localLambdaOf(VD) == L)
          return true;
  return false;
}

/// Calling a local lambda does, to the variables it captures, what the
/// calls in its body do: a cleanup lambda releases, a launch lambda uses.
void Analysis::applyLambdaBody(const LambdaExpr *L, PathState &P, bool &Dead) {
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Dead)
      return;
    if (isa<LambdaExpr>(S))
      return;
    for (const Stmt *Child : S->children())
      Walk(Child);
    if (const auto *Call = dyn_cast<CallExpr>(S))
      onCall(Call, P, Dead);
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      onAssign(BO->getLHS(), BO->getRHS(), nullptr, P);
    else if (const auto *RS = dyn_cast<ReturnStmt>(S))
      escapeValueRefs(RS->getRetValue(), P);
  };
  Walk(L->getBody());
}

} // namespace lifetime
} // namespace cgt
