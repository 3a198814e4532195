//===- Calls.cpp - calls and the model's effects --------------------------===//
//
// Applies a call to the path states: the acquisitions, releases and uses
// its ApiModel entry (or helper summary) lists, element-wise for arrays
// and member-wise for plain local structs; calls nobody models make their
// arguments escape.
//
// Releases are Releases.cpp's; what a call may change, and what an
// unmodelled call does, is CallInvalidation.cpp's.
// A call a macro argument spells a second time (`CHECK(e)` that prints
// `cudaGetErrorString(e)`) has no effect of its own (scanReEvaluations).
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

void Analysis::acquire(const CallExpr *Call, const FunctionModel &M,
                       const AcquireEffect &Eff, PathState &P) {
  if (!Eff.Owned) {
    lend(Call, M, Eff, P); // Borrowed.cpp
    return;
  }
  if (Eff.Arg == ReturnValue && !Eff.Field.empty()) {
    acquireReturnedMember(Call, spelledName(Call, M.Name), Eff, P);
    return;
  }
  if (Eff.Arg == ReturnValue) {
    acquireReturned(Call, spelledName(Call, M.Name), Eff, P);
    return;
  }
  if (Eff.Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  const Expr *Arg = strip(Call->getArg(Eff.Arg));
  const auto *AddrOf = dyn_cast<UnaryOperator>(Arg);
  bool ByAddress = AddrOf && AddrOf->getOpcode() == UO_AddrOf;
  Key Target = nullptr;
  if (!Eff.Field.empty()) { // a helper's `out->exec = e`, `cudaStreamCreate(&ctx.s)`
    Target = fieldTarget(Call, Eff.Arg, Eff.Field);
  } else if (ByAddress) {
    Target = storageOf(AddrOf->getSubExpr());
    if (!Target) // `cudaStreamCreate(&streams[i])` (ContainerFlow.cpp)
      Target = containerElementPlace(AddrOf->getSubExpr());
  } else if (bindsReference(Call, Eff.Arg)) { // a helper's `cudaGraphExec_t &out`
    Target = storageOf(Arg);
  }
  if (!Target) {
    // Into an out-parameter, a container element or another object: it
    // escapes. A helper's pointer or reference parameter is what its summary
    // records.
    if (SummaryMode)
      if (const ParmVarDecl *PVD = outParameter(ByAddress ? AddrOf->getSubExpr() : Arg, ByAddress))
        SummaryAcquires.push_back({static_cast<int>(PVD->getFunctionScopeIndex()), Eff.Kind, Eff.Field});
    return;
  }
  // `ctx_init(&c)` acquiring into `c.stream` and `c.buf`: one resource per
  // member.
  int Slot = Eff.Arg + 1;
  if (!Eff.Field.empty() && Target->Member)
    Slot += FieldSlot * (1 + std::min(Target->Member->getFieldIndex(), 254u));
  unsigned R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), Target, Slot);
  // The same call in an earlier iteration made a resource that another
  // variable still holds (`pos = bigger` at the end of a loop body): this
  // one is a second instance, or the two would share one state.
  if (!Target->Element && P.Res.count(R) && P.boundElsewhere(R, Target))
    R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), Target,
                    Slot + SecondInstance);
  Resources[R].OrKinds = Eff.OrKinds;
  if (SummaryMode)
    noteFieldAcquisition(Target, Call, P);
  if (Target->Element) {
    noteElementKind(Target, R);
    acquireElement(Call, M, R, Target, AddrOf ? AddrOf->getSubExpr() : Arg, P);
    return;
  }
  // Re-acquiring into a variable that still holds a live resource loses it.
  if (guardMemberLive(Call, Eff, P)) {
    keepSetUpMember(Call, M, Target, P);
    return;
  }
  auto Old = P.Bind.find(Target);
  if (Old != P.Bind.end()) {
    for (unsigned OldR : Old->second) {
      auto RS = P.Res.find(OldR);
      if (RS == P.Res.end() || !(RS->second.Bits & Live) || P.boundElsewhere(OldR, Target))
        continue;
      if (DependentlyDecided.count(OldR)) // Templates.cpp
        DependentlyDecided.insert(R);
      if (reportGraphLostToCapture(Call, M, OldR, RS->second))
        continue;
      const Resource &Prev = Resources[OldR];
      std::vector<PathNote> Notes = trailNotes(RS->second);
      std::string Noun = A.Model.kind(Prev.Kind) ? A.Model.kind(Prev.Kind)->Noun : "resource";
      Notes.push_back({loc(Prev.Site), previousResourceNote(Prev, Call, Noun)});
      // Worded with the new acquisition: its call, kind and variable.
      report(FindingKind::Overwrite, R, Call, std::move(Notes));
      Leaked.insert(OldR);
    }
    for (unsigned OldR : Old->second)
      if (!P.boundElsewhere(OldR, Target))
        P.Res.erase(OldR);
  }
  if (isField(Target) && (Old == P.Bind.end() || Old->second.empty()))
    reportFieldKnownLive(Call, M, Eff, Target, P);
  forgetExecReferences(Target, P);
  ResState RS;
  // A variable with __attribute__((cleanup(f))) is released by f at scope end.
  RS.Bits = addressEscaped(Target) || Target->Decl->hasAttr<CleanupAttr>() ? Escaped : Live;
  if (!M.StatusType.empty())
    bindStatus(Call, M.StatusType != "bool", RS);
  RS.StatusOut = statusOutPlace(Call, M);
  if (Eff.StreamOrdered)
    onGraphAllocation(Call, R, RS);
  P.Bind[Target] = {R};
  P.Res[R] = RS;
  invalidateFacts(Target, P);
}

/// A factory's result, or what a `new` made (HostHeap.cpp): live, bound to
/// nothing until whoever takes the value (a declaration, a store, a call)
/// finds it in ReturnedResource.
void Analysis::acquireReturned(const Expr *Site, const std::string &By,
                               const AcquireEffect &Eff, PathState &P) {
  unsigned R = resourceFor(Site, -1, Eff.Kind, By, nullptr);
  ResState RS;
  RS.Bits = Live;
  P.Res[R] = RS;
  ReturnedResource[Site] = R;
}

/// `ctx_init(&c)` whose summary acquires only where `c->stream` was null,
/// called when the caller's `c.stream` holds a live stream.
bool Analysis::guardMemberLive(const CallExpr *Call, const AcquireEffect &Eff,
                               const PathState &P) {
  Key Guard = Eff.IfEmpty.empty() ? nullptr : fieldTarget(Call, Eff.Arg, Eff.IfEmpty);
  auto Held = Guard ? P.Bind.find(Guard) : P.Bind.end();
  return Held != P.Bind.end() && llvm::any_of(Held->second, [&](unsigned R) {
           auto RS = P.Res.find(R);
           return RS != P.Res.end() && (RS->second.Bits & Live);
         });
}

/// The helper found the object set up and acquired nothing. Its status
/// then reports on what the member holds: an init that returns early on a
/// set object does not fail there, so its failure branch (`if (ctx_init(&c))
/// return 1;` called a second time) is no path on which the member leaks.
void Analysis::keepSetUpMember(const CallExpr *Call, const FunctionModel &M, Key Target,
                               PathState &P) {
  auto Held = P.Bind.find(Target);
  if (M.StatusType.empty() || Held == P.Bind.end())
    return;
  for (unsigned R : Held->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && RS->second.Bits == Live)
      bindStatus(Call, M.StatusType != "bool", RS->second);
}

/// `cudaGraphInstantiate(&execs[i], ...)`: elements accumulate, nothing is
/// overwritten; an earlier iteration's exec from the same call stays live
/// even if this iteration's call fails.
void Analysis::acquireElement(const CallExpr *Call, const FunctionModel &M, unsigned R,
                              Key Target, const Expr *Element, PathState &P) {
  reportExistingElementOverwrite(Call, R, Target, Element, P);
  forgetRefilledElements(R, Target, Element, P);
  ResState &RS = P.Res[R];
  bool Older = (RS.Bits & Live) != 0;
  // Which elements hold something: known while every index is a constant.
  std::optional<uint64_t> Index = constantIndex(Element);
  if (Index && *Index < 64 && RS.ElementsKnown)
    RS.AcquiredElements |= uint64_t(1) << *Index;
  else
    RS.ElementsKnown = false;
  if (addressEscaped(Target)) {
    RS.Bits = Escaped;
  } else {
    RS.Bits = Live | (RS.Bits & Released);
    RS.OlderLive = Older;
  }
  RS.forgetStatus();
  if (!M.StatusType.empty())
    bindStatus(Call, M.StatusType != "bool", RS);
  P.Bind[Target].insert(R);
}

/// `cudaFree(Ad[j])` in one loop, `cudaMalloc(&Ad[j])` in the next: the
/// element acquired into held a handle released before, and the new one
/// replaces it there. Another resource of the array, released at that
/// element (at that constant index, or at every element by a loop when this
/// index varies), is no longer what the element holds, so the element's
/// next release is the new resource's, not a second one of the old (HeCBench's
/// mallocFree frees each slot of one array three times, each after a new
/// allocator filled it). A release of every element followed by a refill of
/// one constant element keeps the old resource: the other elements are
/// still released.
void Analysis::forgetRefilledElements(unsigned R, Key Target, const Expr *Element,
                                      PathState &P) {
  auto Held = P.Bind.find(Target);
  if (Held == P.Bind.end())
    return;
  std::optional<uint64_t> Index = constantIndex(Element);
  std::vector<unsigned> Refilled;
  for (unsigned Old : Held->second) {
    auto RS = P.Res.find(Old);
    if (Old == R || RS == P.Res.end() || RS->second.Bits != Released)
      continue;
    // Only the elements this resource filled count (elementUseHitsRelease).
    const ResState &Was = RS->second;
    uint64_t Own = Was.ElementsKnown && Was.AcquiredElements ? Was.AcquiredElements : ~uint64_t(0);
    uint64_t Gone = Was.ReleasedElements;
    bool Covered = Index ? *Index < 64 && Gone != ~uint64_t(0) && (((Gone & Own) >> *Index) & 1)
                         : Gone == ~uint64_t(0);
    if (Covered)
      Refilled.push_back(Old);
  }
  for (unsigned Old : Refilled) {
    Held->second.erase(Old);
    if (!P.boundElsewhere(Old, Target))
      P.Res.erase(Old);
  }
}

/// `cudaGraphInstantiate(&kv.second, g, 0)` in a loop over a map, or into
/// `&cache.at(k)`: the element exists, and a map's elements exist only by
/// an insertion of a handle, so the element holds one of the live handles
/// the elements may hold. (`&v[i]` of a vector, `&m[k]` may name a fresh
/// slot: they only accumulate.)
void Analysis::reportExistingElementOverwrite(const CallExpr *Call, unsigned R, Key Target,
                                              const Expr *Element, const PathState &P) {
  const Expr *E = strip(Element);
  bool Existing = false;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    Existing = ME->getMemberDecl()->getName() == "second";
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    Existing = MC->getMethodDecl()->getIdentifier() && MC->getMethodDecl()->getName() == "at";
  auto Held = P.Bind.find(Target);
  if (!Existing || Held == P.Bind.end() || !isMapContainerType(Target->Decl->getType()))
    return;
  for (unsigned OldR : Held->second) {
    auto RS = P.Res.find(OldR);
    if (OldR == R || RS == P.Res.end() || RS->second.Bits != Live ||
        P.boundElsewhere(OldR, Target) || !Leaked.insert(OldR).second)
      continue;
    const Resource &Prev = Resources[OldR];
    std::string Noun = A.Model.kind(Prev.Kind) ? A.Model.kind(Prev.Kind)->Noun : "resource";
    std::vector<PathNote> Notes = trailNotes(RS->second);
    Notes.push_back({loc(Prev.Site), previousResourceNote(Prev, Call, Noun)});
    Notes.push_back({loc(Call), "'" + text(E) + "' is an element '" +
                                    Target->Decl->getNameAsString() +
                                    "' already holds; its " + Noun + " was not destroyed"});
    report(FindingKind::Overwrite, R, Call, std::move(Notes));
    return;
  }
}

/// A member that this path tested non-null, and has not destroyed, passed
/// on or reassigned since, still holds whatever it held on entry.
void Analysis::reportFieldKnownLive(const CallExpr *Call, const FunctionModel &M,
                                    const AcquireEffect &Eff, Key Field,
                                    const PathState &P) {
  auto F = P.Facts.find(reinterpret_cast<uintptr_t>(Field));
  if (F == P.Facts.end() || !F->second)
    return;
  std::string Noun = A.Model.kind(Eff.Kind) ? A.Model.kind(Eff.Kind)->Noun : "resource";
  unsigned R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), Field);
  report(FindingKind::Overwrite, R, Call,
         {{loc(Call), "'" + varName(Field) + "' was tested non-null on this path and its " +
                          Noun + " was not destroyed since"}});
}

/// The index of `a[i]` when it is a constant.
std::optional<uint64_t> Analysis::constantIndex(const Expr *Element) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(Element));
  Expr::EvalResult V;
  if (!ASE || ASE->getIdx()->isValueDependent() || !ASE->getIdx()->EvaluateAsInt(V, Ctx) ||
      V.Val.getInt().isNegative())
    return std::nullopt;
  return V.Val.getInt().getZExtValue();
}

/// `ag.exec` for the whole local struct `ag` and the member name "exec".
Key Analysis::memberPlace(Key Whole, StringRef Field) {
  const VarDecl *VD = plainVar(Whole);
  const auto *RD = VD && isPlainLocalAggregate(VD) ? VD->getType()->getAsRecordDecl() : nullptr;
  if (!RD)
    return nullptr;
  return namedMember(VD, RD, Field);
}

Key Analysis::namedMember(const ValueDecl *Base, const RecordDecl *RD, StringRef Field) {
  for (const FieldDecl *F : RD->fields())
    if (F->getName() == Field)
      return placeOf(Base, F);
  return nullptr;
}

/// The member a helper's field effect (`ctx_init(&ctx)` acquiring into
/// `ctx.stream`) names at this call: of a local struct passed by address or
/// by reference, or, when the caller passes on its own parameter, of the
/// object that parameter always names (a pointer it never reseats, a
/// reference).
Key Analysis::fieldTarget(const CallExpr *Call, int ArgIndex, StringRef Field) {
  const Expr *Arg = strip(Call->getArg(ArgIndex));
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(Arg); AddrOf && AddrOf->getOpcode() == UO_AddrOf)
    return memberPlace(storageOf(AddrOf->getSubExpr()), Field);
  const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
  const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (PVD && (isFixedPointerParam(PVD) || isStructReferenceParam(PVD))) {
    const RecordDecl *RD = PVD->getType()->getPointeeType()->getAsRecordDecl();
    return RD ? namedMember(PVD, RD, Field) : nullptr;
  }
  return bindsReference(Call, ArgIndex) ? memberPlace(storageOf(Arg), Field) : nullptr;
}

/// Whether argument `I` of the call binds a reference parameter.
bool Analysis::bindsReference(const CallExpr *Call, int I) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && I < static_cast<int>(Callee->getNumParams()) &&
         Callee->getParamDecl(I)->getType()->isReferenceType();
}

void Analysis::use(const CallExpr *Call, const Expr *Arg, const UseEffect *Eff,
                   PathState &P) {
  Key K = storageOf(Arg);
  if (!K)
    return;
  if (Eff && Eff->Launch)
    checkLaunchOfStaleExec(Call, K, P);
  if (Eff && Eff->Rebinds)
    forgetExecReferences(K, P);
  auto It = P.Bind.find(K);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || RS->second.Bits != Released || !RS->second.ReleaseSite)
      continue;
    if (Resources[R].IntoElement && !elementUseHitsRelease(RS->second, Arg, Call))
      continue;
    if (releasesOnlyOthersMemory(RS->second.ReleasedAs))
      continue;
    const FunctionDecl *Callee = Call->getDirectCallee();
    // Released under a copy's name (HandleCopies.cpp): the use names what
    // it uses, the note the copy released.
    const std::string &ReleasedAs = Resources[R].VarName;
    bool ThroughCopy = Resources[R].Untracked && ReleasedAs != varName(K);
    std::string Released = ThroughCopy ? "'" + ReleasedAs + "', a copy of '" + varName(K) + "',"
                                       : "'" + varName(K) + "'";
    report(FindingKind::UseAfterRelease, R, Call,
           {{loc(RS->second.ReleaseSite),
             Released + " was released here by '" + RS->second.ReleasedBy->Name + "'"}},
           Callee ? Callee->getNameAsString() : "");
    if (auto F = Findings.find({static_cast<int>(FindingKind::UseAfterRelease), Call});
        ThroughCopy && F != Findings.end())
      F->second.VarName = varName(K);
  }
}

/// `cudaDeviceReset()` (often in an error macro before `return`): the
/// device took everything live back, so nothing leaks after it. Escaped
/// rather than released: a release after it is an error the runtime
/// reports, not a double free of ours to name.
void Analysis::handOverEverything(PathState &P) {
  for (auto &Entry : P.Res)
    if (Entry.second.Bits & Live)
      Entry.second.Bits = (Entry.second.Bits & ~Live) | Escaped;
}

void Analysis::onModeledCall(const CallExpr *Call, const FunctionModel &M,
                             PathState &P) {
  if (M.ReturnsLastStatus)
    takeOverUncheckedStatus(Call, P);
  if (M.ReleasesAll)
    handOverEverything(P);
  if (!M.LegalDuringCapture)
    checkCaptureLegal(Call, M, P);
  if (M.Capture != CaptureRole::None)
    onCaptureCall(Call, M, P);
  for (const UseEffect &U : M.Uses)
    if (U.Arg >= 0 && U.Arg < static_cast<int>(Call->getNumArgs())) {
      use(Call, Call->getArg(U.Arg), &U, P);
      if (U.Launch && !GraphAllocations.empty())
        relaunchGraphAllocations(Call, storageOf(Call->getArg(U.Arg)), P);
    }
  if (llvm::any_of(M.Uses, [](const UseEffect &U) { return U.Launch; }))
    forgetUntrackedGraphMemory(P);
  noteOpenCaptures(Call, M, P); // for the other disjuncts (CaptureContext.cpp)
  checkCapturedFree(Call, M, P); // before the release: what was allocated where
  for (const ReleaseEffect &R : M.Releases)
    release(Call, M, R, P);
  if (!onEndIntoExistingGraph(Call, M, P))
    for (const AcquireEffect &Acq : M.Acquires)
      acquire(Call, M, Acq, P);
  for (const WriteEffect &W : M.Writes)
    forgetWrittenMember(Call, W, P);
  forgetWrittenOutArgs(Call, &M, P);
}

void Analysis::onCall(const CallExpr *Call, PathState &P, bool &Dead) {
  applyCall(Call, P, Dead);
  // After the call's own effects, which may test what was known before it.
  forgetFactsWrittenThrough(Call, P);
  noteCaptureStatus(Call, P);
}

/// `CHECK(e)` macros that expand `e` in the test and again in the message
/// (`if ((e) != cudaSuccess) report(#e, cudaGetErrorString(e))`, MatX's and
/// taskflow's checks): the second evaluation runs only where the first
/// failed, and a real program would not mean it. The first evaluation in
/// the CFG's order is the call; the others, spelled by the same tokens of
/// the same macro invocation, have no effect on resources (a failed acquire
/// overwrote nothing, a failed release released nothing).
void Analysis::scanReEvaluations() {
  std::map<std::pair<unsigned, unsigned>, std::pair<unsigned, const CallExpr *>> First;
  std::vector<std::pair<std::pair<unsigned, unsigned>, std::pair<unsigned, const CallExpr *>>> All;
  for (const CallElement &CE : CallElements) {
    SourceLocation L = CE.Call->getBeginLoc();
    if (!L.isMacroID() || !SM.isMacroArgExpansion(L) || !A.modelFor(CE.Call))
      continue;
    std::pair<unsigned, unsigned> Spelled{SM.getSpellingLoc(L).getRawEncoding(),
                                          SM.getExpansionLoc(L).getRawEncoding()};
    unsigned Position = Order[CE.Block->getBlockID()];
    All.push_back({Spelled, {Position, CE.Call}});
    auto [It, New] = First.try_emplace(Spelled, Position, CE.Call);
    if (!New && Position < It->second.first)
      It->second = {Position, CE.Call};
  }
  for (const auto &[Spelled, At] : All)
    if (First[Spelled].second != At.second)
      ReEvaluations.insert(At.second);
}

void Analysis::applyCall(const CallExpr *Call, PathState &P, bool &Dead) {
  // A cast: whoever takes the result (a launch, a store, a call) decides.
  if (ReEvaluations.count(Call) || isStdMoveOrForward(Call))
    return;
  if (const LambdaExpr *L = invokedLocalLambda(Call)) {
    if (LambdaDepth < 2) {
      ++LambdaDepth;
      applyLambdaBody(L, P, Dead);
      --LambdaDepth;
    }
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      escapeValueRefs(Call->getArg(I), P);
    return;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  auto [Known, New] = CalleeFactsOf.try_emplace(Call);
  if (New && Callee)
    Known->second.UnmodeledBuiltin = A.isUnmodeledBuiltin(Callee, Call->getNumArgs());
  if (Known->second.UnmodeledBuiltin)
    return; // __builtin_expect and friends
  const FunctionModel *M = A.modelFor(Call);
  if (M) {
    onModeledCall(Call, *M, P);
    if (M->Origin == "summary" || M->Origin == "attributes" || M->UnlistedArgsEscape) {
      escapeUnclassifiedArgs(Call, *M, P);
      invalidateObjectOf(Call, P);
      escapeMembersChangedByMethod(Call, P);
      if (callMayChangeMembers(Call)) {
        forgetFieldFactsChangedBy(Call, P);
        forgetMembersChangedBy(Call, P);
      }
    }
  } else {
    checkSmartPointerHandOver(Call, P); // `up.reset(p)` (SmartPointers.cpp)
    onUnknownCall(Call, P);
  }
  if (!Callee || !A.Opts.SinkPathsAreSilent || !A.Opts.UseHelperSummaries)
    return;
  // Asked after the effects, as they may summarise other helpers first.
  CalleeFacts &Facts = CalleeFactsOf[Call];
  if (!Facts.NeverReturns) {
    const FunctionSummary *S = A.summaryOf(Callee);
    Facts.NeverReturns = S && S->NeverReturns;
  }
  if (*Facts.NeverReturns)
    Dead = true;
}

} // namespace lifetime
} // namespace cgt
