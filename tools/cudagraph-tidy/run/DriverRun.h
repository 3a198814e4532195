//===- DriverRun.h - a run's units, their results and its report -*- C++ -*-===//
//
// The driver's work apart from option parsing, as types and entry points:
// a run (DriverRun) plans a task per translation unit (UnitTask), analyses
// the units in parallel (RunChecks.cpp; each unit's clang-tidy run in
// AnalyzeUnit.cpp, its diagnostics made findings in TidyFindings.cpp),
// filters by a baseline and writes the report (WriteReport.cpp). The
// commands a unit is analysed with are CompileCommands.h's.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_DRIVERRUN_H
#define CUDAGRAPH_TIDY_TOOLS_DRIVERRUN_H

#include "run/CompileCommands.h"
#include "caches/PreambleCache.h"
#include "Report/Finding.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cgt {

/// How each translation unit is kept from taking the run down
/// (Isolation.h): a worker process per unit with these budgets, or, for
/// debugging, the driver's own process.
struct UnitLimits {
  bool InProcess = false;
  unsigned TimeoutSeconds = 300; ///< wall time per unit; 0: none
  unsigned MemoryMB = 8192;      ///< address space per worker; 0: none
  /// Tests only (--inject-fault=KIND:FILE): see Worker.cpp.
  std::string Fault;
  /// --verbose: a crashed worker's stack trace is printed, not only kept.
  bool Verbose = false;
  /// Whether a crash's stack and job are kept for the report
  /// (CrashReport.h); false where the unit is run again anyway.
  bool KeepCrashes = true;
  /// Asked while a worker runs: true stops it, and the unit is reported
  /// as cancelled (the language server, when a newer edit supersedes the
  /// text being analysed).
  std::function<bool()> Cancelled;
};

/// Unsaved editor buffers: absolute path -> text, read instead of the files
/// on disk (the language server's didChange).
using UnsavedFiles = std::map<std::string, std::string>;

struct UnitTask;
struct UnitResult;
class ParseFailureNotes;

/// What the parse that runs a unit's checks needs to export its summaries
/// as well (CheckedExport.h): the unit's ApiModelFiles without the
/// consumed summaries (the base, whose names are not exported), the
/// entries exported so far ("" for none) and the source root.
struct SummaryRequest {
  bool Enabled = false;
  std::string ModelFiles, EntriesPath, Root;
};

/// What a run does around each unit's analysis (ResultCache.h): adjust its
/// task (the summaries of other units it consumes), replay a stored result
/// instead of analysing, store a fresh one. Called from several threads.
class UnitHooks {
public:
  virtual ~UnitHooks() = default;
  virtual void prepare(size_t Index, UnitTask &Task) = 0;
  /// True when `Out` was filled without analysing.
  virtual bool replay(const UnitTask &Task, UnitResult &Out) = 0;
  virtual void store(const UnitTask &Task, const UnitResult &Result) = 0;
};

struct DriverRun {
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> OptionsProvider;
  const clang::tooling::CompilationDatabase *Compilations = nullptr;
  bool DeviceSide = false;
  unsigned Jobs = 1; ///< translation units analysed at once; 0: all cores
  PreambleCacheConfig Preamble{/*Enabled=*/false}; ///< see PreambleCache.h
  /// Prints "[12/175] path/file.cu" on stderr as each translation unit
  /// starts (the driver turns it on when stderr is a terminal).
  bool Progress = false;
  UnitLimits Limits;
  UnitHooks *Hooks = nullptr; ///< none: every unit is analysed
  UnsavedFiles Unsaved;        ///< given to every unit's task
  /// Told each unit's status as it is known, to say those that do not
  /// parse at once (ParseFailures.h); none: only the end lists them.
  ParseFailureNotes *ParseFailures = nullptr;
};

/// Everything one translation unit's analysis needs, resolved on the main
/// thread so that it can run on a worker thread or in a worker process.
struct UnitTask {
  std::string File; ///< as the user named it
  std::vector<clang::tooling::CompileCommand> Commands;
  /// The file's options: its .clang-tidy files, then --config and --checks.
  clang::tidy::ClangTidyOptions Options;
  PreambleCacheConfig Preamble{/*Enabled=*/false};
  std::string Fault; ///< tests only: the fault to inject into this unit
  /// Whether the result lists the files the parse read and the paths it
  /// missed (ReadFiles.h). Only a cache that keys on them needs the lists;
  /// recording and sending them costs about 0.2% of a unit like
  /// ggml-cuda.cu, so a run without one leaves them out (ResultCache.h).
  bool RecordReads = true;
  /// A summary pass's request: the same parse also exports the unit's
  /// summaries (CheckedExport.h). Not part of what the checks do.
  SummaryRequest Summaries;
  /// Buffers the parse reads instead of the files on disk; a task with any
  /// is never replayed from or stored in the result cache.
  UnsavedFiles Unsaved;
};

/// What the engines counted while analysing one unit, for --stats and the
/// budget warnings when the unit ran in another process.
struct UnitCounters {
  unsigned Functions = 0, WidenedFunctions = 0, BudgetFunctions = 0,
           MostDisjuncts = 0;
  /// Witness searches: confirmed, refuted (finding dropped), bounded.
  unsigned Confirmed = 0, Refuted = 0, RefutationGaveUp = 0;
  /// Searches for work ordered on some paths only (streams::StreamStats):
  /// a path found, none, cut by the bounds.
  unsigned GapsConfirmed = 0, GapsNoPath = 0, GapsCut = 0;
  unsigned PreambleHits = 0, PreambleBuilds = 0, PreambleSkipped = 0,
           PreambleFailed = 0;
  /// 1 for a unit whose worker ended without a result (stopped past
  /// --tu-timeout or cancelled, crashed, out of memory): the engines'
  /// counts above are missing for it, only the preamble cache's up to the
  /// end are known, and --stats says so (ClosingLines.cpp). Set by the
  /// parent, never on the worker's wire.
  unsigned Lost = 0;
};

struct UnitResult {
  UnitStatus Status;
  std::vector<FindingRecord> Findings;
  std::vector<std::string> ConfigErrors;
  UnitCounters Counters; ///< filled by workers only
  /// Every file the parse read (ReadFiles.h); empty when not all known
  /// or not asked for (UnitTask::RecordReads).
  std::vector<std::string> Dependencies;
  /// The paths it looked for and did not find.
  std::vector<std::string> AbsentFiles;
  /// The unit's exports (unitExportToJson) when the task asked for them
  /// and the worker finished; "" otherwise.
  std::string Summaries;
  /// Lines stderr prints under the unit's error: where a crash's stack
  /// trace was kept and how to reproduce it (CrashReport.h). Never in a
  /// report file: they name paths of this machine.
  std::string Detail;
  /// Its worker ran past --tu-timeout and was stopped. Set by the parent
  /// (never on the worker's wire, nor in the result cache, which does not
  /// store such units).
  bool TimedOut = false;
};

/// Analyses one translation unit in this process; `Extra` reads the same
/// AST after the checks.
UnitResult analyzeUnit(const UnitTask &Job, const ExtraConsumerFactory &Extra = {});

/// analyzeUnit in this process or in a worker (analyzeIsolated), as
/// `Limits` say.
UnitResult analyzeTask(const UnitTask &Task, const UnitLimits &Limits);

/// The units of `Files` as runChecks analyses them: a task for each file
/// of ToAnalyze (the hooks' prepare applied), a status saying why not for
/// the others. The summary passes build their checks' tasks with it too.
struct UnitPlan {
  std::vector<UnitTask> Tasks;   ///< parallel to the files
  std::vector<UnitResult> Units; ///< parallel to the files
  std::vector<size_t> ToAnalyze;
};
UnitPlan planUnits(DriverRun &Run, const std::vector<std::string> &Files);

struct RunResult {
  std::vector<FindingRecord> Findings; ///< sorted by file, offset, check
  std::vector<UnitStatus> Units;       ///< one per input file, in input order
  std::vector<std::string> UnitDetails; ///< parallel to Units: UnitResult::Detail
  std::vector<std::string> ConfigErrors; ///< bad options or model files
  /// What the engines gave up on a bound (Budgets.cpp); not a failure.
  std::vector<std::string> Incomplete;
  /// Parallel to Findings once a baseline was applied: "new" or
  /// "unchanged". Empty without a baseline.
  std::vector<std::string> BaselineStates;
  /// Findings the baseline already had and that were removed from Findings.
  unsigned Unchanged = 0;
};

struct ReportOptions {
  /// "text" (clang-tidy's layout, TextReport.h), "text-plain" (one line per
  /// finding and note), "sarif" or "codeclimate" (GitLab Code Quality).
  std::string Format = "text-plain";
  bool Color = false; ///< ANSI colours in "text"
  std::string OutputPath;      ///< empty: stdout
  std::string SarifRoot;       ///< absolute, symlinks resolved
};

/// Analyses each file with the enabled checks.
RunResult runChecks(DriverRun &Run, const std::vector<std::string> &Files);

/// Writes the report to `Opts.OutputPath` (stdout when empty). Returns false
/// with `Error` set when it cannot.
bool writeReport(const RunResult &Result, const ReportOptions &Opts,
                 std::string &Error);

/// Marks each finding "new" or "unchanged" against the fingerprints of a
/// baseline log; unchanged findings are removed unless `KeepUnchanged`
/// (then they stay, marked, for SARIF consumers that want them).
void applyBaseline(RunResult &Result, const std::set<std::string> &Baseline,
                   const std::string &SarifRoot, bool KeepUnchanged);

/// Checks every API model file named by an ApiModelFiles option (global or
/// per check) in the options of `Files`, so that a bad file is reported even
/// when no function in the sources makes a check load it. Returns messages.
std::vector<std::string>
validateApiModelFiles(clang::tidy::ClangTidyOptionsProvider &Provider,
                      const std::vector<std::string> &Files);

/// The default SARIF source root: the git top level above the current
/// directory, else the current directory; symlinks resolved.
std::string defaultSarifRoot();

/// Says in Result.Incomplete what the lifetime engine gave up in this
/// process (functions over its revisit budget or widened), if anything.
void noteEngineBudgets(RunResult &Result);

/// 0 no findings, 1 findings, 2 the tool could not do its job.
int exitCodeFor(const RunResult &Result);

} // namespace cgt

#endif
