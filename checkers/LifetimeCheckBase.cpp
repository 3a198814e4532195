//===- LifetimeCheckBase.cpp ----------------------------------------------===//
#include "LifetimeCheckBase.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <mutex>

using namespace clang::ast_matchers;

namespace clang::tidy::cudagraph {


LifetimeCheckBase::LifetimeCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ApiModelFiles(Options.getLocalOrGlobal("ApiModelFiles", "")),
      UseHelperSummaries(parseBool(Options.get("UseHelperSummaries", "true"))) {}

void LifetimeCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ApiModelFiles", ApiModelFiles);
  Options.store(Opts, "UseHelperSummaries", UseHelperSummaries ? "true" : "false");
}

/// Models are shared between checks and translation units: parsing the same
/// files again for every check would be wasted work.
std::shared_ptr<const cgt::ApiModel> LifetimeCheckBase::loadModel() {
  static std::mutex Mu;
  static std::map<std::string, std::shared_ptr<const cgt::ApiModel>> Cache;
  std::lock_guard<std::mutex> Lock(Mu);
  auto It = Cache.find(ApiModelFiles);
  if (It != Cache.end())
    return It->second;
  auto Builtin = cgt::ApiModel::builtin();
  if (!Builtin) {
    configurationDiag("cannot load the built-in CUDA API model: %0",
                      DiagnosticIDs::Error)
        << llvm::toString(Builtin.takeError());
    return nullptr;
  }
  std::shared_ptr<cgt::ApiModel> M = std::move(*Builtin);
  SmallVector<StringRef, 4> Files;
  StringRef(ApiModelFiles).split(Files, ';', -1, /*KeepEmpty=*/false);
  for (StringRef File : Files) {
    if (auto E = M->addFile(File.trim())) {
      configurationDiag("invalid API model file (ApiModelFiles=%0): %1",
                        DiagnosticIDs::Error)
          << ApiModelFiles << llvm::toString(std::move(E));
      return nullptr;
    }
  }
  Cache[ApiModelFiles] = M;
  return M;
}

void LifetimeCheckBase::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("fn"),
      this);
}

void LifetimeCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || !FD->hasBody() || FD->isDependentContext() || ModelFailed)
    return;
  if (!Model) {
    Model = loadModel();
    if (!Model) {
      ModelFailed = true;
      return;
    }
  }
  if (!Analyzer || AnalyzerCtx != Result.Context) {
    cgt::LifetimeOptions Opts;
    Opts.UseHelperSummaries = UseHelperSummaries;
    Analyzer = std::make_unique<cgt::LifetimeAnalyzer>(*Model, *Result.Context, Opts);
    AnalyzerCtx = Result.Context;
  }
  if (!Analyzer->isInteresting(FD))
    return;
  for (const cgt::LifetimeFinding &F : Analyzer->analyze(FD))
    handleFinding(F, *Model);
}

void LifetimeCheckBase::onEndOfTranslationUnit() {
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  Emitted.clear();
}

void LifetimeCheckBase::emit(const cgt::LifetimeFinding &F, StringRef Message,
                             std::optional<FixItHint> Fix) {
  // Template instantiations and repeated visits can produce the same finding.
  if (!Emitted.insert({F.Loc.getRawEncoding(), Message.str()}).second)
    return;
  // Messages quote source text (`i % 2`): never let it be a format string.
  {
    auto D = diag(F.Loc, "%0") << Message << F.Range;
    if (Fix)
      D << *Fix;
  }
  for (const cgt::PathNote &N : F.Notes)
    diag(N.Loc, "%0", DiagnosticIDs::Note) << N.Message;
}

} // namespace clang::tidy::cudagraph
