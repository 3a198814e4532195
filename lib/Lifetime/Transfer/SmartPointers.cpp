//===- SmartPointers.cpp - a resource handed to a smart pointer's deleter --===//
//
// A resource handed to a `std::unique_ptr` or `std::shared_ptr` has escaped
// into it (its destructor is the release, Exceptions.cpp says why that needs
// no rule of its own). What the hand-over does fix is *how* it will be
// released: by the deleter. When the deleter is one this unit can read, the
// family is checked where the pointer is handed over, as a release would be:
//
//   unique_ptr<T, D>(p) / up.reset(p)   D a class or closure type: D's
//                                       `operator()`
//   unique_ptr<T, R(*)(void *)>(p, &f)  the function named as the deleter
//   shared_ptr<T>(p, d) / sp.reset(p, d) d's `operator()`, or the function
//                                       it names
//
// The deleter's release of its parameter is its model entry (`&cudaFree`)
// or its helper summary (`void operator()(void *p) { cudaFree(p); }`).
// `std::default_delete` (the host heap's `delete`) and a deleter that
// releases on some paths only, or not at all that this unit can see, say
// nothing: the hand-over stays the plain escape it was.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

enum class SmartPointer { None, Unique, Shared };

SmartPointer smartPointerKind(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace())
    return SmartPointer::None;
  StringRef Name = Spec->getSpecializedTemplate()->getName();
  if (Name == "unique_ptr")
    return SmartPointer::Unique;
  if (Name == "shared_ptr")
    return SmartPointer::Shared;
  return SmartPointer::None;
}

/// The smart pointer a construction or a `reset` hands arguments to, with
/// those arguments.
const CXXRecordDecl *receivingSmartPointer(const Expr *Site,
                                           llvm::ArrayRef<const Expr *> &Args) {
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(Site)) {
    Args = {Cons->getArgs(), Cons->getNumArgs()};
    return Cons->getConstructor()->getParent();
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Site);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "reset")
    return nullptr;
  Args = {MC->getArgs(), MC->getNumArgs()};
  return MD->getParent();
}

/// The call operator of a deleter class (a closure type's included).
const FunctionDecl *callOperatorOf(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  if (RD->isLambda())
    return RD->getLambdaCallOperator();
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call && M->getNumParams() == 1)
      return M;
  return nullptr;
}

/// `&cudaFree`, `cudaFree`, `DeviceDeleter{}`, a lambda: the function the
/// deleter runs.
const FunctionDecl *deleterFunction(const Expr *Deleter) {
  const Expr *E = Deleter->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      return FD;
  return callOperatorOf(E->getType()->getAsCXXRecordDecl());
}

} // namespace

/// What the deleter of the smart pointer `Site` hands `Handed` to will do
/// with it: the release of its one parameter, and where that is written.
std::optional<Analysis::DeleterRelease> Analysis::deleterRelease(const Expr *Site,
                                                                 const Expr *&Handed) {
  llvm::ArrayRef<const Expr *> Args;
  const CXXRecordDecl *RD = receivingSmartPointer(Site, Args);
  SmartPointer Kind = smartPointerKind(RD);
  if (Kind == SmartPointer::None || Args.empty() || !Args[0]->getType()->isPointerType())
    return std::nullopt;
  Handed = Args[0];
  const FunctionDecl *Deleter = nullptr;
  if (Args.size() >= 2) {
    Deleter = deleterFunction(Args[1]);
  } else if (Kind == SmartPointer::Unique) {
    const auto *Spec = cast<ClassTemplateSpecializationDecl>(RD);
    const TemplateArgumentList &TA = Spec->getTemplateArgs();
    if (TA.size() >= 2 && TA[1].getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *D = TA[1].getAsType()->getAsCXXRecordDecl();
      if (D && !D->isInStdNamespace()) // std::default_delete: the host heap's
        Deleter = callOperatorOf(D);
    }
  }
  if (!Deleter)
    return std::nullopt;
  const FunctionModel *M = A.lookupModel(Deleter, Deleter->getNumParams());
  if (!M)
    if (const FunctionSummary *S = A.summaryOf(Deleter))
      M = &S->Model;
  if (!M)
    return std::nullopt;
  for (const ReleaseEffect &Eff : M->Releases)
    if (Eff.Arg == 0 && Eff.Field.empty() && !Eff.ThroughPointer && !Eff.OnSomePaths)
      return DeleterRelease{M, &Eff, Deleter};
  return std::nullopt;
}

/// `frames_.reset(host)` where `frames_` frees with cudaFree and `host`
/// came from cudaHostAlloc: the deleter will release it with the wrong
/// family. Reported at the hand-over, noted where the deleter releases.
void Analysis::checkSmartPointerHandOver(const Expr *Site, PathState &P) {
  const Expr *Handed = nullptr;
  std::optional<DeleterRelease> D = deleterRelease(Site, Handed);
  if (!D)
    return;
  Key K = storageOf(strip(Handed));
  auto It = K ? P.Bind.find(K) : P.Bind.end();
  if (It == P.Bind.end())
    return;
  // The call in the deleter's body that releases, for the message and the
  // note: `cudaFree`, not `operator()`.
  std::string Called = D->Model->Name;
  SourceLocation ReleasedAt = D->Deleter->getLocation();
  if (D->Model->Origin == "summary")
    for (const WrittenCall &C : A.Calls->of(D->Deleter->getDefinition()->getBody()).Calls)
      if (const FunctionModel *CM = A.modelFor(C.Call); CM && !CM->Releases.empty()) {
        Called = CM->Name;
        ReleasedAt = loc(C.Call);
        break;
      }
  for (unsigned R : It->second) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || !isWrongFamily(*D->Effect, R, RS->second))
      continue;
    FunctionModel As = *D->Model;
    As.Name = Called;
    As.Origin.clear(); // the hand-over is no call of a helper that releases
    reportWrongFamily(R, K, Site, As,
                      {{ReleasedAt, "the smart pointer's deleter releases what it holds here, "
                                    "by '" + Called + "'"}});
  }
}

} // namespace lifetime
} // namespace cgt
