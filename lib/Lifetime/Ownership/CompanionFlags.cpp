//===- CompanionFlags.cpp - members that may say whether another is live --===//
//
// A class often keeps a flag next to a handle (`has_exec_`, `owns_stream_`,
// `captured_`) and releases the handle only when the flag says so. Where a
// method tests such a flag, the dataflow cannot tell whether the handle is
// live on entry (it does not follow members across calls), so the member is
// not seeded there: silence over a guess.
//
// The flag is a companion of a member *for one leaving method* (a method
// that may return with the member live), and only when that method sets it
// with the acquisition:
//
//   companion      a handle the method acquires wherever it acquires the
//                  member (`if (!d2h_) return;` in a shutdown the destructor
//                  runs, after a constructor that creates both);
//                  written in the same branch as the acquisition, or in a
//                  branch around it (`cudaMalloc(&a_); ready_ = true;`), or
//                  in a branch under it that only ever sets it one way
//                  (`if (cudaMalloc(&a_) == cudaSuccess) ready_ = true;`);
//                  read by a condition that decides the acquisition
//                  assigned what the leaving helper returns, by any method
//                  (`alive_ = create();` where create() acquires and
//                  returns whether it did); or set, as above, by every
//                  method that calls the leaving helper, with the call
//                  (`allocDevice(); allocated = 1;` in each caller of an
//                  allocDevice() that does not write the flag itself)
//   not companion  written on both arms of a branch the acquisition is not
//                  in (`if (shared) { own_ = false; } else { ...; own_ =
//                  true; } cudaMallocHost(&stage_)`: own_ is about the
//                  stream, not about stage_); not written by that leaver
//                  at all (`build()` instantiates without `has_exec_ =`)
//
// A method is then judged against each leaver separately: a leaver whose
// companions it tests is skipped, another that leaves the member live with
// no flag set still seeds it (OwnershipEntry.cpp, liveOnEntry).
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

#include "Lifetime/ParentIndex.h"

namespace cgt {
namespace lifetime {

namespace {

/// The members of `this` an expression reads (`owns_stream_`,
/// `opts_.overlap`), and whether it calls a method of `this`.
void membersOfThisIn(const Stmt *S, std::set<const FieldDecl *> &Out, bool &CallsThis) {
  if (!S)
    return;
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    const Expr *Base = ME;
    while (const auto *Inner = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts()))
      Base = Inner->getBase();
    if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
      for (const Expr *E = ME; const auto *M = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
           E = M->getBase())
        if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
          Out.insert(F);
  }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isThisCall(Call))
    CallsThis = true;
  for (const Stmt *Child : S->children())
    membersOfThisIn(Child, Out, CallsThis);
}

/// The members of `this` a condition tests as flags: read for their truth
/// (`owns_`, `!alive_`, `cap_ == 0`, `exec_ != nullptr`), not compared with
/// another unknown (`n > cap_` asks whether more is needed, not whether
/// anything is held: the buffer may be live on either side).
void flagsTestedIn(const Expr *Cond, ASTContext &Ctx, std::set<const FieldDecl *> &Out,
                   bool &CallsThis) {
  if (!Cond)
    return;
  const Expr *E = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    return flagsTestedIn(U->getSubExpr(), Ctx, Out, CallsThis);
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isLogicalOp()) {
      flagsTestedIn(B->getLHS(), Ctx, Out, CallsThis);
      flagsTestedIn(B->getRHS(), Ctx, Out, CallsThis);
      return;
    }
    if (B->isComparisonOp()) {
      auto constant = [&](const Expr *X) {
        X = X->IgnoreParenImpCasts();
        return !X->isValueDependent() &&
               (X->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) ||
                X->isEvaluatable(Ctx));
      };
      if (constant(B->getRHS()))
        membersOfThisIn(B->getLHS(), Out, CallsThis);
      else if (constant(B->getLHS()))
        membersOfThisIn(B->getRHS(), Out, CallsThis);
      else
        CallsThis |= [&] {
          std::set<const FieldDecl *> Ignored;
          bool Calls = false;
          membersOfThisIn(B, Ignored, Calls);
          return Calls;
        }();
      return;
    }
  }
  membersOfThisIn(E, Out, CallsThis);
}

/// One arm of an `if` (`Then` true for the then-arm).
struct Arm {
  const IfStmt *If;
  bool Then;
  bool operator==(const Arm &O) const { return If == O.If && Then == O.Then; }
};

/// The if-arms `S` sits in, innermost first.
std::vector<Arm> armsAround(const Stmt *S, const ParentIndex &PM) {
  std::vector<Arm> Out;
  for (const Stmt *Child = S, *P = PM.getParent(S); P; Child = P, P = PM.getParent(P))
    if (const auto *If = dyn_cast<IfStmt>(P); If && isArmOf(If, Child))
      Out.push_back({If, If->getThen() == Child});
  return Out;
}

bool contains(const std::vector<Arm> &Arms, const Arm &A) {
  return llvm::find(Arms, A) != Arms.end();
}

/// `flag_ = ...` assignments to `G` of `this` under `S`.
void flagWrites(const Stmt *S, const FieldDecl *G, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
        ME && ME->getMemberDecl() == G && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Out.push_back(BO);
  for (const Stmt *Child : S->children())
    flagWrites(Child, G, Out);
}

/// `has_exec_(false)`, `count_(nullptr)` in the constructor's initializer
/// list: written before the body, but to say that nothing is held.
bool onlyClearedByInitializer(const FieldDecl *G, const FunctionDecl *FD) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD);
  if (!Ctor)
    return false;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->isWritten() || Init->getMember() != G || !Init->getInit())
      continue;
    const Expr *E = Init->getInit()->IgnoreParenImpCasts();
    if (const auto *PL = dyn_cast<ParenListExpr>(E); PL && PL->getNumExprs() == 1)
      E = PL->getExpr(0)->IgnoreParenImpCasts();
    bool Value = true;
    return E->isNullPointerConstant(FD->getASTContext(),
                                    Expr::NPC_ValueDependentIsNotNull) ||
           (E->EvaluateAsBooleanCondition(Value, FD->getASTContext()) && !Value);
  }
  return false;
}

/// Whether `S` calls `M` on `this`.
bool callsOnThis(const Stmt *S, const FunctionDecl *M) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *Callee = Call->getMethodDecl();
        Callee && Callee->getCanonicalDecl() == M->getCanonicalDecl() && isThisCall(Call))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return callsOnThis(C, M); });
}

} // namespace

bool OwnershipIndex::flagTakesResultOf(const FieldDecl *G, const FunctionDecl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(G->getParent());
  if (!RD || FD->getReturnType()->isVoidType())
    return false;
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = M->getDefinition();
    if (!Def)
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getMember() == G && callsOnThis(Init->getInit(), FD))
          return true;
    std::vector<const Stmt *> Writes;
    flagWrites(Def->getBody(), G, Writes);
    for (const Stmt *W : Writes)
      if (callsOnThis(cast<BinaryOperator>(W)->getRHS(), FD))
        return true;
  }
  return false;
}

bool OwnershipIndex::flagSetByEveryCaller(const FieldDecl *G, const FunctionDecl *FD) const {
  const OwnedMember *Flag = member(G);
  auto Calls = MethodCalls.find(FD->getCanonicalDecl());
  if (!Flag || Calls == MethodCalls.end() || Calls->second.empty())
    return false;
  return llvm::all_of(Calls->second, [&](const MethodCall &C) {
    return C.ThroughThis && C.In && Flag->WrittenIn.count(C.In) && flagSetWith(G, C.In, C.Call);
  });
}

bool OwnershipIndex::flagSetWith(const FieldDecl *G, const FunctionDecl *FD,
                                 const Stmt *Acquisition) const {
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || !Acquisition)
    return true;
  std::vector<const Stmt *> Writes;
  flagWrites(Def->getBody(), G, Writes);
  // Written some other way (`++n_`, through `&flag_`, `count_(new ...)` before
  // the body): assume it says so, unless the constructor only clears it or
  // tests it to decide what else to acquire (`owns_stream_(own)`, then `if
  // (owns_stream_) cudaStreamCreate(...)`: about the stream only).
  if (Writes.empty())
    return !onlyClearedByInitializer(G, Def) && !decidesAnAcquisition(G, Def);
  const ParentIndex &PM = A.parentsOf(Def->getBody());
  std::vector<Arm> AcqArms = armsAround(Acquisition, PM);
  std::vector<Arm> AllWriteArms;
  std::vector<std::vector<Arm>> PerWrite;
  for (const Stmt *W : Writes) {
    PerWrite.push_back(armsAround(W, PM));
    AllWriteArms.insert(AllWriteArms.end(), PerWrite.back().begin(), PerWrite.back().end());
  }
  for (const std::vector<Arm> &WArms : PerWrite) {
    // The write's arms, those the acquisition is not in.
    std::vector<Arm> Own;
    for (const Arm &A : WArms)
      if (!contains(AcqArms, A))
        Own.push_back(A);
    bool Around = llvm::all_of(WArms, [&](const Arm &A) { return contains(AcqArms, A); });
    if (Around)
      return true; // same branch as the acquisition, or one around it
    // Deeper than the acquisition, or on a sibling arm: a companion only if
    // no arm the acquisition is outside of also writes the flag the other way.
    bool UnderAcquisition =
        llvm::all_of(AcqArms, [&](const Arm &A) { return contains(WArms, A); });
    if (!UnderAcquisition)
      continue;
    bool SetBothWays = llvm::any_of(Own, [&](const Arm &A) {
      return contains(AllWriteArms, Arm{A.If, !A.Then});
    });
    if (!SetBothWays)
      return true;
  }
  return false;
}

bool OwnershipIndex::decidesAnAcquisition(const FieldDecl *G, const FunctionDecl *FD) const {
  for (const auto &[F, O] : Members)
    for (const MemberAcquisition &Acq : O.Acquisitions) {
      if (Acq.In != FD)
        continue;
      bool CallsThis = false;
      std::set<const FieldDecl *> Read;
      for (const Expr *Cond : guardingConditions(FD, Acq.Call))
        membersOfThisIn(Cond, Read, CallsThis);
      if (Read.count(G))
        return true;
    }
  return false;
}

bool OwnershipIndex::acquiredWith(const OwnedMember &G, const FunctionDecl *FD,
                                  const Stmt *Acquisition) const {
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || !Acquisition)
    return false;
  const ParentIndex &PM = A.parentsOf(Def->getBody());
  std::vector<Arm> AcqArms = armsAround(Acquisition, PM);
  return llvm::any_of(G.Acquisitions, [&](const MemberAcquisition &Acq) {
    if (Acq.In != FD || !Acq.ThroughThis)
      return false;
    std::vector<Arm> Arms = armsAround(Acq.Call, PM);
    return llvm::all_of(Arms, [&](const Arm &A) { return contains(AcqArms, A); });
  });
}

void OwnershipIndex::addGuardingMembers(const FieldDecl *F, const FunctionDecl *FD,
                                        const Expr *Acquisition) {
  bool CallsThis = false;
  std::set<const FieldDecl *> Read;
  for (const Expr *Cond : guardingConditions(FD, Acquisition))
    membersOfThisIn(Cond, Read, CallsThis);
  Read.erase(F);
  Companions[F][FD].insert(Read.begin(), Read.end());
}

bool OwnershipIndex::isCompanionFlag(const FieldDecl *F, const FunctionDecl *Leaver,
                                     const Expr *Cond) const {
  bool CallsThis = false;
  std::set<const FieldDecl *> Read;
  flagsTestedIn(Cond, F->getASTContext(), Read, CallsThis);
  // `if (is_captured())`: a method may read anything.
  if (CallsThis)
    return true;
  auto It = Companions.find(F);
  if (It == Companions.end())
    return false;
  auto Set = It->second.find(Leaver);
  return Set != It->second.end() &&
         llvm::any_of(Read, [&](const FieldDecl *G) { return Set->second.count(G); });
}

bool OwnershipIndex::flagDecides(const FieldDecl *F, const CXXMethodDecl *M,
                                 const FunctionDecl *Leaver) const {
  const OwnedMember *O = member(F);
  if (!O)
    return false;
  std::vector<const Stmt *> Sites;
  for (const MemberAcquisition &Acq : O->Acquisitions)
    if (Acq.In == M)
      Sites.push_back(Acq.Call);
  for (const MemberRelease &Rel : O->Releases)
    if (Rel.In == M)
      Sites.push_back(Rel.Call);
  for (const Stmt *S : Sites)
    for (const Expr *Cond : guardingConditions(M, S))
      if (isCompanionFlag(F, Leaver, Cond))
        return true;
  return false;
}

} // namespace lifetime
} // namespace cgt
