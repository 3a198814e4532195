//===- MovedOwners.cpp - move operations that leave the source owning ------===//
//
// An owning class (its destructor releases a member handle) kept in a
// `std::vector` is moved whenever the vector grows. A user-written move
// constructor or move assignment that copies the handle from the source
// and does not null the source's member leaves two objects owning one
// handle: both destructors release it (a double release, worded by
// cudagraph-use-after-dealloc at the destructor's release, a note at the
// copy).
//
//   move op reads other.h_ ---- other.h_ written (= nullptr, std::exchange,
//        |                      std::swap, &other.h_, code clang
//        |                      could not build)  -----------------> clean
//        |                 ---- `other` used otherwise (other.reset(),
//        |                      swap(other), *this = std::move(other)) -> clean
//        |                 ---- other.flag_ written, where the destructor
//        |                      releases only under flag_ (`o.owns_ =
//        |                      false;`: ownership handed over) -----> clean
//        +-- neither -------------------------------------------> DoubleRelease
//
// The other half of a move assignment: `h_ = other.h_` overwrites what this
// object holds. Releasing nothing of the member first (no release call in
// the operator, no call of a method of `this` that releases it, no swap) is
// a leak of the old handle (an Overwrite at the assignment).
//
// A deleted or defaulted move is not user code: a defaulted move of a raw
// handle copies it too, but the implicit-copy rule (OwnershipFindings.cpp
// copiedOwners) already speaks for classes without user-written copy or
// move operations.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

namespace cgt {
namespace lifetime {

namespace {

/// What a move operation does with the source's member `F`.
struct SourceUse {
  const clang::MemberExpr *Copy = nullptr; ///< the first read of other.F
  bool Written = false;                    ///< other.F is nulled or swapped
  bool OtherwiseUsed = false;              ///< `other` reaches code we do not read
};

bool isWrite(const Expr *Mention, const ParentIndex &PM) {
  const Stmt *Cur = Mention;
  const Stmt *Up = PM.getParent(Cur);
  while (Up && (isa<ImplicitCastExpr, ParenExpr>(Up))) {
    Cur = Up;
    Up = PM.getParent(Up);
  }
  if (!Up)
    return false;
  // `std::swap(h_, other.h_)` in a unit past a fatal error (a missing
  // header): clang instantiates no new template and keeps the call as a
  // RecoveryExpr. What it did is unknown, so it may be the write.
  if (const auto *E = dyn_cast<Expr>(Up); E && E->containsErrors())
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(Up))
    return BO->isAssignmentOp() && BO->getLHS() == Cur;
  if (const auto *UO = dyn_cast<UnaryOperator>(Up))
    return UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp();
  // std::exchange(other.h_, nullptr), std::swap(h_, other.h_): bound to a
  // non-const reference.
  if (const auto *Call = dyn_cast<CallExpr>(Up)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Cur) {
        if (!Callee || I >= Callee->getNumParams())
          return true;
        QualType T = Callee->getParamDecl(I)->getType();
        return T->isReferenceType() && !T->getPointeeType().isConstQualified();
      }
  }
  return false;
}

void scanSourceUses(const Stmt *Root, const ParmVarDecl *Other, const FieldDecl *F,
                    SourceUse &Use) {
  if (!Root)
    return;
  ParentIndex PM(Root);
  llvm::SmallVector<const Stmt *, 32> Stack{Root};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE || DRE->getDecl() != Other)
      continue;
    const auto *ME = dyn_cast_or_null<MemberExpr>(PM.getParentIgnoreParenImpCasts(DRE));
    const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!Field) {
      Use.OtherwiseUsed = true; // other.reset(), swap(other), passed on
      continue;
    }
    if (Field != F)
      continue;
    if (isWrite(ME, PM))
      Use.Written = true;
    else if (!Use.Copy)
      Use.Copy = ME;
  }
}

/// The read of `other.F` a move operation leaves the source owning after.
const MemberExpr *copyLeftInSource(const CXXMethodDecl *Move, const FieldDecl *F) {
  const FunctionDecl *Def = Move->getDefinition();
  if (!Def || !Def->hasBody() || Def->getNumParams() != 1)
    return nullptr;
  const ParmVarDecl *Other = Def->getParamDecl(0);
  SourceUse Use;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten())
        scanSourceUses(Init->getInit(), Other, F, Use);
  scanSourceUses(Def->getBody(), Other, F, Use);
  return Use.Copy && !Use.Written && !Use.OtherwiseUsed ? Use.Copy : nullptr;
}

/// Members of `this` a condition reads (`owns_`, `state_.live`).
void thisMembersIn(const Stmt *S, std::set<const FieldDecl *> &Out) {
  if (!S)
    return;
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Out.insert(F);
  for (const Stmt *Child : S->children())
    thisMembersIn(Child, Out);
}

/// The destructor releases `F` only under a flag the move operation clears
/// in the source: the moved-from object no longer owns it.
bool flagHandedOver(const CXXMethodDecl *Move, const FunctionDecl *Dtor, const Stmt *Release,
                    const FieldDecl *F) {
  std::set<const FieldDecl *> Flags;
  for (const Expr *Cond : guardingConditions(Dtor, Release))
    thisMembersIn(Cond, Flags);
  Flags.erase(F);
  const FunctionDecl *Def = Move->getDefinition();
  if (Flags.empty() || !Def || Def->getNumParams() != 1)
    return false;
  const ParmVarDecl *Other = Def->getParamDecl(0);
  return llvm::any_of(Flags, [&](const FieldDecl *G) {
    SourceUse Use;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten()) // owns_(std::exchange(o.owns_, false))
          scanSourceUses(Init->getInit(), Other, G, Use);
    scanSourceUses(Def->getBody(), Other, G, Use);
    return Use.Written;
  });
}

/// The class's user-written move constructor and move assignment.
llvm::SmallVector<const CXXMethodDecl *, 2> userMoves(const CXXRecordDecl *RD) {
  llvm::SmallVector<const CXXMethodDecl *, 2> Out;
  for (const CXXMethodDecl *M : RD->methods()) {
    bool Move = isa<CXXConstructorDecl>(M) ? cast<CXXConstructorDecl>(M)->isMoveConstructor()
                                           : M->isMoveAssignmentOperator();
    if (Move && M->isUserProvided() && !M->isDeleted())
      Out.push_back(M);
  }
  return Out;
}

/// `this->F = ...` assignments in `S`.
void assignmentsTo(const Stmt *S, const FieldDecl *F, std::vector<const BinaryOperator *> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
    if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
        ME && ME->getMemberDecl() == F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Out.push_back(BO);
  for (const Stmt *Child : S->children())
    assignmentsTo(Child, F, Out);
}

/// Whether `S` hands `F` to a call (std::swap(h_, o.h_), a release helper
/// of another file) or takes its address: it may be released that way.
bool passesOn(const Stmt *S, const FieldDecl *F) {
  if (!S)
    return false;
  // This object's member, not the other's (`std::exchange(o.h_, nullptr)`).
  auto ownMember = [&](const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && ME->getMemberDecl() == F &&
           isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  };
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (llvm::any_of(Call->arguments(), ownMember))
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_AddrOf && ownMember(UO->getSubExpr()))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return passesOn(C, F); });
}

/// The methods of `this` that `S` calls; Open when one has no body here
/// (it may release anything).
void thisCallees(const Stmt *S, std::set<const FunctionDecl *> &Out, bool &Open) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S); Call && isThisCall(Call))
    if (const CXXMethodDecl *M = Call->getMethodDecl()) {
      if (const FunctionDecl *Def = M->getDefinition())
        Out.insert(Def);
      else
        Open = true;
    }
  for (const Stmt *Child : S->children())
    thisCallees(Child, Out, Open);
}

} // namespace

void OwnershipIndex::moveAssignOverwrites(const FunctionDecl *FD,
                                          std::vector<LifetimeFinding> &Out) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->isMoveAssignmentOperator() || !MD->isUserProvided() || !FD->hasBody())
    return;
  const CXXRecordDecl *RD = MD->getParent();
  std::set<const FunctionDecl *> Callees;
  bool Open = false;
  thisCallees(FD->getBody(), Callees, Open);
  if (Open)
    return;
  // Owned: the destructor releases it, itself or through a method of this
  // it calls (`~Owner() { reset(); }`).
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  const FunctionDecl *DtorDef = Dtor ? Dtor->getDefinition() : nullptr;
  std::set<const FunctionDecl *> DtorReleasers;
  if (DtorDef) {
    bool DtorOpen = false;
    DtorReleasers.insert(DtorDef);
    thisCallees(DtorDef->getBody(), DtorReleasers, DtorOpen);
  }
  for (const FieldDecl *F : RD->fields()) {
    const OwnedMember *O = member(F);
    if (!O || O->Acquisitions.empty() || passesOn(FD->getBody(), F))
      continue;
    bool Owned = false, ReleasedHere = false;
    for (const MemberRelease &Rel : O->Releases) {
      Owned |= DtorReleasers.count(Rel.In) != 0;
      ReleasedHere |= Rel.In == FD || Callees.count(Rel.In);
    }
    if (!Owned || ReleasedHere)
      continue;
    std::vector<const BinaryOperator *> Writes;
    assignmentsTo(FD->getBody(), F, Writes);
    if (Writes.empty())
      continue;
    const BinaryOperator *At = Writes.front();
    LifetimeFinding L;
    L.Kind = FindingKind::Overwrite;
    L.ResourceKind = O->Acquisitions.front().Kind;
    L.Loc = At->getOperatorLoc();
    L.Range = At->getSourceRange();
    L.AcquiredBy = MD->getNameAsString();
    L.VarName = F->getNameAsString();
    L.Notes.push_back({At->getOperatorLoc(),
                       "the move assignment of '" + ownerName(RD) + "' assigns '" +
                           F->getNameAsString() + "' over what this object holds; the " +
                           "destructor would have released it"});
    Out.push_back(std::move(L));
  }
}

void OwnershipIndex::movedOwners(const FunctionDecl *FD, std::vector<LifetimeFinding> &Out) {
  const auto *Dtor = dyn_cast<CXXDestructorDecl>(FD);
  if (!Dtor)
    return;
  const CXXRecordDecl *RD = Dtor->getParent();
  llvm::SmallVector<const CXXMethodDecl *, 2> Moves = userMoves(RD);
  if (Moves.empty())
    return;
  for (const FieldDecl *F : RD->fields()) {
    const OwnedMember *O = member(F);
    if (!O)
      continue;
    for (const MemberRelease &Rel : O->Releases) {
      if (Rel.In != FD)
        continue;
      for (const CXXMethodDecl *Move : Moves) {
        const MemberExpr *Copy = copyLeftInSource(Move, F);
        if (!Copy || flagHandedOver(Move, FD, Rel.Call, F))
          continue;
        LifetimeFinding L = memberFinding(FindingKind::DoubleRelease, Rel.Call,
                                          O->Acquisitions.empty() ? "" : O->Acquisitions.front().Kind,
                                          F);
        L.Owner.clear(); // not the implicit copy's wording
        L.VarName = F->getNameAsString();
        L.CalledFunction = Rel.By;
        std::string What = isa<CXXConstructorDecl>(Move) ? "move constructor" : "move assignment";
        L.Notes.push_back({loc(Copy), "the " + What + " of '" + ownerName(RD) + "' copies '" +
                                          F->getNameAsString() +
                                          "' from the moved-from object without nulling it: "
                                          "after a move (a std::vector growing) both "
                                          "destructors release it"});
        Out.push_back(std::move(L));
        break;
      }
      break;
    }
  }
}

} // namespace lifetime
} // namespace cgt
