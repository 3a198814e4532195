//===- SharedIndexOverflowCheck.h -------------------------------*- C++ -*-===//
//
// cudagraph-shared-index-overflow: an index into a __shared__ array (per
// dimension), or into an `extern __shared__` array sized by the launch's
// dynamic shared-memory argument, that leaves the array for a block shape
// the kernel is launched with in this translation unit. The analysis is
// lib/SharedMem; this check only words its findings.
// docs/checks/cudagraph-shared-index-overflow.md
//
// Options
//   ReportPossibleOverflows (false): also report overflows that need an
//     assumed block shape (no launch visible: __launch_bounds__ or the
//     1024-thread hardware limit) or that sit behind an undecided
//     thread-dependent guard.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_SHAREDINDEXOVERFLOWCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_SHAREDINDEXOVERFLOWCHECK_H

#include "SharedMem/SharedMemAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <set>

namespace clang::tidy::cudagraph {

class SharedIndexOverflowCheck : public ClangTidyCheck {
public:
  SharedIndexOverflowCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

private:
  bool ReportPossible;
  std::unique_ptr<cgt::smem::SharedMemAnalyzer> Analyzer;
  ASTContext *AnalyzerCtx = nullptr;
  std::set<std::pair<unsigned, std::string>> Emitted;
};

} // namespace clang::tidy::cudagraph

#endif
