//===- SharedBankConflictCheck.cpp ----------------------------------------===//
#include "SharedBankConflictCheck.h"

namespace clang::tidy::cudagraph {

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : SharedMemCheckBase(Name, Context),
      MinDegreeInLoop(parseUnsigned(Options.get("MinDegreeInLoop", "2"), 2)),
      MinDegree(parseUnsigned(Options.get("MinDegree", "4"), 4)),
      PaddingFixIts(parseBool(Options.get("PaddingFixIts", "true"))) {}

void SharedBankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinDegreeInLoop", std::to_string(MinDegreeInLoop));
  Options.store(Opts, "MinDegree", std::to_string(MinDegree));
  Options.store(Opts, "PaddingFixIts", PaddingFixIts ? "true" : "false");
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

void SharedBankConflictCheck::checkKernel(const FunctionDecl *K,
                                          cgt::smem::SharedMemAnalyzer &Analyzer) {
  cgt::smem::AnalysisOptions Opts;
  Opts.Overflow = false;
  Opts.PaddingFixes = PaddingFixIts;
  cgt::smem::KernelReport Rep = Analyzer.analyze(K, Opts);
  for (const cgt::smem::BankFinding &F : Rep.Conflicts) {
    unsigned Min = F.InLoop ? std::min(MinDegreeInLoop, MinDegree) : MinDegree;
    if (F.Cost.Degree < Min)
      continue;
    std::string Msg = bankMessage(F);
    SourceLocation Loc = F.Access->getExprLoc();
    if (!firstTime(Loc, Msg))
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
    noteBlockShape(K, F.Config, Note);
  }
}

} // namespace clang::tidy::cudagraph
