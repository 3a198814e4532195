//===- SharedBankConflictCheck.cpp ----------------------------------------===//
#include "SharedBankConflictCheck.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cudagraph {

static bool optionTrue(StringRef V) {
  return V.equals_insensitive("true") || V == "1" || V.equals_insensitive("on") ||
         V.equals_insensitive("yes");
}

static unsigned optionUnsigned(StringRef V, unsigned Default) {
  unsigned R;
  return V.trim().getAsInteger(10, R) ? Default : R;
}

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      MinDegreeInLoop(optionUnsigned(Options.get("MinDegreeInLoop", "2"), 2)),
      MinDegree(optionUnsigned(Options.get("MinDegree", "4"), 4)),
      PaddingFixIts(optionTrue(Options.get("PaddingFixIts", "true"))) {}

void SharedBankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinDegreeInLoop", std::to_string(MinDegreeInLoop));
  Options.store(Opts, "MinDegree", std::to_string(MinDegree));
  Options.store(Opts, "PaddingFixIts", PaddingFixIts ? "true" : "false");
}

void SharedBankConflictCheck::registerMatchers(MatchFinder *Finder) {
  // Kernel bodies are in the host-side AST too (clang parses them in the
  // --cuda-host-only pass); code under #ifdef __CUDA_ARCH__ is not.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void SharedBankConflictCheck::onEndOfTranslationUnit() {
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  Emitted.clear();
  FixedArrays.clear();
}

static std::string bankMessage(const cgt::smem::BankFinding &F) {
  const char *Kind = F.IsLoad && F.IsStore ? "load and store"
                     : F.IsStore           ? "store"
                                           : "load";
  std::string M = std::to_string(F.Cost.Degree) + "-way bank conflict on " +
                  std::to_string(F.AccessBytes) + "-byte __shared__ " + Kind +
                  " of '" + F.Array->getNameAsString() + "': " +
                  std::to_string(F.Cost.Wavefronts) +
                  " wavefronts per warp instead of " +
                  std::to_string(F.Cost.Ideal) + " (" +
                  std::to_string(F.Cost.excess()) + " excess)";
  if (F.Fix)
    M += "; padding the last dimension to " + std::to_string(F.Fix->NewCols) +
         " elements removes it";
  return M;
}

void SharedBankConflictCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!K || !K->hasBody() || K->isDependentContext())
    return;
  if (!Analyzer || AnalyzerCtx != Result.Context) {
    Analyzer = std::make_unique<cgt::smem::SharedMemAnalyzer>(*Result.Context);
    AnalyzerCtx = Result.Context;
  }
  cgt::smem::AnalysisOptions Opts;
  Opts.Overflow = false;
  Opts.PaddingFixes = PaddingFixIts;
  cgt::smem::KernelReport Rep = Analyzer->analyze(K, Opts);
  for (const cgt::smem::BankFinding &F : Rep.Conflicts) {
    unsigned Min = F.InLoop ? std::min(MinDegreeInLoop, MinDegree) : MinDegree;
    if (F.Cost.Degree < Min)
      continue;
    std::string Msg = bankMessage(F);
    SourceLocation Loc = F.Access->getExprLoc();
    if (!Emitted.insert({Loc.getRawEncoding(), Msg}).second)
      continue;
    {
      auto D = diag(Loc, "%0") << Msg << F.Access->getSourceRange();
      // One fix per array, however many accesses it cures.
      if (F.Fix && FixedArrays.insert(F.Array).second)
        D << FixItHint::CreateReplacement(
            CharSourceRange::getCharRange(F.Fix->SizeExpr), F.Fix->Replacement);
    }
    std::string Note = "assuming " + F.Config.describe() + " (warp " +
                       std::to_string(F.Warp) + ")";
    if (F.Config.Origin != cgt::smem::ShapeOrigin::Launch)
      Note += "; no launch of '" + K->getNameAsString() +
              "' with a constant block size is visible in this file";
    diag(F.Config.Loc, "%0", DiagnosticIDs::Note) << Note;
  }
}

} // namespace clang::tidy::cudagraph
