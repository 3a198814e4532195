//===- LifetimeCheckBase.cpp ----------------------------------------------===//
#include "LifetimeCheckBase.h"
#include "ModelFiles.h"

#include "AstWalk/WrittenCalls.h"
#include "Streams/StreamOrder.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include <map>
#include <mutex>
#include <tuple>

using namespace clang::ast_matchers;

namespace clang::tidy::cudagraph {

namespace {
/// One analysis of a translation unit under one set of options, shared by
/// every lifetime check that resolves the same options.
struct SharedAnalysis {
  std::shared_ptr<const cgt::ApiModel> Model;
  std::unique_ptr<cgt::LifetimeAnalyzer> Analyzer;
  std::unique_ptr<cgt::streams::StreamOrderAnalyzer> Streams;
  /// Findings per function definition; an empty vector for functions that
  /// are not interesting or have none.
  llvm::DenseMap<const FunctionDecl *, std::vector<cgt::LifetimeFinding>> Findings;
};

using SharedKey = std::tuple<const ASTContext *, std::string, bool, bool, bool, bool, bool, bool>;

/// clang-tidy runs one translation unit on one thread; the driver may run
/// several on several threads, each with its own cache. Entries are dropped
/// by onEndOfTranslationUnit, after every check has seen every function, so
/// a later ASTContext at the same address never finds stale findings.
std::map<SharedKey, SharedAnalysis> &sharedAnalyses() {
  thread_local std::map<SharedKey, SharedAnalysis> Cache;
  return Cache;
}
} // namespace


LifetimeCheckBase::LifetimeCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ApiModelFiles(Options.getLocalOrGlobal("ApiModelFiles", "")),
      ProjectSummaries(parseBool(Options.getLocalOrGlobal("ProjectSummaries", "true"))),
      UseHelperSummaries(parseBool(Options.get("UseHelperSummaries", "true"))),
      SpeculativeMemberReports(
          parseBool(Options.getLocalOrGlobal("SpeculativeMemberReports", "false"))),
      AnalyzeUninstantiatedTemplates(
          parseBool(Options.getLocalOrGlobal("AnalyzeUninstantiatedTemplates", "true"))),
      ReportLeaksOnThrow(parseBool(Options.getLocalOrGlobal("ReportLeaksOnThrow", "true"))),
      ReportConstructorThrowLeaks(
          parseBool(Options.getLocalOrGlobal("ReportConstructorThrowLeaks", "false"))),
      RefuteWithSolver(parseBool(Options.getLocalOrGlobal("RefuteWithSolver", "true"))),
      StreamChecksEnabled(Context->isCheckEnabled("cudagraph-stream-order") ||
                          Context->isCheckEnabled("cudagraph-capture-structure")) {}

void LifetimeCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ApiModelFiles", ApiModelFiles);
  Options.store(Opts, "ProjectSummaries", ProjectSummaries ? "true" : "false");
  Options.store(Opts, "UseHelperSummaries", UseHelperSummaries ? "true" : "false");
  Options.store(Opts, "SpeculativeMemberReports", SpeculativeMemberReports ? "true" : "false");
  Options.store(Opts, "AnalyzeUninstantiatedTemplates",
                AnalyzeUninstantiatedTemplates ? "true" : "false");
  Options.store(Opts, "ReportLeaksOnThrow", ReportLeaksOnThrow ? "true" : "false");
  Options.store(Opts, "ReportConstructorThrowLeaks", ReportConstructorThrowLeaks ? "true" : "false");
  Options.store(Opts, "RefuteWithSolver", RefuteWithSolver ? "true" : "false");
}

std::shared_ptr<const cgt::ApiModel> LifetimeCheckBase::loadModel() {
  std::string Error;
  std::shared_ptr<const cgt::ApiModel> M = loadApiModel(ModelFiles, Error);
  if (!Error.empty())
    configurationDiag("%0", DiagnosticIDs::Error) << Error;
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
  // Dependent bodies too: the analyzer decides which template patterns
  // stand for instantiations the unit does not have (Templates.cpp).
  if (!FD || !FD->hasBody() || ModelFailed)
    return;
  if (!Model) {
    ModelFiles = modelFilesFor(*Result.SourceManager, ApiModelFiles, ProjectSummaries);
    Model = loadModel();
    if (!Model) {
      ModelFailed = true;
      return;
    }
  }
  SharedAnalysis &S =
      sharedAnalyses()[SharedKey(Result.Context, ModelFiles, UseHelperSummaries,
                                SpeculativeMemberReports, AnalyzeUninstantiatedTemplates,
                                ReportLeaksOnThrow, ReportConstructorThrowLeaks,
                                RefuteWithSolver)];
  if (!S.Analyzer) {
    cgt::LifetimeOptions Opts;
    Opts.UseHelperSummaries = UseHelperSummaries;
    Opts.SpeculativeMemberReports = SpeculativeMemberReports;
    Opts.AnalyzeUninstantiatedTemplates = AnalyzeUninstantiatedTemplates;
    Opts.ReportLeaksOnThrow = ReportLeaksOnThrow;
    Opts.ReportConstructorThrowLeaks = ReportConstructorThrowLeaks;
    Opts.RefuteWithSolver = RefuteWithSolver;
    S.Model = Model;
    // Both engines ask of every function what it calls: one walk per body.
    auto Calls = std::make_shared<cgt::WrittenCallsIndex>();
    S.Analyzer = std::make_unique<cgt::LifetimeAnalyzer>(*Model, *Result.Context, Opts, Calls);
    if (StreamChecksEnabled)
      S.Streams =
          std::make_unique<cgt::streams::StreamOrderAnalyzer>(*Model, *Result.Context, Calls);
  }
  auto [It, Fresh] = S.Findings.try_emplace(FD);
  if (Fresh) {
    if (S.Analyzer->isInteresting(FD))
      It->second = S.Analyzer->analyze(FD);
    // The stream-order engine (lib/Streams) reads the same model and feeds
    // stream-order and capture-structure through the same plumbing.
    if (S.Streams)
      for (cgt::LifetimeFinding &F :
           S.Streams->analyze(FD, FD->isDependentContext() && S.Analyzer->analyzable(FD)))
        It->second.push_back(std::move(F));
  }
  CurrentCtx = Result.Context;
  // handleFinding never touches the cache, so It stays valid.
  for (const cgt::LifetimeFinding &F : It->second)
    handleFinding(F, *S.Model);
}

void LifetimeCheckBase::onEndOfTranslationUnit() {
  // Every check has seen every function by now; the first check to get here
  // drops the analyses of this translation unit (all option sets).
  if (CurrentCtx) {
    auto &Cache = sharedAnalyses();
    for (auto It = Cache.begin(); It != Cache.end();)
      It = std::get<0>(It->first) == CurrentCtx ? Cache.erase(It) : std::next(It);
  }
  CurrentCtx = nullptr;
  Emitted.clear();
}

bool LifetimeCheckBase::isDriverApi(StringRef Name) {
  return Name.starts_with("cu") && !Name.starts_with("cuda");
}

std::string LifetimeCheckBase::sameApiFamily(const std::vector<std::string> &Names,
                                             StringRef Of, StringRef Fallback) {
  for (const std::string &N : Names)
    if (isDriverApi(N) == isDriverApi(Of))
      return N;
  return Names.empty() ? Fallback.str() : Names.front();
}

std::string LifetimeCheckBase::familyReleaseFunction(const cgt::ResourceKind &K,
                                                  StringRef AcquiredBy) {
  return sameApiFamily(K.ReleasedBy, AcquiredBy, "its release function");
}

std::string LifetimeCheckBase::origin(const cgt::LifetimeFinding &F, StringRef Verb) {
  std::string Out = Verb.str() + " '" + F.AcquiredBy + "'";
  if (!F.Owner.empty())
    Out += " and kept in a member of '" + F.Owner + "'";
  return Out;
}

std::string LifetimeCheckBase::leakAdvice(const cgt::LifetimeFinding &F, StringRef Default) {
  if (F.Owner.empty())
    return Default.str();
  return " in every path of the destructor (or a reset method) of '" + F.Owner + "'";
}

std::string LifetimeCheckBase::quotedVar(const cgt::LifetimeFinding &F,
                                         const cgt::ResourceKind *K) {
  if (!F.VarName.empty())
    return "'" + F.VarName + "'";
  return "the " + (K ? K->Noun : std::string("resource"));
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
