//===- SharedMemCheckBase.h - shared plumbing of the kernel checks -*- C++ -*-===//
//
// Both shared-memory checks run lib/SharedMem over every __global__ function
// of the translation unit and word what it finds. This base matches the
// kernels, keeps one analyser per translation unit, and reports each source
// access once: the instantiations of a kernel template and the launch shapes
// of a kernel each give a finding for the same access, of which the worst is
// reported, with a note naming the others. It also counts, per translation
// unit, the kernels with __shared__ accesses and those the analysis has no
// verdict for (cgt::smem::unitCoverage, printed by `cudagraph-tidy --stats`).
// The checks of one unit share one analyser (per BlockShapes value and
// model files).
//
// A kernel launched in another file of the project gets that launch's
// block shape from the project's summaries (the API model's
// "kernelLaunches", lib/SharedMem/CrossFileLaunches.h), read from the same
// files as the lifetime checks' model (ModelFiles.h). So are the data the
// host folds read: the constant fields of API structs (`prop.warpSize`) and
// the return values of functions defined in other files, from which a block
// size may be computed (lib/SharedMem/Launch/CallResults.cpp).
//
// Options (both checks)
//   BlockShapes (''): block shapes of kernels launched in other files,
//     `'kernel=32x8;other=256,128x2'` (names plain or qualified).
//   ApiModelFiles, ProjectSummaries (global, as for the lifetime checks):
//     where the launches in other files, the constant fields and the return
//     values are read from.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_SHAREDMEMCHECKBASE_H
#define CUDAGRAPH_TIDY_CHECKERS_SHAREDMEMCHECKBASE_H

#include "OptionParsing.h"
#include "ApiModel/ApiModel.h"
#include "SharedMem/SharedMemAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <map>
#include <memory>
#include <set>

namespace clang::tidy::cudagraph {

class SharedMemCheckBase : public ClangTidyCheck {
public:
  SharedMemCheckBase(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// One finding of a check at one access, under one kernel instantiation
  /// and launch shape. Severity ranks findings of the same access.
  struct Finding {
    SourceLocation Loc;
    SourceRange Range;
    std::string Message;
    int64_t Severity = 0;
    std::optional<FixItHint> Fix;
    SourceLocation FixKey; ///< one fix per declaration
    std::vector<std::pair<SourceLocation, std::string>> Notes;
    /// How this finding differs from the others at the access: "in
    /// kernel<128> with block (128,1,1) (4-way)".
    std::string Variant;
    std::vector<std::string> OtherShapes; ///< same kernel, other launch shapes
  };
  /// Analyses one kernel and submits what belongs to the check; returns the
  /// report (for the coverage counts).
  virtual cgt::smem::KernelReport checkKernel(const FunctionDecl *Kernel,
                                              cgt::smem::SharedMemAnalyzer &Analyzer) = 0;
  virtual void resetTranslationUnit() {}
  void submit(Finding F);
  /// The note naming the block shape a finding assumed.
  std::pair<SourceLocation, std::string>
  blockShapeNote(const FunctionDecl *Kernel, const cgt::smem::LaunchConfig &Config,
                 std::string Note);
  /// "kernel<128, 3>" for an instantiation, "kernel" otherwise.
  static std::string kernelName(const FunctionDecl *Kernel);

private:
  void flush();
  std::shared_ptr<cgt::smem::SharedMemAnalyzer> Analyzer;
  ASTContext *AnalyzerCtx = nullptr;
  /// The API model of the model files (launches in other files, constant
  /// fields, return values); reports a model file that does not load.
  std::shared_ptr<const cgt::ApiModel> loadModel(const std::string &ModelFiles);
  /// The launches in other files the model carries, by kernel.
  static std::map<std::string, std::vector<cgt::smem::LaunchConfig>>
  otherFileLaunches(const cgt::ApiModel &Model);
  std::string BlockShapesText;
  std::string ApiModelFiles;
  bool ProjectSummaries;
  std::map<std::string, std::vector<cgt::smem::BlockShape>> BlockShapes;
  std::vector<SourceLocation> Order;
  std::map<unsigned, std::vector<Finding>> Pending; ///< by access location
};

} // namespace clang::tidy::cudagraph

#endif
