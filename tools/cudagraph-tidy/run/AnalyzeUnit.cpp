//===- AnalyzeUnit.cpp - one unit's checks through clang-tidy -------------===//
//
// Parallel analysis works because nothing is shared between translation
// units: each gets its own ClangTidyContext, its own compile commands
// (looked up on the main thread beforehand) and its own physical file system,
// whose working directory is private (the process-wide real file system
// would chdir the whole process when ClangTool enters a build directory).
//
//===----------------------------------------------------------------------===//
#include "run/DriverRun.h"
#include "isolation/Isolation.h"
#include "run/ParseFailures.h"
#include "run/ReadFiles.h"
#include "run/TidyFindings.h"
#include "SharedMem/SharedMemAnalysis.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;
using namespace clang::tidy;

namespace cgt {
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
  // Every kernel check runs the same interpretation and fills the coverage:
  // a kernel over the step budget is named whichever of them is on.
  static const char *const KernelChecks[] = {
      "cudagraph-shared-index-overflow", "cudagraph-shared-bank-conflict",
      "cudagraph-shared-race", "cudagraph-barrier-divergence"};
  if (llvm::any_of(KernelChecks,
                   [&](const char *Name) { return Context.isCheckEnabled(Name); })) {
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
  bool FirstHasPlace = false;
  for (const ClangTidyError &E : Errors) {
    if (isConfigError(E)) {
      Out.ConfigErrors.push_back(E.Message.Message);
      continue;
    }
    if (isCompilerError(E)) {
      ++CompilerErrors;
      // The errors come sorted by place, those without one first: "too
      // many errors emitted, stopping now" would name none of the causes.
      SourcePos P = Lines.position(E.Message.FilePath, E.Message.FileOffset);
      if (FirstError.empty() || (!FirstHasPlace && !P.File.empty())) {
        FirstHasPlace = !P.File.empty();
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
    Out.Status.Problem = doesNotParse(CompilerErrors, FirstError);
  }
  return Out;
}

UnitResult analyzeTask(const UnitTask &Task, const UnitLimits &Limits) {
  return Limits.InProcess ? analyzeUnit(Task) : analyzeIsolated(Task, Limits);
}

} // namespace cgt
