//===- ExportUnit.cpp - one translation unit's exportable summaries -------===//
//
// Which definitions are exported (external linkage, host code, not
// virtual, not a template, no built-in or hand-written entry of the same
// name) and how a summary becomes an entry: marked `unlistedArgsEscape`,
// its "doc" naming the file relative to the source root, a definition
// without effects kept by name only (ExportModel.cpp needs it to find
// names whose definitions disagree). A definition that returns the same
// integers whatever its arguments carries them ("returnValues",
// lib/SharedMem/CallResults.h), so that a block size computed from a call
// of it in another file folds: that alone is an effect worth an entry.
//
//===----------------------------------------------------------------------===//
#include "summaries/ExportUnit.h"
#include "ApiModel/ParameterSignature.h"
#include "run/ReadFiles.h"
#include "run/ResourceDir.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "SharedMem/CallResults.h"
#include "SharedMem/CrossFileLaunches.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace clang;

namespace cgt {
namespace {



bool hasEffect(const FunctionModel &M) {
  return !M.Acquires.empty() || !M.Releases.empty() || !M.Uses.empty() ||
         !M.LegalDuringCapture || M.Capture != CaptureRole::None || !M.ReturnValues.empty();
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
  auto Signature = [FD] { return parameterSignature(FD); };
  if (const FunctionModel *F = M.lookup(FD->getQualifiedNameAsString(), N, Signature))
    return F;
  return FD->isCXXClassMember() ? nullptr : M.lookup(FD->getName(), N, Signature);
}

bool acquiresHandles(const FunctionDecl *F) {
  return F->hasAttr<AcquireHandleAttr>() ||
         llvm::any_of(F->parameters(),
                      [](const ParmVarDecl *P) { return P->hasAttr<AcquireHandleAttr>(); });
}

/// Whether `Base` (built-in and hand-written entries) has entries of user
/// model files.
bool hasUserEntries(const ApiModel &Base) {
  return llvm::any_of(Base.functions(), [](const FunctionModel *F) {
    return !llvm::StringRef(F->Origin).starts_with("builtin");
  });
}

/// Definitions, and the functions the unit calls or names. Names count as
/// well as calls (a deleter `&cuda_free`, a callback), and so do calls in
/// template instantiations, which the engine analyses: a checking run
/// gives a unit only the entries of these names.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  std::vector<const FunctionDecl *> Definitions;
  std::vector<const CallExpr *> Calls;
  /// Functions named otherwise than as the callee of a call.
  std::vector<const FunctionDecl *> Named;
  bool shouldVisitTemplateInstantiations() const { return true; }
  /// Some declaration carries clang's acquire_handle attribute.
  bool NamesHandleAttributes = false;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Definitions.push_back(FD);
    NamesHandleAttributes |= acquiresHandles(FD);
    return true;
  }
  // Pre-order: a call is visited before the name of its callee.
  bool VisitCallExpr(CallExpr *C) {
    if (!C->getDirectCallee())
      return true;
    Calls.push_back(C);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(Ref);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *F = dyn_cast<FunctionDecl>(E->getDecl()); F && !CalleeRefs.count(E))
      Named.push_back(F);
    return true;
  }

private:
  llvm::SmallPtrSet<const DeclRefExpr *, 16> CalleeRefs;
};

/// What decides whether a call's argument can name something the checks
/// track (isInertArgument).
struct ArgumentContext {
  ASTContext &Ctx;
  const ApiModel &Model;
  LifetimeAnalyzer &Analyzer;
  /// Scalars (enumerators, bools, floating values, integers narrower than
  /// 64 bits) hold no resource: true unless the unit names handles through
  /// clang's acquire_handle attribute (a 32-bit handle is common there) or
  /// user model files describe functions (their kinds may be of any type).
  /// The built-in model's handles are pointers, CUdeviceptr and
  /// CUmemGenericAllocationHandle (64 bits).
  bool ScalarsHoldNothing = true;
};

/// Whether argument `E` cannot name anything the checks track, whatever
/// entry the callee gets: a constant (`#err`, `__func__`, `__LINE__`), a
/// scalar (ArgumentContext), or the result of a function that acquires
/// nothing called with such arguments (`cudaGetErrorString(err_)`, a
/// same-file `cu_get_error_str(err)`). The engine tracks places (variables,
/// members, what pointers point to) and what acquisitions return; a call
/// that acquires nothing returns at most what its arguments hold.
bool isInertArgument(const Expr *E, ArgumentContext &A) {
  const Expr *X = E->IgnoreParenImpCasts();
  if (X->isValueDependent() || X->isTypeDependent())
    return false;
  if (isa<StringLiteral, PredefinedExpr, CXXNullPtrLiteralExpr, GNUNullExpr, CharacterLiteral,
          IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(X))
    return true;
  QualType T = X->getType();
  if ((T->isArithmeticType() || T->isEnumeralType()) && X->isEvaluatable(A.Ctx))
    return true;
  if (A.ScalarsHoldNothing &&
      (T->isEnumeralType() || T->isBooleanType() || T->isRealFloatingType() ||
       (T->isIntegerType() && A.Ctx.getTypeSize(T) < 64)))
    return true;
  const auto *C = dyn_cast<CallExpr>(X);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || isa<CXXMemberCallExpr>(C) || isa<CXXOperatorCallExpr>(C) || acquiresHandles(F))
    return false;
  bool Acquires;
  if (const FunctionModel *M = A.Model.lookup(F->getQualifiedNameAsString(), C->getNumArgs()))
    Acquires = !M->Acquires.empty();
  else if (A.Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
    Acquires = false;
  else if (F->getDefinition())
    if (const FunctionSummary *S = A.Analyzer.summaryOf(F->getDefinition()))
      Acquires = !S->Model.Acquires.empty();
    else
      Acquires = false;
  else
    return false; // another file's function: its entry may change
  return !Acquires && llvm::all_of(C->arguments(), [&](const Expr *Arg) {
    return isInertArgument(Arg, A);
  });
}

/// The engine treats the second evaluation of a modelled call spelled once
/// in a macro (`CHECK(e)` expanding `e` twice) as no call at all, and an
/// unknown one as an unknown call: whether the callee has an entry matters
/// there whatever its arguments are (lib/Lifetime/Transfer/Calls.cpp).
std::set<const CallExpr *> evaluatedTwice(const std::vector<const CallExpr *> &Calls,
                                          const SourceManager &SM) {
  std::map<std::pair<unsigned, unsigned>, std::vector<const CallExpr *>> BySpelling;
  for (const CallExpr *C : Calls) {
    SourceLocation L = C->getBeginLoc();
    if (L.isMacroID() && SM.isMacroArgExpansion(L))
      BySpelling[{SM.getSpellingLoc(L).getRawEncoding(),
                  SM.getExpansionLoc(L).getRawEncoding()}]
          .push_back(C);
  }
  std::set<const CallExpr *> Out;
  for (const auto &[Spelled, Group] : BySpelling)
    if (Group.size() > 1)
      Out.insert(Group.begin(), Group.end());
  return Out;
}

/// How `C` reaches its callee, added to `Use`.
void addCallUse(const CallExpr *C, bool Twice, ArgumentContext &A, CalleeUse &Use) {
  if (Twice || isa<CXXMemberCallExpr>(C) || isa<CXXOperatorCallExpr>(C) ||
      isa<CUDAKernelCallExpr>(C) || C->getNumArgs() > 64) {
    Use.Opaque = true;
    return;
  }
  for (unsigned I = 0; I < C->getNumArgs(); ++I)
    if (!isInertArgument(C->getArg(I), A))
      Use.Args |= uint64_t(1) << I;
}

/// `Loc`'s file as the export names files ("doc", "at"): as the compile
/// named it, made absolute there, relative to the source root when under
/// it (a Bear database's `src/x.cu`: one name whichever directory the
/// driver runs from), and its line.
std::string placeOf(SourceLocation Loc, const SourceManager &SM, const FileNamer &Names) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return ":0";
  llvm::SmallString<256> Path(P.getFilename());
  SM.getFileManager().makeAbsolutePath(Path);
  return Names.name(Path) + ":" + std::to_string(P.getLine());
}

/// The unit's end of launch shapes across files: the launches of kernels
/// defined elsewhere, and the kernels it defines.
void addKernelLaunches(ASTContext &Ctx, const ApiModel &Model, const FileNamer &Names,
                       UnitExport &Out) {
  smem::CrossFileKernels K = smem::crossFileKernels(Ctx, &Model);
  Out.DefinedKernels = std::move(K.Defined);
  for (const smem::FileLaunch &L : K.Launches) {
    KernelLaunch E;
    E.Block[0] = L.Config.Block.X;
    E.Block[1] = L.Config.Block.Y;
    E.Block[2] = L.Config.Block.Z;
    if (L.Config.DynSharedBytes)
      E.DynamicSharedBytes = static_cast<long long>(*L.Config.DynSharedBytes);
    // Where the reader of the note looks: the call of the launch wrapper
    // (GROMACS's launchGpuKernel), not the cudaLaunchKernel inside it.
    SourceLocation At = L.Config.Caller.isValid() ? L.Config.Caller : L.Config.Loc;
    E.At = placeOf(At, Ctx.getSourceManager(), Names);
    std::vector<KernelLaunch> &V = Out.KernelLaunches[L.Kernel];
    if (std::find(V.begin(), V.end(), E) == V.end())
      V.push_back(std::move(E));
  }
}

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
        Out.Definitions.push_back(definition(FD, Analyzer, Ctx));
    std::set<const CallExpr *> Twice = evaluatedTwice(C.Calls, SM);
    ArgumentContext Args{Ctx, Model, Analyzer};
    Args.ScalarsHoldNothing = !C.NamesHandleAttributes && !hasUserEntries(Base);
    for (const CallExpr *Call : C.Calls) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (F->isDefined()) {
        Out.InternalCallees.insert(F->getQualifiedNameAsString());
        continue;
      }
      std::string Name = F->getQualifiedNameAsString();
      Out.ExternalCallees.insert(Name);
      addCallUse(Call, Twice.count(Call) != 0, Args, Out.CalleeUses[Name]);
    }
    for (const FunctionDecl *F : C.Named)
      if (!F->isDefined()) {
        std::string Name = F->getQualifiedNameAsString();
        Out.ExternalCallees.insert(Name);
        Out.CalleeUses[Name].Opaque = true;
      } else {
        Out.InternalCallees.insert(F->getQualifiedNameAsString());
      }
    addKernelLaunches(Ctx, Model, Names, Out);
  }

private:
  Definition definition(const FunctionDecl *FD, LifetimeAnalyzer &Analyzer,
                        ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    Definition D;
    if (const FunctionSummary *S = Analyzer.summaryOf(FD))
      D.Model = S->Model;
    FunctionModel &M = D.Model;
    M.ReturnValues = smem::constantReturns(Ctx, FD, &Model);
    D.HasEffect = hasEffect(M);
    M.Name = FD->getQualifiedNameAsString();
    M.NumParams = FD->getNumParams();
    // Kept only where overloads of one count need it (mergeUnits).
    M.Signature = parameterSignature(FD);
    M.Origin.clear();
    M.UnlistedArgsEscape = true;
    std::string Place = placeOf(FD->getLocation(), SM, Names);
    std::string File = Place.substr(0, Place.rfind(':'));
    M.Doc = "summary of " + Place;
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
      Bare.Signature = M.Signature;
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
