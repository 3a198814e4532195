//===- LifetimeCheckBase.h - shared plumbing of the lifetime checks -*- C++ -*-===//
//
// Every lifetime check runs the same engines (lib/Lifetime, and lib/Streams
// for the order of work across streams) over each function definition and
// keeps the findings that belong to it. This base loads the
// API model (built-in plus the files named by the ApiModelFiles option),
// runs the analysis once per function and hands each finding to the check.
// The analysis is shared: all lifetime checks of a translation unit that
// resolve the same ApiModelFiles and UseHelperSummaries read one set of
// findings per function (a thread_local cache, dropped at the end of the
// translation unit), so enabling several lifetime checks costs one run.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_LIFETIMECHECKBASE_H
#define CUDAGRAPH_TIDY_CHECKERS_LIFETIMECHECKBASE_H

#include "Lifetime/LifetimeAnalysis.h"
#include "OptionParsing.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <set>

namespace clang::tidy::cudagraph {

class LifetimeCheckBase : public ClangTidyCheck {
public:
  LifetimeCheckBase(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

protected:
  /// Called for every finding of the engine; report the ones that belong to
  /// this check.
  virtual void handleFinding(const cgt::LifetimeFinding &F,
                             const cgt::ApiModel &Model) = 0;
  /// Emits the warning with its notes, once per location and message.
  void emit(const cgt::LifetimeFinding &F, StringRef Message,
            std::optional<FixItHint> Fix = std::nullopt);
  /// A driver API function (`cuX`), as opposed to the runtime's (`cudaX`).
  static bool isDriverApi(StringRef Name);
  /// The function among `Names` of the API family of `Of` (driver `cu*` or
  /// runtime), else the first, else `Fallback`.
  static std::string sameApiFamily(const std::vector<std::string> &Names, StringRef Of,
                                   StringRef Fallback);
  /// The release function of the API family that made the resource: the
  /// driver API's for `cu*` acquirers, the runtime's (or libc's) otherwise.
  static std::string familyReleaseFunction(const cgt::ResourceKind &K,
                                        StringRef AcquiredBy);
  /// `created by 'cudaStreamCreate'`, and, for a member followed across the
  /// methods of its owner, `and kept in a member of 'Runner'`.
  static std::string origin(const cgt::LifetimeFinding &F, StringRef Verb = "created by");
  /// What to do about a leak: `Default` ("or hand it to an owner"), or for
  /// a member, where its owner should release it.
  static std::string leakAdvice(const cgt::LifetimeFinding &F, StringRef Default);
  /// `'exec'`, or `the graph exec` when the engine has no variable name.
  static std::string quotedVar(const cgt::LifetimeFinding &F,
                               const cgt::ResourceKind *K);
  /// The translation unit being analysed (valid inside handleFinding).
  ASTContext *astContext() const { return CurrentCtx; }

private:
  /// The model of ModelFiles (ModelFiles.h); reports why it does not load.
  std::shared_ptr<const cgt::ApiModel> loadModel();

  std::string ApiModelFiles;
  bool ProjectSummaries;
  std::string ModelFiles; ///< what the model was loaded from
  bool UseHelperSummaries;
  bool SpeculativeMemberReports;
  bool AnalyzeUninstantiatedTemplates;
  bool ReportLeaksOnThrow;
  bool ReportConstructorThrowLeaks;
  bool RefuteWithSolver;
  /// cudagraph-stream-order or cudagraph-capture-structure is enabled: only
  /// then does the stream engine run.
  bool StreamChecksEnabled;
  std::shared_ptr<const cgt::ApiModel> Model;
  bool ModelFailed = false;
  ASTContext *CurrentCtx = nullptr;
  std::set<std::pair<unsigned, std::string>> Emitted;
};

} // namespace clang::tidy::cudagraph

#endif
