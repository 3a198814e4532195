//===- LocalValues.cpp - what a host function does to its locals ----------===//
//
// LaunchResolver's view of one host function body (LaunchResolver.h): every plain
// assignment to a local and to a field of one (`cfg.blockDim = ...`,
// `cfg.blockSize[0] = ...`), the locals that may change behind the folds (++,
// +=, passed as `T &`, their address given away, an element written through a
// computed subscript) and the out-arguments of calls (`cuModuleGetFunction(&f,
// ...)`); the values a variable may hold (its initialiser and those assignments).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Launch/HostExprs.h"
#include "SharedMem/Launch/LaunchResolver.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cgt::smem {

namespace {

class FactsScanner : public RecursiveASTVisitor<FactsScanner> {
public:
  explicit FactsScanner(FunctionFacts &F) : F(F) {}
  bool shouldVisitImplicitCode() const { return true; }

  void assigned(const Expr *LHS, const Expr *RHS) {
    auto [V, Path] = fieldPath(LHS);
    if (!V) {
      taint(LHS); // `cfg.blockSize[d] = n`: a write the folds cannot name
      return;
    }
    if (Path.empty())
      F.Assigned[V].push_back(RHS);
    else
      F.FieldAssigned[{V, Path}].push_back(RHS);
  }
  void taint(const Expr *E) {
    if (const ValueDecl *V = rootDecl(E))
      F.Tainted.insert(V);
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      assigned(B->getLHS(), B->getRHS());
    else if (B->isCompoundAssignmentOp())
      taint(B->getLHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->getOperator() == OO_Equal && C->getNumArgs() == 2)
      assigned(C->getArg(0), C->getArg(1));
    else if (C->isAssignmentOp() && C->getNumArgs() > 0)
      taint(C->getArg(0));
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      taint(U->getSubExpr());
    else if (U->getOpcode() == UO_AddrOf && !ConstAddr.count(U))
      taint(U->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    QualType T = D->getType();
    if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified() &&
        D->getInit())
      taint(D->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Fn = C->getDirectCallee();
    unsigned Skip = isa<CXXOperatorCallExpr>(C) && Fn && isa<CXXMethodDecl>(Fn) ? 1 : 0;
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *A = C->getArg(I)->IgnoreParenImpCasts();
      QualType PT;
      if (Fn && I >= Skip && I - Skip < Fn->getNumParams())
        PT = Fn->getParamDecl(I - Skip)->getType();
      if (const auto *U = dyn_cast<UnaryOperator>(A);
          U && U->getOpcode() == UO_AddrOf) {
        auto [V, Path] = fieldPath(U->getSubExpr());
        if (V)
          F.OutArgs[V].push_back({C, I});
        if (!PT.isNull() && PT->isPointerType() &&
            PT->getPointeeType().isConstQualified())
          ConstAddr.insert(U);
        continue;
      }
      if (!PT.isNull() && PT->isReferenceType() &&
          !PT.getNonReferenceType().isConstQualified() &&
          !PT->isRValueReferenceType())
        taint(A);
    }
    return true;
  }

private:
  FunctionFacts &F;
  llvm::DenseSet<const UnaryOperator *> ConstAddr;
};

} // namespace

FunctionFacts &LaunchResolver::factsOf(const FunctionDecl *F) {
  auto It = Facts.find(F);
  if (It != Facts.end())
    return It->second;
  FunctionFacts &FF = Facts[F];
  if (F && F->hasBody()) {
    FactsScanner S(FF);
    S.TraverseStmt(F->getBody());
  }
  return FF;
}

const VarDecl *LaunchResolver::varOf(const Expr *E) const {
  const auto *D = dyn_cast<DeclRefExpr>(strip(E));
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

const FunctionDecl *LaunchResolver::ownerOf(const VarDecl *V) const {
  return dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
}

bool LaunchResolver::valuesOf(const VarDecl *V, std::vector<const Expr *> &Out) {
  if (isa<ParmVarDecl>(V))
    return false;
  if (V->hasLocalStorage() || V->isStaticLocal()) {
    const FunctionDecl *F = ownerOf(V);
    if (!F)
      return false;
    FunctionFacts &FF = factsOf(F);
    if (FF.Tainted.count(V))
      return false;
    if (V->isStaticLocal() && !V->getType().isConstQualified())
      return false;
    if (const Expr *I = V->getInit())
      Out.push_back(I);
    auto It = FF.Assigned.find(V);
    if (It != FF.Assigned.end())
      Out.insert(Out.end(), It->second.begin(), It->second.end());
    return true;
  }
  if (!V->hasGlobalStorage())
    return false;
  QualType T = V->getType();
  bool FnPtrs = false;
  if (const ArrayType *AT = Ctx.getAsArrayType(T))
    FnPtrs = AT->getElementType()->isFunctionPointerType();
  FnPtrs |= T->isFunctionPointerType();
  if (!T.isConstQualified() && !FnPtrs)
    return false;
  if (const Expr *I = V->getAnyInitializer()) {
    Out.push_back(I);
    return true;
  }
  return false;
}

namespace {
/// A method defined in another file (`void RegisterObjectId(...);` in the
/// header) may write the member: its values depend on code this unit does
/// not see, and folding to the initialiser would give two units two
/// answers. Methods the compiler writes copy members; a const method writes
/// only mutable ones.
bool mayWriteUnseen(const CXXMethodDecl *M, const FieldDecl *FD) {
  if (M->isImplicit() || M->isDeleted() || M->isDefaulted() || M->isPureVirtual())
    return false;
  if (isa<CXXDestructorDecl>(M))
    return false;
  return !M->isConst() || FD->isMutable();
}
} // namespace

bool LaunchResolver::memberValues(const FieldDecl *FD, StringRef Sub,
                                  std::vector<const Expr *> &Whole,
                                  std::vector<const Expr *> &Parts) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD || FD->getAccess() == AS_public || FD->getAccess() == AS_none)
    return false;
  bool Initialised = false;
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def)) {
      if (mayWriteUnseen(M, FD))
        return false;
      continue;
    }
    FunctionFacts &FF = factsOf(Def);
    if (FF.Tainted.count(FD))
      return false;
    if (auto It = FF.Assigned.find(FD); It != FF.Assigned.end())
      Whole.insert(Whole.end(), It->second.begin(), It->second.end());
    if (!Sub.empty())
      if (auto It = FF.FieldAssigned.find({FD, Sub.str()}); It != FF.FieldAssigned.end())
        Parts.insert(Parts.end(), It->second.begin(), It->second.end());
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == FD && Init->getInit()) {
          Whole.push_back(Init->getInit());
          Initialised = true;
        }
  }
  if (!Initialised && FD->hasInClassInitializer())
    if (const Expr *I = FD->getInClassInitializer())
      Whole.push_back(I);
  return true;
}

} // namespace cgt::smem
