//===- BranchNotes.cpp - the note that says which way a path took ---------===//
//
// See BranchNotes.h.
//
//===----------------------------------------------------------------------===//
#include "Report/BranchNotes.h"

#include "clang/Lex/Lexer.h"

namespace cgt {

using namespace clang;

namespace {

/// The first variable the compiler declared for a range-based for
/// (`__range1`, `__begin1`) that E names.
const VarDecl *implicitVariableIn(const Stmt *E) {
  if (!E)
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->isImplicit())
      return VD;
  for (const Stmt *Child : E->children())
    if (const VarDecl *VD = implicitVariableIn(Child))
      return VD;
  return nullptr;
}

/// `__begin1 != __end1`: the range the loop walks (`__range1`'s
/// initialiser, as the user wrote it), or null for any other condition.
const Expr *rangeWalkedBy(const Expr *Cond) {
  const VarDecl *Cursor = implicitVariableIn(Cond);
  const VarDecl *Range = Cursor ? implicitVariableIn(Cursor->getInit()) : nullptr;
  if (!Range || Range == Cursor || !Range->getInit())
    return nullptr;
  return Range->getInit()->IgnoreImplicit();
}

} // namespace

std::string shortSourceText(const Expr *E, const ASTContext &Ctx) {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  StringRef T = Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (T.empty() || T.size() > 64 || T.contains('\n'))
    return "";
  return T.str();
}

std::string branchAssumption(const Expr *Cond, bool Taken, const ASTContext &Ctx) {
  if (const Expr *Range = rangeWalkedBy(Cond)) {
    std::string T = shortSourceText(Range, Ctx);
    if (T.empty())
      return "";
    return "assuming '" + T + "' has " + (Taken ? "another element" : "no more elements");
  }
  std::string T = shortSourceText(Cond, Ctx);
  if (T.empty())
    return "";
  return "assuming '" + T + "' is " + (Taken ? "true" : "false");
}

} // namespace cgt
