//===- OwnershipFindings.cpp - what the ownership index reports -----------===//
//
// The OwnershipIndex's own findings (Ownership.h draws them): members no
// function releases in a closed owner, owners whose implicit copies release
// twice, and members released by the wrong family in another function.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

#include "clang/AST/DeclFriend.h"

namespace cgt {
namespace lifetime {

namespace {

bool copyIsUserControlled(const CXXRecordDecl *RD) {
  for (const CXXConstructorDecl *C : RD->ctors())
    if (C->isCopyConstructor() && (C->isDeleted() || C->isUserProvided()))
      return true;
  return RD->hasUserDeclaredMoveConstructor() || RD->hasUserDeclaredMoveAssignment();
}

} // namespace

/// `if (graph_) cudaGraphDestroy(graph_); cudaStreamEndCapture(s, &graph_);`
/// and nothing else: every release of the member comes before an
/// acquisition into it (it drops the old value to make room for the new
/// one), so the last value is never released. A release after the
/// acquisition (an error path that gives it back) is a real one.
bool OwnershipIndex::releasedOnlyBeforeReacquiring(const OwnedMember &O) const {
  // Only a class's own methods: a C struct handed to free functions
  // (`plan_embed(&plan, g)`) gives its last value to whoever holds the
  // struct, which may release it in another file.
  bool ThroughThis = llvm::all_of(O.Acquisitions, [](const MemberAcquisition &Acq) {
    return Acq.ThroughThis;
  });
  return ThroughThis && !O.Releases.empty() &&
         llvm::all_of(O.Releases,
                      [&](const MemberRelease &Rel) { return releaseOnlyMakesRoom(O, Rel); });
}

/// The release sits before an acquisition in the same function, or in a
/// method (`reset()`) that only `this`-calls from acquiring functions run,
/// each before its acquisition: `recapture() { reset(); instantiate(&exec_); }`.
bool OwnershipIndex::releaseOnlyMakesRoom(const OwnedMember &O, const MemberRelease &Rel) const {
  const SourceManager &SM = A.Ctx.getSourceManager();
  auto AcquiredAfter = [&](const FunctionDecl *In, const Stmt *At) {
    return llvm::any_of(O.Acquisitions, [&](const MemberAcquisition &Acq) {
      return Acq.In->getCanonicalDecl() == In->getCanonicalDecl() &&
             SM.isBeforeInTranslationUnit(At->getBeginLoc(), Acq.Call->getBeginLoc());
    });
  };
  if (AcquiredAfter(Rel.In, Rel.Call))
    return true;
  auto Calls = MethodCalls.find(Rel.In->getCanonicalDecl());
  if (Calls == MethodCalls.end() || Calls->second.empty())
    return false;
  return llvm::all_of(Calls->second, [&](const MethodCall &C) {
    return C.ThroughThis && AcquiredAfter(C.In, C.Call);
  });
}

bool OwnershipIndex::hasFreeFunction(const RecordDecl *RD) const {
  return StructsWithFree.count(RD) != 0;
}

/// Everything that could release the member is in this file: every method
/// of the class (and every friend) is defined here; for a member reached
/// through a pointer parameter, the struct has a free function here.
bool OwnershipIndex::ownerIsClosed(const FieldDecl *F, const MemberAcquisition &Acq) const {
  const RecordDecl *Owner = F->getParent();
  if (!Acq.ThroughThis) {
    const auto *ME = dyn_cast_or_null<MemberExpr>(Acq.Member);
    if (!ME || !reachedThroughPointer(ME))
      return false;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Acq.In); MD && MD->getParent() == Owner)
      return false;
    return hasFreeFunction(Owner);
  }
  const auto *RD = dyn_cast<CXXRecordDecl>(Owner);
  if (!RD || !RD->hasDefinition())
    return false;
  // `static Context &get() { static Context c; return c; }`: what a
  // process-lifetime object holds is released by the driver at exit.
  if (StaticInstances.count(RD))
    return false;
  for (const CXXMethodDecl *M : RD->methods())
    if (!M->isImplicit() && !M->isDeleted() && !M->isDefaulted() && !M->isPureVirtual() &&
        !M->isDefined())
      return false;
  for (const FriendDecl *Fr : RD->friends()) {
    const auto *FnD = dyn_cast_or_null<FunctionDecl>(Fr->getFriendDecl());
    if (!FnD || !FnD->isDefined())
      return false;
  }
  return true;
}

/// A finding at `At` about member `F`, named after the member's owner.
LifetimeFinding OwnershipIndex::memberFinding(FindingKind Kind, const CallExpr *At,
                                              const std::string &ResourceKind,
                                              const FieldDecl *F) const {
  LifetimeFinding L;
  L.Kind = Kind;
  L.ResourceKind = ResourceKind;
  L.Loc = loc(At);
  L.Range = At->getSourceRange();
  L.Owner = ownerName(F->getParent());
  return L;
}

std::vector<LifetimeFinding> OwnershipIndex::findingsIn(const FunctionDecl *FD) {
  std::vector<LifetimeFinding> Out;
  memberLeaks(FD, Out);
  copiedOwners(FD, Out);
  crossFunctionMismatches(FD, Out);
  movedOwners(FD, Out);
  moveAssignOverwrites(FD, Out);
  resetThenDestroy(FD, Out);
  shortReleaseLoops(FD, Out);
  return Out;
}

/// `cudaMallocHost(&sv->h_history)` in init, `free(sv->h_history)` in the
/// free function: the dataflow of one function sees only the release.
void OwnershipIndex::crossFunctionMismatches(const FunctionDecl *FD,
                                             std::vector<LifetimeFinding> &Out) {
  for (const auto &[F, O] : Members) {
    // darknet's `net->pinned = ok ? pinned : (float *)xcalloc(...)` in
    // another unit: what the unknown call returned is of no known family.
    if (O.Acquisitions.empty() || O.AssignedUnknownResult)
      continue;
    const MemberAcquisition &First = O.Acquisitions.front();
    if (First.Kind.empty() ||
        llvm::any_of(O.Acquisitions, [&](const MemberAcquisition &Acq) {
          return Acq.Kind != First.Kind || Acq.In == FD;
        }))
      continue;
    for (const MemberRelease &Rel : O.Releases) {
      if (Rel.In != FD || Rel.Kinds.empty() || llvm::is_contained(Rel.Kinds, First.Kind))
        continue;
      LifetimeFinding L = memberFinding(FindingKind::MismatchedRelease, Rel.Call, First.Kind, F);
      L.AcquiredBy = First.By;
      L.VarName = Rel.Member ? text(Rel.Member) : F->getNameAsString();
      L.CalledFunction = Rel.By;
      L.Notes.push_back({loc(First.Call), "every acquisition into '" + F->getNameAsString() +
                                              "' is by '" + First.By + "', as here in '" +
                                              First.In->getNameAsString() + "'"});
      Out.push_back(std::move(L));
    }
  }
}

void OwnershipIndex::memberLeaks(const FunctionDecl *FD, std::vector<LifetimeFinding> &Out) {
  for (const auto &[F, O] : Members) {
    bool OnlyBeforeReacquiring = releasedOnlyBeforeReacquiring(O);
    if ((!O.Releases.empty() && !OnlyBeforeReacquiring) || O.HandedOut)
      continue;
    for (const MemberAcquisition &Acq : O.Acquisitions) {
      if (Acq.In != FD || !ownerIsClosed(F, Acq))
        continue;
      LifetimeFinding L = memberFinding(FindingKind::Leak, Acq.Call, Acq.Kind, F);
      const std::string &Owner = L.Owner;
      L.AcquiredBy = Acq.By;
      L.VarName = Acq.Member ? text(Acq.Member) : F->getNameAsString();
      if (L.VarName.empty())
        L.VarName = F->getNameAsString();
      std::string Name = F->getNameAsString();
      if (OnlyBeforeReacquiring) {
        const MemberRelease &Rel = O.Releases.front();
        L.Notes.push_back({loc(Rel.Call), "'" + Name + "' is released only here in '" +
                                              Rel.In->getNameAsString() +
                                              "', before it is acquired again; nothing "
                                              "releases the last one"});
        Out.push_back(std::move(L));
        continue;
      }
      L.Notes.push_back({F->getLocation(),
                         Acq.ThroughThis
                             ? "'" + Name + "' is declared here; no method of '" + Owner +
                                   "' releases it or hands it out"
                             : "'" + Name + "' is declared here; no function in this file "
                                   "releases it or hands it out, though one releases other "
                                   "members of '" + Owner + "'"});
      Out.push_back(std::move(L));
    }
  }
}

/// The first place that copies an object of `RD` in user code.
const Expr *OwnershipIndex::copySite(const CXXRecordDecl *RD) const {
  auto It = Copies.find(RD);
  return It == Copies.end() ? nullptr : It->second;
}

void OwnershipIndex::copiedOwners(const FunctionDecl *FD, std::vector<LifetimeFinding> &Out) {
  const auto *Dtor = dyn_cast<CXXDestructorDecl>(FD);
  if (!Dtor)
    return;
  const CXXRecordDecl *RD = Dtor->getParent();
  const Expr *Copy = copySite(RD);
  if (!Copy || copyIsUserControlled(RD))
    return;
  for (const FieldDecl *F : RD->fields()) {
    const OwnedMember *O = member(F);
    if (!O)
      continue;
    for (const MemberRelease &Rel : O->Releases) {
      if (Rel.In != FD)
        continue;
      LifetimeFinding L = memberFinding(FindingKind::DoubleRelease, Rel.Call,
                                        O->Acquisitions.empty() ? "" : O->Acquisitions.front().Kind,
                                        F);
      L.VarName = F->getNameAsString();
      L.CalledFunction = Rel.By;
      L.Notes.push_back({loc(Copy), "a '" + L.Owner +
                                        "' is copied here by its implicit copy constructor "
                                        "or assignment: both copies hold the same '" +
                                        F->getNameAsString() + "' and both destructors "
                                                               "release it"});
      Out.push_back(std::move(L));
    }
  }
}

} // namespace lifetime
} // namespace cgt
