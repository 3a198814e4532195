//===- SharedMemCheckBase.h - shared plumbing of the kernel checks -*- C++ -*-===//
//
// Both shared-memory checks run lib/SharedMem over every __global__ function
// of the translation unit and word what it finds. This base matches the
// kernels, keeps one analyser per translation unit and emits each finding
// once; the checks only choose what to analyse and how to say it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_SHAREDMEMCHECKBASE_H
#define CUDAGRAPH_TIDY_CHECKERS_SHAREDMEMCHECKBASE_H

#include "OptionParsing.h"
#include "SharedMem/SharedMemAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <set>

namespace clang::tidy::cudagraph {

class SharedMemCheckBase : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

protected:
  /// Analyses one kernel and reports what belongs to the check.
  virtual void checkKernel(const FunctionDecl *Kernel,
                           cgt::smem::SharedMemAnalyzer &Analyzer) = 0;
  /// Called at the end of each translation unit.
  virtual void resetTranslationUnit() {}
  /// False when the same finding was reported already (template instances).
  bool firstTime(SourceLocation Loc, const std::string &Message);
  /// The note naming the block shape a finding assumed.
  void noteBlockShape(const FunctionDecl *Kernel, const cgt::smem::LaunchConfig &Config,
                      std::string Note);

private:
  std::unique_ptr<cgt::smem::SharedMemAnalyzer> Analyzer;
  ASTContext *AnalyzerCtx = nullptr;
  std::set<std::pair<unsigned, std::string>> Emitted;
};

} // namespace clang::tidy::cudagraph

#endif
