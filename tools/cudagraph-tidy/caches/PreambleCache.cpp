//===- PreambleCache.cpp - precompiled preambles kept between runs --------===//
//
// runClangTidyWithPreamble is clang::tidy::runClangTidy (clang-tidy 22) for
// one file, with one addition in runInvocation: the invocation is pointed at
// a cached preamble the way PrecompiledPreamble::AddImplicitPreamble does
// it (ImplicitPCHInclude, PrecompiledPreambleBytes, no validation, no
// predefines), because a PrecompiledPreamble object cannot be read back
// from disk.
//
// What an entry is on disk (its key, the files it read, eviction, the
// seen and failed markers) is PreambleEntries.cpp; this file decides when
// a parse reads one, builds one or goes without.
//
//===----------------------------------------------------------------------===//
#include "caches/PreambleCache.h"
#include "caches/PreambleEntries.h"
#include "run/ResourceDir.h"
#include "ProjectSummaries/ProjectSummaries.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <utime.h>

using namespace clang;
using namespace clang::tidy;

namespace cgt {

std::string defaultPreambleCacheDir() { return defaultCacheFolder(); }

bool preambleCacheConfig(std::string Mode, size_t Files, const std::string &Directory,
                         PreambleCacheConfig &C, std::string &Error) {
  if (Mode.empty())
    if (auto Env = llvm::sys::Process::GetEnv("CUDAGRAPH_TIDY_PREAMBLE_CACHE"))
      Mode = *Env;
  if (Mode.empty())
    Mode = "auto";
  if (Mode != "auto" && Mode != "on" && Mode != "off") {
    Error = "preamble cache mode '" + Mode + "': expected auto, on or off";
    return false;
  }
  C.Enabled = Mode != "off";
  C.Build = Mode == "on" || Files <= AutoBuildLimit;
  C.BuildOnSecondMiss = Mode == "auto";
  C.Directory = Directory.empty() ? defaultPreambleCacheDir() : Directory;
  if (C.Directory.empty())
    C.Enabled = false;
  if (auto MB = llvm::sys::Process::GetEnv("CUDAGRAPH_TIDY_CACHE_MB")) {
    uint64_t V;
    if (!llvm::StringRef(*MB).getAsInteger(10, V))
      C.MaxBytes = V << 20;
  }
  return true;
}

using namespace preamble;

namespace {

/// Names the entry a parse is about to build or read, and the private link
/// it reads it through or the folder it builds it in, for the parent
/// process to mark failed and clean up if this one dies (Isolation.cpp);
/// "" clears it. Three lines, readInUseMarker's.
void markInUse(const PreambleCacheConfig &Cache, const std::string &Pch,
               const std::string &Link = "", const std::string &BuildFolder = "") {
  if (Cache.InUseMarker.empty())
    return;
  std::error_code EC;
  llvm::raw_fd_ostream OS(Cache.InUseMarker, EC);
  if (!EC && !Pch.empty())
    OS << Pch << "\n" << Link << "\n" << BuildFolder << "\n";
}

/// Writes the counts to Cache.CountsFile through a rename, so that a
/// worker killed mid-write leaves the last whole counts, never a torn line.
void writeCounts(const PreambleCacheConfig &Cache) {
  const PreambleCacheStats &S = *Cache.Stats;
  std::string Text = std::to_string(S.Hits) + " " + std::to_string(S.Builds) + " " +
                     std::to_string(S.Skipped) + " " + std::to_string(S.Failed) + "\n";
  std::string New = Cache.CountsFile + ".new";
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(New, EC);
    if (EC)
      return;
    OS << Text;
  }
  llvm::sys::fs::rename(New, Cache.CountsFile);
}

/// Adds one to the count `Which` of the cache's stats, if it has any, and
/// keeps the counts file (PreambleCacheConfig::CountsFile) up to date.
void count(const PreambleCacheConfig &Cache,
           std::atomic<unsigned> PreambleCacheStats::*Which) {
  if (!Cache.Stats)
    return;
  ++(Cache.Stats->*Which);
  if (!Cache.CountsFile.empty())
    writeCounts(Cache);
}

/// Builds the entry `Pch` (key `Key`) in a builder's folder named in the
/// marker file meanwhile: a crash in the build is the entry's, and a
/// worker killed midway leaves the folder for its parent to remove. The
/// marker is cleared when the build fails, so that the parse without it,
/// and a later crash (in the checks, say), is not blamed on a preamble.
bool buildNamedEntry(CompilerInvocation &CI, FileManager &Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     const llvm::MemoryBuffer &Main, PreambleBounds Bounds,
                     const std::string &MainPath, const PreambleCacheConfig &Cache,
                     const std::string &Pch, const std::string &Key) {
  std::string Folder = newBuildFolder(Cache.Directory);
  if (Folder.empty())
    return false;
  markInUse(Cache, Pch, "", Folder);
  bool OK = buildEntry(CI, Files, PCHOps, Main, Bounds, MainPath, Folder,
                       Cache.Directory, Key, Cache.FaultKillInBuild);
  llvm::sys::fs::remove_directories(Folder);
  if (!OK)
    markInUse(Cache, "");
  return OK;
}

/// Whether a run with these checks may use a preamble: compiler warnings
/// inside it would not be replayed.
bool checksAllowCache(ClangTidyContext &Context, llvm::StringRef File) {
  ClangTidyOptions Opts = Context.getOptionsForFile(File);
  return !(Opts.Checks && llvm::StringRef(*Opts.Checks).contains("clang-diagnostic"));
}

/// Points `CI` at the cached preamble of its main file, building it first
/// when there is none. Returns the private link to remove after the run,
/// or "" when the file is parsed without a preamble.
std::string usePreamble(CompilerInvocation &CI, FileManager &Files,
                        std::shared_ptr<PCHContainerOperations> PCHOps,
                        const PreambleCacheConfig &Cache,
                        const std::vector<std::string> &DriverArgs,
                        std::string &UsedEntry) {
  if (CI.getFrontendOpts().Inputs.size() != 1 ||
      !CI.getFrontendOpts().Inputs[0].isFile())
    return "";
  llvm::SmallString<256> MainPath(CI.getFrontendOpts().Inputs[0].getFile());
  llvm::vfs::FileSystem &FS = Files.getVirtualFileSystem();
  FS.makeAbsolute(MainPath);
  llvm::sys::path::remove_dots(MainPath, /*remove_dot_dot=*/true);
  auto Main = FS.getBufferForFile(MainPath);
  if (!Main)
    return "";
  PreambleBounds Bounds =
      ComputePreambleBounds(CI.getLangOpts(), (*Main)->getMemBufferRef(), 0);
  if (Bounds.Size == 0)
    return "";
  auto Cwd = FS.getCurrentWorkingDirectory();
  std::string Key =
      keyOf(CI, DriverArgs, Cwd ? *Cwd : "", (*Main)->getBuffer().take_front(Bounds.Size),
            Bounds.PreambleEndsAtStartOfLine);
  const std::string &Dir = Cache.Directory;
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  std::string Pch = join(Dir, Key + ".pch");
  if (llvm::sys::fs::exists(failedMarkerOf(Pch))) {
    count(Cache, &PreambleCacheStats::Skipped);
    return "";
  }
  bool Fresh = llvm::sys::fs::exists(Pch) && depsStillValid(join(Dir, Key + ".deps"));
  if (!Fresh) {
    if (!Cache.Build || firstMiss(Cache, Pch)) {
      count(Cache, &PreambleCacheStats::Skipped);
      return "";
    }
    // The marker is cleared on every way out below that parses without
    // the entry.
    if (!buildNamedEntry(CI, Files, PCHOps, **Main, Bounds, std::string(MainPath), Cache,
                         Pch, Key)) {
      count(Cache, &PreambleCacheStats::Skipped);
      return "";
    }
    count(Cache, &PreambleCacheStats::Builds);
    evict(Dir, Cache.MaxBytes, Pch);
  } else {
    count(Cache, &PreambleCacheStats::Hits);
  }
  // A private name for the entry: another process evicting it now removes
  // the cache's name, not the file this parse reads.
  llvm::SmallString<256> Link;
  if (llvm::sys::fs::createUniqueFile(join(Dir, "use-%%%%%%%%.pch"), Link)) {
    markInUse(Cache, "");
    return "";
  }
  llvm::sys::fs::remove(Link);
  if (llvm::sys::fs::create_hard_link(Pch, Link) &&
      llvm::sys::fs::copy_file(Pch, Link)) {
    markInUse(Cache, "");
    return "";
  }
  ::utime(Pch.c_str(), nullptr); // recently used, for eviction
  PreprocessorOptions &PP = CI.getPreprocessorOpts();
  PP.ImplicitPCHInclude = std::string(Link);
  PP.PrecompiledPreambleBytes = {Bounds.Size, Bounds.PreambleEndsAtStartOfLine};
  PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  PP.UsePredefines = false;
  UsedEntry = Pch;
  markInUse(Cache, Pch, std::string(Link));
  return std::string(Link);
}

class Action : public ASTFrontendAction {
public:
  Action(ClangTidyASTConsumerFactory *Factory, const ExtraConsumerFactory &Extra)
      : Factory(Factory), Extra(Extra) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 llvm::StringRef File) override {
    std::unique_ptr<ASTConsumer> Checks = Factory->createASTConsumer(Compiler, File);
    if (!Extra || !Checks)
      return Checks;
    std::vector<std::unique_ptr<ASTConsumer>> Both;
    Both.push_back(std::move(Checks));
    Both.push_back(Extra());
    return std::make_unique<MultiplexConsumer>(std::move(Both));
  }

private:
  ClangTidyASTConsumerFactory *Factory;
  const ExtraConsumerFactory &Extra;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(ClangTidyContext &Context,
                llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                const PreambleCacheConfig &Cache, bool UseCache,
                const ExtraConsumerFactory &Extra)
      : ConsumerFactory(Context, std::move(BaseFS)), Cache(Cache),
        UseCache(UseCache), Extra(Extra) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(&ConsumerFactory, Extra);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As runClangTidy: define __clang_analyzer__, no carets (Quiet).
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    Invocation->getDiagnosticOpts().ShowCarets = false;
    std::string Link;
    if (UseCache)
      Link = usePreamble(*Invocation, *Files, PCHContainerOps, Cache,
                         *DriverArgs, UsedEntry);
    if (!Link.empty() && Cache.FaultCrashOnRead)
      ::raise(SIGSEGV); // tests only: see PreambleCacheConfig
    bool OK = FrontendActionFactory::runInvocation(Invocation, Files,
                                                   PCHContainerOps, DiagConsumer);
    if (!Link.empty())
      llvm::sys::fs::remove(Link);
    markInUse(Cache, "");
    return OK;
  }
  /// The cache entry the parse read, "" when it parsed without one.
  std::string UsedEntry;
  /// The unit's command line as ClangTool runs it, captured by the last
  /// arguments adjuster (runOnce).
  const std::vector<std::string> *DriverArgs = nullptr;

private:
  ClangTidyASTConsumerFactory ConsumerFactory;
  const PreambleCacheConfig &Cache;
  bool UseCache;
  const ExtraConsumerFactory &Extra;
};

} // namespace

void spellRelativeTo(std::vector<ClangTidyError> &Errors,
                     const std::string &Directory) {
  std::string Prefix = Directory;
  if (Prefix.empty())
    return;
  if (Prefix.back() != '/')
    Prefix += '/';
  auto Respell = [&](std::string &Path) {
    if (llvm::StringRef(Path).starts_with(Prefix) && Path.size() > Prefix.size())
      Path = Path.substr(Prefix.size());
  };
  for (ClangTidyError &E : Errors) {
    Respell(E.Message.FilePath);
    for (tooling::FileByteRange &R : E.Message.Ranges)
      Respell(R.FilePath);
    for (tooling::DiagnosticMessage &N : E.Notes)
      Respell(N.FilePath);
    llvm::StringMap<tooling::Replacements> Fixes;
    for (auto &KV : E.Message.Fix) {
      std::string File = KV.getKey().str();
      Respell(File);
      tooling::Replacements &Out = Fixes[File];
      for (const tooling::Replacement &R : KV.getValue())
        llvm::consumeError(Out.add(tooling::Replacement(
            File, R.getOffset(), R.getLength(), R.getReplacementText())));
    }
    E.Message.Fix = std::move(Fixes);
  }
}

namespace {

/// One clang-tidy run over `File`; `UsedEntry` is set to the preamble cache
/// entry it read, if any.
std::vector<ClangTidyError>
runOnce(ClangTidyContext &Context, const tooling::CompilationDatabase &Compilations,
        const std::string &File,
        llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
        const PreambleCacheConfig &Cache, bool UseCache, std::string &UsedEntry,
        const ExtraConsumerFactory &Extra) {
  tooling::ClangTool Tool(Compilations, {File},
                          std::make_shared<PCHContainerOperations>(), BaseFS);
  // clang-tidy's ExtraArgs/ExtraArgsBefore from the configuration.
  tooling::ArgumentsAdjuster ExtraArgs =
      [&Context](const tooling::CommandLineArguments &Args, llvm::StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        tooling::CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !llvm::StringRef(*I).starts_with("-"))
            ++I; // the compiler's name
          Adjusted.insert(I, Opts.ExtraArgsBefore->begin(),
                          Opts.ExtraArgsBefore->end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                          Opts.ExtraArgs->end());
        return Adjusted;
      };
  Tool.appendArgumentsAdjuster(ExtraArgs);
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  // clang-tidy's resource directory, not one next to this binary's build
  // tree (ResourceDir.h); before ClangTool adds its own guess.
  Tool.appendArgumentsAdjuster(resourceDirAdjuster());
  // The driver names a unit that does not parse itself, once, even when
  // the unit is parsed twice (runClangTidyWithPreamble).
  Tool.setPrintErrorMessage(false);
  std::vector<std::string> Effective;
  Tool.appendArgumentsAdjuster(
      [&Effective](const tooling::CommandLineArguments &Args, llvm::StringRef) {
        Effective = Args;
        return Args;
      });

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, false);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine DE(DiagnosticIDs::create(), *DiagOpts, &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  ActionFactory Factory(Context, std::move(BaseFS), Cache, UseCache, Extra);
  Factory.DriverArgs = &Effective;
  Tool.run(&Factory);
  UsedEntry = Factory.UsedEntry;
  return DiagConsumer.take();
}

bool hasCompilerError(const std::vector<ClangTidyError> &Errors) {
  for (const ClangTidyError &E : Errors)
    if (E.DiagLevel == tooling::Diagnostic::Error &&
        llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"))
      return true;
  return false;
}

} // namespace

void markPreambleFailed(const std::string &PchPath, const std::string &Link) {
  if (!Link.empty())
    llvm::sys::fs::remove(Link);
  if (!llvm::StringRef(PchPath).ends_with(".pch"))
    return;
  std::string Empty;
  publish(failedMarkerOf(PchPath), &Empty, nullptr);
  llvm::sys::fs::remove(PchPath);
  llvm::sys::fs::remove(llvm::StringRef(PchPath).drop_back(4).str() + ".deps");
}

std::vector<ClangTidyError> runClangTidyWithPreamble(
    ClangTidyContext &Context, const tooling::CompilationDatabase &Compilations,
    const std::string &File,
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
    const PreambleCacheConfig &Cache, std::string *UsedEntry,
    const ExtraConsumerFactory &Extra) {
  bool UseCache = Cache.Enabled && checksAllowCache(Context, File);
  std::string Used;
  std::vector<ClangTidyError> Errors =
      runOnce(Context, Compilations, File, BaseFS, Cache, UseCache, Used, Extra);
  if (UsedEntry)
    *UsedEntry = Used;
  if (Used.empty() || !hasCompilerError(Errors))
    return Errors;
  if (UsedEntry)
    UsedEntry->clear();
  // Errors on top of a preamble may be the preamble's doing (clang reading
  // back what it wrote differently): the plain parse decides, and an entry
  // it contradicts is not used again.
  std::string None;
  std::vector<ClangTidyError> Plain =
      runOnce(Context, Compilations, File, BaseFS, Cache, false, None, Extra);
  if (!hasCompilerError(Plain)) {
    markPreambleFailed(Used);
    count(Cache, &PreambleCacheStats::Failed);
  }
  return Plain;
}

InUseEntry readInUseMarker(const std::string &MarkerPath) {
  InUseEntry E;
  auto Buf = llvm::MemoryBuffer::getFile(MarkerPath);
  if (!Buf)
    return E;
  llvm::SmallVector<llvm::StringRef, 3> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', 3);
  Lines.resize(3);
  E.Pch = Lines[0].trim().str();
  E.Link = Lines[1].trim().str();
  E.BuildFolder = Lines[2].trim().str();
  return E;
}

void removeDeadWorkerFiles(const InUseEntry &Entry) {
  if (!Entry.Link.empty())
    llvm::sys::fs::remove(Entry.Link);
  if (!Entry.BuildFolder.empty() && isBuildFolder(Entry.BuildFolder))
    llvm::sys::fs::remove_directories(Entry.BuildFolder);
}

bool readPreambleCounts(const std::string &Path, unsigned &Hits, unsigned &Builds,
                        unsigned &Skipped, unsigned &Failed) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return false;
  llvm::SmallVector<llvm::StringRef, 4> Fields;
  (*Buf)->getBuffer().trim().split(Fields, ' ');
  unsigned V[4];
  if (Fields.size() != 4)
    return false;
  for (size_t I = 0; I < 4; ++I)
    if (Fields[I].getAsInteger(10, V[I]))
      return false;
  Hits = V[0];
  Builds = V[1];
  Skipped = V[2];
  Failed = V[3];
  return true;
}

} // namespace cgt
