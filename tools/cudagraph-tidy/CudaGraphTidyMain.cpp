//===- CudaGraphTidyMain.cpp - the standalone cudagraph-tidy driver -------===//
//
// Runs the cudagraph-* checks through clang-tidy's library on the files given,
// with compiler flags after `--` or from `-p <dir>` (compile_commands.json).
// For CUDA sources it analyses the host side unless told otherwise, because
// clang-tidy would otherwise pick the device pass and hide host-only code.
//
// Every diagnostic is converted to a cgt::FindingRecord (lib/Report) so that
// the text printer and the SARIF writer (lib/Sarif) share one form.
// nvcc commands in compile_commands.json are translated (lib/CompileDb);
// `-p build` without files analyses every file of the database.
//
// stderr carries the progress lines ("[12/175] file" as each unit starts,
// by default only on a terminal) and the closing line (findings, units,
// wall time); stdout only ever carries the report.
//
// Exit codes: 0 no (new) findings, 1 findings, 2 the tool could not do its
// job (bad arguments, missing file or database, unparsable translation unit,
// bad model file, bad baseline). With --baseline only findings the baseline
// does not have count.
//
// This file holds the options, the subcommands and the steps of a run in
// order; the steps themselves are in the folders beside it (run/,
// summaries/, isolation/, caches/, reports/, lsp/; docs/architecture.md).
//
//===----------------------------------------------------------------------===//
#include "summaries/CrossTu.h"
#include "run/DiffFilter.h"
#include "run/DriverRun.h"
#include "summaries/ExportModel.h"
#include "summaries/ExportWorker.h"
#include "summaries/SummariesArtifact.h"
#include "isolation/Isolation.h"
#include "run/Launcher.h"
#include "lsp/LspServer.h"
#include "reports/MergeSarif.h"
#include "run/NvccCompat.h"
#include "run/ParseFailures.h"
#include "reports/ClosingLines.h"
#include "reports/ReportStyle.h"
#include "run/ProjectInputs.h"
#include "run/TidyConfig.h"
#include "run/Sharding.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "Report/Rules.h"
#include "Sarif/SarifWriter.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;

namespace clang::tidy {
extern volatile int CudaGraphTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED CudaGraphTidyModuleAnchorDestination =
    CudaGraphTidyModuleAnchorSource;
} // namespace clang::tidy

static cl::OptionCategory ToolCategory("cudagraph-tidy options");

static cl::opt<std::string> ChecksOpt(
    "checks",
    cl::desc("Comma-separated globs of checks to run, added after the "
             "default '-*,cudagraph-*' and any .clang-tidy Checks"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> ConfigOpt(
    "config", cl::desc("Inline YAML configuration, as for clang-tidy --config"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> ConfigFileOpt(
    "config-file", cl::desc("Path to a .clang-tidy style configuration file"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the checks and exit"),
                                cl::cat(ToolCategory));
static cl::opt<std::string> FormatOpt(
    "format",
    cl::desc("Report format: text (clang-tidy's layout: source line, caret, "
             "fix-its), text-plain (one line per finding and note), sarif, "
             "codeclimate (GitLab Code Quality); default: text when stdout is "
             "a terminal, else text-plain"),
    cl::init(""), cl::cat(ToolCategory));

static cl::opt<std::string> OutputOpt(
    "o", cl::desc("Write the report to this file instead of stdout"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<bool> DeviceSide(
    "cuda-device-side",
    cl::desc("Analyse the device compilation of CUDA files instead of the "
             "host side"),
    cl::cat(ToolCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Print no summary line"),
                           cl::cat(ToolCategory));
static cl::opt<unsigned> JobsOpt(
    "jobs",
    cl::desc("Translation units to analyse in parallel (0: one per core); "
             "the report is the same whatever the number"),
    cl::init(1), cl::cat(ToolCategory));
// Aliases are hidden by default; --help lists every option the driver takes.
static cl::alias JobsAlias("j", cl::desc("Alias for --jobs"), cl::aliasopt(JobsOpt),
                           cl::NotHidden, cl::cat(ToolCategory));
static cl::opt<std::string> SarifRootOpt(
    "sarif-root",
    cl::desc("Directory SARIF URIs are relative to (%SRCROOT%); default: the "
             "git top level of the current directory, else the current "
             "directory"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> BaselineOpt(
    "baseline",
    cl::desc("SARIF log of an earlier run: report only findings it does not "
             "have (matched by partialFingerprints)"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<bool> KeepUnchanged(
    "baseline-keep-unchanged",
    cl::desc("With --baseline and --format=sarif, also write the findings the "
             "baseline has, with baselineState \"unchanged\""),
    cl::cat(ToolCategory));
static cl::opt<std::string> ShardOpt(
    "shard",
    cl::desc("Analyse only slice I of N of the input files (I/N, 1-based), "
             "the same on every machine: with --summaries, files dealt by the "
             "costs the file records (largest first, to the least loaded "
             "slice), else round-robin in sorted order; merge the logs with "
             "`cudagraph-tidy merge-sarif`"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> DiffOpt(
    "diff",
    cl::desc("Report only findings on lines changed since this git revision "
             "(working tree against REF), or in the unified diff read from "
             "stdin with --diff=-; with -p and no files, analyse only the "
             "files the diff touches"),
    cl::value_desc("REF"), cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> PreambleCacheOpt(
    "preamble-cache",
    cl::desc("Precompiled #include blocks kept in $XDG_CACHE_HOME/"
             "cudagraph-tidy: auto (default; reuse, and build for runs of up "
             "to 8 files), on (always build), off; default from "
             "$CUDAGRAPH_TIDY_PREAMBLE_CACHE"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> ExportModelOpt(
    "export-model",
    cl::desc("Write the summaries of the functions with external linkage as "
             "an API model file (for ApiModelFiles) instead of checking"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(ToolCategory));
static cl::opt<bool> NoPreambleCache(
    "no-preamble-cache",
    cl::desc("Same as --preamble-cache=off: parse every file in full"),
    cl::cat(ToolCategory));
static cl::opt<bool> ProgressOpt(
    "progress",
    cl::desc("Print \"[12/175] file\" on stderr as each translation unit "
             "starts (default: when stderr is a terminal and not --quiet)"),
    cl::cat(ToolCategory));
static cl::opt<unsigned> TuTimeoutOpt(
    "tu-timeout",
    cl::desc("Seconds one translation unit may take before its analysis is "
             "stopped and reported (default 300; 0: no limit)"),
    cl::value_desc("SECONDS"), cl::init(300), cl::cat(ToolCategory));
static cl::opt<unsigned> TuMemoryOpt(
    "tu-memory",
    cl::desc("MiB of memory one translation unit's analysis may allocate "
             "before it is stopped and reported (0: no limit)"),
    cl::value_desc("MIB"), cl::init(cgt::DefaultTuMemoryMB), cl::cat(ToolCategory));
static cl::opt<bool> InProcessOpt(
    "in-process",
    cl::desc("Analyse every translation unit in the driver's own process, "
             "without worker processes: a crash or hang then takes the whole "
             "run (for debugging the driver)"),
    cl::cat(ToolCategory));
static cl::opt<std::string> InjectFaultOpt(
    "inject-fault",
    cl::desc("For the driver's own tests only: make the analysis of FILE "
             "crash, check-crash (crash in the checks, after the parse), "
             "hang, check-hang (hang in the checks), alloc(ate without bound), "
             "preamble-crash or preamble-build-kill"),
    cl::value_desc("KIND:FILE"), cl::init(""), cl::cat(ToolCategory));
// The subcommands parse their own arguments before cl sees any; --help
// names them here so that they can be found.
static cl::extrahelp SubcommandsHelp(R"(
Subcommands (before any option):
  cudagraph-tidy merge-sarif A.sarif B.sarif... [-o OUT]
      merge the logs of --shard runs into one
  cudagraph-tidy launch [options] COMPILER ARGS...
      analyse the source of a compile command, then run it (a compiler
      launcher: CMAKE_CUDA_COMPILER_LAUNCHER="cudagraph-tidy;launch")
  cudagraph-tidy lsp [-p DIR] [--checks=GLOBS] [--config-file=FILE]
                     [--preamble-cache=auto|on|off] [--cache-dir=DIR]
                     [--cache-max-mb=MIB] [-- FLAGS]
      a Language Server Protocol server over stdio (docs/editors.md)
)");
static cl::opt<std::string> ResultCacheOpt(
    "result-cache", cl::value_desc("on|off"),
    cl::desc("Keep each translation unit's summaries and findings in the cache "
             "folder, keyed by a hash of its files, flags, options and the "
             "summaries it consumed, and replay them while that is unchanged: "
             "on (default) or off; default from $CUDAGRAPH_TIDY_RESULT_CACHE"),
    cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> CrossTuOpt(
    "cross-tu-summaries", cl::value_desc("on|off"),
    cl::desc("With two or more files: first summarise every file of the "
             "database (or every file given), so that wrappers defined in "
             "other files are known at their calls: on (default) or off"),
    cl::init("on"), cl::cat(ToolCategory));
static cl::opt<std::string> SummariesOpt(
    "summaries",
    cl::desc("Take the other files' summaries from FILE (written by "
             "`cudagraph-tidy summarize` or --write-summaries over the same "
             "database) instead of summarising every file: what lets each "
             "shard of a CI matrix do only its share"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> WriteSummariesOpt(
    "write-summaries",
    cl::desc("Also write the summaries this run computed, for --summaries"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(ToolCategory));
static cl::opt<std::string> CacheDirOpt(
    "cache-dir",
    cl::desc("The cache folder (preamble, summary and result caches, the nvcc "
             "compatibility header); default $XDG_CACHE_HOME/cudagraph-tidy, "
             "else ~/.cache/cudagraph-tidy"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(ToolCategory));
static cl::opt<unsigned> CacheMaxMbOpt(
    "cache-max-mb",
    cl::desc("Size bound of each part of the cache folder (preambles; summaries "
             "and results), least recently used entries evicted first (default "
             "$CUDAGRAPH_TIDY_CACHE_MB, else 2048)"),
    cl::value_desc("MIB"), cl::init(0), cl::cat(ToolCategory));
static cl::opt<std::string> CacheUrlOpt(
    "cache-url",
    cl::desc("Also keep the result cache on this HTTP server, shared by the "
             "machines of a CI fleet (GET/PUT URL/ENTRY, as ccache's and "
             "Bazel's HTTP caches); a server that fails is not asked again in "
             "the run; default $CUDAGRAPH_TIDY_CACHE_URL"),
    cl::value_desc("http://HOST:PORT/PREFIX"), cl::init(""), cl::cat(ToolCategory));
static cl::opt<unsigned> CacheTimeoutOpt(
    "cache-timeout",
    cl::desc("Seconds one request to the --cache-url server may take (default "
             "$CUDAGRAPH_TIDY_CACHE_TIMEOUT, else 10)"),
    cl::value_desc("SECONDS"), cl::init(0), cl::cat(ToolCategory));
static cl::opt<bool> NoNvccCompatOpt(
    "no-nvcc-compat",
    cl::desc("Do not force-include into CUDA units the header with what "
             "nvcc's CUDA headers give host code and clang's do not (host "
             "min/max of mixed types; assert.h, stdio.h, stdlib.h, string.h, "
             "time.h, <new>)"),
    cl::cat(ToolCategory));
static cl::opt<bool> NvccCompatHeaderOpt(
    "nvcc-compat-header",
    cl::desc("Print the path of that header and exit (for clang-tidy with the "
             "plugin: -include PATH after --); it lies in the cache folder "
             "(--cache-dir)"),
    cl::cat(ToolCategory));
static cl::opt<bool> VerboseOpt(
    "verbose",
    cl::desc("Print the stack trace of a translation unit whose analysis "
             "crashed (else kept in the file its error names)"),
    cl::cat(ToolCategory));
static cl::opt<bool> NoProgressOpt("no-progress",
                                   cl::desc("Print no progress lines"),
                                   cl::cat(ToolCategory));

namespace {

/// `--stats` is LLVM's own option (llvm/ADT/Statistic.h), registered in
/// LLVM's general category, which HideUnrelatedOptions hides from --help.
/// The driver reads it (main's end), so it is listed with the driver's
/// options, saying what the driver prints with it.
void listStatsOption() {
  auto &Registered = cl::getRegisteredOptions();
  auto It = Registered.find("stats");
  if (It == Registered.end())
    return;
  cl::Option *Stats = It->second;
  Stats->addCategory(ToolCategory);
  Stats->setHiddenFlag(cl::NotHidden);
  Stats->setDescription(
      "Also print on stderr what the run counted: preamble cache hits and "
      "builds, functions where the lifetime engine hit a bound, the summary "
      "passes' work, kernels with __shared__ accesses and those without a "
      "block shape (per file), and LLVM's statistics");
}

/// What --checks, --config and --config-file said.
cgt::TidyConfigArgs tidyConfigArgs() {
  return {ChecksOpt, ConfigOpt, ConfigFileOpt};
}

/// Counted by every unit's analysis (the workers' counts added as their
/// results arrive); printed with --stats.
cgt::PreambleCacheStats PreambleStats;

int fail(const Twine &Message) {
  errs() << "cudagraph-tidy: error: " << Message << "\n";
  return 2;
}

} // namespace

int main(int argc, const char **argv) {
  auto Started = std::chrono::steady_clock::now();
  sys::PrintStackTraceOnErrorSignal(argv[0]);
  if (argc > 1 && StringRef(argv[1]) == "merge-sarif")
    return cgt::mergeSarifMain(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "__analyze-unit")
    return cgt::analyzeUnitWorkerMain(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "__export-unit")
    return cgt::exportUnitWorkerMain(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "launch")
    return cgt::launchMain(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "lsp")
    return cgt::lspMain(argc, argv);
  // `summarize -p DB -o FILE`: the summary passes alone, their entries as
  // one file that the shards of a CI matrix read (--summaries).
  std::vector<const char *> Args(argv, argv + argc);
  bool Summarize = argc > 1 && StringRef(argv[1]) == "summarize";
  if (Summarize) {
    Args.erase(Args.begin() + 1);
    argc = static_cast<int>(Args.size());
    argv = Args.data();
  }
  // `FILE -- nvcc ...`: clang would reject nvcc's flags.
  std::vector<std::string> TranslatedStorage;
  std::vector<const char *> Translated =
      cgt::translateNvccAfterDashDash(argc, argv, TranslatedStorage);
  argc = static_cast<int>(Translated.size());
  argv = Translated.data();
  cl::opt<std::string> &ColorOpt = cgt::colorOption(ToolCategory);
  cl::HideUnrelatedOptions(ToolCategory);
  listStatsOption();
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "cudagraph-tidy " << CUDAGRAPH_TIDY_VERSION << " (LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  std::string BuildPath = cgt::buildPathArg(argc, argv);
  std::unique_ptr<tooling::CompilationDatabase> BuildDb;
  if (!BuildPath.empty()) {
    std::string Problem;
    BuildDb = cgt::loadBuildPath(BuildPath, Problem);
    if (!BuildDb)
      return fail(Problem);
  }
  auto Parser = tooling::CommonOptionsParser::create(argc, argv, ToolCategory,
                                                     cl::ZeroOrMore);
  if (!Parser) {
    errs() << "cudagraph-tidy: error: " << toString(Parser.takeError()) << "\n";
    return 2;
  }
  if (ListChecks)
    return cgt::listChecks(tidyConfigArgs());
  cgt::setNvccCompat(!NoNvccCompatOpt);
  // The header lies in the cache folder, as the other caches do; before
  // anything asks for its path, which is then fixed.
  if (!CacheDirOpt.empty()) {
    std::string DirError;
    if (!cgt::usableCacheDirectory(CacheDirOpt, DirError))
      return fail(DirError);
    cgt::setNvccCompatFolder(CacheDirOpt);
  }
  if (NvccCompatHeaderOpt) {
    const std::string &Header = cgt::nvccCompatHeader();
    if (Header.empty())
      return fail("cannot write the nvcc compatibility header into the cache "
                  "folder or the temporary directory");
    outs() << Header << "\n";
    return 0;
  }
  std::string FormatError;
  cgt::ReportOptions Report;
  if (!cgt::resolveReportStyle(FormatOpt, ColorOpt, OutputOpt, Report,
                               FormatError))
    return fail(FormatError);

  auto Provider = cgt::makeOptionsProvider(tidyConfigArgs());
  if (!Provider) {
    errs() << "cudagraph-tidy: error: " << toString(Provider.takeError()) << "\n";
    return 2;
  }

  const tooling::CompilationDatabase *Db =
      BuildDb ? BuildDb.get() : &Parser->getCompilations();
  std::vector<std::string> Files =
      cgt::inputFiles(*Parser, BuildDb ? BuildDb.get() : nullptr);
  if (Files.empty())
    return fail("no input files (give files, or -p with a compile_commands.json "
                "that lists some)");
  // Before any work: summaries over a whole database take minutes, and a
  // misspelt file would only fail after them.
  if (std::string Missing = cgt::missingNamedFile(*Parser); !Missing.empty())
    return fail("'" + Missing + "': no such file (files named on the command line are "
                "relative to the current folder, not to -p)");
  if (ConfigOpt.empty() && ConfigFileOpt.empty())
    cgt::reportBrokenConfigFiles(Files, errs());
  // Summaries see every file of the database, also those a --shard or
  // --diff run does not analyse.
  const std::vector<std::string> SummaryFiles = cgt::summaryFiles(Files, BuildDb.get());
  if (!ExportModelOpt.empty()) {
    std::string RootError;
    cgt::ExportRequest Export{ExportModelOpt, JobsOpt, DeviceSide,
                              cgt::resolvedSarifRoot(SarifRootOpt, RootError)};
    return RootError.empty() ? cgt::exportModel(**Provider, *Db, Files, Export)
                             : fail(RootError);
  }
  // Read before the analysis: a bad revision should not cost a full run.
  cgt::ChangedLines Changed;
  if (!DiffOpt.empty()) {
    std::string DiffError;
    if (!cgt::readChangedLines(DiffOpt, Changed, DiffError))
      return fail(DiffError);
    if (Parser->getSourcePathList().empty()) {
      std::vector<std::string> Touched;
      for (const std::string &F : Files)
        if (Changed.containsFile(cgt::realPathOf(F)))
          Touched.push_back(F);
      Files = std::move(Touched);
    }
  }
  Report.OutputPath = OutputOpt;
  std::string Error;
  Report.SarifRoot = cgt::resolvedSarifRoot(SarifRootOpt, Error);
  if (!Error.empty())
    return fail(Error);

  // An empty slice is not an error: N machines over fewer than N files.
  if (!ShardOpt.empty()) {
    cgt::Shard Slice;
    std::string ShardError;
    if (!cgt::parseShard(ShardOpt, Slice, ShardError))
      return fail(ShardError);
    Files = cgt::filesOfShard(Files, Slice,
                              SummariesOpt.empty()
                                  ? std::vector<std::optional<double>>()
                                  : cgt::unitCostsOf(Files, SummariesOpt, Report.SarifRoot));
  }

  // Read before the analysis: a bad baseline should not cost a full run.
  std::set<std::string> Baseline;
  if (!BaselineOpt.empty() && !cgt::readBaseline(BaselineOpt, Baseline, Error))
    return fail(Error);

  cgt::PreambleCacheConfig Preamble;
  if (!cgt::preambleCacheConfig(NoPreambleCache ? std::string("off") : PreambleCacheOpt.getValue(),
                                Files.size(), CacheDirOpt, Preamble, Error))
    return fail(Error);
  Preamble.Stats = &PreambleStats;
  cgt::CacheSettings CacheSet;
  if (!cgt::cacheSettings(ResultCacheOpt, CrossTuOpt, CacheDirOpt, CacheMaxMbOpt, CacheSet,
                          Error))
    return fail(Error);
  if (!cgt::remoteCacheSettings(CacheUrlOpt, CacheTimeoutOpt, CacheSet.Remote, Error))
    return fail(Error);
  CacheSet.WholeDatabase = BuildDb != nullptr;
  CacheSet.SummariesFile = SummariesOpt;
  CacheSet.WriteSummaries = Summarize ? OutputOpt.getValue() : WriteSummariesOpt.getValue();
  if (Summarize && CacheSet.WriteSummaries.empty())
    return fail("summarize: name the file to write with -o FILE");
  if (Summarize || !CacheSet.SummariesFile.empty())
    CacheSet.Summaries = true;
  if (!ShardOpt.empty() && !Quiet)
    cgt::explainShardSummaries(CacheSet, SummaryFiles.size(), Files.size());
  if (CacheMaxMbOpt)
    Preamble.MaxBytes = CacheSet.MaxBytes;
  cgt::CrossTuRun CrossTu(CacheSet, /*StoreResults=*/!InProcessOpt);

  cgt::RunResult Result;
  // Each unit that does not parse is said as soon as it is known, for runs
  // long enough for that to come well before the end's list.
  cgt::ParseFailureNotes ParseFailures(Files.size() > 1);
  Result.ConfigErrors = cgt::validateApiModelFiles(**Provider, Files);
  if (Result.ConfigErrors.empty()) {
    cgt::UnitLimits Limits;
    Limits.InProcess = InProcessOpt;
    Limits.TimeoutSeconds = TuTimeoutOpt;
    Limits.MemoryMB = TuMemoryOpt;
    Limits.Fault = InjectFaultOpt;
    Limits.Verbose = VerboseOpt;
    cgt::DriverRun Run;
    Run.Hooks = CrossTu.hooks();
    Run.OptionsProvider = std::move(*Provider);
    Run.Compilations = Db;
    Run.DeviceSide = DeviceSide;
    Run.Jobs = JobsOpt;
    Run.Preamble = std::move(Preamble);
    Run.Limits = Limits;
    Run.ParseFailures = &ParseFailures;
    Run.Progress = !NoProgressOpt &&
                   (ProgressOpt || (!Quiet && sys::Process::StandardErrIsDisplayed()));
    // The summary passes parse the analysed units with their checks (the
    // tasks runChecks will build from Run), and runChecks then takes the
    // results of those whose task did not change.
    cgt::ExportRequest Summaries{"", JobsOpt, DeviceSide, Report.SarifRoot};
    Summaries.Workers = InProcessOpt ? nullptr : &Run.Limits;
    if (!CrossTu.prepare(Run, SummaryFiles, Summarize ? std::vector<std::string>() : Files,
                         Summaries, Error))
      return fail(Error);
    if (Summarize)
      return CrossTu.reportSummarized(CacheSet.WriteSummaries);
    // The passes named each unit as they parsed it; the checks that follow
    // mostly take those results, and one "[i/N]" sequence is enough.
    if (CrossTu.announcedUnits())
      Run.Progress = false;
    Result = cgt::runChecks(Run, Files);
    cgt::noteEngineBudgets(Result);
    CrossTu.finish();
  }
  if (!DiffOpt.empty())
    Result.Findings = cgt::onChangedLines(std::move(Result.Findings), Changed);
  if (!BaselineOpt.empty())
    cgt::applyBaseline(Result, Baseline, Report.SarifRoot, KeepUnchanged);

  if (!cgt::writeReport(Result, Report, Error))
    return fail(Error);
  for (size_t I = 0; I < Result.Units.size(); ++I) {
    const cgt::UnitStatus &U = Result.Units[I];
    if (U.Analyzed)
      continue;
    errs() << "cudagraph-tidy: error: " << U.File << ": " << U.Problem << "\n";
    if (I < Result.UnitDetails.size())
      errs() << Result.UnitDetails[I];
  }
  for (const std::string &C : Result.ConfigErrors)
    errs() << "cudagraph-tidy: error: " << C << "\n";
  for (const std::string &W : Result.Incomplete)
    errs() << "cudagraph-tidy: warning: " << W << "\n";
  if (!Quiet)
    cgt::printSummary(Result,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - Started)
                          .count(),
                      CrossTu.closingNotes(), !BaselineOpt.empty());
  // `--stats` is LLVM's own option (llvm/ADT/Statistic.h); with it the
  // driver also says what the lifetime engine gave up.
  if (llvm::AreStatisticsEnabled()) {
    cgt::printStats(PreambleStats);
    CrossTu.printStats();
    cgt::printSharedMemStats(Result);
  }
  return cgt::exitCodeFor(Result);
}
