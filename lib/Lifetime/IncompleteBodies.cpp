//===- IncompleteBodies.cpp - bodies clang could not build whole ----------===//
//
// In a translation unit with compiler errors, clang keeps going and hands
// the checks what it could build. What it could not build is gone from the
// AST, not marked as unknown:
//
//   * a declaration whose type or initialiser failed is an invalid VarDecl
//     with no initialiser at all: `std::unique_ptr<void, Deleter> g(p);`
//     loses `p`, so the hand-over to the guard disappears;
//   * after a fatal error (a missing header) clang instantiates no template
//     it had not instantiated yet, so every such declaration fails that way
//     (TransformerEngine's userbuffers-host.cpp without nvml.h: a pinned
//     buffer "leaked" on a throw its RAII guard covers);
//   * an expression that failed is a RecoveryExpr, or contains errors.
//
// A function whose body holds any of these is neither analysed nor
// summarised (its calls are unknown calls, as for a body not in the unit):
// a dataflow over what is left would report what the lost code does. The
// unit itself is already reported as not parsing (exit 2), so the skip is
// never silent. Units without errors pay nothing: the walk runs only when
// the unit has one.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace cgt {

namespace {

/// Finds the first declaration or expression clang could not build.
class LostCodeScan : public RecursiveASTVisitor<LostCodeScan> {
public:
  bool Found = false;
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDecl(Decl *D) {
    Found |= D->isInvalidDecl();
    return !Found;
  }
  bool VisitExpr(Expr *E) {
    Found |= E->containsErrors();
    return !Found;
  }
};

} // namespace

bool LifetimeAnalyzer::Impl::bodyIsIncomplete(const FunctionDecl *FD) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  auto [It, New] = Incomplete.try_emplace(FD, false);
  if (!New)
    return It->second;
  if (FD->isInvalidDecl())
    return It->second = true;
  LostCodeScan Scan;
  Scan.TraverseStmt(FD->getBody());
  return It->second = Scan.Found;
}

} // namespace cgt
