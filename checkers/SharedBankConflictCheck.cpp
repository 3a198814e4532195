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
  SharedMemCheckBase::storeOptions(Opts);
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

cgt::smem::KernelReport
SharedBankConflictCheck::checkKernel(const FunctionDecl *K,
                                     cgt::smem::SharedMemAnalyzer &Analyzer) {
  cgt::smem::AnalysisOptions Opts;
  Opts.Overflow = false;
  Opts.PaddingFixes = PaddingFixIts;
  cgt::smem::KernelReport Rep = Analyzer.analyze(K, Opts);
  bool Instance = K->isTemplateInstantiation();
  for (const cgt::smem::BankFinding &F : Rep.Conflicts) {
    unsigned Min = F.InLoop ? std::min(MinDegreeInLoop, MinDegree) : MinDegree;
    if (F.Cost.Degree < Min)
      continue;
    Finding Out;
    Out.Loc = F.Access->getExprLoc();
    Out.Range = F.Access->getSourceRange();
    Out.Message = bankMessage(F);
    Out.Severity = int64_t(F.Cost.excess()) * 64 + F.Cost.Degree;
    if (F.Fix) {
      Out.Fix = FixItHint::CreateReplacement(
          CharSourceRange::getCharRange(F.Fix->SizeExpr), F.Fix->Replacement);
      Out.FixKey = F.Fix->SizeExpr.getBegin();
    }
    std::string Note = (Instance ? "in " + kernelName(K) + ", " : "") +
                       "assuming " + F.Config.describe() + " (warp " +
                       std::to_string(F.Warp) + ")";
    Out.Notes.push_back(blockShapeNote(K, F.Config, Note));
    Out.Variant = Instance ? std::to_string(F.Cost.Degree) + "-way in " + kernelName(K)
                           : "";
    Out.OtherShapes = F.Others;
    submit(std::move(Out));
  }
  return Rep;
}

} // namespace clang::tidy::cudagraph
