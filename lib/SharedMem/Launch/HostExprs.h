//===- HostExprs.h - host expressions as the resolver reads them -*- C++ -*-===//
//
// Internal to lib/SharedMem/Launch. How LaunchResolver and its scans see a host
// expression: through parentheses, casts, temporaries and default arguments
// (strip), and as a variable with a path of fields (fieldPath).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_LAUNCH_HOSTEXPRS_H
#define CUDAGRAPH_TIDY_SHAREDMEM_LAUNCH_HOSTEXPRS_H

#include "clang/AST/ExprCXX.h"
#include <string>
#include <utility>

namespace cgt::smem {

/// `v`, `v.f`, `v.f.g` -> (v, "f.g"); anything else -> (nullptr, "").
inline std::pair<const clang::VarDecl *, std::string> fieldPath(const clang::Expr *E) {
  std::string Path;
  E = E->IgnoreParenImpCasts();
  while (const auto *M = clang::dyn_cast<clang::MemberExpr>(E)) {
    if (M->isArrow())
      return {nullptr, ""};
    Path = M->getMemberDecl()->getNameAsString() + (Path.empty() ? "" : "." + Path);
    E = M->getBase()->IgnoreParenImpCasts();
  }
  const auto *D = clang::dyn_cast<clang::DeclRefExpr>(E);
  const auto *V = D ? clang::dyn_cast<clang::VarDecl>(D->getDecl()) : nullptr;
  return {V, Path};
}

/// The expression under parentheses, implicit nodes, casts, temporaries and
/// default arguments.
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
