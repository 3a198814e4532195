//===- HandleAttributes.cpp - clang's handle attributes as model entries --===//
//
// Clang's handle attributes (the ones the Static Analyzer's Fuchsia handle
// checker reads) let a user mark their own wrappers without writing JSON:
//
//   cudaError_t make_stream(cudaStream_t *s [[clang::acquire_handle("cuda")]]);
//   void *grab(size_t n) __attribute__((acquire_handle("cuda")));   // returns one
//   void drop_stream(cudaStream_t s [[clang::release_handle("cuda")]]);
//   void record(cudaStream_t s [[clang::use_handle("cuda")]]);
//
// A function whose declaration (any redeclaration) carries them, with the
// handle type "cuda", gets a model entry built from them: acquire_handle on
// a parameter acquires through it (the parameter points to the handle), on
// the function acquires the returned value; release_handle releases the
// argument, of whatever kind it is (the user's function knows its family);
// use_handle uses it. The kind made is the model's "handle". Attributes win
// over a summary of the function's body: they are the author's contract.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "clang/AST/Attr.h"

namespace cgt {

namespace {

const char HandleKind[] = "handle";

template <typename AttrT> bool hasCudaHandleAttr(const Decl *D) {
  for (const auto *A : D->specific_attrs<AttrT>())
    if (A->getHandleType().equals_insensitive("cuda"))
      return true;
  return false;
}

/// On a function the attribute is part of its type: `void *grab(size_t)
/// __attribute__((acquire_handle("cuda")))`.
bool returnsCudaHandle(const FunctionDecl *FD) {
  if (hasCudaHandleAttr<AcquireHandleAttr>(FD))
    return true;
  QualType T = FD->getType();
  while (const auto *AT = dyn_cast<AttributedType>(T.getTypePtr())) {
    if (AT->getAttrKind() == attr::AcquireHandle) {
      const auto *A = dyn_cast_or_null<AcquireHandleAttr>(AT->getAttr());
      if (!A || A->getHandleType().equals_insensitive("cuda"))
        return true;
    }
    T = AT->getModifiedType();
  }
  return false;
}

} // namespace

const FunctionModel *LifetimeAnalyzer::Impl::attributeModel(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  auto Cached = AttributeModels.find(FD);
  if (Cached != AttributeModels.end())
    return Cached->second.get();
  auto M = std::make_unique<FunctionModel>();
  M->Name = FD->getNameAsString();
  M->Origin = "attributes";
  for (const FunctionDecl *Redecl : FD->redecls()) {
    if (returnsCudaHandle(Redecl) &&
        llvm::none_of(M->Acquires, [](const AcquireEffect &E) { return E.Arg == ReturnValue; }))
      M->Acquires.push_back({ReturnValue, HandleKind});
    for (unsigned I = 0; I < Redecl->getNumParams(); ++I) {
      const ParmVarDecl *P = Redecl->getParamDecl(I);
      int Arg = static_cast<int>(I);
      auto Has = [&](const auto &Effects) {
        return llvm::any_of(Effects, [&](const auto &E) { return E.Arg == Arg; });
      };
      if (hasCudaHandleAttr<AcquireHandleAttr>(P) && !Has(M->Acquires))
        M->Acquires.push_back({Arg, HandleKind});
      if (hasCudaHandleAttr<ReleaseHandleAttr>(P) && !Has(M->Releases)) {
        ReleaseEffect R;
        R.Arg = Arg;
        R.Kinds = Model.kindNames(); // asked only here: every callee comes through
        M->Releases.push_back(R);
      }
      if (hasCudaHandleAttr<UseHandleAttr>(P) && !Has(M->Uses))
        M->Uses.push_back({Arg, ""});
    }
  }
  bool Any = !M->Acquires.empty() || !M->Releases.empty() || !M->Uses.empty();
  if (Any) {
    const auto *FPT = FD->getType()->getAs<FunctionProtoType>();
    if (FPT && Model.isStatusType(FPT->getReturnType().getUnqualifiedType().getAsString()))
      M->StatusType = FPT->getReturnType().getUnqualifiedType().getAsString();
  }
  return (AttributeModels[FD] = Any ? std::move(M) : nullptr).get();
}

} // namespace cgt
