//===- CallPaths.cpp - the call paths a launch runs under -----------------===//
//
// LaunchResolver's context sensitivity (LaunchResolver.h): the call sites of every
// function of the unit, the call paths (up to four frames; from each call of
// the function 64 paths, breadth-first; 4096 in all; no recursion) under which
// a function may run, and the argument a parameter is
// bound to on one of them, so that a wrapper called as `launch(k1, dim3(32,8));
// launch(k2, 256);` folds k1 with (32,8) only.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Launch/LaunchResolver.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cgt::smem {

void LaunchResolver::addCallSite(const FunctionDecl *Callee, const Expr *Site,
                                 const FunctionDecl *Caller) {
  Callers[Callee].push_back({Site, Caller});
}

std::vector<CallPath> LaunchResolver::pathsFor(const FunctionDecl *Fn) {
  std::vector<CallPath> Out{CallPath()};
  auto Callees = [&](const FunctionDecl *F) -> const std::vector<CallerSite> * {
    if (!F || F->getNumParams() == 0)
      return nullptr;
    auto It = Callers.find(F);
    return It == Callers.end() ? nullptr : &It->second;
  };
  const std::vector<CallerSite> *First = Callees(Fn);
  if (!First)
    return Out;
  // Each call of Fn gets its own budget: a launch wrapper instantiated once
  // for every kernel of one signature (ggml's ggml_cuda_kernel_launch, called
  // from 100 sites in mmvf.cu) would otherwise spend the whole budget on the
  // first frame and never reach the `case 64:` two callers up that fixes the
  // block size.
  for (const auto &[Site, Caller] : *First) {
    if (Caller == Fn)
      continue;
    CallPath Start;
    Start.Frames.push_back({Fn, Site, Caller});
    // Breadth-first from this call: every prefix is a path of its own (a
    // caller whose own parameters cannot be bound may still fix the ones
    // this frame needs).
    std::vector<CallPath> Frontier{Start};
    Out.push_back(std::move(Start));
    unsigned Budget = PathsPerCall - 1;
    for (unsigned Depth = 1; Depth < MaxFrames && !Frontier.empty() && Budget; ++Depth) {
      std::vector<CallPath> Next;
      for (const CallPath &P : Frontier) {
        const FunctionDecl *F = P.Frames.back().Caller;
        const std::vector<CallerSite> *Sites = Callees(F);
        if (!Sites)
          continue;
        for (const auto &[S, C] : *Sites) {
          bool Recursive = C == Fn;
          for (const CallFrame &Fr : P.Frames)
            Recursive |= Fr.Callee == C;
          if (Recursive)
            continue;
          if (!Budget || Out.size() >= MaxPaths)
            return Out;
          CallPath Q = P;
          Q.Frames.push_back({F, S, C});
          Out.push_back(Q);
          Next.push_back(std::move(Q));
          --Budget;
        }
      }
      Frontier = std::move(Next);
    }
    if (Out.size() >= MaxPaths)
      return Out;
  }
  return Out;
}

const Expr *LaunchResolver::argumentFor(const ParmVarDecl *P, const CallPath &Path,
                                        CallPath &CallerPath) const {
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!F)
    return nullptr;
  for (size_t I = 0; I < Path.Frames.size(); ++I) {
    const CallFrame &Fr = Path.Frames[I];
    if (Fr.Callee != F)
      continue;
    CallerPath.Frames.assign(Path.Frames.begin() + I + 1, Path.Frames.end());
    unsigned Idx = P->getFunctionScopeIndex();
    if (const auto *C = dyn_cast<CallExpr>(Fr.Site)) {
      if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F))
        ++Idx; // the object is argument 0
      if (Idx < C->getNumArgs())
        return C->getArg(Idx);
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(Fr.Site)) {
      if (Idx < C->getNumArgs())
        return C->getArg(Idx);
    }
    return P->hasDefaultArg() && !P->hasUninstantiatedDefaultArg() &&
                   !P->hasUnparsedDefaultArg()
               ? P->getDefaultArg()
               : nullptr;
  }
  return nullptr;
}

} // namespace cgt::smem
