//===- SwitchArms.cpp - the switch arm around a launch --------------------===//
//
// LaunchResolver's `case` pins (LaunchResolver.h): at a launch inside `case 64:`
// of `switch (v)`, or at a call on the launch's call path inside one, v is 64
// for the folds that follow; an assignment under other
// labels of a switch on the same variable does not reach the launch. The pin
// wins over a caller's argument for v: that arm does not run for another value.
// Arms that a previous arm can fall into (one not ending in a jump; a braced
// `case 64: { ...; break; }` ends in one), `default:` arms and switches on
// anything but a plain variable give no fact. Also the per-function parent
// maps these walks use.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Launch/LaunchResolver.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include <algorithm>
#include <optional>

using namespace clang;

namespace cgt::smem {

namespace {

/// The arm of a `switch (v)` a statement runs in: v and the labels that
/// lead to it. An arm that a previous one can fall into, a `default:` arm,
/// or a switch on anything but a plain variable gives no fact.
struct CaseArm {
  const VarDecl *Var = nullptr;
  std::vector<int64_t> Values;
};

const VarDecl *switchVariable(const SwitchStmt *Sw) {
  const Expr *C = Sw->getCond();
  const auto *D = C ? dyn_cast<DeclRefExpr>(C->IgnoreParenImpCasts()) : nullptr;
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// Labels of a chain `case 1: case 2: stmt` (nested CaseStmts); false on a
/// `default:` or a label that does not fold.
bool chainLabels(ASTContext &Ctx, const SwitchCase *SC, std::vector<int64_t> &Out) {
  for (const Stmt *S = SC; const auto *C = dyn_cast_or_null<SwitchCase>(S);
       S = C->getSubStmt()) {
    const auto *Case = dyn_cast<CaseStmt>(C);
    if (!Case || Case->getRHS()) // default, or a GNU range
      return false;
    Expr::EvalResult R;
    if (!Case->getLHS()->EvaluateAsInt(R, Ctx))
      return false;
    Out.push_back(R.Val.getInt().getExtValue());
  }
  return true;
}

/// Whether control cannot run past the end of `S`: a jump, or a braced arm
/// (`case 64: { ...; break; }`, HeCBench's DISPATCH_HEAD_DIM) or a label
/// whose last statement is one.
bool endsControl(const Stmt *S) {
  if (const auto *SC = dyn_cast_or_null<SwitchCase>(S))
    return endsControl(SC->getSubStmt());
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsControl(CS->body_back());
  return isa_and_nonnull<BreakStmt, ReturnStmt, ContinueStmt>(S);
}

/// In the switch's body, the arm `Child` belongs to: the nearest label at or
/// before it, provided the arm cannot be entered by falling through.
std::optional<std::vector<int64_t>> armOf(ASTContext &Ctx, const CompoundStmt *Body,
                                          const Stmt *Child) {
  std::vector<const Stmt *> Stmts(Body->body_begin(), Body->body_end());
  auto It = std::find(Stmts.begin(), Stmts.end(), Child);
  if (It == Stmts.end())
    return std::nullopt;
  for (auto L = It;; --L) {
    if (const auto *SC = dyn_cast<SwitchCase>(*L)) {
      if (L != Stmts.begin() && !endsControl(*(L - 1)))
        return std::nullopt; // the previous arm may fall through into this one
      std::vector<int64_t> V;
      if (!chainLabels(Ctx, SC, V))
        return std::nullopt;
      return V;
    }
    if (L == Stmts.begin())
      return std::nullopt;
  }
}

/// The innermost switch arm on a variable that `S` sits in, if any; `PM`
/// holds the parents of the body `S` is in.
std::optional<CaseArm> caseArmOf(ASTContext &Ctx, const ParentMap &PM, const Stmt *S) {
  const Stmt *Child = S;
  for (int Up = 0; Up < 32; ++Up) {
    const Stmt *P = PM.getParent(Child);
    if (!P || isa<LambdaExpr>(P))
      return std::nullopt;
    if (const auto *Body = dyn_cast<CompoundStmt>(P))
      if (const auto *Sw = dyn_cast_or_null<SwitchStmt>(PM.getParent(Body))) {
        const VarDecl *V = switchVariable(Sw);
        auto Vals = armOf(Ctx, Body, Child);
        if (!V || !Vals)
          return std::nullopt;
        return CaseArm{V, *Vals};
      }
    Child = P;
  }
  return std::nullopt;
}

} // namespace

void LaunchResolver::pinCaseArmsAround(const Stmt *Site, const FunctionDecl *Within,
                                       const CallPath *Path) {
  Pinned.clear();
  if (!Site || !Within)
    return;
  auto Pin = [&](const Stmt *S, const FunctionDecl *F) {
    if (auto Arm = caseArmOf(Ctx, parentsIn(F), S))
      Pinned.try_emplace(Arm->Var, Arm->Values);
  };
  Pin(Site, Within);
  // The callers' arms too: mmvf.cu's `case 64: launcher<64>(..., block_dims)`
  // calls the function that launches with the `dim3 block_dims(best)` made
  // before `switch (best)`; under that call best is 64.
  if (Path)
    for (const CallFrame &F : Path->Frames)
      if (F.Site && F.Caller)
        Pin(F.Site, F.Caller);
}

const ParentMap &LaunchResolver::parentsIn(const FunctionDecl *F) {
  std::unique_ptr<ParentMap> &PM = Parents[F];
  if (!PM)
    PM = std::make_unique<ParentMap>(F ? F->getBody() : nullptr);
  return *PM;
}

bool LaunchResolver::reachesPinnedArm(const Expr *Assigned, const FunctionDecl *Within) {
  if (Pinned.empty() || !Within)
    return true;
  auto Arm = caseArmOf(Ctx, parentsIn(Within), Assigned);
  if (!Arm)
    return true;
  auto P = Pinned.find(Arm->Var);
  if (P == Pinned.end())
    return true;
  for (int64_t V : Arm->Values)
    if (std::find(P->second.begin(), P->second.end(), V) != P->second.end())
      return true;
  return false;
}

} // namespace cgt::smem
