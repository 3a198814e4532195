//===- CrossFileLaunches.cpp - kernels launched in one file, defined in another -===//
//
// The two ends of CrossFileLaunches.h. One walk over the unit's
// declarations (bodies skipped: a kernel is declared at namespace or class
// scope) finds the kernels it declares and defines; only a unit that
// declares a kernel it does not define folds its launches.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/CrossFileLaunches.h"

#include "clang/AST/Attr.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cgt::smem {
namespace {

/// Kernels with external linkage declared outside system headers, split by
/// whether the unit has a body for them.
class KernelDecls : public RecursiveASTVisitor<KernelDecls> {
public:
  explicit KernelDecls(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseStmt(Stmt *) { return true; }
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || FD->isDependentContext() ||
        !FD->isExternallyVisible())
      return true;
    (FD->isDefined() ? Defined : Undefined).insert(FD->getCanonicalDecl());
    return true;
  }
  std::set<const FunctionDecl *> Defined, Undefined;

private:
  const SourceManager &SM;
};

} // namespace

std::string kernelKey(const FunctionDecl *Kernel) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP(Kernel->getASTContext().getLangOpts());
  PP.PrintAsCanonical = true;
  Kernel->getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  return OS.str();
}

CrossFileKernels crossFileKernels(ASTContext &Ctx, const ApiModel *Model) {
  KernelDecls K(Ctx.getSourceManager());
  K.TraverseDecl(Ctx.getTranslationUnitDecl());
  CrossFileKernels Out;
  for (const FunctionDecl *Kernel : K.Defined)
    Out.Defined.insert(kernelKey(Kernel));
  if (K.Undefined.empty())
    return Out;
  SharedMemAnalyzer A(Ctx);
  // Not owned: the caller's model outlives the analyser.
  A.setApiModel(std::shared_ptr<const ApiModel>(std::shared_ptr<const ApiModel>(), Model));
  for (const auto &[Kernel, Configs] : A.launchesInFile())
    if (K.Undefined.count(Kernel))
      for (const LaunchConfig &C : Configs)
        Out.Launches.push_back({kernelKey(Kernel), C});
  return Out;
}

} // namespace cgt::smem
