//===- SummaryWrites.cpp - what a helper leaves written in its caller ----===//
//
// SummaryMode: stores a helper makes into its caller's places that are
// neither acquisitions nor releases, and what the caller must forget:
//
//   in the helper                              effect for the caller
//   m->f = e, e no live resource of the helper -> writes "f": what the caller
//     (a block whose views went elsewhere,        knew m.f held is gone, a
//      a value, what a callee wrote there)        live handle there escapes
//   callee(m) whose summary writes m->f        -> writes "f" as well
//   release of *p, then *p = e where the       -> the release through p
//     store runs whenever the release does        "resets" *p
//
// Without "writes", a caller that frees `m.weights`, re-builds the model
// through a helper whose factory also stored views of the block elsewhere
// (so the helper published nothing), and frees again is told it freed the
// first block twice (llm.c's gpt2_build_from_checkpoint). Without the
// pointee reset, `freeCheck(&m->w)` that nulls `*ptr` after cudaFree makes
// every second free helper call a double release.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// Members the helper overwrote with something the caller cannot follow:
/// those it also acquires into or releases are followed by those effects.
void Analysis::addWriteEffects(FunctionModel &M) const {
  for (const auto &[Index, Field] : SummaryWrites) {
    auto SameMember = [&, Index = Index, &Field = Field](const auto &E) {
      return E.Arg == Index && E.Field == Field;
    };
    if (llvm::none_of(M.Acquires, SameMember) && llvm::none_of(M.Releases, SameMember))
      M.Writes.push_back({Index, Field});
  }
}

/// A callee wrote `K`, a member of what one of this helper's pointer or
/// reference parameters names: this helper writes it too.
void Analysis::noteWrittenMember(Key K) {
  if (!SummaryMode || !K || !K->Member || K->Element || K->shadow())
    return;
  const auto *PVD = dyn_cast<ParmVarDecl>(K->Decl);
  if (!PVD || PVD->getDeclContext() != FD)
    return;
  SummaryWrites.insert({static_cast<int>(PVD->getFunctionScopeIndex()),
                        K->Member->getNameAsString()});
}

void Analysis::noteDerefStore(int Index, const Expr *LHS) {
  DerefStores[Index].push_back(LHS);
}

/// The nearest statement that decides whether `S` runs: an if, a loop, a
/// switch, a `?:` or a `&&`/`||`; null when only the body encloses it.
const Stmt *Analysis::controllingStatement(const Stmt *S) const {
  for (const Stmt *Up = PM ? PM->getParent(S) : nullptr; Up; Up = PM->getParent(Up)) {
    if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt,
            AbstractConditionalOperator, CXXTryStmt, CXXCatchStmt>(Up))
      return Up;
    if (const auto *BO = dyn_cast<BinaryOperator>(Up); BO && BO->isLogicalOp())
      return Up;
  }
  return nullptr;
}

/// `cudaFree(*ptr); ...; *ptr = nullptr;`: a store through the parameter
/// after its first release, decided by a statement that also decides the
/// release (or by none), runs on every path that released. A store under
/// a condition of its own may not, and the caller's handle stays released.
bool Analysis::leavesPointeeReset(const ReleaseEffect &R) const {
  auto First = FirstDerefRelease.find(R.Arg);
  auto Stores = DerefStores.find(R.Arg);
  if (First == FirstDerefRelease.end() || Stores == DerefStores.end() || !PM)
    return false;
  const Expr *Release = First->second;
  auto Encloses = [&](const Stmt *Outer, const Stmt *S) {
    for (; S; S = PM->getParent(S))
      if (S == Outer)
        return true;
    return false;
  };
  return llvm::any_of(Stores->second, [&](const Expr *Store) {
    if (!SM.isBeforeInTranslationUnit(Release->getBeginLoc(), Store->getBeginLoc()))
      return false;
    const Stmt *Decider = controllingStatement(Store);
    return !Decider || Encloses(Decider, Release);
  });
}

} // namespace lifetime
} // namespace cgt
