//===- CheckedExport.cpp - a unit's summaries from its checks' parse ------===//
//
// The export's consumer runs after the checks' (a MultiplexConsumer in
// PreambleCache.cpp) and reads the AST only in HandleTranslationUnit,
// where the counts are kept. runClangTidyWithPreamble may parse twice (a
// preamble that gave errors is retried without): each parse makes a new
// consumer, and the export starts afresh.
//
//===----------------------------------------------------------------------===//
#include "summaries/CheckedExport.h"
#include "caches/ExportCache.h"
#include "summaries/ExportWorker.h"
#include "isolation/Isolation.h"

#include "clang/AST/ASTConsumer.h"

namespace cgt {
namespace {

/// The export's reading of the AST, not counted as the checks' work.
class UncountedConsumer : public clang::ASTConsumer {
public:
  explicit UncountedConsumer(std::unique_ptr<clang::ASTConsumer> Inner)
      : Inner(std::move(Inner)) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    KeepLifetimeStats Keep;
    Inner->HandleTranslationUnit(Ctx);
  }

private:
  std::unique_ptr<clang::ASTConsumer> Inner;
};

/// What exportUnit says of a unit that does not parse: no definitions,
/// and the checks' words for why.
void finish(UnitExport &Out, const UnitResult &R) {
  Out.Dependencies = R.Dependencies;
  Out.AbsentFiles = R.AbsentFiles;
  if (R.Status.Analyzed)
    return;
  Out.Parsed = false;
  Out.Definitions.clear();
  Out.Problem = R.Status.Problem;
}

} // namespace

UnitResult analyzeWithSummaries(const UnitTask &Task) {
  const SummaryRequest &S = Task.Summaries;
  ExportModels Models;
  std::string Error;
  if (!loadExportModels(S.ModelFiles, S.EntriesPath, Models, Error))
    return analyzeUnit(Task);
  FileNamer Names(S.Root);
  UnitExport Out;
  ExtraConsumerFactory Export = [&]() -> std::unique_ptr<clang::ASTConsumer> {
    Out = UnitExport();
    return std::make_unique<UncountedConsumer>(
        newExportConsumer(*Models.Model, *Models.Base, Names, Out));
  };
  double Start = threadCpuSeconds();
  UnitResult R = analyzeUnit(Task, Export);
  finish(Out, R);
  Out.Seconds = threadCpuSeconds() - Start;
  R.Summaries = unitExportToJson(Out);
  return R;
}

UnitExport summariesOf(const UnitResult &Result, const ApiModel &Base) {
  UnitExport Out;
  if (Result.Summaries.empty() || !unitExportFromJson(Result.Summaries, Base, Out)) {
    Out = UnitExport();
    Out.Parsed = false;
    Out.Problem = Result.Summaries.empty()
                      ? "the summary analysis: " + Result.Status.Problem
                      : "the summary worker's result is unreadable";
  }
  return Out;
}

} // namespace cgt
