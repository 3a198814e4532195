//===- ReadOnlyParams.cpp - pointer parameters a helper only reads through ===//
//
// `pools_clear(pools_t *p, ...)` reads `p->a` and `p->cap` and writes
// nothing through `p`. Its caller passes `&pools`, and a call given `&x`
// may write anything into `x` (CallInvalidation.cpp), so without this the
// members of `pools` would be handed on at every such call, and a later
// re-allocation over a live member (`pools_grow`) would go unseen. A
// summary marks such a parameter as copied (UseEffect::Copies: read,
// neither written nor kept), as the model does for `cuParamSetv`.
//
// Read-only means every mention of the parameter is a read of what it
// points to: `p->f`, `p->f.g`, `p[i]`, `*p` loaded as values. Anything
// else (the pointer passed on, stored, returned, `&p->f`, an assignment,
// an increment, a member array that decays) may write or keep it.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

/// Whether `E`, the parent of `Child`, reads through or into `Child`
/// without writing: the steps from the pointer to a loaded value.
bool isAccessStep(const Stmt *Parent, const Stmt *Child) {
  if (isa<ParenExpr>(Parent))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(Parent))
    return ME->getBase() == Child && isa<FieldDecl>(ME->getMemberDecl());
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Parent))
    return ASE->getBase() == Child;
  if (const auto *UO = dyn_cast<UnaryOperator>(Parent))
    return UO->getOpcode() == UO_Deref;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Parent))
    return ICE->getCastKind() == CK_NoOp;
  return false;
}

} // namespace

bool Analysis::onlyReadsThrough(const ParmVarDecl *PVD) const {
  if (!PVD->getType()->isPointerType() || !FD->getBody())
    return false;
  bool ReadOnly = true;
  unsigned Mentions = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !ReadOnly)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == PVD) {
      ++Mentions;
      // The pointer's own value is loaded, then each step goes further in;
      // the last one must be a load of a scalar.
      const Stmt *Child = DRE;
      const Stmt *Parent = PM->getParent(Child);
      const auto *Load = dyn_cast_or_null<ImplicitCastExpr>(Parent);
      if (!Load || Load->getCastKind() != CK_LValueToRValue) {
        ReadOnly = false;
        return;
      }
      Child = Parent;
      Parent = PM->getParent(Child);
      bool Stepped = false;
      while (Parent && isAccessStep(Parent, Child)) {
        Stepped |= !isa<ParenExpr, ImplicitCastExpr>(Parent);
        Child = Parent;
        Parent = PM->getParent(Child);
      }
      const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(Parent);
      ReadOnly = Stepped && Read && Read->getCastKind() == CK_LValueToRValue &&
                 !cast<Expr>(Child)->getType()->isRecordType();
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD->getBody());
  return ReadOnly && Mentions > 0;
}

} // namespace lifetime
} // namespace cgt
