#include "Lifetime/LifetimeAnalysis.h"
namespace cgt {
struct LifetimeAnalyzer::Impl {};
LifetimeAnalyzer::LifetimeAnalyzer(const ApiModel &, clang::ASTContext &, LifetimeOptions) : P(new Impl) {}
LifetimeAnalyzer::~LifetimeAnalyzer() = default;
bool LifetimeAnalyzer::isInteresting(const clang::FunctionDecl *) { return false; }
std::vector<LifetimeFinding> LifetimeAnalyzer::analyze(const clang::FunctionDecl *) { return {}; }
const FunctionSummary *LifetimeAnalyzer::summaryOf(const clang::FunctionDecl *) { return nullptr; }
const FunctionModel *LifetimeAnalyzer::modelFor(const clang::CallExpr *) { return nullptr; }
}
