//===- Releases.cpp - releases and what they leave behind ----------------===//
//
// A call's release effects (its ApiModel entry or helper summary), and a
// `delete`'s (the model's pseudo entry, HostHeap.cpp): the
// handle's state becomes released, a second release or a release of the
// wrong family is reported, a handle nobody acquired here is released as
// an untracked one, and a helper that nulls or replaces the member it
// released leaves the caller's member naming nothing ("resets"), and one
// that releases it only on some of its paths takes a live handle over
// without releasing one twice ("onSomePaths"). Array
// elements are released one constant index at a time or all at once.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {
void Analysis::release(const CallExpr *Call, const FunctionModel &M,
                       const ReleaseEffect &Eff, PathState &P) {
  if (Eff.Arg < 0 || Eff.Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  releaseArgument(Call, Call->getArg(Eff.Arg), M, Eff, P);
}

/// The release at `Site` of what `Written` (its argument as written) names:
/// a call's argument, or the operand of a `delete` (HostHeap.cpp).
void Analysis::releaseArgument(const Expr *Site, const Expr *Written, const FunctionModel &M,
                               const ReleaseEffect &Eff, PathState &P) {
  const Expr *Arg = strip(Written);
  if (SummaryMode)
    noteReleaseThroughParam(Arg, Eff, Site);
  if (Eff.ThroughPointer) {
    const auto *AddrOf = dyn_cast<UnaryOperator>(Arg);
    if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
      return;
    Arg = AddrOf->getSubExpr();
  }
  if (Eff.Field.empty() && releaseContainerElement(Arg, Site, M, Eff, P))
    return; // `destroy(it->second)`, `for (auto e : v) destroy(e)` (ContainerFlow.cpp)
  const auto *Call = dyn_cast<CallExpr>(Site);
  if (!Eff.Field.empty() && !Call)
    return;
  Key K = Eff.Field.empty() ? storageOf(Arg) : fieldTarget(Call, Eff.Arg, Eff.Field);
  if (!K)
    return;
  llvm::SmallVector<Key, 2> Copies = handleCopiesOf(K, P); // HandleCopies.cpp
  invalidateFacts(K, P); // a destroyed handle is no longer "known live"
  // A helper that releases the handle only under conditions of its own
  // (GROMACS's `reallocateDeviceBuffer`, which frees the old buffer when it
  // must grow it): a live handle is the helper's now, neither leaked nor
  // known released here; one released already is not released twice.
  if (Eff.OnSomePaths) {
    handOnBound(K, P);
    return;
  }
  forgetExecReferences(K, P);
  releaseBound(Site, M, Eff, K, Arg, P);
  releaseCopiesToo(K, Copies, P);
  // The helper nulled or replaced the member, or what the pointer points
  // to (`cudaFree(*p); *p = nullptr;`), after releasing it.
  if (Eff.Resets && (!Eff.Field.empty() || Eff.ThroughPointer))
    unbind(K, P, nullptr, "");
}

void Analysis::releaseBound(const Expr *Call, const FunctionModel &M,
                            const ReleaseEffect &Eff, Key K, const Expr *Arg, PathState &P) {
  auto It = P.Bind.find(K);
  if (It == P.Bind.end()) {
    releaseUntracked(Call, Arg, M, Eff, K, P);
    return;
  }
  for (unsigned R : It->second) {
    auto RSIt = P.Res.find(R);
    if (RSIt == P.Res.end())
      continue;
    ResState &RS = RSIt->second;
    const Resource &Res = Resources[R];
    if (releaseBorrowed(R, RS, K, Call, M)) // Borrowed.cpp
      continue;
    if (RS.Bits == Released && RS.ReleaseSite &&
        (!Res.IntoElement || elementUseHitsRelease(RS, Arg, Call))) {
      if (releasesOnlyOthersMemory(&Eff) || releasesOnlyOthersMemory(RS.ReleasedAs))
        continue; // host heap: clang-analyzer's unix.Malloc reports it
      report(FindingKind::DoubleRelease, R, Call,
             {{loc(RS.ReleaseSite), "'" + varName(K) + "' was released here by '" +
                                        RS.ReleasedBy->Name + "'"}},
             M.Name);
      // Named by what this call releases, as the note is: after a helper
      // released two arguments the resource's own name may be the other's.
      if (auto F = Findings.find({static_cast<int>(FindingKind::DoubleRelease), Call});
          F != Findings.end() && K->whole())
        F->second.VarName = varName(K);
      continue;
    }
    if (isWrongFamily(Eff, R, RS))
      reportWrongFamily(R, K, Call, M, {});
    bool AllBefore = RS.ReleasedElements == ~uint64_t(0);
    if (K->Element && !releasesEveryElement(K, Arg, RS))
      continue;
    // The unwind loop after an error path that released one element: the
    // loop's release is the one that reaches every element, so a later use
    // is judged against where it runs.
    if (RS.Bits == Released && Res.IntoElement && !AllBefore &&
        RS.ReleasedElements == ~uint64_t(0)) {
      RS.ReleaseSite = Call;
      continue;
    }
    if (RS.Bits == Released && Res.IntoElement)
      continue; // another element of an array released before: keep where
    RS.markReleased(Call, &M, &Eff);
    bindReleaseStatus(Call, M, RS);
    onFreedWhileReferenced(R, P);
  }
}

/// A live resource of a known kind that `Eff`'s family does not release
/// (host heap on both sides is unix.Malloc's to report).
bool Analysis::isWrongFamily(const ReleaseEffect &Eff, unsigned R, const ResState &RS) const {
  const Resource &Res = Resources[R];
  return !Res.Kind.empty() && (RS.Bits & Live) && !releasesKindOf(Eff, Res) &&
         !bothOthersMemory(Eff, Res);
}

/// A MismatchedRelease at `Site` by `M`, noted where the resource was
/// allocated, then at `Extra` (the deleter that will run, ...). `Named`:
/// the released thing as written, when the place's name is not it (an
/// element of a container, `peers[r]`).
void Analysis::reportWrongFamily(unsigned R, Key K, const Expr *Site, const FunctionModel &M,
                                 std::vector<PathNote> Extra, const std::string &Named) {
  const Resource &Res = Resources[R];
  std::string Name = Named.empty() ? varName(K) : Named;
  std::vector<PathNote> Notes{
      {loc(Res.Site), "'" + Name + "' was allocated here by '" + Res.AcquiredBy + "'"}};
  Notes.insert(Notes.end(), Extra.begin(), Extra.end());
  report(FindingKind::MismatchedRelease, R, Site, std::move(Notes), M.Name);
  auto F = Findings.find({static_cast<int>(FindingKind::MismatchedRelease), Site});
  if (F == Findings.end())
    return;
  if (!Named.empty())
    F->second.VarName = Named;
  if (M.Origin == "summary")
    if (const auto *CE = dyn_cast<CallExpr>(Site))
      F->second.ThroughHelper = CE->getDirectCallee();
}

/// `st = cudaStreamDestroy(s); if (st != cudaSuccess) { cleanUp(&list); }`:
/// a release that failed released nothing, so what its failure path does
/// with the handle (the clean-up destroying it again) is no second release.
/// The status is bound as an acquisition's is; refineSubject reads it.
/// Helper summaries keep a release whole: a caller's handle stays released.
void Analysis::bindReleaseStatus(const Expr *Site, const FunctionModel &M, ResState &RS) {
  const auto *Call = dyn_cast<CallExpr>(Site);
  if (SummaryMode || !Call || Call->getCallReturnType(Ctx)->isVoidType())
    return;
  bindStatus(Call, M.StatusType != "bool", RS);
}

/// Whether the release's family includes the resource's kind, or one of
/// the kinds a helper's other paths acquire it as.
bool Analysis::releasesKindOf(const ReleaseEffect &Eff, const Resource &Res) {
  return llvm::is_contained(Eff.Kinds, Res.Kind) ||
         llvm::any_of(Res.OrKinds, [&](const std::string &K) { return llvm::is_contained(Eff.Kinds, K); });
}

/// A handle this function did not acquire (a parameter, a member, what an
/// unknown call returned) is released: whatever it was, it is released now,
/// and using or releasing it again before it is written is a use after
/// release. It has no kind, so it never leaks or mismatches.
void Analysis::releaseUntracked(const Expr *Call, const Expr *Written, const FunctionModel &M,
                                const ReleaseEffect &Eff, Key K, PathState &P) {
  bool ParamMember = K->Member && !K->Element && isa<ParmVarDecl>(K->Decl);
  if (SummaryMode && ParamMember)
    noteFieldReleaseThroughParam(cast<ParmVarDecl>(K->Decl), K->Member->getName(), Eff, Call);
  // A helper's released parameter member stays bound, so that its summary
  // can tell a member left released from one it nulls or replaces after
  // (leavesMemberReset).
  if ((SummaryMode && !ParamMember) || K->Element || K->shadow())
    return;
  // The declared handle type says the kind (`cudaArray_t lut = f->lut;
  // cudaFree(lut);`): a release of the wrong family is a mismatch even
  // though the allocation happened elsewhere.
  const ResourceKind *Typed = nullptr;
  std::string TypeName;
  if (!Eff.ThroughPointer)
    if (const auto *TT = Written->IgnoreParenCasts()->getType()->getAs<TypedefType>()) {
      TypeName = TT->getDecl()->getName().str();
      Typed = A.Model.kindOfType(TypeName);
    }
  // One per argument and member: `ctx_free(&c)` releasing `c.stream` and
  // `c.buf` releases two handles, which must not share a state or a name.
  int Slot = UntrackedSlot - 1 -
             static_cast<int>(std::min<unsigned>(
                 Eff.Arg * 32 + (K->Member ? 1 + K->Member->getFieldIndex() : 0), 998));
  unsigned R = resourceFor(Call, -1, Typed ? Typed->Name : "", "", K, Slot);
  Resources[R].Untracked = true;
  Resources[R].ReleasedParamMember = SummaryMode;
  if (Typed && !llvm::is_contained(Eff.Kinds, Typed->Name))
    report(FindingKind::MismatchedRelease, R, Call,
           {{loc(Call), "'" + varName(K) + "' is a " + TypeName + ", whatever made it"}},
           M.Name);
  ResState RS;
  RS.Bits = Released;
  RS.ReleaseSite = Call;
  RS.ReleasedBy = &M;
  RS.ReleasedAs = &Eff;
  bindReleaseStatus(Call, M, RS);
  P.Bind[K] = {R};
  P.Res[R] = RS;
}

/// A graph launch allocates the graph's memory nodes again, at the
/// addresses they had: memory freed before it that this function did not
/// allocate (a graph allocation it only received) may be valid again.
void Analysis::forgetUntrackedGraphMemory(PathState &P) {
  for (auto It = P.Res.begin(); It != P.Res.end();) {
    const ResState &RS = It->second;
    bool GraphMemory = Resources[It->first].Untracked && RS.ReleasedAs &&
                       llvm::any_of(RS.ReleasedAs->Kinds, [&](const std::string &K) {
                         const ResourceKind *RK = A.Model.kind(K);
                         return RK && RK->GraphAllocatable;
                       });
    if (!GraphMemory) {
      ++It;
      continue;
    }
    unsigned R = It->first;
    It = P.Res.erase(It);
    for (auto B = P.Bind.begin(); B != P.Bind.end();) {
      B->second.erase(R);
      B = B->second.empty() ? P.Bind.erase(B) : B + 1;
    }
  }
}

bool Analysis::releasesOneConstantElement(const Expr *Arg) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(Arg));
  Expr::EvalResult Index;
  return ASE && !ASE->getIdx()->isValueDependent() &&
         ASE->getIdx()->EvaluateAsInt(Index, Ctx);
}

/// `destroy(execs[i])` in a loop releases the array's elements;
/// `destroy(execs[2])` releases one of them, and only constant indices that
/// together cover the whole array release it all.
bool Analysis::releasesEveryElement(Key K, const Expr *Arg, ResState &RS) {
  const auto *AT = Ctx.getAsConstantArrayType(K->Decl->getType());
  std::optional<uint64_t> I = constantIndex(Arg);
  if (!I && !releaseLeavesItsLoop(Arg))
    RS.ReleasedElements = ~uint64_t(0);
  if (!I || !AT || *I >= 64 || AT->getZExtSize() > 64)
    return true;
  RS.ReleasedElements |= uint64_t(1) << *I;
  // Every element that was filled (when that is known), else every element.
  uint64_t Needed = RS.ElementsKnown && RS.AcquiredElements
                        ? RS.AcquiredElements
                        : (AT->getZExtSize() == 64 ? ~uint64_t(0)
                                                   : (uint64_t(1) << AT->getZExtSize()) - 1);
  return (RS.ReleasedElements & Needed) == Needed;
}

/// `if (cudaMalloc(&bufs[d], n) != cudaSuccess) { cudaStreamDestroy(streams[d]);
/// break; }`: a release through a variable index followed, in its block, by
/// a jump out of the loop releases that one element, not every element the
/// loop walks.
bool Analysis::releaseLeavesItsLoop(const Expr *Arg) const {
  const Stmt *Cur = Arg;
  bool InSwitch = false; // a `break` there leaves the switch, not the loop
  for (const Stmt *Up = PM->getParent(Cur); Up; Cur = Up, Up = PM->getParent(Up)) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Up))
      return false;
    InSwitch |= isa<SwitchStmt>(Up);
    const auto *Block = dyn_cast<CompoundStmt>(Up);
    if (!Block || InSwitch)
      continue;
    bool After = false;
    for (const Stmt *S : Block->body()) {
      if (S == Cur) {
        After = true;
        continue;
      }
      if (After && isa<BreakStmt, ReturnStmt, GotoStmt>(S))
        return true;
    }
  }
  return false;
}

/// Array elements are one place, so a use of "the array" after "the array"
/// was released proves nothing unless the two name the same element: the
/// same constant index, or any element after a release of every element
/// through a variable index, outside the loop that released them (where
/// each iteration uses and releases its own element).
bool Analysis::elementUseHitsRelease(const ResState &RS, const Expr *UseArg,
                                     const Stmt *UseCall) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(UseArg));
  // Releases through constant indices mark the element on every resource of
  // the array; only the elements this resource filled count.
  uint64_t Own = RS.ElementsKnown && RS.AcquiredElements ? RS.AcquiredElements : ~uint64_t(0);
  if (std::optional<uint64_t> I = ASE ? constantIndex(ASE) : std::nullopt)
    return *I < 64 && (((RS.ReleasedElements & Own) >> *I) & 1);
  if (RS.ReleasedElements != ~uint64_t(0))
    return false;
  const Stmt *Loop = PM->getParent(RS.ReleaseSite);
  while (Loop && !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Loop))
    Loop = PM->getParent(Loop);
  if (!Loop)
    return true;
  for (const Stmt *S = UseCall; S; S = PM->getParent(S))
    if (S == Loop)
      return false;
  return true;
}

} // namespace lifetime
} // namespace cgt
