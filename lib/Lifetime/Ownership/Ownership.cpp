//===- Ownership.cpp - resources kept in members, across functions --------===//
//
// Builds the OwnershipIndex (Ownership.h says what it concludes): one walk
// over every function of the translation unit that classifies each mention
// of a member as an acquisition into it, a release of it, a write, a plain
// read, or a hand-out, plus the calls that copy objects and the `this`-calls
// between methods.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"
#include "Lifetime/Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"


namespace cgt {
namespace lifetime {

/// The statements from a body down to the one the scan is at: all that
/// classify asks of a statement is its ancestors, so the scan keeps them
/// instead of building each body's ParentIndex (most bodies are never
/// analysed). Through children() the scan meets each statement under the
/// parent a ParentMap gives it.
class AncestorChain {
public:
  void push(const Stmt *S) { Chain.push_back(S); }
  void pop() { Chain.pop_back(); }
  const Stmt *getParent(const Stmt *S) const {
    for (size_t I = Chain.size(); I > 1; --I)
      if (Chain[I - 1] == S)
        return Chain[I - 2];
    return nullptr;
  }

private:
  llvm::SmallVector<const Stmt *, 32> Chain;
};

namespace {

/// The functions and the static-storage instances of classes declared in
/// the unit's own files. Statements are not walked: scanFunction walks each
/// body anyway and hands back the declarations it meets there (local
/// classes, `static Runner r;`).
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  FunctionCollector(const SourceManager &SM, LifetimeAnalyzer::Impl &A) : SM(SM), A(A) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  /// The CUDA and C++ headers hold most of a unit's declarations and none
  /// of its owners: not walking them is most of this index's cost. Every
  /// declaration visited below came through here.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; }
  /// Types as written declare no function and no static instance; walking
  /// them visited (and header-tested) every parameter.
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  bool TraverseType(QualType, bool = true) { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    // Patterns of templates too (Templates.cpp): a class template's
    // members are its pattern's own declarations.
    if (FD->doesThisDeclarationHaveABody() &&
        (!FD->isDependentContext() || A.isOwnershipPattern(FD)) && !isLambdaCall(FD))
      Functions.push_back(FD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage())
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
  LifetimeAnalyzer::Impl &A;
};

/// The parent of `S`, past parentheses and casts.
const Stmt *parentOf(const Stmt *S, const AncestorChain &PM) {
  const Stmt *P = PM.getParent(S);
  while (P && (isa<ParenExpr>(P) || isa<CastExpr>(P) || isa<ExprWithCleanups>(P) ||
               isa<MaterializeTemporaryExpr>(P)))
    P = PM.getParent(P);
  return P;
}

/// `void *peer_sigs_[kMaxRanks]`, `CUdeviceptr bufs_[4]`: a fixed array
/// whose elements may hold handles.
bool isHandleArray(QualType T) {
  const auto *CAT = dyn_cast<ConstantArrayType>(T.getCanonicalType().getTypePtr());
  if (!CAT)
    return false;
  QualType Elt = CAT->getElementType();
  return Elt->isPointerType() || Elt->isIntegerType();
}

/// `do { ... } while (0)`: a macro's statement braces, not a loop.
bool runsOnce(const DoStmt *Do) {
  const auto *Lit = dyn_cast<IntegerLiteral>(Do->getCond()->IgnoreParenImpCasts());
  const auto *Bool = dyn_cast<CXXBoolLiteralExpr>(Do->getCond()->IgnoreParenImpCasts());
  return (Lit && Lit->getValue().isZero()) || (Bool && !Bool->getValue());
}

/// The innermost loop `S` sits in, if any.
const Stmt *enclosingLoop(const Stmt *S, const AncestorChain &PM) {
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P)) {
    if (const auto *Do = dyn_cast<DoStmt>(P); Do && runsOnce(Do))
      continue;
    if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P))
      return P;
  }
  return nullptr;
}

/// The object a loop body declares afresh in each iteration (`for (...) {
/// Runner r; r.capture(); }`): calling a method on it again is on a new one.
bool declaredInside(const Expr *Object, const Stmt *Loop) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return false;
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  SourceRange R = Loop->getSourceRange();
  return !SM.isBeforeInTranslationUnit(VD->getLocation(), R.getBegin()) &&
         SM.isBeforeInTranslationUnit(VD->getLocation(), R.getEnd());
}




/// An argument of class type (asked before the costlier header test).
bool passesRecord(const Expr *Arg) { return strip(Arg)->getType()->getAsCXXRecordDecl(); }

/// A constructor or assignment that copies (or, with no move of its own,
/// moves through the copy) and that the user did not write.
bool isImplicitCopy(const CXXMethodDecl *MD) {
  if (!MD || MD->isUserProvided() || MD->isDeleted())
    return false;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD))
    return Ctor->isCopyConstructor();
  return MD->isCopyAssignmentOperator();
}

} // namespace

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

bool isThisCall(const CallExpr *Call) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  return MC && isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
}

/// `Runner`, or for `typedef struct { ... } solver_t;` the typedef's name.
std::string ownerName(const RecordDecl *RD) {
  if (RD->getIdentifier())
    return RD->getNameAsString();
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    return TD->getNameAsString();
  return "(anonymous struct)";
}

OwnershipIndex::OwnershipIndex(LifetimeAnalyzer::Impl &A) : A(A) {
  FunctionCollector C(A.Ctx.getSourceManager(), A);
  C.TraverseDecl(A.Ctx.getTranslationUnitDecl());
  // Functions grows while it is walked: local classes' methods join it.
  for (size_t I = 0; I < C.Functions.size(); ++I)
    for (const Decl *Local : scanFunction(C.Functions[I]))
      C.TraverseDecl(const_cast<Decl *>(Local));
  StaticInstances = std::move(C.StaticInstances);
}

SourceLocation OwnershipIndex::loc(const Stmt *S) const {
  return A.Ctx.getSourceManager().getFileLoc(S->getBeginLoc());
}

std::string OwnershipIndex::text(const Expr *E) const { return shortSourceText(E, A.Ctx); }

std::vector<const Decl *> OwnershipIndex::scanFunction(const FunctionDecl *FD) {
  const SourceManager &SM = A.Ctx.getSourceManager();
  AncestorChain PM;
  std::vector<const Decl *> LocalDecls;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    PM.push(S);
    if (const auto *ME = dyn_cast<MemberExpr>(S); ME && isa<FieldDecl>(ME->getMemberDecl())) {
      Named[FD->getCanonicalDecl()].insert(cast<FieldDecl>(ME->getMemberDecl()));
      classify(ME, FD, PM);
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      LocalDecls.insert(LocalDecls.end(), DS->decl_begin(), DS->decl_end());
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        const FunctionDecl *Canon = Callee->getCanonicalDecl();
        noteRepeatedCall(Call, Canon, FD, PM);
        if (isThisCall(Call)) {
          ThisCallees[FD->getCanonicalDecl()].insert(Canon);
          ThisCallers[Canon].insert(FD);
        }
        if (isa<CXXMethodDecl>(Canon))
          MethodCalls[Canon].push_back({FD, Call, isThisCall(Call)});
        // `v.push_back(obj)`, `v.push_back(Obj(n))`: the library copies it
        // (a class with its own destructor and no move of its own is
        // moved by copying).
        if (isa<CXXMemberCallExpr>(Call) && llvm::any_of(Call->arguments(), passesRecord) &&
            SM.isInSystemHeader(Callee->getLocation()))
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
    PM.pop();
  };
  Walk(FD->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    scanConstructorInits(Ctor);
  return LocalDecls;
}

/// `Runner() : stream_(make_stream())`.
void OwnershipIndex::scanConstructorInits(const CXXConstructorDecl *Ctor) {
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->isWritten() || !Init->getInit())
      continue;
    AncestorChain PM;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      PM.push(S);
      if (const auto *ME = dyn_cast<MemberExpr>(S))
        classify(ME, Ctor, PM);
      for (const Stmt *Child : S->children())
        Walk(Child);
      PM.pop();
    };
    Walk(Init->getInit());
    const FieldDecl *F = Init->getMember();
    const auto *Call = dyn_cast<CallExpr>(strip(Init->getInit()));
    const FunctionModel *M = Call && F ? A.modelFor(Call) : nullptr;
    if (!M) {
      // `count_(new std::atomic<int>(1))`, `ready_(true)`: a flag the
      // constructor sets with what it acquires (CompanionFlags.cpp).
      if (F && F->getType()->isScalarType()) {
        Members[F].Field = F;
        Members[F].WrittenIn.insert(Ctor);
      }
      continue;
    }
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
                              const AncestorChain &PM) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F)
    return;
  const Stmt *Child = ME;
  const Stmt *P = parentOf(ME, PM);
  // `peer_sigs_[r] = sig`, `cudaEventCreate(&events_[i])`: an element of a
  // member array of handles stands for the member, as a vector's do.
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P);
      AS && AS->getBase()->IgnoreParenImpCasts() == ME && isHandleArray(F->getType())) {
    Child = AS;
    P = parentOf(AS, PM);
  }
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
  // `bool with_mp() const { return with_mp_; }`: a copy of a flag or a mode
  // hands nothing out (a CUdeviceptr is an integer too, so only bool and enum).
  if (isa<ReturnStmt>(P) && !FD->getReturnType()->isReferenceType() &&
      (F->getType()->isBooleanType() || F->getType()->isEnumeralType()))
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
  // `resize(l->vf)` releasing `vf->delta_gpu` (a field of what it is
  // handed, darknet) does not release `vf`.
  for (const ReleaseEffect &Eff : M->Releases)
    if (Eff.Arg == static_cast<int>(I) && Eff.ThroughPointer == ByAddress && Eff.Field.empty()) {
      O.Releases.push_back({Call, FD, M->Name, Eff.Kinds, ME});
      O.WrittenIn.insert(FD);
      if (reachedThroughPointer(ME))
        StructsWithFree.insert(F->getParent());
      Classified = true;
    }
  // A helper's summary lists what it does to each argument; one it does not
  // describe may be kept or freed by means it does not follow (MatX's
  // `matxFree(p)` looks `p` up in its allocator's map), as the dataflow
  // reads it (escapeUnclassifiedArgs).
  bool Summarised = M->Origin == "summary" || M->Origin == "attributes" || M->UnlistedArgsEscape;
  if (Summarised && !Classified && !ByAddress &&
      llvm::none_of(M->Uses, [&](const UseEffect &U) { return U.Arg == static_cast<int>(I); }))
    return handOut(ME, Call, FD);
  // Any other argument of a modelled call is a use (`cudaGraphLaunch(exec_)`,
  // `cudaMemcpy(&x_, ...)` writes a plain value).
  if (ByReference && !Classified)
    handOut(ME, Call, FD);
  else if (ByAddress && !Classified)
    O.WrittenIn.insert(FD);
}

void OwnershipIndex::noteAssignment(const BinaryOperator *BO, const MemberExpr *ME,
                                    const FunctionDecl *FD, const AncestorChain &) {
  const auto *F = cast<FieldDecl>(ME->getMemberDecl());
  OwnedMember &O = Members[F];
  O.Field = F;
  O.WrittenIn.insert(FD);
  if (BO->getOpcode() != BO_Assign)
    return;
  const Expr *RHS = strip(BO->getRHS());
  if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
    const FunctionModel *M = A.modelFor(Call);
    if (!M)
      O.AssignedUnknownResult = true;
    else
      for (const AcquireEffect &Eff : M->Acquires)
        if (Eff.Arg == ReturnValue && Eff.Owned)
          addAcquisition(Call, *M, Eff, ME, FD);
    return;
  }
  // `cudaStreamCreate(&s); stream_ = s;`
  if (const auto *DRE = dyn_cast<DeclRefExpr>(RHS))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasLocalStorage()) {
      for (const LocalAcquisition &Acq : acquisitionsOfLocal(VD, FD))
        addAcquisition(Acq.Call, *Acq.Model, *Acq.Eff, ME, FD);
    }
}

llvm::ArrayRef<OwnershipIndex::LocalAcquisition>
OwnershipIndex::acquisitionsOfLocal(const VarDecl *VD, const FunctionDecl *FD) {
  auto [It, New] = LocalAcquisitions.try_emplace(FD);
  if (New)
    indexLocalAcquisitions(FD, It->second);
  auto Found = It->second.find(VD);
  if (Found == It->second.end())
    return {};
  return Found->second;
}

/// `&v`: v.
static const VarDecl *addressOfVariable(const Expr *Arg) {
  const auto *UO = dyn_cast<UnaryOperator>(strip(Arg));
  const auto *DRE = UO && UO->getOpcode() == UO_AddrOf
                        ? dyn_cast<DeclRefExpr>(strip(UO->getSubExpr()))
                        : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// One walk per function, not one per member assignment of a local: the
/// first call in source order that acquires into each local by address.
void OwnershipIndex::indexLocalAcquisitions(
    const FunctionDecl *FD, llvm::DenseMap<const VarDecl *, LocalAcquisitionList> &Out) {
  llvm::SmallVector<const Stmt *, 32> Stack{FD->getBody()};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    // Only a call given `&v` can acquire into v: the others' models (and
    // the helper summaries behind them) are not asked for.
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && llvm::any_of(Call->arguments(), addressOfVariable))
      if (const FunctionModel *M = A.modelFor(Call))
        for (const AcquireEffect &Eff : M->Acquires) {
          if (!Eff.Owned || Eff.Arg < 0 || Eff.Arg >= static_cast<int>(Call->getNumArgs()) ||
              !Eff.Field.empty())
            continue;
          if (const VarDecl *Local = addressOfVariable(Call->getArg(Eff.Arg)))
            Out[Local].push_back(LocalAcquisition{Call, &Eff, M});
        }
    // Children in reverse, so that they come off in source order.
    size_t First = Stack.size();
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
    std::reverse(Stack.begin() + First, Stack.end());
  }
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

/// A method called again on one object: in a loop on an object the loop
/// does not index (`for (...) runner.capture()`, not `slots[i].alloc()`), or
/// twice on the same object in one function.
void OwnershipIndex::noteRepeatedCall(const CallExpr *Call, const FunctionDecl *Callee,
                                      const FunctionDecl *In, const AncestorChain &PM) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  if (!MC) {
    // `step(&c, ...)`: a function given the object (ParamMembers.cpp).
    for (auto [I, Object] : objectsPassedTo(Call)) {
      const Stmt *Loop = enclosingLoop(Call, PM);
      ObjectCalls.push_back({Callee, In, text(Object),
                             Loop && !declaredInside(Object, Loop) ? Loop : nullptr,
                             Call->getBeginLoc(), static_cast<int>(I)});
    }
    return;
  }
  if (isThisCall(Call)) {
    ObjectCalls.push_back({Callee, In, "this", enclosingLoop(Call, PM), Call->getBeginLoc()});
    return;
  }
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
  std::string Key = text(Object->IgnoreParenImpCasts());
  const Stmt *Loop = enclosingLoop(Call, PM);
  if (Loop && declaredInside(Object, Loop))
    Loop = nullptr;
  if (!Key.empty()) {
    ObjectCalls.push_back({Callee, In, Key, Loop, Call->getBeginLoc()});
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage() && !VD->isStaticLocal() && !VD->getType()->isReferenceType() &&
          !isa<ParmVarDecl>(VD))
        ObjectCalls.back().Local = VD;
  }
  if (Loop) {
    CalledAgain.insert(Callee);
    return;
  }
  if (!Key.empty() && ++CallsOnObject[{Callee, In, Key}] > 1)
    CalledAgain.insert(Callee);
}

} // namespace lifetime
} // namespace cgt
