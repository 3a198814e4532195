//===- MemberContainers.cpp - member containers a class owns --------------===//
//
// Member containers follow the ownership rules (docs/ownership.md): a class
// one of whose methods inserts an acquired handle into a member container,
// and some function of which releases its elements (the destructor's loop),
// owns them. Every other method then starts with the elements possibly live
// (an inherited resource, as Members.cpp seeds handles): an eviction that
// erases without releasing the element first is a leak; a `this`-call, a
// read of an element or passing the container on lets it go. The element
// model itself (one place for all elements, insertions, drops) is
// ContainerFlow.cpp's.
//
// The scan of the class is the translation unit's (LifetimeAnalyzer::Impl,
// asked by the ownership index too: ShortReleaseLoops.cpp); seeding a
// method's entry is part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Lifetime/Containers/Containers.h"

namespace cgt {
namespace lifetime {

// --- member containers: who inserts, who releases (the class's methods) ---

namespace {

void forEachStmt(const Stmt *Root, llvm::function_ref<void(const Stmt *)> Visit) {
  llvm::SmallVector<const Stmt *, 64> Stack{Root};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    Visit(S);
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
}

/// `sl` of `sl.exec`: a local struct that a struct-valued container's
/// element is copied from.
const ValueDecl *localStructOf(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(strip(E));
  const auto *DRE = ME && !ME->isArrow() ? dyn_cast<DeclRefExpr>(strip(ME->getBase())) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && isPlainLocalAggregate(VD) ? VD : nullptr;
}

} // namespace

/// A method of a class that owns the handles of a member container starts
/// with its elements possibly live (they were put there by another call).
void Analysis::seedContainerMembers(PathState &Entry) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (SummaryMode || CollectMembers || !MD || MD->isStatic() || isa<CXXConstructorDecl>(MD) ||
      MD->getParent()->isLambda())
    return;
  for (const FieldDecl *F : MD->getParent()->fields()) {
    if (!isHandleContainerType(F->getType()))
      continue;
    const ContainerMemberFacts *Facts = A.containerMemberFacts(F);
    if (!Facts || !Facts->Acquisition || !Facts->Released)
      continue;
    Key Elem = placeOf(F, nullptr, /*Element=*/true);
    unsigned R = resourceFor(Facts->Acquisition, -1, Facts->Kind, Facts->By, Elem,
                             ContainerInheritedSlot);
    Resources[R].LeftLiveBy = Facts->In;
    Resources[R].OrKinds = Facts->OtherKinds;
    noteElementKind(Elem, R);
    Entry.Bind[Elem].insert(R);
    Entry.Res[R].Bits = Live;
  }
}

} // namespace lifetime

// --- the scan of a class, the unit's (the ownership index asks too) ---

using namespace lifetime;

/// What one method body does with the class's member containers: handles
/// its own acquisitions put into them, releases of their elements.
void LifetimeAnalyzer::Impl::scanContainerMethod(const FunctionDecl *M) {
  const Stmt *Body = M->getBody();
  if (!Body)
    return;
  ContainerView View(Body);
  // Locals acquired into by a model call: `cudaGraphInstantiate(&e, ...)`.
  std::map<const ValueDecl *, std::pair<const CallExpr *, const AcquireEffect *>> Acquired;
  std::map<const ValueDecl *, const ValueDecl *> CopiedFrom; // `auto e = it->second`
  auto FieldOf = [&](const Expr *E) { return dyn_cast_or_null<FieldDecl>(View.elementOf(E)); };
  auto Record = [&](const FieldDecl *F, const CallExpr *Acq, const AcquireEffect &Eff,
                    const FunctionModel &FM) {
    ContainerMemberFacts &Facts = ContainerMembers[F];
    if (!Eff.Owned)
      return;
    if (!Facts.Acquisition) {
      Facts.Acquisition = Acq;
      Facts.In = M;
      Facts.Kind = Eff.Kind;
      Facts.By = FM.Name;
    } else if (Eff.Kind != Facts.Kind && !llvm::is_contained(Facts.OtherKinds, Eff.Kind)) {
      Facts.OtherKinds.push_back(Eff.Kind);
    }
  };
  // `e = make()`, `b.done = acquire()`: a local that a call returning an
  // owned handle (a helper of the class or of the file) fills.
  auto AcquiredByReturn = [&](const ValueDecl *Local, const Expr *Init) {
    const auto *Call = Local ? dyn_cast<CallExpr>(strip(Init)) : nullptr;
    const FunctionModel *FM = Call ? modelFor(Call) : nullptr;
    if (FM)
      for (const AcquireEffect &Eff : FM->Acquires)
        if (Eff.Arg == ReturnValue && Eff.Field.empty() && Eff.Owned)
          Acquired.try_emplace(Local, Call, &Eff);
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit()) {
          if (const ValueDecl *C = View.elementOf(VD->getInit()))
            CopiedFrom[VD] = C;
          AcquiredByReturn(VD, VD->getInit());
        }
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
      const Expr *LHS = strip(BO->getLHS());
      const auto *DRE = dyn_cast<DeclRefExpr>(LHS);
      const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      AcquiredByReturn(Var && Var->hasLocalStorage() ? Var : localStructOf(LHS), BO->getRHS());
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionModel *FM = Call ? modelFor(Call) : nullptr;
    if (!FM)
      return;
    for (const AcquireEffect &Eff : FM->Acquires) {
      if (Eff.Arg < 0 || Eff.Arg >= static_cast<int>(Call->getNumArgs()))
        continue;
      const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(Eff.Arg)));
      if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
        continue;
      if (const FieldDecl *F = FieldOf(AddrOf->getSubExpr()))
        Record(F, Call, Eff, *FM);
      else if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(AddrOf->getSubExpr())))
        Acquired.try_emplace(DRE->getDecl(), Call, &Eff);
      else if (const ValueDecl *Struct = localStructOf(AddrOf->getSubExpr()))
        Acquired.try_emplace(Struct, Call, &Eff); // `&sl.exec`, then `m_.emplace(k, sl)`
    }
    for (const ReleaseEffect &Rel : FM->Releases) {
      if (Rel.Arg < 0 || Rel.Arg >= static_cast<int>(Call->getNumArgs()))
        continue;
      const Expr *Arg = Call->getArg(Rel.Arg);
      const FieldDecl *F = FieldOf(Arg);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(Arg)); !F && DRE)
        if (auto It = CopiedFrom.find(DRE->getDecl()); It != CopiedFrom.end())
          F = dyn_cast<FieldDecl>(It->second);
      if (F) {
        ContainerMembers[F].Released = true;
        ContainerMembers[F].Releases.push_back(Call);
      }
    }
  });
  // Insertions of those locals into member containers.
  auto Inserted = [&](const FieldDecl *F, const Expr *Value) {
    llvm::SmallVector<const Expr *, 4> Parts;
    collectInsertionParts(Value, Parts);
    for (const Expr *Part : Parts)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(Part)))
        if (auto It = Acquired.find(DRE->getDecl()); It != Acquired.end())
          if (const FunctionModel *FM = modelFor(It->second.first))
            Record(F, It->second.first, *It->second.second, *FM);
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
      if (const FieldDecl *F = FieldOf(BO->getLHS()))
        Inserted(F, BO->getRHS());
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    auto [Op, C] = View.opOf(Call);
    if (Op != ContainerOp::Insert || !isa<FieldDecl>(C))
      return;
    for (const Expr *Arg : Call->arguments())
      Inserted(cast<FieldDecl>(C), Arg);
  });
}

const ContainerMemberFacts *LifetimeAnalyzer::Impl::containerMemberFacts(const FieldDecl *F) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD || !RD->hasDefinition())
    return nullptr;
  if (ContainerClassesScanned.insert(RD).second)
    for (const CXXMethodDecl *M : RD->methods())
      if (const FunctionDecl *Def = M->getDefinition())
        scanContainerMethod(Def);
  auto It = ContainerMembers.find(F);
  return It == ContainerMembers.end() ? nullptr : &It->second;
}

} // namespace cgt
