//===- SharedMemCheckBase.cpp ---------------------------------------------===//
#include "SharedMemCheckBase.h"
#include "ModelFiles.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cudagraph {

SharedMemCheckBase::SharedMemCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      BlockShapesText(Options.get("BlockShapes", "").str()),
      ApiModelFiles(Options.getLocalOrGlobal("ApiModelFiles", "").str()),
      ProjectSummaries(parseBool(Options.getLocalOrGlobal("ProjectSummaries", "true"))) {
  std::string Bad;
  if (!cgt::smem::parseShapeOption(BlockShapesText, BlockShapes, Bad))
    configurationDiag("invalid BlockShapes entry '%0' for %1: expected "
                      "'kernel=XxYxZ[,XxY...];other=N'")
        << Bad << Name;
}

void SharedMemCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "BlockShapes", BlockShapesText);
}

void SharedMemCheckBase::registerMatchers(MatchFinder *Finder) {
  // Kernel bodies are in the host-side AST too (clang parses them in the
  // --cuda-host-only pass); code under #ifdef __CUDA_ARCH__ is not.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

namespace {
/// Does the body name a __shared__ variable (or call the accessor idiom)?
class SharedUse : public RecursiveASTVisitor<SharedUse> {
public:
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      Found |= V->hasAttr<CUDASharedAttr>();
    return !Found;
  }
};
} // namespace

namespace {
/// One analyser per translation unit, BlockShapes value and model files,
/// shared by the checks: the launch index is built once, and each kernel
/// interpreted once per shape (SharedMemAnalyzer::interpretOnce), not once
/// per check.
using AnalyzerKey = std::pair<const ASTContext *, std::string>;
std::map<AnalyzerKey, std::shared_ptr<cgt::smem::SharedMemAnalyzer>> &analyzers() {
  thread_local std::map<AnalyzerKey, std::shared_ptr<cgt::smem::SharedMemAnalyzer>> Map;
  return Map;
}

/// A launch a project's summaries carry, as the analyser takes it.
cgt::smem::LaunchConfig configOf(const cgt::KernelLaunch &L) {
  cgt::smem::LaunchConfig C;
  C.Block = {L.Block[0], L.Block[1], L.Block[2]};
  if (L.DynamicSharedBytes >= 0)
    C.DynSharedBytes = static_cast<uint64_t>(L.DynamicSharedBytes);
  C.Origin = cgt::smem::ShapeOrigin::OtherFile;
  C.From = L.At;
  return C;
}
} // namespace

std::shared_ptr<const cgt::ApiModel>
SharedMemCheckBase::loadModel(const std::string &ModelFiles) {
  std::string Error;
  std::shared_ptr<const cgt::ApiModel> Model = loadApiModel(ModelFiles, Error);
  if (!Error.empty())
    configurationDiag("%0", DiagnosticIDs::Error) << Error;
  return Model;
}

std::map<std::string, std::vector<cgt::smem::LaunchConfig>>
SharedMemCheckBase::otherFileLaunches(const cgt::ApiModel &Model) {
  std::map<std::string, std::vector<cgt::smem::LaunchConfig>> Out;
  for (const auto &Kernel : Model.kernelLaunches())
    for (const cgt::KernelLaunch &L : Kernel.getValue())
      Out[Kernel.getKey().str()].push_back(configOf(L));
  return Out;
}

void SharedMemCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!K || !K->hasBody() || K->isDependentContext())
    return;
  if (!Analyzer || AnalyzerCtx != Result.Context) {
    std::string ModelFiles =
        modelFilesFor(*Result.SourceManager, ApiModelFiles, ProjectSummaries);
    auto &A = analyzers()[{Result.Context, BlockShapesText + "\n" + ModelFiles}];
    if (!A) {
      A = std::make_shared<cgt::smem::SharedMemAnalyzer>(*Result.Context);
      A->setShapeOption(BlockShapes);
      if (std::shared_ptr<const cgt::ApiModel> Model = loadModel(ModelFiles)) {
        A->setOtherFileLaunches(otherFileLaunches(*Model));
        A->setApiModel(std::move(Model));
      }
    }
    Analyzer = A;
    AnalyzerCtx = Result.Context;
  }
  cgt::smem::KernelReport Rep = checkKernel(K, *Analyzer);
  SharedUse U;
  U.TraverseStmt(K->getBody());
  if (!U.Found)
    return;
  std::string Key = std::to_string(K->getLocation().getRawEncoding()) + ":" +
                    kernelName(K);
  bool NoShape = Rep.Configs.empty() || !Rep.Configs.front().known();
  cgt::smem::unitCoverage().add(Key, NoShape, Rep.GaveUp);
}

void SharedMemCheckBase::onEndOfTranslationUnit() {
  flush();
  // The first check to get here drops the unit's analysers from the map;
  // the others keep theirs until their own end.
  auto &Map = analyzers();
  for (auto It = Map.begin(); It != Map.end();)
    It = It->first.first == AnalyzerCtx ? Map.erase(It) : std::next(It);
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  resetTranslationUnit();
}

void SharedMemCheckBase::submit(Finding F) {
  unsigned Key = F.Loc.getRawEncoding();
  auto &V = Pending[Key];
  if (V.empty())
    Order.push_back(F.Loc);
  for (const Finding &O : V)
    if (O.Message == F.Message && O.Variant == F.Variant)
      return;
  V.push_back(std::move(F));
}

void SharedMemCheckBase::flush() {
  std::set<unsigned> Fixed;
  for (SourceLocation L : Order) {
    std::vector<Finding> &V = Pending[L.getRawEncoding()];
    if (V.empty())
      continue;
    size_t Best = 0;
    for (size_t I = 1; I < V.size(); ++I)
      if (V[I].Severity > V[Best].Severity)
        Best = I;
    Finding &F = V[Best];
    {
      auto D = diag(F.Loc, "%0") << F.Message << F.Range;
      if (F.Fix && Fixed.insert(F.FixKey.getRawEncoding()).second)
        D << *F.Fix;
    }
    for (const auto &[Loc, Text] : F.Notes)
      diag(Loc, "%0", DiagnosticIDs::Note) << Text;
    std::vector<std::string> Others = F.OtherShapes;
    for (size_t I = 0; I < V.size(); ++I)
      if (I != Best && !V[I].Variant.empty())
        Others.push_back(V[I].Variant);
    if (!Others.empty()) {
      llvm::sort(Others);
      Others.erase(std::unique(Others.begin(), Others.end()), Others.end());
      std::string Text = "also at this access: ";
      for (size_t I = 0; I < Others.size() && I < 6; ++I)
        Text += (I ? "; " : "") + Others[I];
      if (Others.size() > 6)
        Text += "; and " + std::to_string(Others.size() - 6) + " more";
      diag(F.Loc, "%0", DiagnosticIDs::Note) << Text;
    }
  }
  Order.clear();
  Pending.clear();
}

std::pair<SourceLocation, std::string>
SharedMemCheckBase::blockShapeNote(const FunctionDecl *Kernel,
                                   const cgt::smem::LaunchConfig &Config,
                                   std::string Note) {
  if (!Config.known())
    Note += "; no launch of '" + Kernel->getNameAsString() +
            "' with a constant block size is visible in this file";
  return {Config.Loc, Note};
}

std::string SharedMemCheckBase::kernelName(const FunctionDecl *Kernel) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP(Kernel->getASTContext().getLangOpts());
  PP.SuppressScope = true;
  Kernel->getNameForDiagnostic(OS, PP, /*Qualified=*/false);
  return OS.str();
}

} // namespace clang::tidy::cudagraph
