//===- SharedIndexOverflowCheck.cpp ---------------------------------------===//
#include "SharedIndexOverflowCheck.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cudagraph {

// OptionsView::get<bool> does not link with g++ against Debian's
// libclangTidy (see LifetimeCheckBase.cpp), so booleans are read as text.
static bool optionTrue(StringRef V) {
  return V.equals_insensitive("true") || V == "1" || V.equals_insensitive("on") ||
         V.equals_insensitive("yes");
}

SharedIndexOverflowCheck::SharedIndexOverflowCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportPossible(optionTrue(Options.get("ReportPossibleOverflows", "false"))) {}

void SharedIndexOverflowCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportPossibleOverflows", ReportPossible ? "true" : "false");
}

void SharedIndexOverflowCheck::registerMatchers(MatchFinder *Finder) {
  // Kernel bodies are in the host-side AST too (clang parses them in the
  // --cuda-host-only pass); code under #ifdef __CUDA_ARCH__ is not.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void SharedIndexOverflowCheck::onEndOfTranslationUnit() {
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  Emitted.clear();
}

static std::string overflowMessage(const cgt::smem::OverflowFinding &F) {
  std::string Arr = "__shared__ array '" + F.Array->getNameAsString() + "'";
  std::string Head = F.Definite ? Arr + " is indexed out of bounds"
                                : "possible out-of-bounds index into " + Arr;
  std::string Reach = F.Definite ? "reaches " : "can reach ";
  if (F.Dim < 0)
    return Head + ": the access reaches byte offset " +
           std::to_string(F.WorstIndex) + " of a " + std::to_string(F.Extent) +
           "-byte array";
  std::string Where = F.Rank > 1 ? " in dimension " + std::to_string(F.Dim + 1) +
                                       " of " + std::to_string(F.Rank)
                                 : "";
  std::string Unit = F.Rank > 1 ? "that dimension has " : "the array has ";
  return Head + Where + ": the index " + Reach + std::to_string(F.WorstIndex) +
         " but " + Unit + std::to_string(F.Extent) + " elements";
}

void SharedIndexOverflowCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!K || !K->hasBody() || K->isDependentContext())
    return;
  if (!Analyzer || AnalyzerCtx != Result.Context) {
    Analyzer = std::make_unique<cgt::smem::SharedMemAnalyzer>(*Result.Context);
    AnalyzerCtx = Result.Context;
  }
  cgt::smem::AnalysisOptions Opts;
  Opts.BankConflicts = false;
  Opts.PossibleOverflows = ReportPossible;
  cgt::smem::KernelReport Rep = Analyzer->analyze(K, Opts);
  for (const cgt::smem::OverflowFinding &F : Rep.Overflows) {
    std::string Msg = overflowMessage(F);
    SourceLocation Loc = F.Access->getExprLoc();
    if (!Emitted.insert({Loc.getRawEncoding(), Msg}).second)
      continue;
    diag(Loc, "%0") << Msg << F.Access->getSourceRange();
    std::string Threads =
        cgt::smem::describeThreads(F.FirstTid, F.LastTid, F.NumThreads);
    std::string Note = "with " + F.Config.describe() + ", " + Threads +
                       (F.Definite ? (F.NumThreads == 1 ? " goes" : " go") : " can go") +
                       " out of bounds";
    if (F.Config.Origin != cgt::smem::ShapeOrigin::Launch)
      Note += "; no launch of '" + K->getNameAsString() +
              "' with a constant block size is visible in this file";
    else if (!F.Definite)
      Note += " unless a guard on the path prevents it";
    diag(F.Config.Loc, "%0", DiagnosticIDs::Note) << Note;
  }
}

} // namespace clang::tidy::cudagraph
