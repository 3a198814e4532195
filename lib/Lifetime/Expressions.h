//===- Expressions.h - shapes of expressions the engine reads ---*- C++ -*-===//
//
// Private to lib/Lifetime: small questions about expressions and CFG
// elements that the transfer functions, the scans and the ownership index
// all ask (what a cast or `std::move` passes through, whether a key names a
// member, whether a variable is a plain local aggregate, which call a CFG
// element evaluates).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_EXPRESSIONS_H
#define CUDAGRAPH_TIDY_LIFETIME_EXPRESSIONS_H

#include "Lifetime/Paths/PathState.h"
#include "Report/BranchNotes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"

namespace cgt {
// The files of lib/Lifetime name clang's AST unqualified.
using namespace clang;

namespace lifetime {

/// `std::move(e)`, `std::forward<T>(e)`: a cast, the value passes through.
inline bool isStdMoveOrForward(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getNumArgs() == 1 ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() || !Callee->isInStdNamespace())
    return false;
  StringRef N = Callee->getName();
  return N == "move" || N == "forward";
}

inline const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreParenCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(N))
      N = EWC->getSubExpr();
    else if (const auto *Call = dyn_cast<CallExpr>(N); Call && isStdMoveOrForward(Call))
      N = Call->getArg(0);
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(N))
      N = MT->getSubExpr();
    else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(N))
      N = BT->getSubExpr();
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

/// Whether what `E` computes depends on a template's arguments. In a class
/// template every member read is `this->m`, and `this` has the dependent
/// type of the current instantiation, so Clang marks `exec_ != nullptr`
/// value-dependent though it reads the same member in every
/// instantiation: that alone is not a dependence. A template parameter,
/// `sizeof(T)`, a member of a dependent base or of dependent type is one.
inline bool dependsOnTemplateArguments(const Expr *E) {
  if (!E->isValueDependent() && !E->isTypeDependent())
    return false;
  if (isa<CXXThisExpr>(E))
    return false;
  if (E->isTypeDependent())
    return true;
  bool ThroughChild = false;
  for (const Stmt *Child : E->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (!CE)
      return true;
    if (!CE->isValueDependent() && !CE->isTypeDependent())
      continue;
    if (dependsOnTemplateArguments(CE))
      return true;
    ThroughChild = true;
  }
  // A dependent leaf (a non-type parameter, `sizeof(T)`) is the template's.
  return !ThroughChild;
}

/// A member of `this`, or of the struct a pointer parameter or a fixed
/// local pointer (`Slot* sl = &slots[i];`, LocalPointers.cpp) points to
/// (`ctx->stream`, `sl->ev`): owned by an object that outlives the call, so
/// it never leaks when the function returns.
inline bool isField(Key K) {
  return K && (isa<FieldDecl>(K->Decl) ||
               (K->Member && isa<VarDecl>(K->Decl) &&
                (K->Decl->getType()->isPointerType() || K->Decl->getType()->isReferenceType())));
}

/// A local whose members can be followed one by one: a plain struct that no
/// destructor looks after.
inline bool isPlainLocalAggregate(const VarDecl *VD) {
  if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return false;
  const auto *RD = VD->getType()->getAsCXXRecordDecl();
  if (RD)
    return RD->hasDefinition() && RD->hasTrivialDestructor();
  return VD->getType()->isRecordType();
}

/// What no constant evaluation can fold: a variable that is neither const
/// nor constexpr, or a call of a function that is neither constexpr nor a
/// builtin (`cudaMalloc(...)` compared or stored on every line).
inline bool isNeverConstant(const Expr *E) {
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && !Callee->isConstexpr() && !Callee->getBuiltinID();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && !VD->isConstexpr() && !VD->getType().isConstQualified() &&
         !VD->getType()->isReferenceType();
}

/// A variable nothing can write through: `const Opts o`, `const Opts &o`
/// (a class with mutable members aside), as CSA reads const.
inline bool isReadOnlyObject(const ValueDecl *D) {
  QualType T = D->getType();
  if (T->isReferenceType())
    T = T->getPointeeType();
  if (!T.isConstQualified())
    return false;
  const auto *RD = T->getAsCXXRecordDecl();
  return !RD || !RD->hasDefinition() || !RD->hasMutableFields();
}

/// The call a CFG element evaluates, if it is one.
const CallExpr *callOfElement(const CFGElement &E);
/// The last call of a block (the noreturn call that ends it).
const Stmt *lastCall(const CFGBlock *B);

inline const CallExpr *asBuiltinExpect(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (CE && CE->getBuiltinCallee() == Builtin::BI__builtin_expect && CE->getNumArgs() >= 1)
    return CE;
  return nullptr;
}

} // namespace lifetime
} // namespace cgt

#endif
