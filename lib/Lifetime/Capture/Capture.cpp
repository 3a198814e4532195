//===- Capture.cpp - stream capture: open captures, illegal calls ---------===//
//
// Stream capture as a resource of the lifetime dataflow, driven by the
// model's "capture": "begin"|"end" and "stream" fields:
//
//   * a begin call (cudaStreamBeginCapture, cuStreamBeginCapture,
//     cudaStreamBeginCaptureToGraph) acquires a pseudo-resource of kind
//     "capture" bound to the *capture place* of its stream argument (a
//     flavour of Place that dies with the stream's variable but is not the
//     handle, so the stream itself stays bound as it was). Its status is the
//     begin call's: on the failure edge of a test the capture is Absent;
//   * an end call on the same stream (or a helper whose summary says it
//     ends its parameter's capture) releases it, whatever its status: a
//     failed cudaStreamEndCapture still ends the capture. An end call that
//     closes a cudaStreamBeginCaptureToGraph ("intoGraph") hands back the
//     caller's graph: no new graph is acquired;
//   * still Live where the stream's variable dies or the function exits:
//     FindingKind::CaptureLeftOpen at the begin, with the branch notes and
//     the exit. Only for streams this function ends a capture on somewhere;
//     a `begin` helper leaves its capture open by design (silent), and its
//     summary begins its caller's capture on the stream it is given when
//     it does so on every call, in a mode that is not relaxed (Summaries.cpp
//     addCaptureRole): `if (begin_capture(s) != cudaSuccess) ...;
//     cudaMalloc(...)` is a call during the caller's capture;
//   * a call whose model says "legalDuringCapture": false, made while a
//     capture is surely open on this path (Live, not Released nor Absent):
//     FindingKind::CaptureUnsafeCall at the call, with the model's note.
//     A capture begun with the constant relaxed mode ("captureMode") allows
//     the calls marked "legalInRelaxedCapture", and so does a thread switched
//     to relaxed mode by cudaThreadExchangeStreamCaptureMode ("capture":
//     "exchangeMode") until its next exchange.
//   * a stream-ordered free (cudaFreeAsync: "releases[].streamOrdered") on
//     the capturing stream of memory this function allocated outside every
//     capture: FindingKind::CaptureUnsafeCall at the free. A captured free
//     node frees only graph allocations; CUDA refuses the call with
//     cudaErrorInvalidValue, the capture goes on and the memory stays
//     allocated (measured: docs/capture-modes.md).
//
//   * a method's summary may capture on a member of its object instead of
//     an argument ("streamMember": `runner.begin(s)` around `s_ = s;
//     cudaStreamBeginCapture(s_, ...)`, `runner.end()`): the capture place
//     is that member of the object the call names (captureStreamOf), and
//     the argument stored in it (`s`) is bound to the same capture. A
//     member the object's constructor set from its argument (`Owner r(s)`,
//     `s_(s)`) and nothing writes after is that argument's capture place:
//     the caller's `cudaStreamIsCapturing(s, ...)` asks about it.
//
// A capture never escapes: passing the stream on does not end it.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Lifetime/Ownership/Ownership.h"

namespace cgt {
namespace lifetime {

namespace {
/// The engine's own kind for captures; no model kind has this name, so the
/// checks that route by kind never see it.
const char CaptureKind[] = "capture";
} // namespace

/// The capture place of the stream `Stream` names: a local variable or
/// parameter, a member of `this` or of a local struct (not array elements,
/// whose begin and end loops the analysis cannot pair).
Key Analysis::capturePlace(const Expr *Stream) {
  if (const Expr *Source = copiedStream(Stream))
    Stream = Source;
  Key K = storageOf(Stream);
  if (!K || K->Element)
    return nullptr;
  return placeOf(K->Decl, K->Member, /*Element=*/false, /*Capture=*/true);
}

/// `streams[i]`, `args->streams[i]`, `*s`: one stream of several that a
/// single place stands for, as an array's handles do; only begin and end
/// calls use it. Loops that begin and end captures on them are not paired
/// by count, so a capture left open there counts only where the function
/// leaves on a path on which no end call on them ran (isLeakedAtEnd,
/// ElementReleases.cpp): an early return between the begin loop and the
/// end loop is reported, a path on which the two loops ran different
/// numbers of times is not.
Key Analysis::elementCapturePlace(const Expr *Stream) {
  Stream = strip(Stream);
  const Expr *Base = nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Stream))
    Base = ASE->getBase();
  else if (const auto *UO = dyn_cast<UnaryOperator>(Stream); UO && UO->getOpcode() == UO_Deref)
    Base = UO->getSubExpr();
  Key K = Base ? storageOf(strip(Base)) : nullptr;
  if (!K || K->Element || K->shadow())
    return nullptr;
  // A pointer the function moves may name other streams at each use.
  if (strip(Base)->getType()->isPointerType() && placeWrittenInBody(K))
    return nullptr;
  return placeOf(K->Decl, K->Member, /*Element=*/true, /*Capture=*/true);
}

const Expr *Analysis::copiedStream(const Expr *Stream) {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(Stream));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
      V->getType()->isReferenceType())
    return nullptr;
  const Expr *Source = V->getInit();
  Key Own = storageOf(DRE), From = storageOf(Source);
  if (!Own || !From || From->Element || From == Own || placeWrittenInBody(Own) ||
      placeWrittenInBody(From))
    return nullptr;
  return Source;
}

/// Whether the function assigns `K`, takes its address or steps it.
bool Analysis::placeWrittenInBody(Key K) {
  bool Written = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Written)
      return;
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp()))
      Target = UO->getSubExpr();
    if (Target && storageOf(Target) == K) {
      Written = true;
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Written;
}

/// The capture place of a begin or end call's stream: its stream
/// argument, or, for a method whose summary captures on a member of its
/// object ("streamMember": `runner.begin(s)` around
/// `cudaStreamBeginCapture(s_, ...)`), that member of the object it is
/// called on, so that `runner.end()` ends what `runner.begin(s)` began.
Key Analysis::captureStreamOf(const CallExpr *Call, const FunctionModel &M) {
  if (M.StreamMember.empty()) {
    if (M.StreamArg < 0 || M.StreamArg >= static_cast<int>(Call->getNumArgs()))
      return nullptr;
    const Expr *Stream = Call->getArg(M.StreamArg);
    Key K = capturePlace(Stream);
    return K ? K : elementCapturePlace(Stream);
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD)
    return nullptr;
  const FieldDecl *Field = nullptr;
  for (const FieldDecl *F : MD->getParent()->fields())
    if (F->getName() == M.StreamMember)
      Field = F;
  const Expr *Object = MC->getImplicitObjectArgument();
  if (!Field || !Object)
    return nullptr;
  if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
    return placeOf(Field, nullptr, /*Element=*/false, /*Capture=*/true);
  Key Whole = storageOf(Object);
  if (!Whole || !Whole->whole())
    return nullptr;
  // `Owner r(s); r.begin();` with `Owner(cudaStream_t s) : s_(s)`: the
  // capture is on `s`, which a guard of the caller asks about by that name.
  if (const Expr *Given = streamGivenToConstructor(Whole, Field))
    return capturePlace(Given);
  return placeOf(Whole->Decl, Field, /*Element=*/false, /*Capture=*/true);
}

/// The argument a local object's constructor stored in `Field` unchanged
/// (`Owner r(s)`, `s_(s)`), when both still hold that value wherever the
/// object is used: the caller writes neither the object nor the variable
/// passed, and no function of the class but its constructors writes the
/// member (every method that could is defined here).
const Expr *Analysis::streamGivenToConstructor(Key Object, const FieldDecl *Field) {
  const auto *VD = dyn_cast<VarDecl>(Object->Decl);
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
      !VD->getInit() || placeWrittenInBody(Object))
    return nullptr;
  const auto *Cons = dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit());
  const FunctionDecl *Def = nullptr;
  if (!Cons || Cons->getConstructor()->isCopyOrMoveConstructor() ||
      !Cons->getConstructor()->hasBody(Def))
    return nullptr;
  int Param = -1;
  for (const CXXCtorInitializer *Init : cast<CXXConstructorDecl>(Def)->inits())
    if (Init->isWritten() && Init->getMember() == Field)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Init->getInit()->IgnoreImplicit()->IgnoreParenImpCasts()))
        if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
          Param = static_cast<int>(PVD->getFunctionScopeIndex());
  if (Param < 0 || Param >= static_cast<int>(Cons->getNumArgs()))
    return nullptr;
  const Expr *Arg = Cons->getArg(Param);
  Key Given = storageOf(Arg);
  if (!Given || !Given->whole() || placeWrittenInBody(Given) || !memberKeptFromConstruction(Field))
    return nullptr;
  return Arg;
}

/// No function of the class but a constructor writes `Field`, and each
/// non-const method that could is defined in this unit.
bool Analysis::memberKeptFromConstruction(const FieldDecl *Field) {
  const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!RD)
    return false;
  for (const CXXMethodDecl *M : RD->methods())
    if (!M->isImplicit() && !M->isDeleted() && !M->isConst() && !M->isStatic() &&
        !isa<CXXConstructorDecl>(M) && !isa<CXXDestructorDecl>(M) && !M->hasBody())
      return false;
  const OwnedMember *O = A.ownership().member(Field);
  return !O || llvm::all_of(O->WrittenIn, [](const FunctionDecl *In) {
           return isa<CXXConstructorDecl>(In);
         });
}

/// `s_` in a method of the class that declares it: the capture a method
/// begins or ends there is its object's.
const FieldDecl *Analysis::ownCaptureMember(const Expr *Stream) const {
  const auto *ME = dyn_cast<MemberExpr>(strip(Stream));
  const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!Field || !MD || MD->isStatic() || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
      Field->getParent() != MD->getParent())
    return nullptr;
  return Field;
}

/// The streams this function ends a capture on, directly or through a
/// helper: a capture begun on any other stream is left open by design.
void Analysis::scanCaptureEnds() {
  for (const CallExpr *Call : BodyCalls) {
    const FunctionModel *M = A.modelFor(Call);
    if (M && M->Capture == CaptureRole::End)
      if (Key K = captureStreamOf(Call, *M)) {
        CaptureEnds.insert(K);
        if (K->Element)
          noteReleaseSite(K, Call);
      }
  }
}

/// `cudaStreamBeginCaptureToGraph(s, graph, ...)`: the end calls that close
/// that capture hand back `graph` itself, not a new graph.
void Analysis::scanCapturesIntoGraphs() {
  for (auto [B, I, Begin] : CallElements) {
    const FunctionModel *M = A.modelFor(Begin);
    if (!M || M->Capture != CaptureRole::Begin || M->IntoGraphArg < 0 ||
        M->IntoGraphArg >= static_cast<int>(Begin->getNumArgs()))
      continue;
    Key Stream = captureStreamOf(Begin, *M);
    if (!Stream)
      continue;
    const Expr *Graph = Begin->getArg(M->IntoGraphArg);
    forEachCallAfter(B, I + 1, [&](const CallExpr *Later) {
      const FunctionModel *LM = A.modelFor(Later);
      if (!LM || (LM->Capture != CaptureRole::Begin && LM->Capture != CaptureRole::End) ||
          captureStreamOf(Later, *LM) != Stream)
        return true;
      if (LM->Capture == CaptureRole::End)
        EndsIntoGraph[Later] = Graph;
      return false;
    });
  }
}

/// An end call that hands back the graph the capture added to: its out
/// argument now holds that graph (the same resource), nothing new.
bool Analysis::onEndIntoExistingGraph(const CallExpr *Call, const FunctionModel &M,
                                      PathState &P) {
  auto It = EndsIntoGraph.find(Call);
  if (It == EndsIntoGraph.end())
    return false;
  for (const AcquireEffect &Acq : M.Acquires)
    if (Acq.Arg >= 0 && Acq.Arg < static_cast<int>(Call->getNumArgs()))
      if (Key Target = addressedPlace(Call->getArg(Acq.Arg)); Target && Target != storageOf(It->second))
        assignTo(Target, It->second, nullptr, P);
  return true;
}

const CallExpr *callOfElement(const CFGElement &E) {
  auto CS = E.getAs<CFGStmt>();
  return CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
}

/// Calls `Visit` on each call reachable from element `From` of `B`, in CFG
/// order, each block once; a path stops where `Visit` returns false.
void Analysis::forEachCallAfter(const CFGBlock *B, unsigned From,
                                llvm::function_ref<bool(const CallExpr *)> Visit) {
  llvm::BitVector Seen(Cfg->getNumBlockIDs());
  std::vector<std::pair<const CFGBlock *, unsigned>> Work{{B, From}};
  while (!Work.empty()) {
    auto [Blk, I] = Work.back();
    Work.pop_back();
    bool Stopped = false;
    for (; I < Blk->size() && !Stopped; ++I)
      if (const CallExpr *Call = callOfElement((*Blk)[I]))
        Stopped = !Visit(Call);
    if (Stopped)
      continue;
    for (const CFGBlock::AdjacentBlock &Succ : Blk->succs())
      if (const CFGBlock *To = Succ.getReachableBlock(); To && !Seen.test(To->getBlockID())) {
        Seen.set(To->getBlockID());
        Work.push_back({To, 0});
      }
  }
}

/// `mode = cudaStreamCaptureModeRelaxed; cudaThreadExchangeStreamCaptureMode(&mode);`
/// puts the thread in relaxed mode until the next exchange (PyTorch's
/// capture-mode guard around its allocator): the calls in between may do
/// what relaxed mode allows, whatever mode the capture began in.
void Analysis::scanThreadRelaxedCalls() {
  std::vector<std::pair<const CFGBlock *, unsigned>> ToRelaxed;
  std::set<const CallExpr *> Restores;
  auto IsExchange = [&](const CallExpr *Call) {
    const FunctionModel *M = A.modelFor(Call);
    return M && M->Capture == CaptureRole::ExchangeMode ? M : nullptr;
  };
  for (auto [B, I, Call] : CallElements)
    if (const FunctionModel *M = IsExchange(Call); M && setsRelaxedMode(Call, *M))
      ToRelaxed.push_back({B, I});
  // The variable holds the previous mode after the first exchange: a later
  // exchange through it restores that mode.
  for (auto [B, I] : ToRelaxed)
    forEachCallAfter(B, I + 1, [&](const CallExpr *Later) {
      if (!IsExchange(Later))
        return true;
      Restores.insert(Later);
      return false;
    });
  for (auto [B, I] : ToRelaxed) {
    if (Restores.count(callOfElement((*B)[I])))
      continue;
    forEachCallAfter(B, I + 1, [&](const CallExpr *Later) {
      if (IsExchange(Later))
        return false;
      ThreadRelaxedCalls.insert(Later);
      return true;
    });
  }
}

/// Whether the exchange's argument points to a local initialised with the
/// relaxed mode.
bool Analysis::setsRelaxedMode(const CallExpr *Call, const FunctionModel &M) const {
  if (M.CaptureModeArg < 0 || M.CaptureModeArg >= static_cast<int>(Call->getNumArgs()))
    return false;
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(M.CaptureModeArg)));
  const auto *DRE = AddrOf && AddrOf->getOpcode() == UO_AddrOf
                        ? dyn_cast<DeclRefExpr>(strip(AddrOf->getSubExpr()))
                        : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  Expr::EvalResult V;
  return VD && VD->getInit() && !VD->getInit()->isValueDependent() &&
         VD->getInit()->EvaluateAsInt(V, Ctx) &&
         V.Val.getInt().getSExtValue() == M.RelaxedCaptureMode;
}

void Analysis::onCaptureCall(const CallExpr *Call, const FunctionModel &M, PathState &P) {
  bool HasStreamArg = M.StreamArg >= 0 && M.StreamArg < static_cast<int>(Call->getNumArgs());
  if (SummaryMode && M.Capture == CaptureRole::End && HasStreamArg)
    noteCaptureEndOnParam(Call->getArg(M.StreamArg));
  if (SummaryMode && M.Capture == CaptureRole::Begin && HasStreamArg) {
    noteCaptureIntoParamGraph(Call, M);
    noteCaptureOnParamStream(Call, M);
  }
  if (SummaryMode)
    noteMemberCaptureOfThis(Call, M);
  Key K = captureStreamOf(Call, M);
  if (!K)
    return;
  auto Old = P.Bind.find(K);
  if (M.Capture == CaptureRole::End) {
    if (Old == P.Bind.end())
      return;
    for (unsigned R : Old->second)
      if (auto RS = P.Res.find(R); RS != P.Res.end()) {
        ResState &S = RS->second;
        S.Bits = Released;
        S.ReleaseSite = Call;
        S.ReleasedBy = &M;
        S.StatusExpr = nullptr;
        S.StatusVar = nullptr;
        S.StatusCopy = nullptr;
        S.StatusDerefOf = nullptr;
        S.StatusOut = nullptr;
      }
    return;
  }
  // Begin. A capture already open on this stream stays the one that counts
  // (beginning again fails with cudaErrorIllegalState).
  if (Old != P.Bind.end()) {
    for (unsigned R : Old->second)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
        return;
    for (unsigned R : Old->second)
      if (!P.boundElsewhere(R, K))
        P.Res.erase(R);
  }
  unsigned R = resourceFor(Call, -1, CaptureKind, spelledName(Call, M.Name), K);
  CaptureInfo &Info = Captures[R];
  Info.EndedHere = CaptureEnds.count(K) != 0;
  if (M.CaptureModeArg >= 0 && M.CaptureModeArg < static_cast<int>(Call->getNumArgs())) {
    const Expr *Mode = Call->getArg(M.CaptureModeArg);
    Expr::EvalResult V;
    Info.Relaxed = !Mode->isValueDependent() && Mode->EvaluateAsInt(V, Ctx) &&
                   V.Val.getInt().getSExtValue() == M.RelaxedCaptureMode;
  }
  ResState RS;
  RS.Bits = Live;
  if (!M.StatusType.empty())
    bindStatus(Call, M.StatusType != "bool", RS);
  P.Bind[K] = {R};
  P.Res[R] = RS;
  // `runner.begin(s)`, whose method stored `s` in the member it captures
  // on: `s` is the capturing stream too (a capture-status test of `s`, a
  // direct cudaStreamEndCapture(s, ...)).
  if (M.StreamMember.empty() || !HasStreamArg)
    return;
  Key Alias = capturePlace(Call->getArg(M.StreamArg));
  if (!Alias || Alias == K)
    return;
  if (auto Open = P.Bind.find(Alias); Open != P.Bind.end())
    for (unsigned Other : Open->second)
      if (auto OS = P.Res.find(Other); OS != P.Res.end() && (OS->second.Bits & Live))
        return; // a capture already open on `s` stays the one that counts
  P.Bind[Alias] = {R};
}

void Analysis::checkCaptureLegal(const CallExpr *Call, const FunctionModel &M,
                                 const PathState &P) {
  // A helper that ends the capture (`runner.end()`, which instantiates the
  // graph it ended) makes its prohibited calls after that capture.
  Key Ended = M.Capture == CaptureRole::End ? captureStreamOf(Call, M) : nullptr;
  auto EndedHere = Ended ? P.Bind.find(Ended) : P.Bind.end();
  for (const auto &Entry : P.Res) {
    unsigned R = Entry.first;
    auto Info = Captures.find(R);
    if (Info == Captures.end() || Entry.second.Bits != Live)
      continue;
    if (EndedHere != P.Bind.end() && EndedHere->second.count(R))
      continue;
    if (elementCaptureMayBeEnded(R, P))
      continue;
    bool Relaxed = Info->second.Relaxed || ThreadRelaxedCalls.count(Call);
    if (M.LegalInRelaxedCapture && Relaxed)
      continue;
    // Only the capturing stream itself is off limits; a stream we cannot
    // tell apart from it is given the benefit of the doubt.
    if (M.LegalInRelaxedCaptureOnOtherStream && Relaxed && captureOnStreamArg(Call, M, P) != R)
      continue;
    const Resource &Res = Resources[R];
    std::vector<PathNote> Notes;
    Notes.push_back({loc(Res.Site), "'" + Res.VarName + "' begins capturing here by '" +
                                        Res.AcquiredBy + "'"});
    for (PathNote &N : trailNotes(Entry.second))
      Notes.push_back(std::move(N));
    report(FindingKind::CaptureUnsafeCall, R, Call, std::move(Notes),
           spelledName(Call, M.Name));
    auto F = Findings.find({static_cast<int>(FindingKind::CaptureUnsafeCall), Call});
    if (F != Findings.end() && F->second.Detail.empty())
      F->second.Detail = M.CaptureNote;
  }
}

/// A capture on one of several streams (`streams[i]`) at a call on a path
/// on which an end call on them ran, or its loop was left: the end loop may
/// have ended it on every stream the begin loop began it on (their counts
/// are not paired).
bool Analysis::elementCaptureMayBeEnded(unsigned R, const PathState &P) const {
  auto RS = P.Res.find(R);
  return RS != P.Res.end() && llvm::any_of(P.Bind, [&](const auto &B) {
           return B.first->Capture && B.first->Element && B.second.count(R) &&
                  RS->second.releaseRanFor(B.first);
         });
}

/// The capture surely open on the stream argument of `Call` (its model's
/// "stream" use), or 0.
unsigned Analysis::captureOnStreamArg(const CallExpr *Call, const FunctionModel &M,
                                      const PathState &P) {
  for (const UseEffect &U : M.Uses) {
    if (U.Kind != "stream" || U.Arg < 0 || U.Arg >= static_cast<int>(Call->getNumArgs()))
      continue;
    Key K = capturePlace(Call->getArg(U.Arg));
    auto B = K ? P.Bind.find(K) : P.Bind.end();
    if (B == P.Bind.end())
      return 0;
    for (unsigned R : B->second)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && RS->second.Bits == Live && isCapture(R))
        return R;
  }
  return 0;
}

void Analysis::checkCapturedFree(const CallExpr *Call, const FunctionModel &M,
                                 const PathState &P) {
  if (SummaryMode)
    return; // AllocationsInCaptures is not computed
  for (const ReleaseEffect &Eff : M.Releases) {
    if (!Eff.StreamOrdered || Eff.ThroughPointer || Eff.Arg < 0 ||
        Eff.Arg >= static_cast<int>(Call->getNumArgs()))
      continue;
    // The capture may be followed in another disjunct than the memory
    // (CaptureContext.cpp).
    unsigned Capture = openCaptureOnStreamArg(Call, M, P);
    Key K = Capture ? storageOf(Call->getArg(Eff.Arg)) : nullptr;
    auto B = K ? P.Bind.find(K) : P.Bind.end();
    if (B == P.Bind.end())
      continue;
    for (unsigned R : B->second) {
      auto RS = P.Res.find(R);
      const Resource &Mem = Resources[R];
      const auto *Alloc = dyn_cast_or_null<CallExpr>(Mem.Site);
      // Only memory surely allocated here, by a call outside every capture.
      if (RS == P.Res.end() || RS->second.Bits != Live || !Alloc || Mem.Untracked ||
          Mem.ParamIndex >= 0 || Mem.LeftLiveBy || Mem.TestedOnEntry ||
          !llvm::is_contained(Eff.Kinds, Mem.Kind) || AllocationsInCaptures.count(Alloc))
        continue;
      const Resource &Cap = Resources[Capture];
      report(FindingKind::CaptureUnsafeCall, Capture, Call,
             {{loc(Cap.Site), "'" + Cap.VarName + "' begins capturing here by '" +
                                  Cap.AcquiredBy + "'"},
              {loc(Alloc), "'" + varName(K) + "' is allocated here by '" + Mem.AcquiredBy +
                               "', outside the capture"}},
             spelledName(Call, M.Name));
      auto F = Findings.find({static_cast<int>(FindingKind::CaptureUnsafeCall), Call});
      if (F != Findings.end() && F->second.Detail.empty())
        F->second.Detail = "'" + varName(K) + "' was not allocated by the capture: a captured "
                           "free frees only graph allocations, so the call fails with "
                           "cudaErrorInvalidValue and the memory stays allocated";
      return;
    }
  }
}

/// A capture still open where its stream's variable dies or the function
/// exits (reportLeak's guards have run).
void Analysis::reportCaptureOpen(unsigned R, const ResState &RS, SourceLocation Where) {
  auto Info = Captures.find(R);
  if (Info == Captures.end() || !Info->second.EndedHere)
    return;
  const Resource &Res = Resources[R];
  std::vector<PathNote> Notes = trailNotes(RS);
  Notes.push_back({Where, "'" + Res.VarName + "' is still capturing here"});
  report(FindingKind::CaptureLeftOpen, R, Res.Site, std::move(Notes));
}

} // namespace lifetime
} // namespace cgt

namespace cgt {
namespace lifetime {

/// `cudaGraphCreate(&g, 0); ... cudaStreamEndCapture(s, &g);`: the end of a
/// capture writes a new graph into `g` and never looks at the one it held,
/// so the created graph is leaked, not the capture wrong: the leak is
/// reported at the creation (the check says what overwrote it). A capture
/// over an earlier capture's graph stays an overwrite of that graph.
bool Analysis::reportGraphLostToCapture(const CallExpr *End, const FunctionModel &M,
                                        unsigned OldR, const ResState &RS) {
  const Resource &Prev = Resources[OldR];
  if (M.Capture != CaptureRole::End || !Prev.Site || Prev.ParamIndex >= 0 ||
      llvm::any_of(M.Acquires, [&](const AcquireEffect &E) { return E.Kind == Prev.Kind; }))
    return false;
  if (!Leaked.insert(OldR).second)
    return true;
  std::vector<PathNote> Notes = trailNotes(RS);
  Notes.push_back({loc(End), "'" + Prev.VarName + "' is overwritten here by '" +
                                 spelledName(End, M.Name) + "' before it is destroyed"});
  report(FindingKind::Leak, OldR, Prev.Site, std::move(Notes), spelledName(End, M.Name));
  return true;
}

} // namespace lifetime
} // namespace cgt
