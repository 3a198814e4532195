//===- DriverSupport.cpp --------------------------------------------------===//
//
// Parallel analysis works because nothing is shared between translation
// units: each gets its own ClangTidyContext, its own compile commands
// (looked up on the main thread beforehand) and its own physical file system,
// whose working directory is private (the process-wide real file system
// would chdir the whole process when ClangTool enters a build directory).
//
//===----------------------------------------------------------------------===//
#include "DriverSupport.h"
#include "Isolation.h"
#include "NvccCompat.h"
#include "TextReport.h"
#include "Sarif/CodeClimateWriter.h"
#include "ReadFiles.h"
#include "ApiModel/ApiModel.h"
#include "CompileDb/NvccArgs.h"
#include "Sarif/SarifWriter.h"
#include "SharedMem/SharedMemAnalysis.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <mutex>

using namespace clang;
using namespace clang::tidy;

namespace cgt {
namespace {

bool isCudaFile(llvm::StringRef File) {
  return File.ends_with(".cu") || File.ends_with(".cuh");
}

bool hasArg(const std::vector<std::string> &Args, llvm::StringRef Prefix) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with(Prefix))
      return true;
  return false;
}

/// Byte offsets to 1-based line/column, reading each file once (or taking
/// its unsaved text, which the offsets then refer to).
class LineTable {
public:
  void useText(const std::string &File, llvm::StringRef Text) {
    std::vector<unsigned> &Starts = Cache[File];
    Starts = {0};
    for (unsigned I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
  }

  SourcePos position(const std::string &File, unsigned Offset) {
    SourcePos P;
    P.File = File;
    P.Offset = Offset;
    const std::vector<unsigned> &Starts = lineStarts(File);
    if (Starts.empty())
      return P;
    auto It = std::upper_bound(Starts.begin(), Starts.end(), Offset);
    unsigned Line = It - Starts.begin();
    P.Line = Line;
    P.Column = Offset - Starts[Line - 1] + 1;
    P.EndLine = P.Line;
    P.EndColumn = P.Column;
    return P;
  }

private:
  const std::vector<unsigned> &lineStarts(const std::string &File) {
    auto It = Cache.find(File);
    if (It != Cache.end())
      return It->second;
    std::vector<unsigned> &Starts = Cache[File];
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return Starts;
    llvm::StringRef Text = (*Buf)->getBuffer();
    Starts.push_back(0);
    for (unsigned I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
    return Starts;
  }
  std::map<std::string, std::vector<unsigned>> Cache;
};

std::vector<RangeRecord>
rangesOf(const llvm::SmallVector<tooling::FileByteRange, 1> &Ranges) {
  std::vector<RangeRecord> Out;
  for (const tooling::FileByteRange &R : Ranges)
    Out.push_back({R.FilePath, R.FileOffset, R.Length});
  return Out;
}

std::vector<FixRecord> fixesOf(const llvm::StringMap<tooling::Replacements> &Fix,
                               LineTable &Lines) {
  std::vector<FixRecord> Out;
  for (const auto &FileFix : Fix)
    for (const tooling::Replacement &Rep : FileFix.second) {
      FixRecord F;
      F.Pos = Lines.position(Rep.getFilePath().str(), Rep.getOffset());
      SourcePos End = Lines.position(Rep.getFilePath().str(),
                                     Rep.getOffset() + Rep.getLength());
      F.Pos.EndLine = End.Line;
      F.Pos.EndColumn = End.Column;
      F.Length = Rep.getLength();
      F.Replacement = Rep.getReplacementText().str();
      Out.push_back(std::move(F));
    }
  return Out;
}

FindingRecord toRecord(const ClangTidyError &E, LineTable &Lines) {
  FindingRecord R;
  R.CheckName = E.DiagnosticName;
  R.Level = E.DiagLevel == tooling::Diagnostic::Error ? "error" : "warning";
  R.Message = E.Message.Message;
  if (!E.Message.FilePath.empty()) {
    R.Pos = Lines.position(E.Message.FilePath, E.Message.FileOffset);
    for (const tooling::FileByteRange &Range : E.Message.Ranges) {
      if (Range.FilePath != E.Message.FilePath ||
          Range.FileOffset != E.Message.FileOffset)
        continue;
      SourcePos End = Lines.position(Range.FilePath, Range.FileOffset + Range.Length);
      R.Pos.EndLine = End.Line;
      R.Pos.EndColumn = End.Column;
    }
  }
  R.Ranges = rangesOf(E.Message.Ranges);
  for (const tooling::DiagnosticMessage &N : E.Notes) {
    NoteRecord Note;
    Note.Message = N.Message;
    if (!N.FilePath.empty())
      Note.Pos = Lines.position(N.FilePath, N.FileOffset);
    Note.Ranges = rangesOf(N.Ranges);
    Note.Fixes = fixesOf(N.Fix, Lines);
    R.Notes.push_back(std::move(Note));
  }
  R.Fixes = fixesOf(E.Message.Fix, Lines);
  return R;
}

/// Calls `Respell` on every file path of `E`: its message, notes, ranges
/// and fix-its.
void respellPaths(ClangTidyError &E, llvm::function_ref<void(std::string &)> Respell) {
  auto Message = [&](tooling::DiagnosticMessage &M) {
    if (!M.FilePath.empty())
      Respell(M.FilePath);
    for (tooling::FileByteRange &R : M.Ranges)
      Respell(R.FilePath);
    llvm::StringMap<tooling::Replacements> Fixes;
    for (auto &KV : M.Fix) {
      std::string File = KV.getKey().str();
      Respell(File);
      tooling::Replacements &Out = Fixes[File];
      for (const tooling::Replacement &R : KV.getValue())
        llvm::consumeError(Out.add(tooling::Replacement(
            File, R.getOffset(), R.getLength(), R.getReplacementText())));
    }
    M.Fix = std::move(Fixes);
  };
  Message(E.Message);
  for (tooling::DiagnosticMessage &N : E.Notes)
    Message(N);
}

/// A diagnostic names a file as its compile did: relative to the command's
/// directory when the command named it so (a Bear or compiledb database:
/// `"arguments": [..., "src/x.cu"]`, `-Iinclude`). clang-tidy resolves such a
/// name against that directory (ClangTidyError::BuildDirectory) when it
/// reports; so does the driver, here, before anything reads the file (line
/// numbers), compares it (--diff, baselines) or keys on it (caches). Symbolic
/// links and ".." are resolved too, so that a header reached as
/// `include/x.h` and as `src/../include/x.h` is one file with one name.
void resolveAgainstBuildDirectory(std::vector<ClangTidyError> &Errors) {
  std::map<std::string, std::string> Resolved; // by directory, then name
  for (ClangTidyError &E : Errors)
    respellPaths(E, [&](std::string &Path) {
      if (Path.empty() || llvm::sys::path::is_absolute(Path))
        return;
      std::string Key = E.BuildDirectory + '\0' + Path;
      auto It = Resolved.find(Key);
      if (It == Resolved.end()) {
        llvm::SmallString<256> Abs(E.BuildDirectory);
        llvm::sys::path::append(Abs, Path);
        llvm::sys::fs::make_absolute(Abs);
        llvm::SmallString<256> Real;
        if (llvm::sys::fs::real_path(Abs, Real))
          llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
        else
          Abs = Real;
        It = Resolved.emplace(Key, std::string(Abs)).first;
      }
      Path = It->second;
    });
}

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == tooling::Diagnostic::Error &&
         llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

bool isConfigError(const ClangTidyError &E) {
  return E.DiagnosticName == "clang-tidy-config";
}

/// Unsaved buffers as a layer over the disk: the parse reads them instead
/// of the files, and the line table counts lines in them. They are keyed
/// by their real path too, which is how resolved diagnostics name them.
void overlayUnsaved(llvm::vfs::OverlayFileSystem &FS, const UnsavedFiles &Unsaved,
                    LineTable &Lines) {
  if (Unsaved.empty())
    return;
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[Path, Text] : Unsaved) {
    Memory->addFile(Path, /*ModificationTime=*/0,
                    llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
    Lines.useText(Path, Text);
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Path, Real) && Real != Path)
      Lines.useText(std::string(Real), Text);
  }
  FS.pushOverlay(Memory);
}

} // namespace

/// The CUDA installation clang will use: --cuda-path=, else clang's default.
static std::string cudaPathOf(const std::vector<std::string> &Args) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with("--cuda-path="))
      return A.substr(strlen("--cuda-path="));
  return "/usr/local/cuda";
}

std::vector<std::string> adjustCudaArgs(const std::vector<std::string> &In,
                                        const std::string &File,
                                        bool DeviceSide) {
  std::vector<std::string> Args =
      isNvccCommand(In) ? translateNvccArgs(In).Args : In;
  if (!isCudaFile(File) && !hasArg(Args, "-xcuda") &&
      std::find(Args.begin(), Args.end(), "cuda") == Args.end())
    return Args;
  std::vector<std::string> Out = Args;
  auto InsertAt = Out.empty() ? Out.end() : Out.begin() + 1;
  std::vector<std::string> Extra;
  if (!hasArg(Args, "--cuda-host-only") && !hasArg(Args, "--cuda-device-only") &&
      !hasArg(Args, "--cuda-compile-host-device"))
    Extra.push_back(DeviceSide ? "--cuda-device-only" : "--cuda-host-only");
  if (!hasArg(Args, "-Wno-unknown-cuda-version"))
    Extra.push_back("-Wno-unknown-cuda-version");
  if (llvm::StringRef(File).ends_with(".cuh") && !hasArg(Args, "-x")) {
    Extra.push_back("-x");
    Extra.push_back("cuda");
  }
  // nvcc puts CCCL (libcu++, cooperative_groups' <cuda/std/...>) on the
  // include path by itself; clang does not, and CUDA 13's headers need it.
  std::string Cccl = cudaPathOf(Args) + "/include/cccl";
  if (!hasArg(Args, "-I" + Cccl) && llvm::sys::fs::is_directory(Cccl) &&
      std::find(Args.begin(), Args.end(), Cccl) == Args.end()) {
    Extra.push_back("-isystem");
    Extra.push_back(Cccl);
  }
  // What nvcc's headers give host code and clang's do not (NvccCompat.h).
  const std::string &Compat = nvccCompatEnabled() ? nvccCompatHeader() : std::string();
  if (!Compat.empty() && std::find(Args.begin(), Args.end(), Compat) == Args.end()) {
    Extra.push_back("-include");
    Extra.push_back(Compat);
  }
  Out.insert(InsertAt, Extra.begin(), Extra.end());
  return withoutToolkitInclude(Out, cudaPathOf(Args));
}

namespace {

/// Replaces "@file" arguments by the file's contents, read relative to the
/// command's directory. nvcc's --options-file (CMake's Makefile generator
/// puts include paths there) becomes such an argument, and clang under
/// ClangTool would look for it relative to the process instead.
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &Args,
                                             llvm::StringRef Directory) {
  std::vector<std::string> Out;
  for (const std::string &A : Args) {
    if (A.size() < 2 || A[0] != '@') {
      Out.push_back(A);
      continue;
    }
    llvm::SmallString<256> Path(llvm::StringRef(A).drop_front());
    if (llvm::sys::path::is_relative(Path)) {
      llvm::SmallString<256> Joined(Directory);
      llvm::sys::path::append(Joined, Path);
      Path = Joined;
    }
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      Out.push_back(A); // clang then reports the missing file
      continue;
    }
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 16> Tokens;
    llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
    for (const char *T : Tokens)
      Out.push_back(T);
  }
  return Out;
}

/// Applies the nvcc translation and adjustCudaArgs to every command of the
/// underlying database.
class CudaAdjustingDatabase : public tooling::CompilationDatabase {
public:
  CudaAdjustingDatabase(const tooling::CompilationDatabase &Inner, bool DeviceSide)
      : Inner(Inner), DeviceSide(DeviceSide) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    auto Cmds = Inner.getCompileCommands(File);
    for (tooling::CompileCommand &C : Cmds) {
      if (isNvccCommand(C.CommandLine))
        C.CommandLine = expandResponseFiles(translateNvccArgs(C.CommandLine).Args,
                                            C.Directory);
      C.CommandLine = adjustCudaArgs(C.CommandLine, C.Filename, DeviceSide);
    }
    return Cmds;
  }
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }

private:
  const tooling::CompilationDatabase &Inner;
  bool DeviceSide;
};

} // namespace

namespace {

/// Serves the commands looked up for one file; lets worker threads run
/// without touching the user's database.
class FixedCommandsDatabase : public tooling::CompilationDatabase {
public:
  explicit FixedCommandsDatabase(std::vector<tooling::CompileCommand> Cmds)
      : Cmds(std::move(Cmds)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return Cmds;
  }

private:
  std::vector<tooling::CompileCommand> Cmds;
};

} // namespace

UnitResult analyzeUnit(const UnitTask &Job, const ExtraConsumerFactory &Extra) {
  const std::string &File = Job.File;
  std::vector<tooling::CompileCommand> Cmds = Job.Commands;
  UnitResult Out;
  Out.Status.File = File;
  LineTable Lines;
  // A main file the user named relatively (flags after `--`): see
  // spellRelativeTo.
  std::string RelativeTo = spellingRoot(File, Cmds);
  FixedCommandsDatabase Db(std::move(Cmds));
  // The file's options are already resolved (its .clang-tidy files, then
  // --config and --checks on top): a provider that read the .clang-tidy
  // files again would put their Checks after --checks and turn back on what
  // `--checks=-*,...` turned off.
  ClangTidyContext Context(
      std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(),
                                               Job.Options),
      false, false, false);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Disk = llvm::vfs::createPhysicalFileSystem();
  llvm::IntrusiveRefCntPtr<RecordingFileSystem> Recording;
  if (Job.RecordReads)
    Recording = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(Disk);
  auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      Recording ? llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(Recording) : Disk);
  overlayUnsaved(*BaseFS, Job.Unsaved, Lines);
  // Quiet: runClangTidy's "N warnings generated" says nothing the report
  // does not.
  // The shared-memory checks count their kernels per thread (one TU at a
  // time on each).
  smem::unitCoverage() = smem::UnitCoverage();
  std::string Preamble;
  std::vector<ClangTidyError> Errors =
      runClangTidyWithPreamble(Context, Db, File, BaseFS, Job.Preamble, &Preamble,
                               withInjectedFault(Job.Fault, Extra));
  if (Recording) {
    Out.Dependencies = Recording->files();
    Out.AbsentFiles = Recording->absent();
  }
  if (Recording && !Preamble.empty()) {
    std::vector<std::string> Headers = preambleDependencies(Preamble);
    if (Headers.empty())
      Out.Dependencies.clear(); // evicted meanwhile: not all known
    Out.Dependencies.insert(Out.Dependencies.end(), Headers.begin(), Headers.end());
  }
  resolveAgainstBuildDirectory(Errors);
  if (!RelativeTo.empty())
    spellRelativeTo(Errors, RelativeTo);
  if (Context.isCheckEnabled("cudagraph-shared-index-overflow") ||
      Context.isCheckEnabled("cudagraph-shared-bank-conflict")) {
    const smem::UnitCoverage &Cov = smem::unitCoverage();
    Out.Status.SharedKernels = static_cast<int>(Cov.kernels());
    Out.Status.SharedNoShape = Cov.noShape();
    Out.Status.SharedGaveUp = Cov.gaveUp();
    Out.Status.SharedGaveUpKernels = Cov.gaveUpNames();
  }
  if (Context.isCheckEnabled("cudagraph-shared-race"))
    for (const auto &[Reason, Kernels] : smem::unitCoverage().RaceSkips)
      Out.Status.SharedRaceSkips[Reason] = static_cast<unsigned>(Kernels.size());
  unsigned CompilerErrors = 0;
  std::string FirstError;
  for (const ClangTidyError &E : Errors) {
    if (isConfigError(E)) {
      Out.ConfigErrors.push_back(E.Message.Message);
      continue;
    }
    if (isCompilerError(E)) {
      if (CompilerErrors++ == 0) {
        SourcePos P = Lines.position(E.Message.FilePath, E.Message.FileOffset);
        FirstError = P.File.empty() ? E.Message.Message
                                    : P.File + ":" + std::to_string(P.Line) +
                                          ":" + std::to_string(P.Column) +
                                          ": " + E.Message.Message;
      }
      continue;
    }
    Out.Findings.push_back(toRecord(E, Lines));
  }
  if (CompilerErrors) {
    Out.Status.Analyzed = false;
    Out.Status.Problem = "the translation unit does not parse (" +
                         std::to_string(CompilerErrors) + " compiler error" +
                         (CompilerErrors == 1 ? "" : "s") +
                         "; first: " + FirstError + ")";
  }
  return Out;
}

namespace {

void sortAndDedupe(std::vector<FindingRecord> &Findings) {
  std::stable_sort(Findings.begin(), Findings.end(),
                   [](const FindingRecord &A, const FindingRecord &B) {
                     return std::tie(A.Pos.File, A.Pos.Offset, A.CheckName, A.Message) <
                            std::tie(B.Pos.File, B.Pos.Offset, B.CheckName, B.Message);
                   });
  // A header included by several files yields the same finding once per file.
  Findings.erase(
      std::unique(Findings.begin(), Findings.end(),
                  [](const FindingRecord &A, const FindingRecord &B) {
                    return A.Pos.File == B.Pos.File && A.Pos.Offset == B.Pos.Offset &&
                           A.CheckName == B.CheckName && A.Message == B.Message;
                  }),
      Findings.end());
}

} // namespace

std::string spellingRoot(const std::string &File,
                         const std::vector<tooling::CompileCommand> &Cmds) {
  // A database's own relative names (Bear's) are the database's, not the
  // user's: those findings are absolute wherever the driver runs.
  if (Cmds.empty() || llvm::sys::path::is_absolute(File) ||
      llvm::sys::path::is_absolute(Cmds.front().Filename))
    return "";
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "";
  llvm::StringRef Dir = Cmds.front().Directory;
  return Dir == "." || Dir == Cwd ? std::string(Cwd) : "";
}

namespace {

/// Commands that run in the current directory (flags after `--`) name the
/// file the way the user did, so that diagnostics do too, as in clang-tidy.
void keepUserPath(std::vector<tooling::CompileCommand> &Cmds,
                  const std::string &UserPath, const std::string &AbsPath) {
  if (llvm::sys::path::is_absolute(UserPath))
    return;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  for (tooling::CompileCommand &C : Cmds) {
    if (C.Directory != "." && C.Directory != Cwd)
      continue;
    for (std::string &A : C.CommandLine)
      if (A == AbsPath)
        A = UserPath;
    if (C.Filename == AbsPath)
      C.Filename = UserPath;
  }
}

/// Tests only: `Spec` is KIND:FILE (Worker.cpp); the unit whose file name
/// is FILE gets the fault.
void injectFaultInto(UnitTask &Task, llvm::StringRef Spec) {
  auto [Kind, Name] = Spec.split(':');
  if (Name.empty() || llvm::sys::path::filename(Task.File) != Name)
    return;
  if (Kind == "preamble-crash")
    Task.Preamble.FaultCrashOnRead = true;
  else
    Task.Fault = Kind.str();
}

/// The "[12/175] path/file.cu" lines: numbered in the order units start, so
/// a slow file is the one named last while the count stops moving. Lines
/// are whole even when several workers start at once.
class StartCounter {
public:
  StartCounter(bool Enabled, size_t Total) : Enabled(Enabled), Total(Total) {}
  void started(const std::string &File) {
    if (!Enabled)
      return;
    std::lock_guard<std::mutex> Lock(M);
    llvm::errs() << "[" << ++Started << "/" << Total << "] " << File << "\n";
  }

private:
  bool Enabled;
  size_t Total;
  size_t Started = 0;
  std::mutex M;
};

} // namespace

UnitPlan planUnits(DriverRun &Run, const std::vector<std::string> &Files) {
  UnitPlan Plan;
  Plan.Units.resize(Files.size());
  Plan.Tasks.resize(Files.size());
  // Commands looked up here, on one thread: the user's database (JSON,
  // interpolating) is not documented as safe for concurrent use. As the
  // summary passes look them up (analysisCommands), so that both parse
  // with the same command.
  for (size_t I = 0; I < Files.size(); ++I) {
    Plan.Units[I].Status.File = Files[I];
    if (!llvm::sys::fs::exists(Files[I])) {
      Plan.Units[I].Status.Analyzed = false;
      Plan.Units[I].Status.Problem = "no such file";
      continue;
    }
    Plan.Tasks[I].Commands = analysisCommands(*Run.Compilations, Files[I], Run.DeviceSide);
    Plan.Tasks[I].Unsaved = Run.Unsaved;
    if (Plan.Tasks[I].Commands.empty()) {
      Plan.Units[I].Status.Analyzed = false;
      Plan.Units[I].Status.Problem =
          "no compile command for this file in the compilation database";
      continue;
    }
    Plan.ToAnalyze.push_back(I);
  }
  // Options resolved here too: the provider reads .clang-tidy files and
  // caches them, which is not documented as thread-safe either.
  for (size_t I : Plan.ToAnalyze) {
    UnitTask &T = Plan.Tasks[I];
    T.File = Files[I];
    T.Options = ClangTidyOptions::getDefaults().merge(
        Run.OptionsProvider->getOptions(Files[I]), 0);
    T.Preamble = Run.Preamble;
    injectFaultInto(T, Run.Limits.Fault);
    if (Run.Hooks)
      Run.Hooks->prepare(I, T);
  }
  return Plan;
}

UnitResult analyzeTask(const UnitTask &Task, const UnitLimits &Limits) {
  return Limits.InProcess ? analyzeUnit(Task) : analyzeIsolated(Task, Limits);
}

RunResult runChecks(DriverRun &Run, const std::vector<std::string> &Files) {
  RunResult Result;
  UnitPlan Plan = planUnits(Run, Files);
  std::vector<UnitResult> &Units = Plan.Units;
  std::vector<UnitTask> &Tasks = Plan.Tasks;
  const std::vector<size_t> &ToAnalyze = Plan.ToAnalyze;
  unsigned Threads = Run.Jobs ? Run.Jobs : llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min<unsigned>(Threads, ToAnalyze.size()));
  StartCounter Progress{Run.Progress, ToAnalyze.size()};
  auto AnalyzeOne = [&](size_t I) {
    Progress.started(Files[I]);
    if (Run.Hooks && Run.Hooks->replay(Tasks[I], Units[I]))
      return;
    Units[I] = analyzeTask(Tasks[I], Run.Limits);
    if (Run.Hooks)
      Run.Hooks->store(Tasks[I], Units[I]);
  };
  if (Threads <= 1) {
    for (size_t I : ToAnalyze)
      AnalyzeOne(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t I : ToAnalyze)
      Pool.async([&, I] { AnalyzeOne(I); });
    Pool.wait();
  }
  // Merged in input order and then sorted, so the report does not depend on
  // which thread finished first.
  std::set<std::string> SeenConfig;
  for (size_t I = 0; I < Units.size(); ++I) {
    UnitResult &U = Units[I];
    U.Status.File = Files[I]; // as the user named it
    Result.Units.push_back(U.Status);
    Result.UnitDetails.push_back(U.Detail);
    for (FindingRecord &F : U.Findings)
      Result.Findings.push_back(std::move(F));
    for (const std::string &C : U.ConfigErrors)
      if (SeenConfig.insert(C).second)
        Result.ConfigErrors.push_back(C);
    addCounters(U.Counters, Run.Preamble.Stats);
  }
  sortAndDedupe(Result.Findings);
  return Result;
}

namespace {

/// What `git -C Dir Args...` prints, trimmed; "" when git is missing or fails.
std::string gitOutput(const std::string &Dir,
                      std::initializer_list<llvm::StringRef> Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  llvm::SmallString<128> Out;
  if (!Git || llvm::sys::fs::createTemporaryFile("cudagraph-tidy-git", "txt", Out))
    return "";
  llvm::FileRemover Remove(Out);
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(Out),
                                                llvm::StringRef("")};
  if (llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects) != 0)
    return "";
  auto Buf = llvm::MemoryBuffer::getFile(Out);
  return Buf ? (*Buf)->getBuffer().trim().str() : "";
}

/// When the source root is the top level of a git work tree with a commit
/// and an origin, names that commit and origin's URL. Without an origin
/// there is none: the local repository's URI would be a path of the
/// analysing machine, which the log never carries.
void addGitProvenance(SarifOptions &SO) {
  std::string Top = gitOutput(SO.SourceRoot, {"rev-parse", "--show-toplevel"});
  llvm::SmallString<256> Real;
  if (Top.empty() || llvm::sys::fs::real_path(Top, Real) || Real != SO.SourceRoot)
    return;
  SO.RevisionId = gitOutput(SO.SourceRoot, {"rev-parse", "-q", "--verify", "HEAD"});
  SO.RepositoryUri = repositoryUriFromRemote(
      gitOutput(SO.SourceRoot, {"remote", "get-url", "origin"}));
  if (llvm::StringRef(SO.RepositoryUri).starts_with("file:"))
    SO.RepositoryUri.clear(); // an origin on this machine is a local path too
  SO.Branch = gitOutput(SO.SourceRoot, {"symbolic-ref", "-q", "--short", "HEAD"});
}

std::string sarifText(const RunResult &Result, const ReportOptions &Opts) {
  SarifInput In;
  In.Findings = Result.Findings;
  In.BaselineStates = Result.BaselineStates;
  In.Units = Result.Units;
  In.ConfigErrors = Result.ConfigErrors;
  In.Incomplete = Result.Incomplete;
  SarifOptions SO;
  SO.SourceRoot = Opts.SarifRoot;
  SO.ToolVersion = CUDAGRAPH_TIDY_VERSION;
  if (!SO.SourceRoot.empty())
    addGitProvenance(SO);
  return writeSarif(In, SO);
}

} // namespace

bool writeReport(const RunResult &Result, const ReportOptions &Opts,
                 std::string &Error) {
  // Text and Code Climate show what needs attention: findings a baseline
  // already had are only kept for SARIF consumers (baselineState).
  std::vector<FindingRecord> Shown;
  std::vector<bool> Hidden;
  for (size_t I = 0; I < Result.Findings.size(); ++I) {
    Hidden.push_back(!Result.BaselineStates.empty() &&
                     Result.BaselineStates[I] == "unchanged");
    if (!Hidden.back())
      Shown.push_back(Result.Findings[I]);
  }
  std::string Text;
  if (Opts.Format == "text")
    Text = formatClangText(Shown, Opts.Color);
  else if (Opts.Format == "text-plain")
    Text = formatPlainText(Shown);
  else if (Opts.Format == "sarif")
    Text = sarifText(Result, Opts);
  else if (Opts.Format == "codeclimate")
    Text = writeCodeClimate(Result.Findings, Hidden, Opts.SarifRoot);
  else {
    Error = "unknown format '" + Opts.Format + "'";
    return false;
  }
  if (Opts.OutputPath.empty() || Opts.OutputPath == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Opts.OutputPath, EC);
  if (EC) {
    Error = "cannot write '" + Opts.OutputPath + "': " + EC.message();
    return false;
  }
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    Error = "cannot write '" + Opts.OutputPath + "': " + OS.error().message();
    OS.clear_error();
    return false;
  }
  return true;
}

void applyBaseline(RunResult &Result, const std::set<std::string> &Baseline,
                   const std::string &SarifRoot, bool KeepUnchanged) {
  SourceText Text;
  std::vector<std::string> Prints =
      computeFingerprints(Result.Findings, SarifRoot, Text);
  std::vector<FindingRecord> Kept;
  std::vector<std::string> States;
  Result.Unchanged = 0;
  for (size_t I = 0; I < Result.Findings.size(); ++I) {
    bool Old = Baseline.count(Prints[I]) != 0;
    Result.Unchanged += Old;
    if (Old && !KeepUnchanged)
      continue;
    Kept.push_back(std::move(Result.Findings[I]));
    States.push_back(Old ? "unchanged" : "new");
  }
  Result.Findings = std::move(Kept);
  Result.BaselineStates = std::move(States);
}

std::vector<std::string>
validateApiModelFiles(ClangTidyOptionsProvider &Provider,
                      const std::vector<std::string> &Files) {
  std::set<std::string> Values;
  for (const std::string &File : Files) {
    ClangTidyOptions Opts = Provider.getOptions(File);
    for (const auto &KV : Opts.CheckOptions) {
      llvm::StringRef Key = KV.getKey();
      if (Key == "ApiModelFiles" || Key.ends_with(".ApiModelFiles"))
        Values.insert(KV.getValue().Value);
    }
  }
  std::vector<std::string> Errors;
  for (const std::string &Value : Values) {
    auto Model = ApiModel::builtin();
    if (!Model) {
      Errors.push_back("cannot load the built-in CUDA API model: " +
                       llvm::toString(Model.takeError()));
      return Errors;
    }
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(Value).split(Parts, ';', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts)
      if (llvm::Error E = (*Model)->addFile(Part.trim()))
        Errors.push_back("invalid API model file (ApiModelFiles=" + Value +
                         "): " + llvm::toString(std::move(E)));
  }
  return Errors;
}

std::string defaultSarifRoot() {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "";
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Cwd, Real))
    Cwd = Real;
  for (llvm::StringRef Dir = Cwd; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Git(Dir);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Dir.str();
  }
  return std::string(Cwd);
}

std::vector<tooling::CompileCommand>
analysisCommands(const tooling::CompilationDatabase &Db, const std::string &File,
                 bool DeviceSide) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::vector<tooling::CompileCommand> Cmds =
      CudaAdjustingDatabase(Db, DeviceSide).getCompileCommands(Abs);
  keepUserPath(Cmds, File, std::string(Abs));
  return Cmds;
}

int exitCodeFor(const RunResult &Result) {
  for (const UnitStatus &U : Result.Units)
    if (!U.Analyzed)
      return 2;
  if (!Result.ConfigErrors.empty())
    return 2;
  for (size_t I = 0; I < Result.Findings.size(); ++I)
    if (Result.BaselineStates.empty() || Result.BaselineStates[I] != "unchanged")
      return 1;
  return 0;
}

} // namespace cgt
