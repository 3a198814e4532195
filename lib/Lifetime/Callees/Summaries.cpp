//===- Summaries.cpp - helper summaries -----------------------------------===//
//
// SummaryMode: what a helper defined in the translation unit does with each
// parameter, collected while the analysis runs on the helper and turned into
// a FunctionModel applied at its call sites:
//
//   parameter state at the helper's exits      effect for the caller
//   Released (every exit)                   -> releases (the families seen)
//   Live, never passed on                   -> uses (only used: no hand-off)
//   Escaped (stored, returned, unknown call) -> unlisted: escapes at the call
//   *out = e / out->f = e / acquire(&c->f)  -> acquires (into the member "f")
//   one handle stored through two params    -> acquires into neither
//   release of c->f it did not acquire      -> releases the member "f"
//     ... then c->f = NULL / c->f = other   -> ... and resets it ("resets")
//   release of *p, then *p = NULL           -> releases through p, resets
//   c->f = e, e no live resource of its own -> writes "f" (SummaryWrites.cpp)
//   acquire(&c->f) where c->g tested null  -> acquires "if c->g is empty"
//   acquire(&b.f); return b; (local struct) -> acquires into member "f" of
//                                              the result (the caller's
//                                              `Blk h = get(..)`: h.f)
//   free_buf(p) or cudaFree(*p) under a     -> releases through p "on some
//     test of something other than p          paths": a live handle is handed
//                                              over, none is released twice
//
// What a summary says about stream capture is Capture/CaptureSummaries.cpp.
//
// Kinds that differ by path are "any of these" (OrKinds); a call passing a
// constant for a parameter the helper branches on gets a summary run with
// that value bound (LifetimeAnalysis.cpp summaryFor).
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// The parameter of this (helper) function through which `E` writes to the
/// caller: a pointer parameter passed on as is, or a reference parameter
/// whose address is taken.
const ParmVarDecl *Analysis::outParameter(const Expr *E, bool AddressTaken) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
  const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!PVD)
    return nullptr;
  QualType T = PVD->getType();
  return (AddressTaken ? T->isReferenceType() : T->isPointerType()) ? PVD : nullptr;
}

/// `cudaGraphExecDestroy(*pExec)` in a helper: its callers' `&exec` is
/// released through the pointer. So is a pointer parameter handed on as is
/// to a helper that releases through it (GROMACS's `reallocateDeviceBuffer`
/// calling `freeDeviceBuffer(buffer)` before it allocates into `*buffer`);
/// that helper's reset of the pointee is this one's too.
void Analysis::noteReleaseThroughParam(const Expr *Arg, const ReleaseEffect &Eff,
                                       const Expr *At) {
  const auto *Deref = dyn_cast<UnaryOperator>(Arg);
  const Expr *Pointer = nullptr;
  if (Deref && Deref->getOpcode() == UO_Deref && !Eff.ThroughPointer)
    Pointer = Deref->getSubExpr();
  else if (!Deref && Eff.ThroughPointer && Eff.Field.empty())
    Pointer = Arg;
  const ParmVarDecl *PVD = Pointer ? outParameter(Pointer, /*AddressTaken=*/false) : nullptr;
  if (!PVD || PVD->getDeclContext() != FD)
    return;
  int Index = PVD->getFunctionScopeIndex();
  FirstDerefRelease.try_emplace(Index, At);
  auto Same = llvm::find_if(SummaryDerefReleases, [&](const ReleaseEffect &R) { return R.Arg == Index; });
  // A helper handed the pointer that releases through it on some paths
  // only leaves this one's release conditional too.
  bool Conditional = (Eff.ThroughPointer && Eff.OnSomePaths) || releasedUnderOwnCondition(At, PVD);
  if (Same == SummaryDerefReleases.end()) {
    SummaryDerefReleases.push_back({Index, Eff.Kinds, /*ThroughPointer=*/true});
    SummaryDerefReleases.back().Resets = Eff.ThroughPointer && Eff.Resets;
    SummaryDerefReleases.back().OnSomePaths = Conditional;
  } else if (!Conditional) {
    Same->OnSomePaths = false;
  }
}

/// Whether something decides if the release at `At` runs other than a test
/// of the pointer parameter `PVD` itself: `if (*buf)` and `if (buf &&
/// *buf)` pass every live handle of the caller; `if (*cap >= 0)`, a loop,
/// a `catch` may not run at all.
bool Analysis::releasedUnderOwnCondition(const Expr *At, const ParmVarDecl *PVD) const {
  if (!PM)
    return false;
  const Stmt *From = At;
  for (const Stmt *S = PM->getParent(At); S; From = S, S = PM->getParent(S)) {
    const Expr *Cond = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S))
      Cond = If->getCond();
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
      Cond = CO->getCond();
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
      Cond = BO->getLHS();
    else if (const auto *Do = dyn_cast<DoStmt>(S); Do && From == Do->getBody())
      continue; // a `do { ... } while (0)` macro runs its body once
    else if (isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt, CXXCatchStmt>(S))
      return true;
    else
      continue;
    // What decides whether the rest runs, not the rest: `if (cudaFree(*p))`.
    if (From == Cond)
      continue;
    if (!testsOnlyParam(Cond, PVD))
      return true;
  }
  return false;
}

/// `*buf`, `buf != NULL && *buf`: names `PVD` and nothing else, calls
/// nothing. A parameter this summary binds to the call's constant (`if
/// (own)` of `destroy(&e, true)`) decides nothing the caller does not know:
/// the release was reached under that value.
bool Analysis::testsOnlyParam(const Stmt *Cond, const ParmVarDecl *PVD) const {
  if (isa<CallExpr>(Cond))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Cond)) {
    const auto *Param = dyn_cast<ParmVarDecl>(DRE->getDecl());
    return Param && (Param == PVD || llvm::any_of(Constants, [&](const auto &C) {
                       return Param->getDeclContext() == FD &&
                              C.first == Param->getFunctionScopeIndex();
                     }));
  }
  bool NamesIt = false;
  for (const Stmt *Child : Cond->children()) {
    if (!Child)
      continue;
    if (!testsOnlyParam(Child, PVD))
      return false;
    NamesIt = true;
  }
  return NamesIt || isa<CXXNullPtrLiteralExpr, IntegerLiteral, GNUNullExpr>(Cond);
}

/// `cudaStreamDestroy(ctx->stream)` in `ctx_free(Ctx *ctx)`: its callers'
/// `ctx.stream` is released (the init/free pairs of C-style context structs,
/// matched field by field across the functions of the file).
void Analysis::noteFieldReleaseThroughParam(const ParmVarDecl *PVD, StringRef Field,
                                            const ReleaseEffect &Eff, const Expr *At) {
  if (PVD->getDeclContext() != FD)
    return;
  int Index = PVD->getFunctionScopeIndex();
  SourceLocation &First = FirstFieldRelease[{Index, Field.str()}];
  if (First.isInvalid() || SM.isBeforeInTranslationUnit(loc(At), First))
    First = loc(At);
  auto Same = llvm::find_if(SummaryFieldReleases, [&](const ReleaseEffect &R) {
    return R.Arg == Index && R.Field == Field;
  });
  if (Same == SummaryFieldReleases.end()) {
    ReleaseEffect R;
    R.Arg = Index;
    R.Kinds = Eff.Kinds;
    R.Field = Field.str();
    SummaryFieldReleases.push_back(std::move(R));
    return;
  }
  for (const std::string &K : Eff.Kinds)
    if (!llvm::is_contained(Same->Kinds, K))
      Same->Kinds.push_back(K);
}

void Analysis::noteFieldAcquisition(Key Target, const CallExpr *At, const PathState &P) {
  if (!Target->Member || Target->Element || !isa<ParmVarDecl>(Target->Decl))
    return;
  int Index = cast<ParmVarDecl>(Target->Decl)->getFunctionScopeIndex();
  std::pair<int, std::string> Member{Index, Target->Member->getNameAsString()};
  SourceLocation &First = FirstFieldAcquire[Member];
  if (First.isInvalid() || SM.isBeforeInTranslationUnit(loc(At), First))
    First = loc(At);
  std::set<std::string> Guards = membersTestedNull(Target->Decl, P);
  auto [Known, New] = FieldAcquisitionGuards.try_emplace(Member, Guards);
  if (!New)
    for (auto It = Known->second.begin(); It != Known->second.end();)
      It = Guards.count(*It) ? std::next(It) : Known->second.erase(It);
}

/// `if (c->stream != NULL) return 0;` in a helper: on the path that goes on,
/// `c->stream` was null when the helper was called.
void Analysis::noteEntryNullTest(uintptr_t Fact, bool NonZero, PathState &P) {
  auto Vars = FactVars.find(Fact);
  if (NonZero || Vars == FactVars.end() || Vars->second.size() != 1)
    return;
  Key K = Vars->second.front();
  const auto *PVD = dyn_cast<ParmVarDecl>(K->Decl);
  if (reinterpret_cast<uintptr_t>(K) != Fact || !PVD || PVD->getDeclContext() != FD ||
      !K->Member || K->Element || K->shadow() || P.Bind.count(K))
    return;
  // A key of its own: the member's fact goes when the member is written
  // (the acquisition that follows writes it), this one stays. Place keys
  // are aligned, so the low bit is free; the map tells them from other
  // facts' keys.
  uintptr_t Entry = reinterpret_cast<uintptr_t>(K) | 1;
  EntryNullFacts[Entry] = K;
  P.Facts[Entry] = false;
}

/// The members of the parameter this path found null on entry.
std::set<std::string> Analysis::membersTestedNull(const ValueDecl *Param, const PathState &P) const {
  std::set<std::string> Null;
  for (const auto &[Fact, Truth] : P.Facts) {
    auto Entry = Truth ? EntryNullFacts.end() : EntryNullFacts.find(Fact);
    if (Entry != EntryNullFacts.end() && Entry->second->Decl == Param)
      Null.insert(Entry->second->Member->getNameAsString());
  }
  return Null;
}

/// The member whose emptiness guards every acquisition into `Field` (the
/// field itself when it is one of them), or "".
std::string Analysis::acquisitionGuard(int Index, const std::string &Field) const {
  auto It = FieldAcquisitionGuards.find({Index, Field});
  if (It == FieldAcquisitionGuards.end() || It->second.empty())
    return "";
  return It->second.count(Field) ? Field : *It->second.begin();
}

/// `cudaMemPoolDestroy(c->pool); c->pool = NULL;` or a setter's
/// `cudaStreamDestroy(c->stream); c->stream = s;`: at no exit does the
/// member still name a handle released here, so the caller's member is
/// null or new after the call.
bool Analysis::leavesMemberReset(const ReleaseEffect &R) const {
  for (const PathState &P : ExitStates)
    for (const auto &[K, Ids] : P.Bind) {
      const auto *PVD = dyn_cast<ParmVarDecl>(K->Decl);
      if (!PVD || !K->Member || K->Element || K->shadow() || PVD->getDeclContext() != FD ||
          static_cast<int>(PVD->getFunctionScopeIndex()) != R.Arg || K->Member->getName() != R.Field)
        continue;
      for (unsigned Id : Ids)
        if (auto RS = P.Res.find(Id); RS != P.Res.end() && (RS->second.Bits & Released))
          return false;
    }
  return true;
}

/// `if (cudaMalloc(&c->buf, n)) { cudaStreamDestroy(c->stream); return -1; }`
/// after `cudaStreamCreate(&c->stream)`: the release undoes this function's
/// own acquisition (the disjunct that holds it knows; the base that stands
/// for the other paths does not), so it is no effect on the caller's member.
/// A release before the first acquisition (`cudaFree(c->buf);
/// cudaMalloc(&c->buf, n)`, a reset) is one.
bool Analysis::releasesOnlyOwnAcquisition(const ReleaseEffect &R) const {
  auto Acq = FirstFieldAcquire.find({R.Arg, R.Field});
  auto Rel = FirstFieldRelease.find({R.Arg, R.Field});
  return Acq != FirstFieldAcquire.end() && Rel != FirstFieldRelease.end() &&
         SM.isBeforeInTranslationUnit(Acq->second, Rel->second);
}

/// Members of the caller's struct the helper leaves holding a resource it
/// acquired (`cudaStreamCreate(&ctx->stream)` in `ctx_init`), read from the
/// states at its exits: one acquired and released again inside is no effect.
/// With the releases above, a caller's local `Ctx c; ctx_init(&c);` is
/// followed member by member to its `ctx_free(&c)`, or to the return that
/// loses it.
void Analysis::addFieldEffects(FunctionModel &M) const {
  std::vector<AcquireEffect> Acquired;
  for (const PathState &P : ExitStates)
    for (const auto &[K, Ids] : P.Bind) {
      if (!K->Member || K->Element || !isa<ParmVarDecl>(K->Decl) ||
          K->Decl->getDeclContext() != FD)
        continue;
      for (unsigned R : Ids) {
        auto RS = P.Res.find(R);
        const Resource &Res = Resources[R];
        if (RS == P.Res.end() || !(RS->second.Bits & Live) || Res.Kind.empty() || !Res.Site)
          continue;
        int Index = cast<ParmVarDecl>(K->Decl)->getFunctionScopeIndex();
        std::string Field = K->Member->getNameAsString();
        auto Same = llvm::find_if(Acquired, [&](const AcquireEffect &E) {
          return E.Arg == Index && E.Field == Field;
        });
        if (Same == Acquired.end()) {
          Acquired.push_back({Index, Res.Kind, true, Field});
          Acquired.back().IfEmpty = acquisitionGuard(Index, Field);
        }
        else if (Same->Kind != Res.Kind && !llvm::is_contained(Same->OrKinds, Res.Kind))
          Same->OrKinds.push_back(Res.Kind);
      }
    }
  for (AcquireEffect &E : Acquired)
    if (llvm::none_of(M.Acquires, [&](const AcquireEffect &A) {
          return A.Arg == E.Arg && A.Field == E.Field;
        }))
      M.Acquires.push_back(std::move(E));
  for (const ReleaseEffect &R : SummaryFieldReleases)
    if (!releasesOnlyOwnAcquisition(R)) {
      M.Releases.push_back(R);
      M.Releases.back().Resets = leavesMemberReset(R);
    }
}

/// `return p->exec;` of a lazy getter: the object behind the parameter
/// keeps what it returns, the caller borrows it.
bool Analysis::returnsParamMember(const Expr *Ret) {
  Key K = Ret ? storageOf(Ret) : nullptr;
  return K && K->Member && !K->Element && isa<ParmVarDecl>(K->Decl) &&
         (K->Decl->getType()->isPointerType() || K->Decl->getType()->isReferenceType());
}

/// A helper that returns a live resource it acquired is a factory.
void Analysis::noteReturnedResource(const Expr *Ret, const PathState &P) {
  Key K = Ret ? storageOf(Ret) : nullptr;
  // `return pool_;` lends the object's handle; it stays the object's, as
  // does a member of a parameter.
  if ((K && K->whole() && isa<FieldDecl>(K->Decl)) || returnsParamMember(Ret))
    return;
  if (K && K->whole())
    noteReturnedMembers(K, P);
  auto It = K ? P.Bind.find(K) : P.Bind.end();
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live) &&
                                 !Resources[R].Kind.empty())
      SummaryReturnKind = Resources[R].Kind;
}

/// `Blk b; ...; cudaMallocHost(&b.p, n); return b;`: a local struct returned
/// by value hands its members' live resources to the caller, which finds
/// them in the members of what it initialises (acquireReturned).
void Analysis::noteReturnedMembers(Key Whole, const PathState &P) {
  const auto *VD = dyn_cast<VarDecl>(Whole->Decl);
  if (!VD || isa<ParmVarDecl>(VD) || !VD->getType()->isRecordType())
    return;
  for (const auto &[K, Ids] : P.Bind) {
    if (K->Decl != VD || !K->Member || K->Element || K->shadow())
      continue;
    for (unsigned R : Ids)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live) &&
                                   !Resources[R].Kind.empty())
        SummaryAcquires.push_back(
            {ReturnValue, Resources[R].Kind, K->Member->getNameAsString(), R});
  }
}

/// `return b;` of a C++ struct: the copy or move constructor (elided) that
/// makes the returned value, seen before the return statement.
void Analysis::noteReturnedCopy(const CXXConstructExpr *Copy, const PathState &P) {
  if (Copy->getNumArgs() != 1 || !Copy->getConstructor()->isCopyOrMoveConstructor())
    return;
  const Stmt *Up = PM->getParent(Copy);
  while (isa_and_nonnull<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                         ImplicitCastExpr, ParenExpr>(Up))
    Up = PM->getParent(Up);
  if (!isa_and_nonnull<ReturnStmt>(Up))
    return;
  if (Key Whole = storageOf(Copy->getArg(0)); Whole && Whole->whole())
    noteReturnedMembers(Whole, P);
}

/// `*out = e;` (or `out = e;` for a reference) in a helper hands a live
/// resource to its caller: the summary records an acquisition into it.
void Analysis::notePublishedThroughParam(const Expr *LHS, const Expr *RHS, const PathState &P) {
  // `*out = e` through a pointer parameter, `out = e` through a reference,
  // `out->exec = e` into a member of what a pointer parameter points to.
  const auto *Deref = dyn_cast<UnaryOperator>(strip(LHS));
  const ParmVarDecl *PVD = nullptr;
  std::string Field;
  if (Deref && Deref->getOpcode() == UO_Deref)
    PVD = outParameter(Deref->getSubExpr(), /*AddressTaken=*/false);
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(LHS))) {
    if (const auto *Ref = dyn_cast<ParmVarDecl>(DRE->getDecl());
        Ref && Ref->getType()->isReferenceType())
      PVD = Ref;
  } else if (const auto *ME = dyn_cast<MemberExpr>(strip(LHS)); ME && ME->isArrow()) {
    PVD = outParameter(ME->getBase(), /*AddressTaken=*/false);
    Field = ME->getMemberDecl()->getNameAsString();
  }
  if (!PVD || (Field.empty() && notePublishedAgain(PVD, RHS)))
    return;
  int Index = static_cast<int>(PVD->getFunctionScopeIndex());
  bool Published = false;
  for (unsigned R : publishedResources(RHS, P))
    if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live) &&
                                 !Resources[R].Kind.empty()) {
      SummaryAcquires.push_back({Index, Resources[R].Kind, Field, R});
      Published = true;
    }
  if (Published)
    return;
  if (!Field.empty())
    SummaryWrites.insert({Index, Field});
  else if (Deref && Deref->getOpcode() == UO_Deref)
    noteDerefStore(Index, LHS);
}


/// What the right side of `*out = e` / `out->f = e` holds: the resources
/// bound to the place `e` names, or the one a factory call returns
/// (`m->weights = alloc_block(n)`, where `alloc_block` returns what it
/// allocated). Without the second, a helper that fills its caller's struct
/// from a factory would acquire nothing, and its caller's release of the
/// member after a re-initialisation would look like a second release.
std::vector<unsigned> Analysis::publishedResources(const Expr *RHS, const PathState &P) {
  if (auto Made = ReturnedResource.find(strip(RHS)); Made != ReturnedResource.end())
    return {Made->second};
  Key From = storageOf(RHS);
  auto It = From ? P.Bind.find(From) : P.Bind.end();
  if (It == P.Bind.end())
    return {};
  return std::vector<unsigned>(It->second.begin(), It->second.end());
}

/// `*ipcPtr = *devMem` after `cudaIpcOpenMemHandle(devMem, ...)` (nccl's
/// p2p mapping helper): the caller gets one handle in two places, and which
/// of them owns it is the caller's convention (nccl closes the second, kept
/// in its resources). The summary then acquires into neither: a leak of the
/// first would be a guess.
bool Analysis::notePublishedAgain(const ParmVarDecl *To, const Expr *RHS) {
  const auto *Deref = dyn_cast<UnaryOperator>(strip(RHS));
  if (!Deref || Deref->getOpcode() != UO_Deref)
    return false;
  const ParmVarDecl *From = outParameter(Deref->getSubExpr(), /*AddressTaken=*/false);
  if (!From || From == To)
    return false;
  int Index = static_cast<int>(From->getFunctionScopeIndex());
  if (llvm::none_of(SummaryAcquires, [&](const SummaryAcquire &Acq) {
        return Acq.Param == Index && Acq.Field.empty();
      }))
    return false;
  PublishedTwice.insert(Index);
  return true;
}

/// The (parameter, member) pairs the summary acquires into none of: those
/// published twice, and those holding a local's resource that the helper
/// also stores through another parameter (`*a = p; *b = p;`).
std::set<std::pair<int, std::string>> Analysis::sharedPublications() const {
  std::set<std::pair<int, std::string>> Shared;
  for (int Param : PublishedTwice)
    Shared.insert({Param, ""});
  std::map<unsigned, std::set<std::pair<int, std::string>>> ByResource;
  for (const SummaryAcquire &Acq : SummaryAcquires)
    if (Acq.Resource)
      ByResource[Acq.Resource].insert({Acq.Param, Acq.Field});
  for (const auto &[R, Targets] : ByResource)
    if (Targets.size() > 1)
      Shared.insert(Targets.begin(), Targets.end());
  return Shared;
}

/// A parameter the helper only uses: a pointer it only reads through is
/// copied (ReadOnlyParams.cpp), so `&x` given for it keeps what `x` holds.
UseEffect Analysis::usesParam(const ParmVarDecl *PVD) const {
  UseEffect U;
  U.Arg = static_cast<int>(PVD->getFunctionScopeIndex());
  U.Copies = onlyReadsThrough(PVD);
  return U;
}

std::unique_ptr<FunctionSummary> Analysis::summary() const {
  auto S = std::make_unique<FunctionSummary>();
  S->NeverReturns = !ReachedExit;
  FunctionModel &M = S->Model;
  M.Name = FD->getNameAsString();
  M.NumParams = FD->getNumParams();
  M.Origin = "summary";
  QualType Ret = FD->getReturnType();
  if (Ret->isBooleanType())
    M.StatusType = "bool";
  else if (A.Model.isStatusType(Ret.getUnqualifiedType().getAsString()) ||
           (Ret->getAs<TypedefType>() &&
            A.Model.isStatusType(Ret->getAs<TypedefType>()->getDecl()->getName())))
    M.StatusType = Ret.getUnqualifiedType().getAsString();
  for (const ParmVarDecl *PVD : FD->parameters()) {
    int Index = PVD->getFunctionScopeIndex();
    auto Id = ResourceIds.find({nullptr, Index, 0});
    if (Id == ResourceIds.end())
      continue;
    uint8_t Bits = 0;
    std::vector<std::string> Kinds;
    for (const PathState &P : ExitStates)
      if (auto It = P.Res.find(Id->second); It != P.Res.end()) {
        Bits |= It->second.Bits;
        // `if (host) cudaFreeHost(p); else cudaFree(p);` releases either.
        if (It->second.ReleasedAs)
          for (const std::string &K : It->second.ReleasedAs->Kinds)
            if (!llvm::is_contained(Kinds, K))
              Kinds.push_back(K);
      }
    Bits &= ~Absent;
    if (Bits == Released && !Kinds.empty())
      M.Releases.push_back({Index, Kinds});
    else if (Bits == Live || (Bits == 0 && ExitStates.empty()))
      M.Uses.push_back(usesParam(PVD));
  }
  for (const ReleaseEffect &R : SummaryDerefReleases)
    if (llvm::none_of(M.Releases, [&](const ReleaseEffect &E) { return E.Arg == R.Arg; })) {
      M.Releases.push_back(R);
      M.Releases.back().Resets = R.Resets || leavesPointeeReset(R);
    }
  // A helper that acquires different kinds into one parameter on different
  // paths (`switch (space)` over cudaMalloc, cudaMallocHost): the caller
  // cannot know which family releases it, so any of them may (the resource
  // still leaks); a call passing a constant `space` gets a summary
  // specialised to it (summaryFor) that knows.
  std::set<std::pair<int, std::string>> Shared = sharedPublications();
  for (const SummaryAcquire &Acq : SummaryAcquires) {
    if (Shared.count({Acq.Param, Acq.Field}))
      continue;
    auto Same = llvm::find_if(M.Acquires, [&](const AcquireEffect &E) {
      return E.Arg == Acq.Param && E.Field == Acq.Field;
    });
    if (Same == M.Acquires.end())
      M.Acquires.push_back({Acq.Param, Acq.Kind, true, Acq.Field});
    else if (Same->Kind != Acq.Kind && !llvm::is_contained(Same->OrKinds, Acq.Kind))
      Same->OrKinds.push_back(Acq.Kind);
  }
  addFieldEffects(M);
  addWriteEffects(M);
  // A C-style helper that acquires and returns an int or enum error code:
  // zero is success (FX_OK, 0), as for cudaError_t.
  if (M.StatusType.empty() && !M.Acquires.empty() &&
      (Ret->isIntegerType() || Ret->isEnumeralType()) && !Ret->isBooleanType())
    M.StatusType = "int";
  if (!SummaryReturnKind.empty())
    M.Acquires.push_back({ReturnValue, SummaryReturnKind, true});
  addCaptureRole(M);
  noteCaptureUnsafeCalls(M);
  return S;
}

} // namespace lifetime

namespace {

/// A parameter a pure helper may have: a value, or a reference or pointer
/// to const (it reads the caller's object, never writes it).
bool readsOnly(const ParmVarDecl *P) {
  QualType T = P->getType();
  if (T->isReferenceType() || T->isPointerType())
    return T->getPointeeType().isConstQualified();
  return true;
}

} // namespace

/// `static bool timing_on(const Opts &o) { return o.timing && o.iters > 0; }`:
/// a helper of the file whose result depends only on the values of its
/// arguments and that changes nothing, so two calls with arguments that did
/// not change between them agree (Branches.cpp keeps `if (timing_on(o))` as
/// a fact about `o`). Its parameters only read; it calls nothing but such
/// helpers, writes only its own locals, reads no global that may change.
bool LifetimeAnalyzer::Impl::isPureHelper(const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Depth > 3)
    return false;
  auto [It, New] = PureHelpers.try_emplace(Def, false);
  if (!New)
    return It->second;
  if (isa<CXXMethodDecl>(Def) || Def->isVariadic() || Def->getReturnType()->isVoidType() ||
      !llvm::all_of(Def->parameters(), readsOnly))
    return false;
  auto OwnLocal = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
           VD->getDeclContext() == Def;
  };
  bool Pure = true;
  llvm::SmallVector<const Stmt *, 16> Stack{Def->getBody()};
  while (!Stack.empty() && Pure) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Pure = !isa<CXXMemberCallExpr>(Call) && !isa<CUDAKernelCallExpr>(Call) &&
             (Call->getBuiltinCallee() == Builtin::BI__builtin_expect ||
              isPureHelper(Call->getDirectCallee(), Depth + 1));
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Pure = OwnLocal(BO->getLHS());
    else if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      Pure = OwnLocal(UO->getSubExpr());
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      Pure = !VD || VD->hasLocalStorage() || VD->getType().isConstQualified();
    } else if (isa<CXXThisExpr>(S) || isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S) ||
               isa<CXXThrowExpr>(S) || isa<AsmStmt>(S) || isa<LambdaExpr>(S) ||
               isa<CXXConstructExpr>(S)) {
      Pure = false;
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
  return PureHelpers[Def] = Pure;
}

} // namespace cgt
