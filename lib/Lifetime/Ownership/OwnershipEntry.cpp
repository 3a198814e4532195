//===- OwnershipEntry.cpp - members a method may find live on entry -------===//
//
// Which members of `this` a method should assume live when it starts
// (Ownership.h, "live on entry"; Members.cpp seeds them): the methods that
// may return with a member live (the dataflow run on each acquiring method),
// whether the method is expected to run again on one object, the flags that
// may say whether a member is live (companions), and which members a
// `this`-call may change.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

#include "Lifetime/ParentIndex.h"

namespace cgt {
namespace lifetime {

/// Whether `Reaches` holds for `Method` or a method it calls on `this`, to
/// a depth of four; a method without a body here, or past that depth, may
/// do anything.
bool OwnershipIndex::visitThisCallees(
    const FunctionDecl *Method, llvm::function_ref<bool(const FunctionDecl *Def)> Reaches) const {
  std::set<const FunctionDecl *> Seen;
  std::function<bool(const FunctionDecl *, unsigned)> Visit = [&](const FunctionDecl *M,
                                                                  unsigned Depth) {
    const FunctionDecl *Def = M ? M->getDefinition() : nullptr;
    if (!Def || Depth > 4)
      return true;
    if (!Seen.insert(Def).second)
      return false;
    if (Reaches(Def))
      return true;
    auto Callees = ThisCallees.find(Def->getCanonicalDecl());
    if (Callees != ThisCallees.end())
      for (const FunctionDecl *C : Callees->second)
        if (Visit(C, Depth + 1))
          return true;
    return false;
  };
  return Visit(Method, 0);
}

bool OwnershipIndex::mayChange(const FunctionDecl *Method, const FieldDecl *F) const {
  const OwnedMember *O = member(F);
  return visitThisCallees(Method, [&](const FunctionDecl *Def) {
    return O && O->WrittenIn.count(Def);
  });
}

bool OwnershipIndex::mayTouch(const FunctionDecl *Method, const FieldDecl *F) const {
  return visitThisCallees(Method, [&](const FunctionDecl *Def) {
    auto It = Named.find(Def->getCanonicalDecl());
    return It != Named.end() && It->second.count(F);
  });
}

bool OwnershipIndex::runsOnFreshObject(const CXXMethodDecl *M) const {
  if (isa<CXXConstructorDecl>(M))
    return true;
  if (M->getAccess() == AS_public)
    return false;
  auto Callers = ThisCallers.find(M->getCanonicalDecl());
  if (Callers == ThisCallers.end() || Callers->second.empty())
    return false;
  return llvm::all_of(Callers->second,
                      [](const FunctionDecl *C) { return isa<CXXConstructorDecl>(C); });
}

/// `capture_begin() { reset(); ... }` before `capture_end()` acquires: the
/// class releases the member through `Releaser` in another method that
/// starts the cycle, so a second `M` is not expected without it.
bool OwnershipIndex::releasedByProtocol(const FunctionDecl *Releaser,
                                        const CXXMethodDecl *M) const {
  auto Callers = ThisCallers.find(Releaser->getCanonicalDecl());
  if (Callers == ThisCallers.end())
    return false;
  return llvm::any_of(Callers->second, [&](const FunctionDecl *C) {
    return C != M && !isa<CXXDestructorDecl>(C);
  });
}

bool OwnershipIndex::calledRepeatedly(const CXXMethodDecl *M) const {
  if (CalledAgain.count(M->getCanonicalDecl()))
    return true;
  // `step() { if (len != len_) capture(); ... }`: the class itself calls it
  // again whenever it needs to, not once at construction.
  if (auto Callers = ThisCallers.find(M->getCanonicalDecl()); Callers != ThisCallers.end())
    for (const FunctionDecl *C : Callers->second)
      if (C != M && !isa<CXXConstructorDecl>(C) && !isa<CXXDestructorDecl>(C))
        return true;
  return false;
}

bool OwnershipIndex::reachedWithMemberLive(const FieldDecl *F, const FunctionDecl *Leaver,
                                           const FunctionDecl *M, int Param) const {
  const FunctionDecl *L = Leaver->getCanonicalDecl();
  const FunctionDecl *Me = M->getCanonicalDecl();
  const SourceManager &SM = A.Ctx.getSourceManager();
  // A call that may release or reassign the member in between (the
  // acquiring methods themselves do not count: they are what leaves it live).
  auto Releases = [&](const ObjectCall &C) {
    return C.Callee != L && C.Callee != Me && mayChange(C.Callee, F);
  };
  auto SameObject = [](const ObjectCall &X, const ObjectCall &Y) {
    return X.In == Y.In && X.Object == Y.Object;
  };
  auto ReleasedBetween = [&](const ObjectCall &First, const ObjectCall &Then) {
    return llvm::any_of(ObjectCalls, [&](const ObjectCall &C) {
      return SameObject(C, Then) && Releases(C) && SM.isBeforeInTranslationUnit(First.At, C.At) &&
             SM.isBeforeInTranslationUnit(C.At, Then.At);
    });
  };
  auto ReleasedInLoop = [&](const ObjectCall &Then) {
    SourceRange Body = Then.Loop->getSourceRange();
    return llvm::any_of(ObjectCalls, [&](const ObjectCall &C) {
      return SameObject(C, Then) && Releases(C) && !SM.isBeforeInTranslationUnit(C.At, Body.getBegin()) &&
             !SM.isBeforeInTranslationUnit(Body.getEnd(), C.At);
    });
  };
  for (const ObjectCall &Then : ObjectCalls) {
    if (Then.Callee != Me || Then.Param != Param)
      continue;
    if (L == Me && Then.Loop && !ReleasedInLoop(Then))
      return true;
    // `step() { if (n != n_) capture(); }`: the class enters M again itself.
    if (Then.Object == "this" && Then.In != M && !isa<CXXConstructorDecl>(Then.In) &&
        !isa<CXXDestructorDecl>(Then.In)) {
      bool ReleasedBefore = llvm::any_of(ObjectCalls, [&](const ObjectCall &C) {
        return SameObject(C, Then) && Releases(C) && SM.isBeforeInTranslationUnit(C.At, Then.At);
      });
      if (!ReleasedBefore)
        return true;
    }
    for (const ObjectCall &First : ObjectCalls)
      if (First.Callee == L && First.Param == Param && SameObject(First, Then) &&
          SM.isBeforeInTranslationUnit(First.At, Then.At) && !ReleasedBetween(First, Then))
        return true;
    // `RuntimeBuffers bufs(cfg); ... bufs.reshape(next);`: the constructor
    // is no call the index records, so the local's declaration stands for it.
    if (Then.Local && Param < 0 && constructedBy(Then.Local, L)) {
      ObjectCall Built{L, Then.In, Then.Object, nullptr, Then.Local->getLocation()};
      if (!ReleasedBetween(Built, Then))
        return true;
    }
  }
  return false;
}

/// `T v(args);` or `T v = T(args);` where the constructor is `Ctor`.
bool OwnershipIndex::constructedBy(const VarDecl *VD, const FunctionDecl *Ctor) {
  const Expr *Init = VD->getInit();
  const auto *CE = Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  while (CE && CE->isElidable() && CE->getNumArgs() == 1)
    CE = dyn_cast<CXXConstructExpr>(CE->getArg(0)->IgnoreImplicit());
  return CE && isa<CXXConstructorDecl>(Ctor) &&
         CE->getConstructor()->getCanonicalDecl() == Ctor->getCanonicalDecl();
}

/// Runs the dataflow on each method of `RD` that acquires into a member of
/// `this`, and records the members each may return holding a live resource.
void OwnershipIndex::computeLeavers(const CXXRecordDecl *RD) {
  if (!LeaversDone.insert(RD).second)
    return;
  std::set<const FunctionDecl *> Acquirers;
  for (const auto &[F, O] : Members)
    if (F->getParent() == RD)
      for (const MemberAcquisition &Acq : O.Acquisitions)
        if (Acq.ThroughThis && isa<CXXMethodDecl>(Acq.In))
          Acquirers.insert(Acq.In);
  for (const FunctionDecl *FD : Acquirers) {
    Analysis An(A, FD, /*SummaryMode=*/false);
    An.collectMembersLiveAtExit();
    if (!An.run())
      continue;
    for (const auto &[F, Live] : An.membersLiveAtExit()) {
      Leavers[F].push_back(Live);
      Leavers[F].back().Method = cast<CXXMethodDecl>(FD);
      // Flags the leaving method sets with the acquisition (`captured_ =
      // true`); handles it acquires into are not flags (CompanionFlags.cpp).
      for (const auto &[G, O] : Members)
        if (G != F && G->getParent() == RD &&
            (O.Acquisitions.empty()
                 ? (O.WrittenIn.count(FD) && flagSetWith(G, FD, Live.Acquisition)) ||
                       flagTakesResultOf(G, FD) || flagSetByEveryCaller(G, FD)
                 : acquiredWith(O, FD, Live.Acquisition)))
          Companions[F][FD].insert(G);
      addGuardingMembers(F, FD, Live.Acquisition);
    }
  }
}

bool isArmOf(const IfStmt *If, const Stmt *Child) {
  return Child && (Child == If->getThen() || Child == If->getElse());
}

/// The conditions that decide whether `S` runs: those of the branches it
/// sits in, and of the early exits before it (`if (!owns_stream_) return;`).
std::vector<const Expr *> guardingConditions(const FunctionDecl *FD, const Stmt *S) {
  std::vector<const Expr *> Out;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  ParentIndex PM(FD->getBody());
  for (const Stmt *Child = S, *P = PM.getParent(S); P; Child = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && isArmOf(If, Child))
      Out.push_back(If->getCond());
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P);
             CO && CO->getCond() != Child)
      Out.push_back(CO->getCond());
    else if (const auto *BO = dyn_cast<BinaryOperator>(P);
             BO && BO->isLogicalOp() && BO->getRHS() == Child)
      Out.push_back(BO->getLHS());
  }
  std::function<bool(const Stmt *)> Exits = [&](const Stmt *St) {
    if (!St)
      return false;
    if (isa<ReturnStmt>(St) || isa<CXXThrowExpr>(St) || isa<GotoStmt>(St))
      return true;
    // `abort()`, `exit(1)`, a [[noreturn]] error helper: the path ends too.
    if (const auto *Call = dyn_cast<CallExpr>(St))
      if (const FunctionDecl *Callee = Call->getDirectCallee(); Callee && Callee->isNoReturn())
        return true;
    return llvm::any_of(St->children(), Exits);
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
    if (!St)
      return;
    if (const auto *If = dyn_cast<IfStmt>(St);
        If && SM.isBeforeInTranslationUnit(If->getEndLoc(), S->getBeginLoc()) &&
        Exits(If->getThen()))
      Out.push_back(If->getCond());
    for (const Stmt *Child : St->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Out;
}

bool OwnershipIndex::runsForDestructor(const CXXMethodDecl *M) const {
  if (isa<CXXDestructorDecl>(M) || isa<CXXConstructorDecl>(M) || M->isStatic())
    return false;
  const CXXDestructorDecl *Dtor = M->getParent()->getDestructor();
  const FunctionDecl *Def = Dtor ? Dtor->getDefinition() : nullptr;
  const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body)
    return false;
  return llvm::any_of(Body->body(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
    return Call && Call->getMethodDecl() &&
           Call->getMethodDecl()->getCanonicalDecl() == M->getCanonicalDecl() && isThisCall(Call);
  });
}

std::map<const FieldDecl *, LiveOnReturn>
OwnershipIndex::liveOnEntry(const CXXMethodDecl *M) {
  std::map<const FieldDecl *, LiveOnReturn> Out;
  // A method the destructor runs (`~Step() { reset(); }`) is judged as the
  // destructor is: what it releases on some paths only leaks.
  bool IsDtor = isa<CXXDestructorDecl>(M) || runsForDestructor(M);
  // A private helper relies on its callers for the state of the members
  // (`reshape()` releases before calling `build()`); the destructor is
  // judged whatever its access.
  if (M->isStatic() || runsOnFreshObject(M) || (M->getAccess() != AS_public && !IsDtor))
    return Out;
  const CXXRecordDecl *RD = M->getParent();
  computeLeavers(RD);
  for (const auto &[F, Ls] : Leavers) {
    const OwnedMember *O = member(F);
    if (!O || F->getParent() != RD)
      continue;
    // Which members matter here: those this method acquires into (an
    // overwrite), or, in the destructor, those it releases (a release on
    // only some paths).
    bool Acquires = llvm::any_of(O->Acquisitions, [&](const MemberAcquisition &Acq) {
      return Acq.In == M && Acq.ThroughThis;
    });
    bool Releases = llvm::any_of(O->Releases, [&](const MemberRelease &R) { return R.In == M; });
    if (IsDtor ? !Releases : !Acquires)
      continue;
    // A leaver whose flags M tests (`if (has_exec_) destroy(exec_)`) may
    // be telling M whether the member is live; one that leaves it live
    // without setting them is not (CompanionFlags.cpp).
    const LiveOnReturn *Other = nullptr;
    for (const LiveOnReturn &L : Ls)
      if (L.Method != M && !isa<CXXDestructorDecl>(L.Method) && !flagDecides(F, M, L.Method)) {
        Other = &L;
        break;
      }
    if (!Other && !IsDtor) {
      // Only this method leaves it live: a second call overwrites it when
      // the class is meant to be used again (a reset-style method releases
      // it) or the method is called more than once.
      // A plain struct with `alloc()`/`free()` and no destructor is managed
      // by hand, once per object, unless its users call `alloc()` again.
      bool ResetStyle = RD->hasUserDeclaredDestructor() &&
                        llvm::any_of(O->Releases, [&](const MemberRelease &R) {
                          return R.In != M && !isa<CXXDestructorDecl>(R.In) &&
                                 !releasedByProtocol(R.In, M);
                        });
      if (!Ls.empty() && (ResetStyle || calledRepeatedly(M)) &&
          !flagDecides(F, M, Ls.front().Method))
        Other = &Ls.front();
    }
    // Reports need evidence: a class protocol no caller in the file can
    // misuse gets none, unless the team asks for the speculative ones.
    if (Other && !IsDtor && !A.Opts.SpeculativeMemberReports &&
        !reachedWithMemberLive(F, Other->Method, M))
      continue;
    if (Other)
      Out[F] = *Other;
  }
  return Out;
}

} // namespace lifetime
} // namespace cgt
