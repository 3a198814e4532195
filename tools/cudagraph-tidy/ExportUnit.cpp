//===- ExportUnit.cpp - one translation unit's exportable summaries -------===//
//
// Which definitions are exported (external linkage, host code, not
// virtual, not a template, no built-in or hand-written entry of the same
// name) and how a summary becomes an entry: marked `unlistedArgsEscape`,
// its "doc" naming the file relative to the source root, a definition
// without effects kept by name only (ExportModel.cpp needs it to find
// names whose definitions disagree).
//
//===----------------------------------------------------------------------===//
#include "ExportUnit.h"
#include "ReadFiles.h"
#include "ResourceDir.h"
#include "Lifetime/LifetimeAnalysis.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>

using namespace clang;

namespace cgt {
namespace {



bool hasEffect(const FunctionModel &M) {
  return !M.Acquires.empty() || !M.Releases.empty() || !M.Uses.empty() ||
         !M.LegalDuringCapture || M.Capture != CaptureRole::None;
}

/// Calls from another file reach it by name, and its arguments are the
/// call's (no operators, constructors or implicit `this` games).
bool isExportable(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
      FD->isTemplateInstantiation() || !FD->getIdentifier() || FD->isMain() ||
      FD->getFormalLinkage() != Linkage::External ||
      SM.isInSystemHeader(FD->getLocation()))
    return false;
  if (FD->hasAttr<CUDAGlobalAttr>() ||
      (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()))
    return false; // host code cannot call it
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return false; // a call may reach an override
  return true;
}

/// The model entry a call of `FD` would find, as the engine looks it up.
const FunctionModel *entryFor(const ApiModel &M, const FunctionDecl *FD) {
  unsigned N = FD->getNumParams();
  if (const FunctionModel *F = M.lookup(FD->getQualifiedNameAsString(), N))
    return F;
  return FD->isCXXClassMember() ? nullptr : M.lookup(FD->getName(), N);
}

/// Definitions, and the functions the unit calls or names. Names count as
/// well as calls (a deleter `&cuda_free`, a callback), and so do calls in
/// template instantiations, which the engine analyses: a checking run
/// gives a unit only the entries of these names.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  std::vector<const FunctionDecl *> Definitions;
  std::vector<const FunctionDecl *> Callees;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Definitions.push_back(FD);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      Callees.push_back(F);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *F = dyn_cast<FunctionDecl>(E->getDecl()))
      Callees.push_back(F);
    return true;
  }
};

class ExportConsumer : public ASTConsumer {
public:
  ExportConsumer(const ApiModel &Model, const ApiModel &Base, const FileNamer &Names,
                 UnitExport &Out)
      : Model(Model), Base(Base), Names(Names), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return; // the action reports it
    const SourceManager &SM = Ctx.getSourceManager();
    Collector C;
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    LifetimeAnalyzer Analyzer(Model, Ctx);
    for (const FunctionDecl *FD : C.Definitions)
      if (isExportable(FD, SM) && !entryFor(Base, FD))
        Out.Definitions.push_back(definition(FD, Analyzer, SM));
    for (const FunctionDecl *F : C.Callees)
      if (!F->isDefined())
        Out.ExternalCallees.insert(F->getQualifiedNameAsString());
  }

private:
  Definition definition(const FunctionDecl *FD, LifetimeAnalyzer &Analyzer,
                        const SourceManager &SM) {
    Definition D;
    if (const FunctionSummary *S = Analyzer.summaryOf(FD))
      D.Model = S->Model;
    FunctionModel &M = D.Model;
    D.HasEffect = hasEffect(M);
    M.Name = FD->getQualifiedNameAsString();
    M.NumParams = FD->getNumParams();
    M.Origin.clear();
    M.UnlistedArgsEscape = true;
    PresumedLoc Loc = SM.getPresumedLoc(SM.getExpansionLoc(FD->getLocation()));
    // Named as the compile named it, relative to its directory (a Bear
    // database's `src/x.cu`): made absolute there, so that a file has one
    // name whichever directory the driver runs from.
    llvm::SmallString<256> Path(Loc.isValid() ? Loc.getFilename() : "");
    if (Loc.isValid())
      SM.getFileManager().makeAbsolutePath(Path);
    std::string File = Loc.isValid() ? Names.name(Path) : "";
    M.Doc = "summary of " + File + ":" + std::to_string(Loc.isValid() ? Loc.getLine() : 0);
    // A status type the reader of the file may not know (one named in a
    // user's model file is declared there): zero is success all the same.
    if (!M.StatusType.empty() && !Model.isStatusType(M.StatusType) &&
        !ApiModel::isPseudoStatusType(M.StatusType))
      M.StatusType = "int";
    // The engine's note says "at line N" of the helper's file (and of its
    // same-file helpers'); the reader of a finding in another file needs
    // the file too.
    for (size_t At = M.CaptureNote.find(" at line "); At != std::string::npos;
         At = M.CaptureNote.find(" at line ", At + 1))
      M.CaptureNote.replace(At, strlen(" at line "), " at " + File + ":");
    if (!D.HasEffect) { // only the name counts (see mergeUnits)
      FunctionModel Bare;
      Bare.Name = M.Name;
      Bare.NumParams = M.NumParams;
      Bare.Doc = M.Doc;
      M = Bare;
    }
    return D;
  }

  const ApiModel &Model;
  const ApiModel &Base;
  const FileNamer &Names;
  UnitExport &Out;
};

} // namespace

std::unique_ptr<ASTConsumer> newExportConsumer(const ApiModel &Model, const ApiModel &Base,
                                               const FileNamer &Names, UnitExport &Out) {
  return std::make_unique<ExportConsumer>(Model, Base, Names, Out);
}

namespace {

/// One ExportConsumer per run, on the invocation the checks' parse has
/// (PreambleCache.cpp's runInvocation, as clang-tidy's): __clang_analyzer__
/// defined, so that a summary describes the code the checks see.
class ExportAction : public tooling::FrontendActionFactory {
public:
  ExportAction(const ApiModel &Model, const ApiModel &Base, const FileNamer &Names,
               UnitExport &Out)
      : Model(Model), Base(Base), Names(Names), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    struct Action : ASTFrontendAction {
      ExportAction &F;
      explicit Action(ExportAction &F) : F(F) {}
      std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
        return newExportConsumer(F.Model, F.Base, F.Names, F.Out);
      }
    };
    return std::make_unique<Action>(*this);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCH,
                     DiagnosticConsumer *Diags) override {
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    return FrontendActionFactory::runInvocation(Invocation, Files, PCH, Diags);
  }

private:
  const ApiModel &Model;
  const ApiModel &Base;
  const FileNamer &Names;
  UnitExport &Out;
};

/// Counts compiler errors and keeps the first, silently. The base class's
/// counts stay zero, so the compiler prints no "N warnings generated".
class ErrorCounter : public DiagnosticConsumer {
public:
  unsigned Errors = 0;
  std::string First;
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    if (Level < DiagnosticsEngine::Error || Errors++)
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    First = std::string(Text);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        First = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ": " + First;
    }
  }
};

class OneFileDatabase : public tooling::CompilationDatabase {
public:
  explicit OneFileDatabase(std::vector<tooling::CompileCommand> Cmds) : Cmds(std::move(Cmds)) {}
  std::vector<tooling::CompileCommand> getCompileCommands(llvm::StringRef) const override {
    return Cmds;
  }

private:
  std::vector<tooling::CompileCommand> Cmds;
};

} // namespace

UnitExport exportUnit(const UnitJob &Job, const ApiModel &Model, const ApiModel &Base,
                      const FileNamer &Names) {
  UnitExport Out;
  OneFileDatabase Db(Job.Commands);
  auto Recording =
      llvm::makeIntrusiveRefCnt<RecordingFileSystem>(llvm::vfs::createPhysicalFileSystem());
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Recording);
  tooling::ClangTool Tool(Db, {Job.File}, std::make_shared<PCHContainerOperations>(), FS);
  Tool.appendArgumentsAdjuster([&](const tooling::CommandLineArguments &Args, llvm::StringRef) {
    tooling::CommandLineArguments Adjusted = Args;
    auto I = Adjusted.begin();
    if (I != Adjusted.end() && !llvm::StringRef(*I).starts_with("-"))
      ++I; // the compiler's name
    Adjusted.insert(I, Job.ExtraArgsBefore.begin(), Job.ExtraArgsBefore.end());
    Adjusted.insert(Adjusted.end(), Job.ExtraArgs.begin(), Job.ExtraArgs.end());
    return Adjusted;
  });
  // In the checks' order (PreambleCache.cpp's runOnce).
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  Tool.appendArgumentsAdjuster(resourceDirAdjuster());
  ErrorCounter Errors;
  Tool.setDiagnosticConsumer(&Errors);
  ExportAction Action(Model, Base, Names, Out);
  int Status = Tool.run(&Action);
  Out.Dependencies = Recording->files();
  Out.AbsentFiles = Recording->absent();
  if (Errors.Errors || Status) {
    Out.Parsed = false;
    Out.Definitions.clear();
    Out.Problem = "the translation unit does not parse (" + std::to_string(Errors.Errors) +
                  " compiler error" + (Errors.Errors == 1 ? "" : "s") +
                  (Errors.First.empty() ? "" : "; first: " + Errors.First) + ")";
  }
  return Out;
}

} // namespace cgt
