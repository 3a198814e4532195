//===- Members.cpp - members of `this` other methods may leave live -------===//
//
// A method of a class starts with the members as the object's other methods
// (or an earlier call of itself) left them. Where the OwnershipIndex says a
// member may hold a live resource on entry, it is bound to an inherited
// resource, Live, whose site is the acquisition in the method that leaves it
// so:
//
//   inherited (Live) --release / null edge of a test--> Released / Absent
//        |   \__ this-call that may change the member --> Escaped
//        |
//        +-- acquisition into the member while Live --> Overwrite (note at
//        |   the method that left it live)
//        +-- the destructor returns while Live (it releases the member on
//            other paths)                           --> Leak
//
// Methods that test a flag the leaving method sets with the member (`if
// (captured_) return;`) are not seeded from that method: the flag may say
// whether it is live, and the dataflow does not follow members across calls
// (OwnershipEntry.cpp picks the leavers, CompanionFlags.cpp the flags). A
// method the destructor runs (`~Step() { reset(); }`) is judged as the
// destructor.
//
// The other direction: run on a method with collectMembersLiveAtExit(), the
// analysis records which members it may return holding a resource it
// acquired (the OwnershipIndex's "leavers").
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Lifetime/Ownership/Ownership.h"

namespace cgt {
namespace lifetime {

const CXXMethodDecl *Analysis::methodOfThis() const {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && MD->isInstance() && !MD->getParent()->isLambda() ? MD : nullptr;
}

void Analysis::seedMembersLiveOnEntry(PathState &Entry) {
  if (SummaryMode || CollectMembers)
    return;
  if (NamesMembers) {
    seedTestedParamMembers(Entry);
    seedParamMembersLeftLive(Entry); // ParamMembers.cpp
  }
  const CXXMethodDecl *MD = methodOfThis();
  if (!MD)
    return;
  std::set<const CXXMethodDecl *> Leavers;
  for (const auto &[F, L] : A.ownership().liveOnEntry(MD)) {
    Key K = placeOf(F);
    unsigned R = resourceFor(L.Acquisition, -1, L.Kind, L.By, K, InheritedSlot);
    Resources[R].LeftLiveBy = L.Method;
    Resources[R].IntoField = true;
    Entry.Bind[K] = {R};
    Entry.Res[R].Bits = Live;
    Leavers.insert(L.Method);
  }
  bindModeFlagsOnEntry(Leavers, Entry); // ModeFlags.cpp
}

/// `if (ws->d_buf != NULL && ws->cap >= n) return 0; cudaMalloc(&ws->d_buf, n);`:
/// a member of a pointer parameter that the conditions deciding an
/// acquisition into it test holds something on the paths where the test
/// says non-null. Bound on entry; the null edges of the tests clear it.
void Analysis::seedTestedParamMembers(PathState &Entry) {
  for (const auto &[F, O] : A.ownership().members())
    for (const MemberAcquisition &Acq : O.Acquisitions) {
      const auto *ME = dyn_cast_or_null<MemberExpr>(Acq.Member);
      const auto *Base = ME ? dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()) : nullptr;
      if (Acq.In != FD || !Base || !isFixedPointerParam(Base->getDecl()))
        continue;
      Key K = placeOf(Base->getDecl(), F);
      if (Entry.Bind.count(K))
        continue;
      for (const Expr *Cond : guardingConditions(FD, Acq.Call)) {
        if (!mentionsMemberOf(Cond, Base->getDecl(), F))
          continue;
        unsigned R = resourceFor(Cond, -1, "", "", K, InheritedSlot);
        Resources[R].IntoField = true;
        Resources[R].TestedOnEntry = true;
        Entry.Bind[K] = {R};
        Entry.Res[R].Bits = Live;
        break;
      }
    }
}

/// Whether `S` reads the member `Base->F`. Its address is no read: `if
/// (cudaSuccess == cudaHostAlloc(&net->buf, ...))` tests the status of an
/// acquisition into the member, not the member (darknet).
bool Analysis::mentionsMemberOf(const Stmt *S, const ValueDecl *Base, const FieldDecl *F) {
  if (!S)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (ME->getMemberDecl() == F)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
          DRE && DRE->getDecl() == Base)
        return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return mentionsMemberOf(C, Base, F); });
}

/// At a return: record the members left live (collect mode), or report the
/// inherited members a destructor forgets on this path.
void Analysis::noteMembersAtExit(const PathState &P, SourceLocation Where) {
  // `~Step() { reset(); }`: reset()'s returns are the destructor's.
  const CXXMethodDecl *MD = methodOfThis();
  bool ForDtor = MD && A.ownership().runsForDestructor(MD);
  bool IsDtor = isa<CXXDestructorDecl>(FD) || ForDtor;
  if (!CollectMembers && !IsDtor)
    return;
  for (const auto &[K, Ids] : P.Bind) {
    const auto *Field = K->whole() ? dyn_cast<FieldDecl>(K->Decl) : nullptr;
    if (CollectMembers && !Field)
      for (unsigned R : Ids)
        if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
          noteParamMemberAtExit(K, Resources[R]); // ParamMembers.cpp
    if (!Field)
      continue;
    for (unsigned R : Ids) {
      auto RS = P.Res.find(R);
      if (RS == P.Res.end() || !(RS->second.Bits & Live))
        continue;
      const Resource &Res = Resources[R];
      if (CollectMembers && !Res.LeftLiveBy && Res.Site && !Res.Kind.empty()) {
        auto [It, New] = MembersLiveAtExit.try_emplace(
            Field, LiveOnReturn{nullptr, Res.Site, Res.Kind, Res.AcquiredBy});
        // `pinned_ ? cudaHostAlloc : malloc` into one member: which family
        // holds it on entry is not known, so no kind is claimed.
        if (!New && It->second.Kind != Res.Kind)
          It->second.Kind.clear();
      }
      if (IsDtor && Res.LeftLiveBy)
        reportLeak(R, RS->second, Where,
                   (ForDtor ? "'" + FD->getNameAsString() +
                                  "', which the destructor calls, returns here without "
                                  "releasing '"
                            : std::string("the destructor returns here without releasing '")) +
                       K->name() + "', which it releases on other paths");
    }
  }
}

/// `reset();` or `helper(this)`: the callee may release or hand out the
/// members it touches, so what they held on entry is no longer known.
void Analysis::forgetMembersChangedBy(const CallExpr *Call, PathState &P) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  bool OnThis = MC && isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  for (const auto &[K, Ids] : P.Bind) {
    // The elements of a member container (ContainerFlow.cpp) go with any
    // `this`-call that names the container: the index follows members as a
    // whole, not what `execs_.clear()` does to the elements.
    const auto *Field = K->whole() || K->Element ? dyn_cast<FieldDecl>(K->Decl) : nullptr;
    if (!Field)
      continue;
    if (OnThis && Callee && K->whole() && !A.ownership().mayChange(Callee, Field))
      continue;
    if (OnThis && Callee && K->Element && !A.ownership().mayTouch(Callee, Field))
      continue;
    for (unsigned R : Ids)
      if (auto RS = P.Res.find(R);
          RS != P.Res.end() && Resources[R].LeftLiveBy && (RS->second.Bits & Live))
        RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
  }
}

/// `gb.destroy()` on a local object: a summary speaks of the parameters
/// only, not of the object's members, so a method the ownership index
/// knows may release, reassign or hand out a member of its class takes
/// what the object holds, as an unknown method would.
void Analysis::escapeMembersChangedByMethod(const CallExpr *Call, PathState &P) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()) ||
      (MD->isConst() && !MD->getParent()->hasMutableFields()))
    return;
  if (llvm::any_of(MD->getParent()->fields(),
                   [&](const FieldDecl *F) { return A.ownership().mayChange(MD, F); }))
    escapeValueRefs(MC->getImplicitObjectArgument(), P);
}

/// A `this`-call forgets what the path knew of the members it may change:
/// every member, except the owned members the index is sure the callee
/// (and the methods it calls) neither writes nor hands out: a private
/// `enqueue()` between `if (exec_ != nullptr && n == n_) return;` and the
/// re-instantiation into `exec_` leaves "exec_ is non-null" standing.
void Analysis::forgetFieldFactsChangedBy(const CallExpr *Call, PathState &P) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  if (!Callee || !MC || !isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()) ||
      llvm::any_of(Call->arguments(),
                    [](const Expr *Arg) { return isa<CXXThisExpr>(Arg->IgnoreParenImpCasts()); })) {
    invalidateFieldFacts(P);
    return;
  }
  auto Changed = [&](Key K) {
    if (!isField(K))
      return false;
    const auto *F = dyn_cast<FieldDecl>(K->Decl);
    return !F || !K->whole() || !A.ownership().member(F) || A.ownership().mayChange(Callee, F);
  };
  forgetValues(Changed, P);
  P.Facts.eraseIf([&](const std::pair<uintptr_t, bool> &F) {
    auto V = FactVars.find(F.first);
    return V != FactVars.end() && llvm::any_of(V->second, Changed);
  });
}

/// The note at the resource an acquisition overwrites.
std::string Analysis::previousResourceNote(const Resource &Prev, const CallExpr *Call,
                                           const std::string &Noun) const {
  if (Prev.LeftLiveBy) {
    std::string Method = Prev.LeftLiveBy->getNameAsString();
    if (Prev.LeftLiveBy == FD)
      return "an earlier call of '" + Method + "' leaves '" + Prev.VarName +
             "' holding the " + Noun + " created here; nothing releases it before '" +
             Method + "' acquires into it again";
    return "'" + Method + "' leaves '" + Prev.VarName + "' holding the " + Noun +
           " created here, and this method does not release or test it first";
  }
  if (Prev.TestedOnEntry)
    return "'" + Prev.VarName + "' is tested here; where it is non-null, what it holds "
           "is not released before the acquisition";
  if (Prev.Site == Call)
    return "the " + Noun + " created here in an earlier iteration is still alive";
  return "previous " + Noun + " created here by '" + Prev.AcquiredBy + "'";
}

} // namespace lifetime
} // namespace cgt
