//===- HandleCopies.cpp - a handle released under its copy's name ---------===//
//
// A handle this function did not acquire (a member, a parameter's member)
// has no resource: releasing it makes one, already released, bound to the
// place released (releaseUntracked). Code that swaps a handle releases it
// under a copy's name:
//
//   cudaGraphExec_t old = entry.exec;
//   cudaGraphExecDestroy(old);
//   cudaGraphLaunch(entry.exec, s);   // the exec just destroyed
//
// A copy of an untracked handle is remembered as a fact of the path, "Target
// holds From's value": kept by a join only where every side has it, and
// forgotten when either place is written (invalidateFacts), so it holds
// exactly while the two still name one handle. A release of either (the
// copies read before the release forgets the facts of what it releases)
// binds the released resource to both, and a use or release of the other is
// judged as one of the handle itself.
//
// Helper summaries are left as they are: what a helper releases through a
// parameter is read from the parameter's own place.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

bool followsCopies(Key K) { return K && !K->Element && !K->shadow(); }

} // namespace

bool Analysis::isHandleValueType(QualType T) const {
  if (T.isNull())
    return false;
  if (T->isPointerType())
    return true;
  if (const auto *TT = T->getAs<TypedefType>())
    return A.Model.kindOfType(TT->getDecl()->getName().str()) != nullptr;
  return false;
}

void Analysis::noteHandleCopy(Key Target, Key From, const Expr *Src, PathState &P) {
  if (SummaryMode || Target == From || !followsCopies(Target) || !followsCopies(From) ||
      !isHandleValueType(Src->getType()) || P.Bind.count(From))
    return;
  uintptr_t Fact = static_cast<uintptr_t>(llvm::hash_combine(Target, From, 0xC09)) | 1;
  if (Fact == ~uintptr_t(0)) // DenseMap's empty key
    Fact -= 2;
  HandleCopies.try_emplace(Fact, Target, From);
  FactVars[Fact].insert(Target);
  FactVars[Fact].insert(From);
  P.Facts[Fact] = true;
}

llvm::SmallVector<Key, 2> Analysis::handleCopiesOf(Key K, const PathState &P) const {
  llvm::SmallVector<Key, 2> Others;
  for (const auto &[Fact, Holds] : P.Facts) {
    auto It = Holds ? HandleCopies.find(Fact) : HandleCopies.end();
    if (It == HandleCopies.end())
      continue;
    auto [Target, From] = It->second;
    if (Target == K || From == K)
      Others.push_back(Target == K ? From : Target);
  }
  return Others;
}

void Analysis::releaseCopiesToo(Key Released, llvm::ArrayRef<Key> Copies, PathState &P) {
  auto It = P.Bind.find(Released);
  if (It == P.Bind.end())
    return;
  IdSet Held = It->second;
  for (Key Other : Copies)
    if (!P.Bind.count(Other))
      P.Bind[Other] = Held;
}

} // namespace lifetime
} // namespace cgt
