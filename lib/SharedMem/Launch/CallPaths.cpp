//===- CallPaths.cpp - the call paths a launch runs under -----------------===//
//
// LaunchResolver's context sensitivity (LaunchResolver.h): the call sites of every
// function of the unit, the call paths (up to four frames, 64 paths, breadth-first,
// no recursion) under which a function may run, and the argument a parameter is
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
  // Breadth-first: every prefix is a path of its own (a caller whose own
  // parameters cannot be bound may still fix the ones this frame needs).
  std::vector<CallPath> Frontier{CallPath()};
  for (unsigned Depth = 0; Depth < 4 && !Frontier.empty(); ++Depth) {
    std::vector<CallPath> Next;
    for (const CallPath &P : Frontier) {
      const FunctionDecl *F = P.Frames.empty() ? Fn : P.Frames.back().Caller;
      if (!F || F->getNumParams() == 0)
        continue;
      auto It = Callers.find(F);
      if (It == Callers.end())
        continue;
      for (const auto &[Site, Caller] : It->second) {
        bool Recursive = Caller == Fn;
        for (const CallFrame &Fr : P.Frames)
          Recursive |= Fr.Callee == Caller;
        if (Recursive)
          continue;
        CallPath Q = P;
        Q.Frames.push_back({F, Site, Caller});
        if (Out.size() >= 64)
          return Out;
        Out.push_back(Q);
        Next.push_back(std::move(Q));
      }
    }
    Frontier = std::move(Next);
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
