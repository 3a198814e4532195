//===- Assignments.cpp - assignments and escapes --------------------------===//
//
// Assignments move resources between places and overwrite what a place
// held; values that are stored, returned or passed to code the analysis
// does not follow escape. An escape hands a resource on but does not change
// the value it is read from: only an argument the callee may write
// (invalidateReachableFrom) loses its facts.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

void Analysis::unbind(Key K, PathState &P, const Stmt *At, const char *How) {
  auto It = P.Bind.find(K);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || P.boundElsewhere(R, K))
      continue;
    // A member is the object's to release, so storing over it is not a leak,
    // except over what another method left in it on entry (`if (has_exec_)
    // destroy(exec_); exec_ = nullptr;` after a `build()` that does not set
    // has_exec_): this method drops the only handle the object had.
    const Resource &Res = Resources[R];
    if ((RS->second.Bits & Live) && (!Res.IntoField || Res.LeftLiveBy) && At)
      reportLeak(R, RS->second, loc(At), overwriteNote(K, Res, How));
    P.Res.erase(RS);
  }
  P.Bind.erase(It);
}

/// "'exec_' is overwritten here while it still holds the graph exec" (and
/// which method left it there, for a member live on entry).
std::string Analysis::overwriteNote(Key K, const Resource &Res, const char *How) const {
  const ResourceKind *RK = A.Model.kind(Res.Kind);
  std::string Out = "'" + varName(K) + "' " + How + " while it still holds the " +
                    (RK ? RK->Noun : std::string("resource"));
  if (Res.LeftLiveBy && Res.LeftLiveBy != FD)
    Out += " that '" + Res.LeftLiveBy->getNameAsString() + "' left in it";
  return Out;
}

bool Analysis::addressEscaped(Key K) {
  return AddressEscaped.count(K) || (!K->whole() && AddressEscaped.count(placeOf(K->Decl)));
}

/// `void* args[] = {&d_in, &n, &d_out};`: the kernel parameter array of
/// cudaLaunchKernel / cuLaunchKernel / a kernel node's `kernelParams`. Every
/// consumer of such an array copies the parameters out of `*args[i]` when it
/// is called, so the addresses are read there, not kept.
static bool isKernelParameterArray(const InitListExpr *ILE) {
  const auto *AT = dyn_cast_or_null<ConstantArrayType>(ILE->getType()->getAsArrayTypeUnsafe());
  if (!AT || !AT->getElementType()->isVoidPointerType() || ILE->getNumInits() == 0)
    return false;
  return llvm::all_of(ILE->inits(), [](const Expr *Init) {
    const auto *UO = dyn_cast<UnaryOperator>(Init->IgnoreParenCasts());
    return UO && UO->getOpcode() == UO_AddrOf;
  });
}

/// The live resources bound to `K` are someone else's now (an element read
/// out of a container, a handle a helper may release): neither leaked nor
/// released here.
void Analysis::handOnBound(Key K, PathState &P) {
  auto It = P.Bind.find(K);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
      RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
}

/// Values that flow out of `E` as themselves (not through a comparison or an
/// arithmetic result) escape when `E` is stored, returned or passed on.
void Analysis::escapeValueRefs(const Expr *E, PathState &P) {
  if (!E)
    return;
  E = strip(E);
  if (std::optional<unsigned> R = returnedMemberOf(E)) { // `sink(get(n).p)`
    if (auto RS = P.Res.find(*R); RS != P.Res.end())
      RS->second.Bits = Escaped;
    return;
  }
  if (Key K = storageOf(E)) {
    // What becomes of the value does not change it: only a call given a
    // modifiable path to it can (invalidateReachableFrom).
    // A whole struct or array handed on takes its members and elements along;
    // an array decays to the address of its elements.
    if (K->whole() && K->Decl->getType()->isArrayType())
      AddressEscaped.insert(K);
    // `sl` of `Slot* sl = &x;` hands on the members of `x` (LocalPointers.cpp).
    const ValueDecl *Owner = pointeeOwner(K);
    for (auto &B : P.Bind) {
      // A capture open on a stream is not a value: it does not escape.
      bool Reached = B.first == K || (K->whole() && (B.first->Decl == K->Decl ||
                                                     (B.first->Member && B.first->Decl == Owner)));
      if (B.first->shadow() || !Reached)
        continue;
      for (unsigned R : B.second)
        if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
          RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
    }
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    // Whoever got `&e` can read whatever is acquired into `e` later.
    if (UO->getOpcode() == UO_AddrOf)
      if (Key K = storageOf(UO->getSubExpr()))
        AddressEscaped.insert(K);
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      escapeValueRefs(UO->getSubExpr(), P);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    // `return ok ? e : nullptr;`: the path knows which arm it took.
    std::optional<bool> Arm = knownCondition(CO->getCond(), P);
    if (!Arm || *Arm)
      escapeValueRefs(CO->getTrueExpr(), P);
    if (!Arm || !*Arm)
      escapeValueRefs(CO->getFalseExpr(), P);
    return;
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    if (isKernelParameterArray(ILE))
      return; // the launch copies each `*args[i]`; nothing keeps the address
    for (const Expr *Init : ILE->inits())
      escapeValueRefs(Init, P);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      escapeValueRefs(BO->getRHS(), P);
    else if (BO->isAdditiveOp()) {
      escapeValueRefs(BO->getLHS(), P);
      escapeValueRefs(BO->getRHS(), P);
    }
    return;
  }
  if (isa<CallExpr, CXXNewExpr>(E)) {
    auto It = ReturnedResource.find(E);
    if (It != ReturnedResource.end())
      if (auto RS = P.Res.find(It->second); RS != P.Res.end())
        RS->second.Bits = Escaped;
    if (auto Filled = ReturnedMembers.find(E); Filled != ReturnedMembers.end())
      for (const auto &[Field, R] : Filled->second)
        if (auto RS = P.Res.find(R); RS != P.Res.end())
          RS->second.Bits = Escaped;
    return;
  }
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(E)) {
    escapeArgs(Cons->getConstructor(), {Cons->getArgs(), Cons->getNumArgs()}, P);
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
    if (isLocalLambda(Lambda))
      return; // its body acts where it is called
    // A by-reference capture sees what is acquired into the variable later,
    // and may change it whenever the lambda runs.
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar())) {
          AddressEscaped.insert(placeOf(VD));
          if (!isReadOnlyObject(VD))
            invalidateFacts(placeOf(VD), P);
        }
    for (const Expr *Init : Lambda->capture_inits())
      escapeValueRefs(Init, P);
    return;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    // `std::fabs(buf[i])`: a number read out of the memory a pointer holds
    // hands on neither the pointer nor the memory (an element of an array
    // of handles is a handle, and goes on below).
    QualType Element = ASE->getType();
    if (ASE->getBase()->IgnoreParenImpCasts()->getType()->isPointerType() &&
        (Element->isArithmeticType() || Element->isEnumeralType()))
      return;
    escapeValueRefs(ASE->getBase(), P);
  }
}

/// Arguments of a call we do not follow escape; one bound to a reference
/// parameter gives away the variable itself (`ExecGuard guard(exec);` before
/// the instantiate), so later acquisitions into it escape too.
void Analysis::escapeArgs(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args,
                          PathState &P) {
  for (unsigned I = 0; I < Args.size(); ++I) {
    bool ByReference = !Callee || I >= Callee->getNumParams() ||
                       Callee->getParamDecl(I)->getType()->isReferenceType();
    if (ByReference)
      if (Key K = storageOf(Args[I]))
        AddressEscaped.insert(K);
    escapeValueRefs(Args[I], P);
    bool Variadic = false;
    QualType Param = paramTypeOf(Callee, I, &Variadic);
    if (!Variadic)
      invalidateReachableFrom(Args[I], Param, P);
  }
}

/// The type of the parameter argument `I` binds to; null when there is no
/// prototype to say (anything may be written), and for the variadic part
/// (copied by value: nothing the caller holds changes).
QualType Analysis::paramTypeOf(const FunctionDecl *Callee, unsigned I, bool *Variadic) {
  if (Variadic)
    *Variadic = false;
  if (!Callee)
    return QualType();
  if (I < Callee->getNumParams())
    return Callee->getParamDecl(I)->getType();
  if (Variadic)
    *Variadic = Callee->isVariadic();
  return QualType();
}

namespace {

/// `T&` or `T*` whose `T` the callee may write (a class with mutable
/// members counts: CSA invalidates those through const too).
bool pointeeWritable(QualType T) {
  QualType Pointee = T->getPointeeType();
  if (Pointee.isNull())
    return false;
  if (!Pointee.isConstQualified())
    return true;
  const auto *RD = Pointee->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() && RD->hasMutableFields();
}

} // namespace

/// CSA's rule for what a call can change (CallEvent::invalidateRegions and
/// its const-argument handling): only what it is handed a modifiable path
/// to. A variable bound to a non-const reference parameter, and what a
/// pointer to non-const points to; never a value copied into a parameter
/// or bound to `const T&` (an options struct passed to a helper keeps every
/// fact about its members). `&x` is CSA's pointer case too, handled for
/// every call by forgetFactsWrittenThrough. A null `ParamType` (no
/// prototype) may write anything it is given.
void Analysis::invalidateReachableFrom(const Expr *Arg, QualType ParamType, PathState &P) {
  const Expr *E = strip(Arg);
  Key K = storageOf(E);
  if (!K || K->shadow())
    return;
  bool Unknown = ParamType.isNull();
  if (Unknown || (ParamType->isReferenceType() && pointeeWritable(ParamType))) {
    invalidateFacts(K, P);
    return;
  }
  // A pointer handed on by value: the pointer stays, what it points to
  // (`ctx->flag`, the members of a pointer parameter) may change.
  if (ParamType->isPointerType() && pointeeWritable(ParamType) &&
      E->getType()->isPointerType())
    invalidateFactsIf([&, Owner = pointeeOwner(K)](Key F) {
      return (F->Decl == K->Decl || F->Decl == Owner) && F->Member;
    }, P);
}

/// A helper's summary lists what it does with each parameter; an argument
/// for a parameter it does not classify may be kept, so it escapes.
void Analysis::escapeUnclassifiedArgs(const CallExpr *Call, const FunctionModel &M,
                                      PathState &P) {
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    int Index = static_cast<int>(I);
    // `&exec` lets the helper write the caller's handle: only an acquire or
    // a release through the pointer says what it did with it, or a use
    // that only reads through it (Callees/ReadOnlyParams.cpp).
    const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(I)));
    bool ByAddress = AddrOf && AddrOf->getOpcode() == UO_AddrOf;
    bool Classified =
        llvm::any_of(M.Uses, [&](const UseEffect &U) {
          return U.Arg == Index && (!ByAddress || U.Copies);
        }) ||
        llvm::any_of(M.Releases, [&](const ReleaseEffect &R) {
          return R.Arg == Index && R.ThroughPointer == ByAddress;
        }) ||
        llvm::any_of(M.Acquires, [&](const AcquireEffect &A) { return A.Arg == Index; });
    if (Classified)
      continue;
    escapeValueRefs(Call->getArg(I), P);
    bool Variadic = false;
    QualType Param = paramTypeOf(Call->getDirectCallee(), I, &Variadic);
    if (!Variadic)
      invalidateReachableFrom(Call->getArg(I), Param, P);
  }
}

void Analysis::onAssign(const Expr *LHS, const Expr *RHS, const Stmt *At,
                        PathState &P) {
  Key Target = storageOf(LHS);
  if (!Target && assignIntoContainer(LHS, RHS, At, P))
    return; // `cache[k] = e` (ContainerFlow.cpp)
  // `out->exec = e` names a place (a member of the caller's object) that
  // the summary reports as an acquisition into the argument.
  if (SummaryMode && (!Target || isField(Target)))
    notePublishedThroughParam(LHS, RHS, P);
  if (!Target) {
    escapeValueRefs(RHS, P); // stored into memory we do not follow
    return;
  }
  if (Target->Element)
    forgetReleasedElement(Target, LHS, P);
  assignTo(Target, RHS, At, P);
}

/// `bufs[1] = nullptr` after `cudaFreeHost(bufs[1])`: that element no longer
/// holds the freed pointer, so releasing or using it again is fine.
void Analysis::forgetReleasedElement(Key Target, const Expr *LHS, PathState &P) {
  std::optional<uint64_t> I = constantIndex(LHS);
  auto It = P.Bind.find(Target);
  if (!I || *I >= 64 || It == P.Bind.end())
    return;
  for (unsigned R : It->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && RS->second.ReleasedElements != ~uint64_t(0))
      RS->second.ReleasedElements &= ~(uint64_t(1) << *I);
}

/// `Target = RHS`; `At` is null for a declaration, which cannot overwrite.
void Analysis::assignTo(Key Target, const Expr *RHS, const Stmt *At, PathState &P) {
  // `i = i + 1` reads the value it replaces.
  std::optional<values::RangeSet> Stepped =
      At ? rangeAfterStep(Target, cast<Expr>(At), P) : std::nullopt;
  invalidateFacts(Target, P);
  forgetExecReferences(Target, P);
  const Expr *Src = strip(RHS);
  if (Target->Element) {
    // `ex[p] = nullptr` writes one slot; the other elements keep theirs.
    escapeValueRefs(Src, P);
    return;
  }
  trackStatusCopy(Target, Src, P);
  IdSet NewRes;
  if (Key From = storageOf(Src)) {
    auto It = P.Bind.find(From);
    if (It != P.Bind.end())
      NewRes = It->second;
    else
      noteHandleCopy(Target, From, Src, P); // HandleCopies.cpp
    // Copying a struct or array copies the handles in it: not followed.
    if (From->whole() && llvm::any_of(P.Bind, [&](const auto &B) {
          return B.first->Decl == From->Decl && !B.first->whole() && !B.first->shadow();
        }))
      escapeValueRefs(Src, P);
  } else if (auto Made = ReturnedResource.find(Src); Made != ReturnedResource.end()) {
    NewRes = {Made->second};
  } else if (std::optional<unsigned> Member = returnedMemberOf(Src)) {
    NewRes = {*Member}; // `void *p = get(n, true, s).p;`
  } else if (auto Filled = ReturnedMembers.find(Src);
             Filled != ReturnedMembers.end() && Target->whole()) {
    bindReturnedMembers(Target, Filled->second, At, P);
  } else {
    escapeValueRefs(Src, P);
  }
  recordConstantFact(Target, Src, P);
  bindValue(Target, RHS, P);
  bindMemberInits(Target, Src, P);
  bindCondition(Target, Src, P);
  if (Stepped && !Stepped->isFull())
    P.Values.bindRange(reinterpret_cast<values::Symbol>(Target), *Stepped);
  auto Old = P.Bind.find(Target);
  bool Same = Old != P.Bind.end() && Old->second == NewRes;
  if (!Same && At && ReturnedResource.count(Src))
    reportOverwriteByFactory(Target, Src, P);
  if (!Same)
    unbind(Target, P, At, "is overwritten here");
  if (NewRes.empty())
    return;
  if (isField(Target))
    for (unsigned R : NewRes)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
        RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
  P.Bind[Target] = NewRes;
}

/// `producer_t p = {0, 0, 1};`: each member of a plain local struct starts
/// with its initialiser's value, so `if (p.owns_stream)` is decided as a
/// later `p.owns_stream = 1;` would decide it. Members of base classes and
/// of unions are not told apart by position; nested structs are left.
void Analysis::bindMemberInits(Key Target, const Expr *Src, PathState &P) {
  const auto *ILE = dyn_cast<InitListExpr>(Src);
  const VarDecl *VD = plainVar(Target);
  if (!ILE || !VD || !isPlainLocalAggregate(VD) || ILE->isTransparent())
    return;
  const RecordDecl *RD = VD->getType()->getAsRecordDecl();
  const auto *CRD = dyn_cast<CXXRecordDecl>(RD);
  if (!RD || RD->isUnion() || (CRD && CRD->getNumBases() != 0))
    return;
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (F->isUnnamedBitField())
      continue; // it has no initialiser in the list
    if (I >= ILE->getNumInits())
      break;
    const Expr *Init = ILE->getInit(I++);
    if (!Init || isa<InitListExpr>(Init))
      continue;
    Key Member = placeOf(VD, F);
    recordConstantFact(Member, Init, P);
    bindValue(Member, Init, P);
  }
}

/// `e = make_exec(...)` over a live exec is the same bug as instantiating
/// into it again: report it at the new acquisition.
void Analysis::reportOverwriteByFactory(Key Target, const Expr *Factory, PathState &P) {
  auto Old = P.Bind.find(Target);
  if (Old == P.Bind.end())
    return;
  unsigned NewR = ReturnedResource[Factory];
  for (unsigned OldR : Old->second) {
    auto RS = P.Res.find(OldR);
    // A summary's parameter stands for whatever the caller passes: nothing
    // was acquired here, so nothing is overwritten (and it has no site).
    if (RS == P.Res.end() || !(RS->second.Bits & Live) || P.boundElsewhere(OldR, Target) ||
        Resources[OldR].IntoField || !Resources[OldR].Site)
      continue;
    const Resource &Prev = Resources[OldR];
    std::string Noun = A.Model.kind(Prev.Kind) ? A.Model.kind(Prev.Kind)->Noun : "resource";
    std::vector<PathNote> Notes = trailNotes(RS->second);
    Notes.push_back({loc(Prev.Site), Prev.Site == Factory
                                         ? "the " + Noun + " created here in an earlier iteration is still alive"
                                         : "previous " + Noun + " created here by '" + Prev.AcquiredBy + "'"});
    Resources[NewR].VarName = varName(Target);
    report(FindingKind::Overwrite, NewR, Factory, std::move(Notes));
    Leaked.insert(OldR);
    RS->second.Bits = Absent; // reported once, here
  }
}

} // namespace lifetime
} // namespace cgt
