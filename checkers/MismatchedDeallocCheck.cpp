//===- MismatchedDeallocCheck.cpp -----------------------------------------===//
//
// Words the engine's MismatchedRelease findings: the resource, who allocated
// it and the release function of its family. The fix-it renames the callee
// only when exactly one right release function of that family has the same
// parameter types as the wrong one, so that the call stays as written.
//
//===----------------------------------------------------------------------===//
#include "MismatchedDeallocCheck.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cudagraph {

/// The one host function declared at file scope under `Name`, or null.
/// CUDA headers also declare `__device__` twins (cudaFree, cudaMalloc) for
/// the device runtime; host code cannot call them.
static const FunctionDecl *uniqueFunction(ASTContext &Ctx, StringRef Name) {
  const FunctionDecl *Found = nullptr;
  for (const NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name))) {
    // `using std::free;` of <stdlib.h> names the same function again.
    if (isa<UsingDecl>(D))
      continue;
    const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (!FD)
      return nullptr;
    if (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>())
      continue;
    if (Found && Found->getCanonicalDecl() != FD->getCanonicalDecl())
      return nullptr; // overloaded: the same arguments may pick another one
    Found = FD;
  }
  return Found;
}

static bool sameParameters(const FunctionDecl *A, const FunctionDecl *B) {
  if (A->getNumParams() != B->getNumParams() || A->isVariadic() != B->isVariadic())
    return false;
  for (unsigned I = 0; I < A->getNumParams(); ++I)
    if (!A->getASTContext().hasSameType(A->getParamDecl(I)->getType(),
                                        B->getParamDecl(I)->getType()))
      return false;
  return true;
}

void MismatchedDeallocCheck::handleFinding(const cgt::LifetimeFinding &F,
                                           const cgt::ApiModel &Model) {
  if (F.Kind != cgt::FindingKind::MismatchedRelease)
    return;
  const cgt::ResourceKind *Kind = Model.kind(F.ResourceKind);
  if (!Kind)
    return;
  std::string Named = F.VarName.empty() ? "" : "'" + F.VarName + "' ";
  std::string Called = F.CalledFunction.empty() ? "the wrong function"
                                                : "'" + F.CalledFunction + "'";
  if (F.Borrowed) { // lent by a getter: no release is right
    emit(F, Kind->Noun + " " + Named + "is released by " + Called + ", but '" + F.AcquiredBy +
                "' only lends it; the caller does not own it and must not release it");
    return;
  }
  std::string Right = familyReleaseFunction(*Kind, F.AcquiredBy);

  // A fix-it only when the callee token is the wrong function's name and
  // exactly one release function of the acquirer's family takes the same
  // parameters.
  std::optional<FixItHint> Fix;
  ASTContext *Ctx = astContext();
  if (Ctx && !F.CalledFunction.empty()) {
    const SourceManager &SM = Ctx->getSourceManager();
    StringRef Token = Lexer::getSourceText(CharSourceRange::getTokenRange(F.Loc), SM,
                                           Ctx->getLangOpts());
    const FunctionDecl *Wrong = uniqueFunction(*Ctx, F.CalledFunction);
    std::string Only;
    unsigned Matches = 0;
    for (const std::string &R : Kind->ReleasedBy) {
      if (isDriverApi(R) != isDriverApi(F.AcquiredBy))
        continue;
      const FunctionDecl *Candidate = uniqueFunction(*Ctx, R);
      if (Wrong && Candidate && sameParameters(Wrong, Candidate)) {
        Only = R;
        ++Matches;
      }
    }
    if (Token == F.CalledFunction && Matches == 1) {
      Right = Only;
      Fix = FixItHint::CreateReplacement(CharSourceRange::getTokenRange(F.Loc), Only);
    }
  }
  std::string Origin = F.AcquiredBy.empty() ? "" : "allocated by '" + F.AcquiredBy + "' ";
  emit(F, Kind->Noun + " " + Named + Origin + "is released by " + Called + "; release it with " +
              Right,
       Fix);
}

} // namespace clang::tidy::cudagraph
