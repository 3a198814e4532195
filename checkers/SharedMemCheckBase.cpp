//===- SharedMemCheckBase.cpp ---------------------------------------------===//
#include "SharedMemCheckBase.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cudagraph {

void SharedMemCheckBase::registerMatchers(MatchFinder *Finder) {
  // Kernel bodies are in the host-side AST too (clang parses them in the
  // --cuda-host-only pass); code under #ifdef __CUDA_ARCH__ is not.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void SharedMemCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!K || !K->hasBody() || K->isDependentContext())
    return;
  if (!Analyzer || AnalyzerCtx != Result.Context) {
    Analyzer = std::make_unique<cgt::smem::SharedMemAnalyzer>(*Result.Context);
    AnalyzerCtx = Result.Context;
  }
  checkKernel(K, *Analyzer);
}

void SharedMemCheckBase::onEndOfTranslationUnit() {
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  Emitted.clear();
  resetTranslationUnit();
}

bool SharedMemCheckBase::firstTime(SourceLocation Loc, const std::string &Message) {
  return Emitted.insert({Loc.getRawEncoding(), Message}).second;
}

void SharedMemCheckBase::noteBlockShape(const FunctionDecl *Kernel,
                                        const cgt::smem::LaunchConfig &Config,
                                        std::string Note) {
  if (Config.Origin != cgt::smem::ShapeOrigin::Launch)
    Note += "; no launch of '" + Kernel->getNameAsString() +
            "' with a constant block size is visible in this file";
  diag(Config.Loc, "%0", DiagnosticIDs::Note) << Note;
}

} // namespace clang::tidy::cudagraph
