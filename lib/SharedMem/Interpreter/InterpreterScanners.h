//===- InterpreterScanners.h - syntactic pre-passes -*- C++ -*- -------------===//
//
// Internal to lib/SharedMem. Two AST scans the interpreter runs before
// executing code: LoopScanner finds what a loop writes and which counters
// have a loop-invariant step (InterpreterLoops.cpp), EscapeScanner finds
// locals that can change behind the interpreter (address taken, bound to a
// mutable reference, captured by reference): reads of them are unknown.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETERSCANNERS_H
#define CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETERSCANNERS_H

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace cgt::smem::detail {

using namespace clang;

class LoopScanner : public RecursiveASTVisitor<LoopScanner> {
public:
  llvm::DenseMap<const VarDecl *, unsigned> Count;
  llvm::DenseMap<const VarDecl *, std::pair<const Expr *, int>> Step;
  llvm::DenseSet<const VarDecl *> Complex;
  std::vector<const VarDecl *> Order;

  static const VarDecl *varOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  }
  void note(const VarDecl *V, const Expr *StepE, int Sign) {
    if (!V)
      return;
    if (!Count.count(V))
      Order.push_back(V);
    if (++Count[V] > 1 || !StepE)
      Complex.insert(V);
    else
      Step[V] = {StepE, Sign};
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isAssignmentOp())
      return true;
    const VarDecl *V = varOf(B->getLHS());
    if (B->getOpcode() == BO_AddAssign)
      note(V, B->getRHS(), 1);
    else if (B->getOpcode() == BO_SubAssign)
      note(V, B->getRHS(), -1);
    else
      note(V, nullptr, 0);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      note(varOf(U->getSubExpr()), U, U->isIncrementOp() ? 1 : -1);
    else if (U->getOpcode() == UO_AddrOf)
      note(varOf(U->getSubExpr()), nullptr, 0);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      Refs.insert(V);
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) { return Exits = true; }
  bool VisitContinueStmt(ContinueStmt *) { return Continues = true; }
  bool VisitReturnStmt(ReturnStmt *) { return Exits = true; }
  bool VisitGotoStmt(GotoStmt *) { return Exits = true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      if (F->isNoReturn() || F->getName() == "__trap")
        Exits = true;
    return true;
  }
  llvm::DenseSet<const VarDecl *> Refs;
  bool Exits = false;
  bool Continues = false; ///< a continue may skip updates in the body
};

/// Locals whose value can change behind the interpreter's back: their
/// address is taken, a non-const reference binds to them (a local `int &r = v`,
/// an argument for a `T &` parameter of a callee that is not followed, a
/// by-reference lambda capture). Reads of them are unknown.
class EscapeScanner : public RecursiveASTVisitor<EscapeScanner> {
public:
  llvm::DenseSet<const VarDecl *> Vars;

  static const VarDecl *local(const Expr *E) {
    if (!E)
      return nullptr;
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || V->hasGlobalStorage() || V->hasAttr<CUDASharedAttr>())
      return nullptr;
    return V;
  }
  static bool mutableRef(QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }
  void add(const Expr *E) {
    if (const VarDecl *V = local(E))
      Vars.insert(V);
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf)
      add(U->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (mutableRef(D->getType()))
      add(D->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F) {
      for (const Expr *A : C->arguments())
        if (A->isLValue())
          add(A);
      return true;
    }
    // A member operator's first argument is the object, not a parameter.
    unsigned Skip = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F) ? 1 : 0;
    for (unsigned I = Skip; I < C->getNumArgs(); ++I) {
      unsigned P = I - Skip;
      if (P < F->getNumParams() && mutableRef(F->getParamDecl(P)->getType()))
        add(C->getArg(I));
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar()))
          Vars.insert(V);
    return true;
  }
};

} // namespace cgt::smem::detail

#endif
