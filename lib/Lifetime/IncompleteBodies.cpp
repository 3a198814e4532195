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
// What such code did to a resource is unknown. A function whose lost code
// names a variable or member that it hands to a modelled call (acquires
// into, releases, uses: the places that hold its resources) is neither
// analysed nor summarised: its calls are unknown calls, as for a body not
// in the unit. The names are read from the lost code's source text, since
// an invalid declaration keeps no initialiser to walk. Lost code that names
// none of them (a map iteration whose iterator type failed, next to a graph
// the function ends and drops) leaves the function analysed.
//
// The unit itself is reported as not parsing (exit 2), so the skip is never
// silent. Units without errors pay nothing: the walk runs only when the
// unit has one.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

namespace cgt {

namespace {

/// The outermost declarations and expressions clang could not build.
class LostCodeScan : public RecursiveASTVisitor<LostCodeScan> {
public:
  std::vector<SourceRange> Lost;
  bool shouldVisitImplicitCode() const { return true; }
  /// An invalid declaration's own range ends at its name: the statement's
  /// holds the initialiser that was lost.
  bool VisitDeclStmt(DeclStmt *DS) {
    if (llvm::any_of(DS->decls(), [](const Decl *D) { return D->isInvalidDecl(); }))
      Lost.push_back(DS->getSourceRange());
    return true;
  }
  bool VisitDecl(Decl *D) {
    if (D->isInvalidDecl())
      Lost.push_back(D->getSourceRange());
    return true;
  }
  bool TraverseStmt(Stmt *S) {
    if (const auto *E = dyn_cast_or_null<Expr>(S); E && E->containsErrors()) {
      Lost.push_back(E->getSourceRange());
      return true;
    }
    return RecursiveASTVisitor::TraverseStmt(S);
  }
};

/// The names (variables, members) written in the arguments of `S`'s calls
/// to modelled functions.
void namesHandedToModelledCalls(const Stmt *S, LifetimeAnalyzer::Impl &A,
                                llvm::StringSet<> &Out) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionModel *M = Callee ? A.entryFor(Callee, Call->getNumArgs()) : nullptr;
    if (M && (!M->Acquires.empty() || !M->Releases.empty() || !M->Uses.empty())) {
      std::function<void(const Stmt *)> Names = [&](const Stmt *Arg) {
        if (!Arg)
          return;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg); DRE && DRE->getDecl()->getIdentifier())
          Out.insert(DRE->getDecl()->getName());
        if (const auto *ME = dyn_cast<MemberExpr>(Arg); ME && ME->getMemberDecl()->getIdentifier())
          Out.insert(ME->getMemberDecl()->getName());
        for (const Stmt *Child : Arg->children())
          Names(Child);
      };
      for (const Expr *Arg : Call->arguments())
        Names(Arg);
    }
  }
  for (const Stmt *Child : S->children())
    namesHandedToModelledCalls(Child, A, Out);
}

/// Whether the source text of `R` holds one of `Names` as an identifier.
bool namesOneOf(SourceRange R, const llvm::StringSet<> &Names, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(R);
  StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  auto IsIdentChar = [](char C) { return isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  for (size_t I = 0; I < Text.size();) {
    if (!IsIdentChar(Text[I])) {
      ++I;
      continue;
    }
    size_t Start = I;
    while (I < Text.size() && IsIdentChar(Text[I]))
      ++I;
    if (Names.contains(Text.slice(Start, I)))
      return true;
  }
  return false;
}

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
  if (Scan.Lost.empty())
    return It->second = false;
  llvm::StringSet<> Holders;
  namesHandedToModelledCalls(FD->getBody(), *this, Holders);
  return It->second = llvm::any_of(Scan.Lost, [&](SourceRange R) {
           return namesOneOf(R, Holders, Ctx);
         });
}

} // namespace cgt
