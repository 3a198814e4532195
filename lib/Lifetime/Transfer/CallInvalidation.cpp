//===- CallInvalidation.cpp - what a call may change ---------------------===//
//
// What a call can change follows the Clang Static Analyzer's invalidation
// (CallEvent::invalidateRegions and its const handling): the facts about a
// variable die only where the callee gets a modifiable path to it (see
// Assignments.cpp, invalidateReachableFrom, and invalidateObjectOf here);
// a value copied into a parameter, or bound to `const T&`, keeps them.
// Out-arguments a modelled call writes lose their facts; calls nobody
// models hand on what their arguments hold and forget what they may write;
// a method call on an object forgets only what that method may change.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// `cudaHostGetDevicePointer(&d, h, 0)`: a call given `&x` for an argument
/// it neither acquires into nor releases through may write a value we do
/// not know into `x`. What `x` held is no longer there to be used or
/// released (a live resource counts as handed on: nothing is known to be
/// lost).
void Analysis::forgetWrittenOutArgs(const CallExpr *Call, const FunctionModel *M,
                                    PathState &P) {
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    int Index = static_cast<int>(I);
    if (M && (llvm::any_of(M->Acquires, [&](const AcquireEffect &A) { return A.Arg == Index; }) ||
              llvm::any_of(M->Releases, [&](const ReleaseEffect &R) { return R.Arg == Index; })))
      continue;
    const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(I)));
    if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
      continue;
    // `cudaMemcpy(d_table, &ptr, sizeof ptr, ...)`: a modelled call given
    // `&x` for a pointer to const copies the bytes of `x`; it writes nothing
    // there and takes no ownership.
    if (M && (readsThroughConstPointer(Call, I) ||
              llvm::any_of(M->Uses, [&](const UseEffect &U) { return U.Arg == Index && U.Copies; })))
      continue;
    Key K = storageOf(AddrOf->getSubExpr());
    auto Bound = K ? P.Bind.find(K) : P.Bind.end();
    if (Bound == P.Bind.end())
      continue;
    for (unsigned R : Bound->second)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
        RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
    unbind(K, P, /*At=*/nullptr, "is overwritten");
  }
}

/// `model_alloc_weights(&m)` storing a block with other owners into
/// `m->weights`: what `m.weights` named before is no longer reachable
/// through it. Whether the helper released it first is not known, so it
/// escapes rather than leaks.
void Analysis::forgetWrittenMember(const CallExpr *Call, const WriteEffect &W, PathState &P) {
  if (W.Arg < 0 || W.Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  Key K = fieldTarget(Call, W.Arg, W.Field);
  noteWrittenMember(K); // SummaryWrites.cpp: a helper calling this one writes it too
  auto Bound = K ? P.Bind.find(K) : P.Bind.end();
  if (Bound == P.Bind.end())
    return;
  for (unsigned R : Bound->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
      RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
  invalidateFacts(K, P);
  unbind(K, P, /*At=*/nullptr, "is overwritten");
}

bool Analysis::readsThroughConstPointer(const CallExpr *Call, unsigned I) {
  bool Variadic = false;
  QualType Param = paramTypeOf(A.calleeOf(Call), I, &Variadic);
  return !Param.isNull() && Param->isPointerType() &&
         Param->getPointeeType().isConstQualified();
}

/// Member functions of this object, and anything given `this`, may change
/// the members whose values the path assumed.
bool Analysis::callMayChangeMembers(const CallExpr *Call) const {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      return true;
  return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
    return isa<CXXThisExpr>(Arg->IgnoreParenImpCasts());
  });
}

/// A non-const method may change the object it is called on (`opts.parse()`);
/// a const one keeps every fact about it (CSA: `this` is invalidated only
/// for non-const methods).
void Analysis::invalidateObjectOf(const CallExpr *Call, PathState &P) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD || MD->isStatic())
    return;
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Obj = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0)
    Obj = Call->getArg(0);
  if (!Obj || isa<CXXThisExpr>(Obj->IgnoreParenImpCasts()))
    return; // members of `this`: callMayChangeMembers
  bool Writable = !MD->isConst() || MD->getParent()->hasMutableFields();
  Key K = Writable ? storageOf(Obj) : nullptr;
  if (!K)
    return;
  if (Obj->getType()->isPointerType()) // `p->reset()`: what p points to
    invalidateFactsIf([&](Key F) { return F->Decl == K->Decl && F->Member; }, P);
  else
    invalidateFacts(K, P);
}

void Analysis::onUnknownCall(const CallExpr *Call, PathState &P) {
  // Kernel launches read their arguments; they do not take ownership. Nor
  // does the launch configuration `<<<grid, block, shmem, stream>>>` (a
  // call of __cudaPushCallConfiguration): it reads the stream.
  const auto *Launch = dyn_cast_or_null<CUDAKernelCallExpr>(PM ? PM->getParent(Call) : nullptr);
  if (isa<CUDAKernelCallExpr>(Call) || (Launch && Launch->getConfig() == Call)) {
    for (const Expr *Arg : Call->arguments())
      use(Call, Arg, nullptr, P);
    return;
  }
  if (onDependentOperator(Call, P)) // Templates.cpp
    return;
  if (onAssignmentOfReturnedStruct(Call, P))
    return;
  if (onContainerCall(Call, P))
    return; // insert, erase, clear, element access (ContainerFlow.cpp)
  const FunctionDecl *Callee = Call->getDirectCallee();
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  // `obj(x)`, `obj[i]`: a member operator's object comes before the
  // arguments of its parameters.
  if (isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee) &&
      !Args.empty()) {
    if (Key K = storageOf(Args[0]))
      AddressEscaped.insert(K);
    escapeValueRefs(Args[0], P);
    Args = Args.drop_front();
  }
  escapeArgs(Callee, Args, P);
  forgetWrittenOutArgs(Call, nullptr, P);
  invalidateObjectOf(Call, P);
  // A method called on a handle-holding object may hand the handle on.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    escapeValueRefs(MC->getImplicitObjectArgument(), P);
  if (callMayChangeMembers(Call)) {
    forgetFieldFactsChangedBy(Call, P);
    forgetMembersChangedBy(Call, P);
  }
}

} // namespace lifetime
} // namespace cgt
