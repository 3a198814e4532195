//===- FunctionPointers.cpp - driver calls through function pointers -----===//
//
// Programs that fetch driver entry points with cuGetProcAddress (nccl, the
// PyTorch CUDA caching allocator, TensorRT) call them through pointers:
//
//   PFN_cuMemCreate_v10020 pfn_cuMemCreate;   // nccl: CUPFN(cuMemCreate)(...)
//   struct Table { PFN_cuMemRelease_v10020 release; } t; t.release(h);
//
// Such a call has no FunctionDecl callee, so the model is found through the
// pointer instead: an entry named after the pointer itself (a user's
// ApiModelFiles entry) first, then the entry point the `pfn_` prefix or the
// `PFN_<name>[_v<version>]` typedef of its type names. The model, not the
// spelling, still decides what the call does.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "llvm/ADT/StringExtras.h"

namespace cgt {

/// `pfn_cuMemCreate(&h, size, &prop, 0)`, nccl's `CUPFN(cuMemCreate)(...)`,
/// a variable of type `PFN_cuMemCreate_v10020`: entry points fetched with
/// cuGetProcAddress are the functions they point to. A model entry named
/// after the pointer itself (an ApiModelFiles entry) comes first.
const FunctionModel *LifetimeAnalyzer::Impl::pointerModel(const CallExpr *Call) const {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(Callee); Deref && Deref->getOpcode() == UO_Deref)
    Callee = Deref->getSubExpr()->IgnoreParenImpCasts();
  const ValueDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    D = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    D = ME->getMemberDecl();
  if (!D || !D->getIdentifier() || isa<FunctionDecl>(D))
    return nullptr;
  unsigned N = Call->getNumArgs();
  if (const FunctionModel *Own = Model.lookup(D->getName(), N))
    return Own;
  StringRef Name = D->getName();
  if (Name.consume_front("pfn_"))
    if (const FunctionModel *M = Model.lookup(Name, N))
      return M;
  // `PFN_cuMemCreate_v10020 create;`: the typedef names the entry point.
  if (const auto *TT = D->getType()->getAs<TypedefType>()) {
    StringRef Type = TT->getDecl()->getName();
    if (Type.consume_front("PFN_")) {
      size_t Version = Type.rfind("_v");
      if (Version != StringRef::npos && Type.size() > Version + 2 &&
          llvm::all_of(Type.drop_front(Version + 2), llvm::isDigit))
        Type = Type.take_front(Version);
      return Model.lookup(Type, N);
    }
  }
  return nullptr;
}

} // namespace cgt
