//===- ContainerView.cpp - the containers of one body ----------------------===//
//
// Which expressions name a standard container of handles, one of its
// elements, or a variable standing for either (a range, an iterator, a range
// loop variable, a reference to an element), and which table entry
// (ContainerOps.def) a method call on one is; in a struct-valued element
// the struct's one pointer member is the handle (elementHandleMember).
// Syntactic and per body: the dataflow (ContainerFlow.cpp) and the scan of
// a class's methods (Ownership/MemberContainers.cpp) both read it.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Containers/Containers.h"
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

struct ContainerTemplate {
  const char *Name;
  unsigned Mapped;
};

const ContainerTemplate ContainerTemplates[] = {
#define CGT_CONTAINER(Name, Mapped) {Name, Mapped},
#include "Lifetime/Containers/ContainerOps.def"
};

struct ContainerMethod {
  const char *Name;
  ContainerOp Op;
};

const ContainerMethod ContainerMethods[] = {
#define CGT_CONTAINER_OP(Name, Kind) {Name, ContainerOp::Kind},
#include "Lifetime/Containers/ContainerOps.def"
};

const ContainerTemplate *templateOf(const CXXRecordDecl *RD,
                                    const ClassTemplateSpecializationDecl **Out) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace())
    return nullptr;
  StringRef Name = Spec->getSpecializedTemplate()->getName();
  for (const ContainerTemplate &C : ContainerTemplates)
    if (Name == C.Name) {
      *Out = Spec;
      return &C;
    }
  return nullptr;
}

/// The element (a map's mapped) type of a std container, null otherwise.
QualType mappedType(const CXXRecordDecl *RD) {
  const ClassTemplateSpecializationDecl *Spec = nullptr;
  const ContainerTemplate *C = templateOf(RD, &Spec);
  if (!C || Spec->getTemplateArgs().size() <= C->Mapped)
    return QualType();
  const TemplateArgument &Arg = Spec->getTemplateArgs()[C->Mapped];
  return Arg.getKind() == TemplateArgument::Type ? Arg.getAsType() : QualType();
}

/// The one pointer member of a plain struct (see elementHandleMember).
const FieldDecl *handleMemberOf(QualType T) {
  const auto *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  // A std::pair element (`vector<pair<int, cudaGraphExec_t>>`) is the pair
  // case of elementValueOf (`p.second`), not a struct of ours.
  if (!RD || !RD->hasDefinition() || !RD->hasTrivialDestructor() || RD->isUnion() ||
      RD->isInStdNamespace())
    return nullptr;
  const FieldDecl *Handle = nullptr;
  for (const FieldDecl *F : RD->fields())
    if (F->getType()->isPointerType()) {
      if (Handle)
        return nullptr; // two pointers: which is the handle is not ours to guess
      Handle = F;
    }
  return Handle;
}

bool isHandleContainerRecord(const CXXRecordDecl *RD) {
  QualType Mapped = mappedType(RD);
  return !Mapped.isNull() && (Mapped->isPointerType() || handleMemberOf(Mapped));
}

/// An expression, through the copy of a class value (`erase(it)` copies
/// the iterator).
const Expr *throughCopy(const Expr *E) {
  E = strip(E);
  if (const auto *Cons = dyn_cast_or_null<CXXConstructExpr>(E);
      Cons && Cons->getNumArgs() == 1 && Cons->getConstructor()->isCopyOrMoveConstructor())
    return strip(Cons->getArg(0));
  return E;
}

/// A DeclRefExpr's declaration.
const ValueDecl *referencedDecl(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(throughCopy(E));
  return DRE ? DRE->getDecl() : nullptr;
}

/// `*it` or `it->...` on an iterator: an element of a set or vector, the
/// (key, handle) pair of a map.
bool isIteratorDeref(const CallExpr *Call) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
  return OC && (OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow);
}


/// `cache.erase(it)` erases what `it` was found with: the key argument of
/// the call that made it.
const Expr *keyOfLookup(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(throughCopy(E));
  if (!MC || MC->getNumArgs() != 1 || containerOpOf(MC->getMethodDecl()) != ContainerOp::Iterate)
    return nullptr;
  return MC->getArg(0);
}

} // namespace

bool isPairMember(const MemberExpr *ME, StringRef Name) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  return FD && FD->getName() == Name;
}

bool isHandleContainerType(QualType T) {
  return isHandleContainerRecord(T.getNonReferenceType()->getAsCXXRecordDecl());
}

const FieldDecl *elementHandleMember(QualType ContainerType) {
  return handleMemberOf(mappedType(ContainerType.getNonReferenceType()->getAsCXXRecordDecl()));
}

bool isMapContainerType(QualType T) {
  const ClassTemplateSpecializationDecl *Spec = nullptr;
  const ContainerTemplate *C = templateOf(T.getNonReferenceType()->getAsCXXRecordDecl(), &Spec);
  return C && C->Mapped == 1;
}

ContainerOp containerOpOf(const CXXMethodDecl *MD) {
  if (!MD || !isHandleContainerRecord(MD->getParent()))
    return ContainerOp::None;
  std::string Name = MD->getOverloadedOperator() == OO_Subscript ? "operator[]"
                     : MD->getIdentifier()                       ? MD->getName().str()
                                                                 : "";
  for (const ContainerMethod &M : ContainerMethods)
    if (Name == M.Name)
      return M.Op;
  return ContainerOp::None;
}

bool dropsMemberContainerElements(const CallExpr *Call) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  if (!MC)
    return false;
  ContainerOp Op = containerOpOf(MC->getMethodDecl());
  const auto *ME = dyn_cast<MemberExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return (Op == ContainerOp::Erase || Op == ContainerOp::Clear) && ME &&
         isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
}

// --- the containers of one body and their aliases ---

ContainerView::ContainerView(const Stmt *Body) {
  // Children before parents would not matter: an alias is made from the
  // initialiser of its variable, and variables are declared before use.
  llvm::SmallVector<const Stmt *, 64> Stack{Body};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    if (const auto *For = dyn_cast<CXXForRangeStmt>(S)) {
      // `for (auto x : c)`: __range1 stands for c, __begin1 iterates it, x
      // (or the decomposition `[k, e]`) is an element.
      if (const VarDecl *Range = For->getRangeStmt() ? dyn_cast<VarDecl>(
                                     cast<DeclStmt>(For->getRangeStmt())->getSingleDecl())
                                                     : nullptr)
        if (const ValueDecl *C = containerOf(Range->getInit())) {
          Aliases[Range] = {AliasKind::Range, C};
          if (const VarDecl *Loop = For->getLoopVariable()) {
            Aliases[Loop] = {AliasKind::Element, C};
            LoopVars[Loop] = true;
          }
        }
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          noteVariable(VD);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *VD = dyn_cast_or_null<VarDecl>(referencedDecl(BO->getLHS())))
        if (auto It = Aliases.find(VD); It != Aliases.end() && It->second.Kind == AliasKind::Iterator)
          IteratorKeys[VD] = nullptr; // reassigned: no longer one lookup's key
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
}

/// Iterators made by `c.find(k)`, `c.begin()` (and the implicit ones of a
/// range loop over a range variable).
void ContainerView::noteVariable(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  if (!Init || Aliases.count(VD))
    return;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(strip(Init));
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(strip(Init)); Cons && Cons->getNumArgs() == 1)
    MC = dyn_cast<CXXMemberCallExpr>(strip(Cons->getArg(0)));
  if (!MC || containerOpOf(MC->getMethodDecl()) != ContainerOp::Iterate)
    return;
  if (const ValueDecl *C = rangeOrContainer(MC->getImplicitObjectArgument())) {
    Aliases[VD] = {AliasKind::Iterator, C};
    IteratorKeys[VD] = keyOfLookup(MC);
  }
}

const ValueDecl *ContainerView::containerOf(const Expr *E) const {
  if (!E)
    return nullptr;
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        !VD->getType()->isReferenceType() && isHandleContainerType(VD->getType()))
      return VD;
    return nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
          F && isHandleContainerType(F->getType()))
        return F;
  return nullptr;
}

const ValueDecl *ContainerView::rangeOrContainer(const Expr *E) const {
  if (const ValueDecl *C = containerOf(E))
    return C;
  const Alias *A = aliasOf(E);
  return A && A->Kind == AliasKind::Range ? A->Container : nullptr;
}

const ContainerView::Alias *ContainerView::aliasOf(const Expr *E) const {
  const ValueDecl *D = referencedDecl(E);
  if (const auto *BD = dyn_cast_or_null<BindingDecl>(D))
    D = BD->getDecomposedDecl();
  auto It = D ? Aliases.find(D) : Aliases.end();
  return It == Aliases.end() ? nullptr : &It->second;
}

const ValueDecl *ContainerView::aliasedContainer(const Decl *D) const {
  if (const auto *BD = dyn_cast_or_null<BindingDecl>(D))
    D = BD->getDecomposedDecl();
  auto It = D ? Aliases.find(D) : Aliases.end();
  return It == Aliases.end() ? nullptr : It->second.Container;
}

const Expr *ContainerView::keyOfIterator(const Expr *E) const {
  if (const Expr *Key = keyOfLookup(E))
    return Key;
  const ValueDecl *D = referencedDecl(E);
  auto It = D ? IteratorKeys.find(D) : IteratorKeys.end();
  return It == IteratorKeys.end() ? nullptr : It->second;
}

std::pair<ContainerOp, const ValueDecl *> ContainerView::opOf(const CallExpr *Call) const {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    ContainerOp Op = containerOpOf(MC->getMethodDecl());
    const ValueDecl *C = Op == ContainerOp::None ? nullptr
                                                 : rangeOrContainer(MC->getImplicitObjectArgument());
    return {C ? Op : ContainerOp::None, C};
  }
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!OC || OC->getNumArgs() == 0)
    return {ContainerOp::None, nullptr};
  if (OC->getOperator() == OO_Subscript) {
    ContainerOp Op = containerOpOf(dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()));
    const ValueDecl *C = Op == ContainerOp::Access ? rangeOrContainer(OC->getArg(0)) : nullptr;
    return {C ? Op : ContainerOp::None, C};
  }
  // `*it`, `it->second`: an element, through an iterator over the container.
  if ((OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow) && OC->getNumArgs() == 1) {
    if (const Alias *A = aliasOf(OC->getArg(0)); A && A->Kind == AliasKind::Iterator)
      return {ContainerOp::Access, A->Container};
    // `c.begin()->second`, `*c.find(k)`: the iterator used where it is made.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(throughCopy(OC->getArg(0)));
        MC && containerOpOf(MC->getMethodDecl()) == ContainerOp::Iterate)
      if (const ValueDecl *C = rangeOrContainer(MC->getImplicitObjectArgument()))
        return {ContainerOp::Access, C};
  }
  return {ContainerOp::None, nullptr};
}

/// The handle of an element: the element itself, or the handle member of a
/// struct-valued one (`kv.second.exec`, `it->exec`, `v[i].exec`).
const ValueDecl *ContainerView::elementOf(const Expr *E) const {
  E = strip(E);
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !isPairMember(ME, "second")) {
    const Expr *Base = strip(ME->getBase());
    const ValueDecl *C = nullptr;
    // `it->exec` on a sequence of structs: `it->` names the element.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Base);
        OC && OC->getOperator() == OO_Arrow && ME->isArrow()) {
      auto [Op, Of] = opOf(OC);
      C = Op == ContainerOp::Access && !isMapContainerType(Of->getType()) ? Of : nullptr;
    } else if (!ME->isArrow()) {
      C = elementValueOf(Base);
    }
    return C && elementHandleMember(C->getType()) == ME->getMemberDecl() ? C : nullptr;
  }
  const ValueDecl *C = elementValueOf(E);
  return C && !elementHandleMember(C->getType()) ? C : nullptr;
}

/// The container whose element (a handle, or a struct holding one) the
/// expression names.
const ValueDecl *ContainerView::elementValueOf(const Expr *E) const {
  E = strip(E);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // `it->second`, `(*it).second`, `kv.second`: the mapped handle.
    if (!isPairMember(ME, "second"))
      return nullptr;
    const Expr *Base = strip(ME->getBase());
    if (const auto *Call = dyn_cast<CallExpr>(Base)) {
      auto [Op, C] = opOf(Call);
      return Op == ContainerOp::Access && isIteratorDeref(Call) && isMapContainerType(C->getType())
                 ? C
                 : nullptr;
    }
    const Alias *A = aliasOf(Base);
    return A && A->Kind == AliasKind::Element ? A->Container : nullptr;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // `c[k]`, `c.at(k)`, `v.back()` name the handle; `*it` does for a
    // vector or set, and `it->` never does without `.second`.
    auto [Op, C] = opOf(Call);
    if (Op != ContainerOp::Access)
      return nullptr;
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
    if (OC && OC->getOperator() == OO_Arrow)
      return nullptr;
    return !isIteratorDeref(Call) || !isMapContainerType(C->getType()) ? C : nullptr;
  }
  // The loop variable of `for (auto e : v)`, the handle of `[k, e]`.
  const ValueDecl *D = referencedDecl(E);
  const Alias *A = aliasOf(E);
  if (!A || A->Kind != AliasKind::Element || !D)
    return nullptr;
  QualType T = D->getType().getNonReferenceType();
  if (T->isPointerType())
    return A->Container;
  // `for (auto &s : slots)`, `[k, s]`: the struct itself, not a map's pair.
  const FieldDecl *Handle = elementHandleMember(A->Container->getType());
  return Handle && T->getAsRecordDecl() == Handle->getParent() ? A->Container : nullptr;
}

} // namespace lifetime
} // namespace cgt
