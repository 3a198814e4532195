//===- HostExprs.h - host expressions as the resolver reads them -*- C++ -*-===//
//
// Internal to lib/SharedMem/Launch. How LaunchResolver and its scans see a host
// expression: through parentheses, casts, temporaries, default arguments
// and in-class initialisers (strip), and as a variable with a path of fields
// (fieldPath; a member of `this` stands for a variable, so that what a class's
// methods write to it is followed like a local).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_LAUNCH_HOSTEXPRS_H
#define CUDAGRAPH_TIDY_SHAREDMEM_LAUNCH_HOSTEXPRS_H

#include "clang/AST/ExprCXX.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cgt::smem {

/// The expressions the return statements of `F`'s definition give back
/// (none without a body here); lambdas in it are not its returns.
std::vector<const clang::Expr *> returnedValues(const clang::FunctionDecl *F);

/// The element an integer-literal subscript names (`cfg.blockSize[1]`), or
/// nullptr with `Index` unset.
inline const clang::Expr *literalSubscript(const clang::Expr *E, uint64_t &Index) {
  const auto *A = clang::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!A)
    return nullptr;
  const auto *L = clang::dyn_cast<clang::IntegerLiteral>(A->getIdx()->IgnoreParenImpCasts());
  if (!L)
    return nullptr;
  Index = L->getValue().getZExtValue();
  return A->getBase();
}

/// The member `this->f` names (implicitly or not), or nullptr.
inline const clang::FieldDecl *thisMember(const clang::Expr *E) {
  const auto *M = clang::dyn_cast<clang::MemberExpr>(E->IgnoreParenImpCasts());
  if (!M || !clang::isa<clang::CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return clang::dyn_cast<clang::FieldDecl>(M->getMemberDecl());
}

/// `v`, `v.f`, `v.f.g`, `v.f[2]` -> (v, "f.g" / "f[2]"); `this->m.f` -> (m,
/// "f"), the member standing for the variable; anything else -> (nullptr, "").
/// Launch configurations keep block sizes in arrays of a struct
/// (`config.blockSize[0] = 64`), so a literal subscript of a field is a field
/// of its own.
inline std::pair<const clang::ValueDecl *, std::string> fieldPath(const clang::Expr *E) {
  std::string Path;
  E = E->IgnoreParenImpCasts();
  auto prepend = [&Path](const std::string &Step) {
    Path = Step + (Path.empty() || Path[0] == '[' ? "" : ".") + Path;
  };
  while (true) {
    uint64_t Index = 0;
    if (const clang::Expr *Base = literalSubscript(E, Index)) {
      const auto *M = clang::dyn_cast<clang::MemberExpr>(Base->IgnoreParenImpCasts());
      if (!M)
        return {nullptr, ""};
      prepend("[" + std::to_string(Index) + "]");
      E = M;
    }
    if (const clang::FieldDecl *F = thisMember(E))
      return {F, Path};
    const auto *M = clang::dyn_cast<clang::MemberExpr>(E);
    if (!M)
      break;
    if (M->isArrow())
      return {nullptr, ""};
    prepend(M->getMemberDecl()->getNameAsString());
    E = M->getBase()->IgnoreParenImpCasts();
  }
  const auto *D = clang::dyn_cast<clang::DeclRefExpr>(E);
  const auto *V = D ? clang::dyn_cast<clang::VarDecl>(D->getDecl()) : nullptr;
  return {V, Path};
}

/// The local (or member of `this`) a written lvalue belongs to, through
/// fields and subscripts of any kind (`cfg.blockSize[d]` -> cfg): what a
/// write the folds cannot name taints.
inline const clang::ValueDecl *rootDecl(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const clang::FieldDecl *F = thisMember(E))
      return F;
    if (const auto *M = clang::dyn_cast<clang::MemberExpr>(E)) {
      if (M->isArrow())
        return nullptr;
      E = M->getBase();
    } else if (const auto *A = clang::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      E = A->getBase();
    } else {
      const auto *D = clang::dyn_cast<clang::DeclRefExpr>(E);
      return D ? clang::dyn_cast<clang::VarDecl>(D->getDecl()) : nullptr;
    }
  }
}

/// The expression under parentheses, implicit nodes, casts, temporaries,
/// default arguments and in-class initialisers.
inline const clang::Expr *strip(const clang::Expr *E) {
  while (true) {
    const clang::Expr *N = E->IgnoreParens()->IgnoreImplicit();
    if (const auto *M = clang::dyn_cast<clang::MaterializeTemporaryExpr>(N))
      N = M->getSubExpr();
    else if (const auto *F = clang::dyn_cast<clang::CXXFunctionalCastExpr>(N))
      N = F->getSubExpr();
    else if (const auto *C = clang::dyn_cast<clang::ExplicitCastExpr>(N))
      N = C->getSubExpr();
    else if (const auto *D = clang::dyn_cast<clang::CXXDefaultArgExpr>(N))
      N = D->getExpr();
    else if (const auto *DI = clang::dyn_cast<clang::CXXDefaultInitExpr>(N))
      N = DI->getExpr();
    else if (const auto *B = clang::dyn_cast<clang::CXXBindTemporaryExpr>(N))
      N = B->getSubExpr();
    else if (const auto *EW = clang::dyn_cast<clang::ExprWithCleanups>(N))
      N = EW->getSubExpr();
    if (N == E)
      return E;
    E = N;
  }
}

} // namespace cgt::smem

#endif
