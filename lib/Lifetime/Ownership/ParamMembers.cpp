//===- ParamMembers.cpp - members an earlier call of a function left live -===//
//
// The free-function form of "live on entry" (Members.cpp does it for
// methods): a function that updates an object it is given by pointer
// (llama.cpp's `ggml_cuda_graph` cache, rebuilt by a free function through
// `cuda_ctx->...`) starts with the members as its own earlier call on that
// object left them:
//
//   struct Cache { ~Cache() { ...cudaGraphDestroy(graph); } cudaGraph_t graph; };
//   void step(Cache *c, ...) { ... cudaStreamEndCapture(s, &c->graph); ... }
//   for (...) step(&c, ...);            // the same object, again and again
//
// is an Overwrite at the EndCapture (each rebuild leaks a graph) unless
// `step` releases or tests `c->graph` first. The evidence, all of which
// must hold (silence otherwise):
//
//   * the function acquires into the member through the parameter and may
//     return with it live (the dataflow run in collect mode on it);
//   * the object owns the member across calls: another function (its
//     destructor, a free function) releases it, and its value is never
//     handed out;
//   * the file calls the function again on one object with nothing in
//     between that may change the member (OwnershipIndex::
//     reachedWithMemberLive: in a loop, or twice in one function), an
//     object the caller cannot follow member by member (a plain local
//     struct it can: the callee's summary reports the second call there);
//   * no condition deciding the acquisition tests another member of the
//     object (a flag that may say whether the member is live, as
//     CompanionFlags.cpp says for methods).
//
// A test of the member itself (`if (c->graph) ...`) clears it on its null
// edge; one that decides the acquisition seeds it already
// (seedTestedParamMembers), and that seed is kept.
//
// Part of the OwnershipIndex (Ownership.h) and the Analysis class.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

namespace cgt {
namespace lifetime {

namespace {

/// The parameter `p` of `p->f`, if the member is written so.
const ValueDecl *memberBase(const Expr *Member) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(Member);
  const auto *DRE = ME ? dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()) : nullptr;
  return DRE ? DRE->getDecl() : nullptr;
}

/// Whether `S` names a member of `Base` other than `F`.
bool namesOtherMember(const Stmt *S, const ValueDecl *Base, const FieldDecl *F) {
  if (!S)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() != F)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
        DRE && DRE->getDecl() == Base)
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return namesOtherMember(C, Base, F); });
}

} // namespace

std::vector<std::pair<unsigned, const Expr *>>
OwnershipIndex::objectsPassedTo(const CallExpr *Call) {
  std::vector<std::pair<unsigned, const Expr *>> Out;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(Call))
    return Out;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    if (!T->isPointerType() || !T->getPointeeType()->isRecordType())
      continue;
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    if (const auto *AddrOf = dyn_cast<UnaryOperator>(Arg); AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      Arg = AddrOf->getSubExpr()->IgnoreParenImpCasts();
    // One object as written: a variable or a member, not an element or a
    // call's result, nor `this` (the class's own protocol). A plain local
    // struct is followed member by member at the caller, through the
    // callee's summary, which reports the second call there.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !isPlainLocalAggregate(VD))
        Out.push_back({I, Arg});
    } else if (const auto *ME = dyn_cast<MemberExpr>(Arg);
               ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
      Out.push_back({I, Arg});
    }
  }
  return Out;
}

std::map<const FieldDecl *, LiveOnReturn>
OwnershipIndex::liveOnEntryThrough(const FunctionDecl *FD, const ParmVarDecl *P) {
  std::map<const FieldDecl *, LiveOnReturn> Out;
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  int Index = static_cast<int>(P->getFunctionScopeIndex());
  const RecordDecl *RD = P->getType()->getPointeeType()->getAsRecordDecl();
  // The cheap evidence first: the file calls FD on some object at all.
  if (!RD || llvm::none_of(ObjectCalls, [&](const ObjectCall &C) {
        return C.Callee == Canon && C.Param == Index;
      }))
    return Out;
  auto Leaves = ParamLeavers.find(Canon);
  if (Leaves == ParamLeavers.end()) {
    Leaves = ParamLeavers.try_emplace(Canon).first;
    Analysis An(A, FD, /*SummaryMode=*/false);
    An.collectMembersLiveAtExit();
    if (An.run())
      Leaves->second = An.paramMembersLiveAtExit();
  }
  for (const auto &[Slot, Live] : Leaves->second) {
    const FieldDecl *F = Slot.second;
    const OwnedMember *O = member(F);
    if (static_cast<int>(Slot.first) != Index || !O || F->getParent() != RD || O->HandedOut)
      continue;
    auto Here = [&](const FunctionDecl *In) { return In && In->getCanonicalDecl() == Canon; };
    bool OwnedAcrossCalls = llvm::any_of(O->Releases, [&](const MemberRelease &R) { return !Here(R.In); });
    bool FlagDecides = llvm::any_of(O->Acquisitions, [&](const MemberAcquisition &Acq) {
      return Here(Acq.In) && memberBase(Acq.Member) == P &&
             llvm::any_of(guardingConditions(FD, Acq.Call),
                          [&](const Expr *Cond) { return namesOtherMember(Cond, P, F); });
    });
    if (OwnedAcrossCalls && !FlagDecides && reachedWithMemberLive(F, FD, FD, Index))
      Out[F] = Live;
  }
  return Out;
}

/// Collect mode: a member of a pointer parameter that the function returns
/// holding what it acquired.
void Analysis::noteParamMemberAtExit(Key K, const Resource &Res) {
  const auto *PVD = dyn_cast<ParmVarDecl>(K->Decl);
  if (!PVD || !K->Member || K->Element || K->shadow() || Res.LeftLiveBy || Res.TestedOnEntry ||
      !Res.Site || Res.Kind.empty() || Res.ParamIndex >= 0)
    return;
  auto [It, New] = ParamMembersLiveAtExit.try_emplace(
      {PVD->getFunctionScopeIndex(), K->Member},
      LiveOnReturn{nullptr, Res.Site, Res.Kind, Res.AcquiredBy});
  if (!New && It->second.Kind != Res.Kind)
    It->second.Kind.clear(); // which family holds it on entry is not known
}

void Analysis::seedParamMembersLeftLive(PathState &Entry) {
  for (const ParmVarDecl *PVD : FD->parameters()) {
    if (!isFixedPointerParam(PVD) || !PVD->getType()->getPointeeType()->isRecordType())
      continue;
    for (const auto &[F, L] : A.ownership().liveOnEntryThrough(FD, PVD)) {
      Key K = placeOf(PVD, F);
      if (Entry.Bind.count(K))
        continue;
      unsigned R = resourceFor(L.Acquisition, -1, L.Kind, L.By, K, InheritedSlot);
      Resources[R].LeftLiveBy = FD;
      Resources[R].IntoField = true;
      Entry.Bind[K] = {R};
      Entry.Res[R].Bits = Live;
    }
  }
}

} // namespace lifetime
} // namespace cgt
