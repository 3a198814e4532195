//===- ResetThenDestroy.cpp - a reset that leaves the member as it was ----===//
//
// `void reset() { if (exec_) cudaGraphExecDestroy(exec_); }` with
// `~Runner() { reset(); }`: a caller that runs `r.reset()` itself leaves
// `exec_` holding the destroyed handle, and the destructor's `reset()`
// destroys it again (a double release, worded by cudagraph-use-after-dealloc
// at the release in the method, with notes at the caller's call and at the
// destructor's).
//
//   method M releases member h_ (a CUDA call, not a helper)
//        |-- M writes a member of this (h_ = nullptr, a flag) ---> clean
//        |-- the destructor neither calls M nor releases h_ ----> clean
//        +-- a function calls M on a local object and does not name
//            the object after that, outside loops --------------> DoubleRelease
//
// The evidence is in the file: a local object last named by the call of M
// is destroyed at the end of its scope. Other sequences (a rebuild that calls
// M first, a member object) are left alone.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

namespace cgt {
namespace lifetime {

namespace {

/// Whether `S` assigns, increments or takes the address of a member of
/// `this` (anything that could clear or re-arm what a release left).
bool writesAMemberOfThis(const Stmt *S) {
  if (!S)
    return false;
  auto OnThis = [](const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && OnThis(BO->getLHS()))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && OnThis(UO->getSubExpr()))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->isAssignmentOp() && Op->getNumArgs() > 0 && OnThis(Op->getArg(0)))
    return true;
  for (const Stmt *Child : S->children())
    if (writesAMemberOfThis(Child))
      return true;
  return false;
}

/// The destructor's own call of `M` (`reset();`, `this->reset();`).
const CallExpr *callOf(const Stmt *S, const FunctionDecl *M) {
  if (!S)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (isThisCall(Call) && Call->getDirectCallee() &&
        Call->getDirectCallee()->getCanonicalDecl() == M->getCanonicalDecl())
      return Call;
  for (const Stmt *Child : S->children())
    if (const CallExpr *Found = callOf(Child, M))
      return Found;
  return nullptr;
}

/// Whether `S` names `VD` after `At` (a later call on it, handing it to a
/// function that may re-arm it, returning it).
bool namedAfter(const Stmt *S, const VarDecl *VD, SourceLocation At, const SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
      DRE && DRE->getDecl() == VD && SM.isBeforeInTranslationUnit(At, DRE->getBeginLoc()))
    return true;
  for (const Stmt *Child : S->children())
    if (namedAfter(Child, VD, At, SM))
      return true;
  return false;
}

} // namespace

/// A call of `M` on a local object, after which its function does not name
/// the object again, in no loop: the destructor runs next.
const OwnershipIndex::ObjectCall *OwnershipIndex::callLeavingLocal(const FunctionDecl *M) const {
  const SourceManager &SM = A.Ctx.getSourceManager();
  const FunctionDecl *Canon = M->getCanonicalDecl();
  for (const ObjectCall &C : ObjectCalls) {
    if (C.Callee != Canon || !C.Local || C.Loop)
      continue;
    const FunctionDecl *Def = C.In->getDefinition();
    if (Def && !namedAfter(Def->getBody(), C.Local, C.At, SM))
      return &C;
  }
  return nullptr;
}

void OwnershipIndex::resetThenDestroy(const FunctionDecl *FD, std::vector<LifetimeFinding> &Out) {
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M || isa<CXXConstructorDecl, CXXDestructorDecl>(M) || M->isStatic() || !M->getBody() ||
      M->getAccess() != AS_public || writesAMemberOfThis(M->getBody()))
    return;
  const CXXRecordDecl *RD = M->getParent();
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  const FunctionDecl *DtorDef = Dtor ? Dtor->getDefinition() : nullptr;
  const CallExpr *CallsM = DtorDef ? callOf(DtorDef->getBody(), M) : nullptr;
  if (!DtorDef)
    return;
  for (const auto &[F, O] : Members) {
    if (F->getParent() != RD)
      continue;
    const Stmt *Again = CallsM;
    for (const MemberRelease &Rel : O.Releases)
      if (!Again && Rel.In == DtorDef)
        Again = Rel.Call;
    if (!Again)
      continue;
    for (const MemberRelease &Rel : O.Releases) {
      const FunctionDecl *Callee = Rel.Call->getDirectCallee();
      // A helper may null the member through its reference (`destroy(exec_)`).
      if (Rel.In != FD || !Callee || Callee->hasBody())
        continue;
      const ObjectCall *Evidence = callLeavingLocal(M);
      if (!Evidence)
        return;
      LifetimeFinding L = memberFinding(FindingKind::DoubleRelease, Rel.Call,
                                        O.Acquisitions.empty() ? "" : O.Acquisitions.front().Kind,
                                        F);
      L.Owner.clear(); // not the implicit copy's wording
      L.VarName = F->getNameAsString();
      L.CalledFunction = Rel.By;
      std::string Method = M->getNameAsString();
      L.Notes.push_back({Evidence->At, "'" + Evidence->Object + "." + Method + "()' releases '" +
                                           F->getNameAsString() +
                                           "' here and leaves it holding the released handle"});
      L.Notes.push_back({loc(Again), "the destructor of '" + ownerName(RD) + "' " +
                                         (CallsM ? "calls '" + Method + "' again" : "releases it") +
                                         " when '" + Evidence->Object +
                                         "' goes out of scope: a second release"});
      Out.push_back(std::move(L));
      break;
    }
  }
}

} // namespace lifetime
} // namespace cgt
