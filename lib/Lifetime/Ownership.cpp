//===- Ownership.cpp - resources kept in members, across functions --------===//
//
// Builds the OwnershipIndex (Ownership.h says what it concludes): one walk
// over every function of the translation unit that classifies each mention
// of a member as an acquisition into it, a release of it, a write, a plain
// read, or a hand-out, plus the calls that copy objects and the `this`-calls
// between methods.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership.h"
#include "Lifetime/Analysis.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

namespace cgt {
namespace lifetime {

namespace {

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !SM.isInSystemHeader(FD->getLocation()) && !isLambdaCall(FD))
      Functions.push_back(FD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage() && !SM.isInSystemHeader(VD->getLocation()))
      if (const auto *RD = VD->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
        StaticInstances.insert(RD);
    return true;
  }
  std::vector<const FunctionDecl *> Functions;
  std::set<const CXXRecordDecl *> StaticInstances;

private:
  static bool isLambdaCall(const FunctionDecl *FD) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    return MD && MD->getParent()->isLambda();
  }
  const SourceManager &SM;
};

/// The parent of `S`, past parentheses and casts.
const Stmt *parentOf(const Stmt *S, const ParentMap &PM) {
  const Stmt *P = PM.getParent(S);
  while (P && (isa<ParenExpr>(P) || isa<CastExpr>(P) || isa<ExprWithCleanups>(P) ||
               isa<MaterializeTemporaryExpr>(P)))
    P = PM.getParent(P);
  return P;
}

bool isInLoop(const Stmt *S, const ParentMap &PM) {
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P))
      return true;
  return false;
}

/// `ctx->buf`, `s->halo` (a local `dev_slot *s = &m->slot[d]`), `c.buf`
/// through a reference parameter: a member of a struct this function does
/// not own as a local value.
bool reachedThroughPointer(const MemberExpr *ME) {
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD)
    return false;
  QualType T = VD->getType();
  return T->isPointerType() || (T->isReferenceType() && isa<ParmVarDecl>(VD));
}

/// `Runner`, or for `typedef struct { ... } solver_t;` the typedef's name.
std::string ownerName(const RecordDecl *RD) {
  if (RD->getIdentifier())
    return RD->getNameAsString();
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    return TD->getNameAsString();
  return "(anonymous struct)";
}

bool isThisCall(const CallExpr *Call) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  return MC && isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
}

/// A constructor or assignment that copies (or, with no move of its own,
/// moves through the copy) and that the user did not write.
bool isImplicitCopy(const CXXMethodDecl *MD) {
  if (!MD || MD->isUserProvided() || MD->isDeleted())
    return false;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD))
    return Ctor->isCopyConstructor();
  return MD->isCopyAssignmentOperator();
}

bool copyIsUserControlled(const CXXRecordDecl *RD) {
  for (const CXXConstructorDecl *C : RD->ctors())
    if (C->isCopyConstructor() && (C->isDeleted() || C->isUserProvided()))
      return true;
  return RD->hasUserDeclaredMoveConstructor() || RD->hasUserDeclaredMoveAssignment();
}

} // namespace

OwnershipIndex::OwnershipIndex(LifetimeAnalyzer::Impl &A) : A(A) {
  FunctionCollector C(A.Ctx.getSourceManager());
  C.TraverseDecl(A.Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *FD : C.Functions)
    scanFunction(FD);
  StaticInstances = std::move(C.StaticInstances);
}

SourceLocation OwnershipIndex::loc(const Stmt *S) const {
  return A.Ctx.getSourceManager().getFileLoc(S->getBeginLoc());
}

std::string OwnershipIndex::text(const Expr *E) const {
  const SourceManager &SM = A.Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  StringRef T = Lexer::getSourceText(R, SM, A.Ctx.getLangOpts());
  if (T.empty() || T.size() > 64 || T.contains('\n'))
    return "";
  return T.str();
}

void OwnershipIndex::scanFunction(const FunctionDecl *FD) {
  const SourceManager &SM = A.Ctx.getSourceManager();
  ParentMap PM(FD->getBody());
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      classify(ME, FD, PM);
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        const FunctionDecl *Canon = Callee->getCanonicalDecl();
        noteRepeatedCall(Call, Canon, FD, PM);
        if (isThisCall(Call)) {
          ThisCallees[FD->getCanonicalDecl()].insert(Canon);
          ThisCallers[Canon].insert(FD);
        }
        // `v.push_back(obj)`, `v.push_back(Obj(n))`: the library copies it
        // (a class with its own destructor and no move of its own is
        // moved by copying).
        if (SM.isInSystemHeader(Callee->getLocation()) && isa<CXXMemberCallExpr>(Call))
          for (const Expr *Arg : Call->arguments())
            if (const auto *RD = strip(Arg)->getType()->getAsCXXRecordDecl())
              Copies.try_emplace(RD, Arg);
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (isImplicitCopy(dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee())))
          Copies.try_emplace(cast<CXXMethodDecl>(Op->getDirectCallee())->getParent(), Op);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (!CE->isElidable() && isImplicitCopy(CE->getConstructor()))
        Copies.try_emplace(CE->getConstructor()->getParent(), CE);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    scanConstructorInits(Ctor);
}

/// `Runner() : stream_(make_stream())`.
void OwnershipIndex::scanConstructorInits(const CXXConstructorDecl *Ctor) {
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->isWritten() || !Init->getInit())
      continue;
    ParentMap PM(Init->getInit());
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *ME = dyn_cast<MemberExpr>(S))
        classify(ME, Ctor, PM);
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(Init->getInit());
    const FieldDecl *F = Init->getMember();
    const auto *Call = dyn_cast<CallExpr>(strip(Init->getInit()));
    const FunctionModel *M = Call && F ? A.modelFor(Call) : nullptr;
    if (!M)
      continue;
    for (const AcquireEffect &Eff : M->Acquires)
      if (Eff.Arg == ReturnValue && Eff.Owned) {
        OwnedMember &O = Members[F];
        O.Field = F;
        O.WrittenIn.insert(Ctor);
        O.Acquisitions.push_back({Call, Ctor, nullptr, Eff.Kind, M->Name, true});
      }
  }
}

void OwnershipIndex::handOut(const MemberExpr *ME, const Stmt *At, const FunctionDecl *FD) {
  const auto *F = cast<FieldDecl>(ME->getMemberDecl());
  OwnedMember &O = Members[F];
  O.Field = F;
  O.WrittenIn.insert(FD);
  if (!O.HandedOut)
    O.HandedOut = At;
}

/// What one mention of a member does with it.
void OwnershipIndex::classify(const MemberExpr *ME, const FunctionDecl *FD,
                              const ParentMap &PM) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F)
    return;
  const Stmt *Child = ME;
  const Stmt *P = parentOf(ME, PM);
  bool ByAddress = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P)) {
    switch (UO->getOpcode()) {
    case UO_AddrOf:
      ByAddress = true;
      Child = UO;
      P = parentOf(UO, PM);
      break;
    case UO_LNot:
    case UO_Deref:
      return;
    default:
      if (UO->isIncrementDecrementOp())
        Members[F].WrittenIn.insert(FD);
      return;
    }
  }
  if (!P) {
    // A full expression on its own (`(void)p_;`) or the init of a ctor.
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(P)) {
    if (Call->getCallee()->IgnoreParenCasts() == Child)
      return;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->IgnoreParenCasts() == Child ||
          strip(Call->getArg(I)) == Child) {
        noteCallArgument(Call, I, ByAddress, ME, FD);
        return;
      }
    handOut(ME, P, FD);
    return;
  }
  if (ByAddress) {
    handOut(ME, P, FD);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isAssignmentOp() || BO->isCompoundAssignmentOp()) {
      if (BO->getLHS()->IgnoreParenCasts() == Child)
        noteAssignment(BO, ME, FD, PM);
      else
        handOut(ME, P, FD);
    }
    return; // comparisons, arithmetic, logic: reads
  }
  if (isa<MemberExpr>(P) || isa<ArraySubscriptExpr>(P) || isa<IfStmt>(P) ||
      isa<WhileStmt>(P) || isa<ForStmt>(P) || isa<DoStmt>(P) || isa<SwitchStmt>(P) ||
      isa<UnaryExprOrTypeTraitExpr>(P))
    return;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P); CO && CO->getCond() == Child)
    return;
  handOut(ME, P, FD);
}

void OwnershipIndex::noteCallArgument(const CallExpr *Call, unsigned I, bool ByAddress,
                                      const MemberExpr *ME, const FunctionDecl *FD) {
  const auto *F = cast<FieldDecl>(ME->getMemberDecl());
  const FunctionModel *M = A.modelFor(Call);
  if (!M) {
    if (!isa<CUDAKernelCallExpr>(Call))
      handOut(ME, Call, FD);
    return;
  }
  // A helper's `cudaEvent_t &e` it does not describe may release or keep it.
  const FunctionDecl *Callee = Call->getDirectCallee();
  bool ByReference = Callee && I < Callee->getNumParams() &&
                     Callee->getParamDecl(I)->getType()->isReferenceType() &&
                     !Callee->getParamDecl(I)->getType().getNonReferenceType().isConstQualified();
  OwnedMember &O = Members[F];
  O.Field = F;
  bool Classified = false;
  for (const AcquireEffect &Eff : M->Acquires)
    if (ByAddress && Eff.Arg == static_cast<int>(I) && Eff.Field.empty()) {
      if (Eff.Owned)
        addAcquisition(Call, *M, Eff, ME, FD);
      Classified = true;
    }
  for (const ReleaseEffect &Eff : M->Releases)
    if (Eff.Arg == static_cast<int>(I) && Eff.ThroughPointer == ByAddress) {
      O.Releases.push_back({Call, FD, M->Name, Eff.Kinds, ME});
      O.WrittenIn.insert(FD);
      if (reachedThroughPointer(ME))
        StructsWithFree.insert(F->getParent());
      Classified = true;
    }
  // Any other argument of a modelled call is a use (`cudaGraphLaunch(exec_)`,
  // `cudaMemcpy(&x_, ...)` writes a plain value).
  if (ByReference && !Classified)
    handOut(ME, Call, FD);
  else if (ByAddress && !Classified)
    O.WrittenIn.insert(FD);
}

void OwnershipIndex::noteAssignment(const BinaryOperator *BO, const MemberExpr *ME,
                                    const FunctionDecl *FD, const ParentMap &) {
  const auto *F = cast<FieldDecl>(ME->getMemberDecl());
  OwnedMember &O = Members[F];
  O.Field = F;
  O.WrittenIn.insert(FD);
  if (BO->getOpcode() != BO_Assign)
    return;
  const Expr *RHS = strip(BO->getRHS());
  if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
    if (const FunctionModel *M = A.modelFor(Call))
      for (const AcquireEffect &Eff : M->Acquires)
        if (Eff.Arg == ReturnValue && Eff.Owned)
          addAcquisition(Call, *M, Eff, ME, FD);
    return;
  }
  // `cudaStreamCreate(&s); stream_ = s;`
  if (const auto *DRE = dyn_cast<DeclRefExpr>(RHS))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasLocalStorage()) {
      const AcquireEffect *Eff = nullptr;
      const FunctionModel *M = nullptr;
      if (const CallExpr *Call = acquisitionOfLocal(VD, FD, &Eff, &M))
        addAcquisition(Call, *M, *Eff, ME, FD);
    }
}

const CallExpr *OwnershipIndex::acquisitionOfLocal(const VarDecl *VD, const FunctionDecl *FD,
                                                   const AcquireEffect **EffOut,
                                                   const FunctionModel **MOut) {
  const CallExpr *Found = nullptr;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionModel *M = A.modelFor(Call))
        for (const AcquireEffect &Eff : M->Acquires) {
          if (!Eff.Owned || Eff.Arg < 0 || Eff.Arg >= static_cast<int>(Call->getNumArgs()) ||
              !Eff.Field.empty())
            continue;
          const auto *UO = dyn_cast<UnaryOperator>(strip(Call->getArg(Eff.Arg)));
          const auto *DRE = UO && UO->getOpcode() == UO_AddrOf
                                ? dyn_cast<DeclRefExpr>(strip(UO->getSubExpr()))
                                : nullptr;
          if (DRE && DRE->getDecl() == VD) {
            Found = Call;
            *EffOut = &Eff;
            *MOut = M;
            return;
          }
        }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Found;
}

void OwnershipIndex::addAcquisition(const CallExpr *Call, const FunctionModel &M,
                                    const AcquireEffect &Eff, const MemberExpr *ME,
                                    const FunctionDecl *FD) {
  const auto *F = cast<FieldDecl>(ME->getMemberDecl());
  OwnedMember &O = Members[F];
  O.Field = F;
  O.WrittenIn.insert(FD);
  for (const MemberAcquisition &Acq : O.Acquisitions)
    if (Acq.Call == Call)
      return;
  bool ThroughThis = isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  O.Acquisitions.push_back({Call, FD, ME, Eff.Kind, M.Name, ThroughThis});
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

std::vector<LifetimeFinding> OwnershipIndex::findingsIn(const FunctionDecl *FD) {
  std::vector<LifetimeFinding> Out;
  memberLeaks(FD, Out);
  copiedOwners(FD, Out);
  crossFunctionMismatches(FD, Out);
  return Out;
}

/// `cudaMallocHost(&sv->h_history)` in init, `free(sv->h_history)` in the
/// free function: the dataflow of one function sees only the release.
void OwnershipIndex::crossFunctionMismatches(const FunctionDecl *FD,
                                             std::vector<LifetimeFinding> &Out) {
  for (const auto &[F, O] : Members) {
    if (O.Acquisitions.empty())
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
      LifetimeFinding L;
      L.Kind = FindingKind::MismatchedRelease;
      L.ResourceKind = First.Kind;
      L.Loc = loc(Rel.Call);
      L.Range = Rel.Call->getSourceRange();
      L.AcquiredBy = First.By;
      L.VarName = Rel.Member ? text(Rel.Member) : F->getNameAsString();
      L.CalledFunction = Rel.By;
      L.Owner = ownerName(F->getParent());
      L.Notes.push_back({loc(First.Call), "every acquisition into '" + F->getNameAsString() +
                                              "' is by '" + First.By + "', as here in '" +
                                              First.In->getNameAsString() + "'"});
      Out.push_back(std::move(L));
    }
  }
}

void OwnershipIndex::memberLeaks(const FunctionDecl *FD, std::vector<LifetimeFinding> &Out) {
  for (const auto &[F, O] : Members) {
    if (!O.Releases.empty() || O.HandedOut)
      continue;
    for (const MemberAcquisition &Acq : O.Acquisitions) {
      if (Acq.In != FD || !ownerIsClosed(F, Acq))
        continue;
      std::string Owner = ownerName(F->getParent());
      LifetimeFinding L;
      L.Kind = FindingKind::Leak;
      L.ResourceKind = Acq.Kind;
      L.Loc = loc(Acq.Call);
      L.Range = Acq.Call->getSourceRange();
      L.AcquiredBy = Acq.By;
      L.VarName = Acq.Member ? text(Acq.Member) : F->getNameAsString();
      if (L.VarName.empty())
        L.VarName = F->getNameAsString();
      L.Owner = Owner;
      std::string Name = F->getNameAsString();
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
      LifetimeFinding L;
      L.Kind = FindingKind::DoubleRelease;
      L.ResourceKind = O->Acquisitions.empty() ? "" : O->Acquisitions.front().Kind;
      L.Loc = loc(Rel.Call);
      L.Range = Rel.Call->getSourceRange();
      L.VarName = F->getNameAsString();
      L.CalledFunction = Rel.By;
      L.Owner = ownerName(RD);
      L.Notes.push_back({loc(Copy), "a '" + L.Owner +
                                        "' is copied here by its implicit copy constructor "
                                        "or assignment: both copies hold the same '" +
                                        F->getNameAsString() + "' and both destructors "
                                                               "release it"});
      Out.push_back(std::move(L));
    }
  }
}

bool OwnershipIndex::mayChange(const FunctionDecl *Method, const FieldDecl *F) const {
  std::set<const FunctionDecl *> Seen;
  std::function<bool(const FunctionDecl *, unsigned)> Visit = [&](const FunctionDecl *M,
                                                                  unsigned Depth) {
    const FunctionDecl *Def = M ? M->getDefinition() : nullptr;
    if (!Def || Depth > 4)
      return true;
    if (!Seen.insert(Def).second)
      return false;
    const OwnedMember *O = member(F);
    if (O && O->WrittenIn.count(Def))
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

/// A method called again on one object: in a loop on an object the loop
/// does not index (`for (...) runner.capture()`, not `slots[i].alloc()`), or
/// twice on the same object in one function.
void OwnershipIndex::noteRepeatedCall(const CallExpr *Call, const FunctionDecl *Callee,
                                      const FunctionDecl *In, const ParentMap &PM) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  if (!MC || isThisCall(Call))
    return;
  const Expr *Object = MC->getImplicitObjectArgument();
  bool Indexed = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Indexed)
      return;
    if (isa<ArraySubscriptExpr>(S) || isa<CXXOperatorCallExpr>(S) || isa<CallExpr>(S))
      Indexed = true;
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Object);
  if (Indexed)
    return;
  if (isInLoop(Call, PM)) {
    CalledAgain.insert(Callee);
    return;
  }
  std::string Key = text(Object->IgnoreParenImpCasts());
  if (!Key.empty() && ++CallsOnObject[{Callee, In, Key}] > 1)
    CalledAgain.insert(Callee);
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
      // Flags the leaving method sets (`captured_ = true`); handles it
      // acquires into are not flags.
      for (const auto &[G, O] : Members)
        if (G != F && G->getParent() == RD && O.WrittenIn.count(FD) && O.Acquisitions.empty())
          Companions[F].insert(G);
      addGuardingMembers(F, FD, Live.Acquisition);
    }
  }
}

/// The conditions that decide whether `S` runs: those of the branches it
/// sits in, and of the early exits before it (`if (!owns_stream_) return;`).
std::vector<const Expr *> guardingConditions(const FunctionDecl *FD, const Stmt *S) {
  std::vector<const Expr *> Out;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  ParentMap PM(FD->getBody());
  for (const Stmt *Child = S, *P = PM.getParent(S); P; Child = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getCond() != Child)
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

/// The members of `this` an expression reads (`owns_stream_`,
/// `opts_.overlap`), and whether it calls a method of `this`.
static void membersOfThisIn(const Stmt *S, std::set<const FieldDecl *> &Out,
                            bool &CallsThis) {
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

void OwnershipIndex::addGuardingMembers(const FieldDecl *F, const FunctionDecl *FD,
                                        const Expr *Acquisition) {
  bool CallsThis = false;
  std::set<const FieldDecl *> Read;
  for (const Expr *Cond : guardingConditions(FD, Acquisition))
    membersOfThisIn(Cond, Read, CallsThis);
  Read.erase(F);
  Companions[F].insert(Read.begin(), Read.end());
}

bool OwnershipIndex::isCompanionFlag(const FieldDecl *F, const Expr *Cond) const {
  auto It = Companions.find(F);
  bool CallsThis = false;
  std::set<const FieldDecl *> Read;
  membersOfThisIn(Cond, Read, CallsThis);
  // `if (is_captured())`: a method may read anything.
  if (CallsThis)
    return true;
  return It != Companions.end() &&
         llvm::any_of(Read, [&](const FieldDecl *G) { return It->second.count(G); });
}

std::map<const FieldDecl *, LiveOnReturn>
OwnershipIndex::liveOnEntry(const CXXMethodDecl *M) {
  std::map<const FieldDecl *, LiveOnReturn> Out;
  // A private helper relies on its callers for the state of the members
  // (`reshape()` releases before calling `build()`); the destructor is
  // judged whatever its access.
  if (M->isStatic() || runsOnFreshObject(M) ||
      (M->getAccess() != AS_public && !isa<CXXDestructorDecl>(M)))
    return Out;
  const CXXRecordDecl *RD = M->getParent();
  computeLeavers(RD);
  bool IsDtor = isa<CXXDestructorDecl>(M);
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
    const LiveOnReturn *Other = nullptr;
    for (const LiveOnReturn &L : Ls)
      if (L.Method != M && !isa<CXXDestructorDecl>(L.Method)) {
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
      if (!Ls.empty() && (ResetStyle || calledRepeatedly(M)))
        Other = &Ls.front();
    }
    if (Other)
      Out[F] = *Other;
  }
  return Out;
}

} // namespace lifetime
} // namespace cgt
