//===- LocalPointers.cpp - pointers that name one object throughout -------===//
//
// Which pointers the body never reseats, so that `p->f` names one member of
// one object throughout: a pointer parameter, and a local pointer
// initialised once from an address (`Slot* sl = &slots[i];`, `&x`, or a
// fixed pointer parameter) and never assigned, stepped or addressed again.
//
// The members of such a local are places of the object it points to: of
// `x` for `&x` (a plain local struct) or of the struct reference parameter
// it names, of the parameter for `= p`, so that both names meet in one place;
// and otherwise its own (`&slots[i]`, an object the caller owns). Those own
// members, like a pointer parameter's, are memory that outlives the call
// (isField): a handle stored there is handed on, and one released there is
// released under the name it was stored from too.
//
// A local pointer declared inside a loop points to another object each
// iteration: its own members die with it at the end of the body, as any
// local's places do, so the next iteration starts without them.
//
// A member of `this` that is itself a struct (`entry_.exec`), or the value
// of a `std::optional` member (`entry_->exec`, `(*entry_).exec`), is one
// object too, and so is a local reference bound to one (`Entry &e =
// *entry_;`: a reference is never reseated). Their members are places of
// the member: `e.exec` and `entry_->exec` meet in one place.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// Variables the body writes as a whole, steps, takes the address of or
/// binds a reference to: they may point elsewhere after their initialiser.
const std::set<const VarDecl *> &Analysis::reseatedPointers() {
  if (ReseatedPointers)
    return *ReseatedPointers;
  ReseatedPointers.emplace();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    const Expr *Written = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Written = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
      Written = UO->getSubExpr();
    else if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *Ref = dyn_cast<VarDecl>(D); Ref && Ref->getType()->isReferenceType())
          Written = Ref->getInit(); // `Slot*& r = sl;` may reseat `sl`
    if (const auto *DRE = Written ? dyn_cast<DeclRefExpr>(Written->IgnoreParenImpCasts()) : nullptr)
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        ReseatedPointers->insert(VD);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return *ReseatedPointers;
}

/// A pointer parameter that the body never reassigns, increments or takes
/// the address of: `p->f` names one member of one object throughout.
bool Analysis::isFixedPointerParam(const ValueDecl *D) {
  const auto *PVD = dyn_cast<ParmVarDecl>(D);
  return PVD && PVD->getType()->isPointerType() && PVD->getDeclContext() == FD &&
         !reseatedPointers().count(PVD);
}

/// For a local pointer that names one object throughout, the declaration
/// whose members `sl->f` names (see the head comment); null for any other
/// variable.
const ValueDecl *Analysis::fixedLocalPointee(const ValueDecl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || !VD->getType()->isPointerType() ||
      !VD->getType()->getPointeeType()->isRecordType() || !VD->getInit() ||
      VD->getParentFunctionOrMethod() != FD || reseatedPointers().count(VD))
    return nullptr;
  const Expr *Init = VD->getInit()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Init))
    return isFixedPointerParam(DRE->getDecl()) ? DRE->getDecl() : nullptr;
  const auto *AddrOf = dyn_cast<UnaryOperator>(Init);
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(AddrOf->getSubExpr()->IgnoreParenImpCasts())) {
    const auto *X = dyn_cast<VarDecl>(DRE->getDecl());
    if (X && (isPlainLocalAggregate(X) || isStructReferenceParam(X)))
      return X;
  }
  return VD; // an object only this pointer names here: its own places
}

/// The declaration whose members are reached through the whole place `K`:
/// what a fixed local pointer points to, or `K`'s own declaration.
const ValueDecl *Analysis::pointeeOwner(Key K) {
  if (K && K->whole())
    if (const ValueDecl *Owner = fixedLocalPointee(K->Decl))
      return Owner;
  return K ? K->Decl : nullptr;
}

namespace {

/// The type a `std::optional` holds, or null.
const RecordDecl *optionalValueRecord(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || Spec->getName() != "optional" ||
      Spec->getTemplateArgs().size() != 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Spec->getTemplateArgs()[0].getAsType()->getAsRecordDecl();
}

/// `entry_` (a struct member of `this`), or `*entry_`, `entry_.value()`,
/// `entry_.operator->()` of a `std::optional` member: the member, and the
/// struct it holds.
std::pair<const FieldDecl *, const RecordDecl *> structMemberOfThis(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  bool ThroughOptional = false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if ((Op->getOperator() != OO_Star && Op->getOperator() != OO_Arrow) || Op->getNumArgs() != 1)
      return {};
    E = Op->getArg(0)->IgnoreParenImpCasts();
    ThroughOptional = true;
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const auto *Method = MC->getMethodDecl();
    if (!Method || Method->getName() != "value" || MC->getNumArgs() != 0)
      return {};
    E = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
    ThroughOptional = true;
  }
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return {};
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field)
    return {};
  // Through `*` or `->` only an optional's value; plainly, a struct that is
  // not an optional.
  const RecordDecl *Optional = optionalValueRecord(Field->getType());
  const RecordDecl *Held =
      ThroughOptional ? Optional : (Optional ? nullptr : Field->getType()->getAsRecordDecl());
  if (!Held)
    return {};
  return {Field, Held};
}

} // namespace

/// The member of `this` whose struct the expression names (through a local
/// reference bound to it too), or null.
const FieldDecl *Analysis::memberObjectOfThis(const Expr *E, const FieldDecl *Inner) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
        !VD->getType()->isLValueReferenceType() || !VD->getInit() ||
        VD->getParentFunctionOrMethod() != FD)
      return nullptr;
    E = VD->getInit()->IgnoreParenImpCasts();
  }
  auto [Field, Held] = structMemberOfThis(E);
  if (!Field || !Held->getDefinition() ||
      !declaresSameEntity(Inner->getParent(), Held))
    return nullptr;
  return Field;
}

} // namespace lifetime
} // namespace cgt
