//===- CrossTu.cpp - a checking run that sees every unit ------------------===//
//
// The consumed summaries' model file is named by the hash of its text, so
// that a unit's options, which name it, change exactly when the entries it
// consumes change: its result key (ResultCache.h) follows.
//
//===----------------------------------------------------------------------===//
#include "summaries/CrossTu.h"
#include "summaries/CheckedExport.h"
#include "summaries/SummariesArtifact.h"
#include "isolation/Isolation.h"
#include "run/ParseFailures.h"
#include "caches/PreambleCache.h"
#include "run/NvccCompat.h"
#include "ProjectSummaries/ProjectSummaries.h"
#include "ApiModel/ApiModelWriter.h"
#include "Lifetime/LifetimeAnalysis.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

namespace cgt {

bool usableCacheDirectory(const std::string &Directory, std::string &Error) {
  if (llvm::sys::fs::exists(Directory) && !llvm::sys::fs::is_directory(Directory)) {
    Error = "--cache-dir '" + Directory + "' is not a directory";
    return false;
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory)) {
    Error = "--cache-dir '" + Directory + "': " + EC.message();
    return false;
  }
  return true;
}

bool cacheSettings(std::string ResultMode, const std::string &SummaryMode,
                   const std::string &Directory, unsigned MaxMB, CacheSettings &Out,
                   std::string &Error) {
  if (ResultMode.empty())
    if (auto Env = llvm::sys::Process::GetEnv("CUDAGRAPH_TIDY_RESULT_CACHE"))
      ResultMode = *Env;
  if (ResultMode.empty())
    ResultMode = "on";
  if (ResultMode != "on" && ResultMode != "off") {
    Error = "unknown --result-cache '" + ResultMode + "' (expected on or off)";
    return false;
  }
  if (SummaryMode != "on" && SummaryMode != "off") {
    Error = "unknown --cross-tu-summaries '" + SummaryMode + "' (expected on or off)";
    return false;
  }
  Out.Results = ResultMode == "on";
  Out.Summaries = SummaryMode == "on";
  Out.Directory = Directory.empty() ? defaultPreambleCacheDir() : Directory;
  if (!Directory.empty() && !usableCacheDirectory(Directory, Error))
    return false;
  uint64_t MB = MaxMB;
  if (!MB)
    if (auto Env = llvm::sys::Process::GetEnv("CUDAGRAPH_TIDY_CACHE_MB"))
      llvm::StringRef(*Env).getAsInteger(10, MB);
  Out.MaxBytes = (MB ? MB : 2048) << 20;
  return true;
}

CrossTuRun::CrossTuRun(const CacheSettings &S, bool StoreResults)
    : Settings(S),
      Cache(S.Directory.empty() ? nullptr
                                : std::make_unique<UnitCache>(S.Directory, S.MaxBytes)),
      Results(S.Results ? Cache.get() : nullptr, StoreResults) {
  // The nvcc compatibility header lies in the cache folder, which another
  // machine has elsewhere: keys name it by its name (NvccCompat.h).
  if (Cache && nvccCompatEnabled())
    Cache->addSelfNamedFile(nvccCompatHeader());
  // The server holds what the folder holds: with no result cache, neither.
  if (Cache && S.Results && !S.Remote.Url.empty()) {
    Remote = std::make_unique<RemoteCache>(S.Remote);
    Cache->setRemote(Remote.get());
  }
}

CrossTuRun::~CrossTuRun() {
  if (!TempDir.empty())
    llvm::sys::fs::remove_directories(TempDir);
}

std::string CrossTuRun::writeOverlay(const std::string &Text) {
  // The passes' threads write them too (parseWithChecks).
  std::lock_guard<std::mutex> Lock(OverlayLock);
  std::string Dir;
  if (Cache && !llvm::sys::fs::create_directories(Cache->summariesDirectory()))
    Dir = Cache->summariesDirectory();
  if (Dir.empty()) {
    if (TempDir.empty()) {
      llvm::SmallString<256> T;
      if (llvm::sys::fs::createUniqueDirectory("cudagraph-tidy-summaries", T))
        return "";
      TempDir = std::string(T);
    }
    Dir = TempDir;
  }
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, hashText(Text) + ".json");
  // Same name, same contents: an existing file is already right.
  if (llvm::sys::fs::exists(Path))
    return std::string(Path);
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Tmp))
    return "";
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  if (llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return "";
  }
  return std::string(Path);
}

namespace {

std::string absolute(const std::string &F) {
  llvm::SmallString<256> P(F);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}
} // namespace

std::vector<std::string> summaryFiles(const std::vector<std::string> &Files,
                                      const clang::tooling::CompilationDatabase *Db) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  for (const std::string &F : Files)
    if (Seen.insert(absolute(F)).second)
      Out.push_back(F);
  if (Db)
    for (const std::string &F : Db->getAllFiles())
      if (Seen.insert(absolute(F)).second)
        Out.push_back(F);
  return Out;
}

void CrossTuRun::leaveProjectSummaries(const std::vector<std::string> &Files) {
  std::set<std::string> Projects;
  for (const std::string &F : Files)
    Projects.insert(projectOf(absolute(F)));
  for (const std::string &P : Projects) {
    std::string Path = projectSummariesPath(Settings.Directory, P);
    llvm::SmallString<256> Tmp;
    int FD;
    if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)) ||
        llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Tmp))
      continue;
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Summaries.AllEntries;
    }
    if (llvm::sys::fs::rename(Tmp, Path))
      llvm::sys::fs::remove(Tmp);
  }
}

void CrossTuRun::useProjectSummaries(const std::vector<std::string> &Analysed) {
  for (const std::string &F : Analysed) {
    std::string Path = projectSummariesPath(Settings.Directory, projectOf(absolute(F)));
    if (llvm::sys::fs::exists(Path))
      Results.setSummaries(F, Path);
  }
}

void CrossTuRun::planChecks(DriverRun &Run, const std::vector<std::string> &SummaryFiles,
                            const std::vector<std::string> &Analysed) {
  // Before any summaries are set: the tasks consume none.
  Plan = planUnits(Run, Analysed);
  Limits = Run.Limits;
  Progress = Run.Progress;
  ParseFailures = Run.ParseFailures;
  std::map<std::string, size_t> ByPath;
  for (size_t J : Plan.ToAnalyze)
    ByPath.emplace(absolute(Analysed[J]), J);
  TaskOf.assign(SummaryFiles.size(), std::string::npos);
  for (size_t I = 0; I < SummaryFiles.size(); ++I)
    if (auto It = ByPath.find(absolute(SummaryFiles[I])); It != ByPath.end())
      TaskOf[I] = It->second;
}

bool CrossTuRun::parsesWithChecks(size_t Index) const {
  return Index < TaskOf.size() && TaskOf[Index] != std::string::npos;
}

UnitExport CrossTuRun::parseWithChecks(size_t Index, const UnitJob &Job,
                                       const std::string &EntriesPath,
                                       const std::string &Consumed, const ApiModel &Base,
                                       const PassProgress &Pass) {
  UnitTask Task = Plan.Tasks[TaskOf[Index]];
  {
    std::lock_guard<std::mutex> Lock(ProgressLock);
    bool First = Started.insert(Task.File).second;
    if (!First)
      ++AnalysedAgain;
    // "[3/66] file" as a unit is first analysed; in a later pass, the units
    // analysed again because a summary they consume changed.
    if (Progress && First)
      llvm::errs() << "[" << Started.size() << "/" << Plan.ToAnalyze.size() << "] "
                   << Task.File << "\n";
    else if (Progress)
      llvm::errs() << "[analysis pass " << Pass.Pass << ", " << Pass.Started << "/"
                   << Pass.Units << "] " << Task.File << "\n";
  }
  // The consumed summaries as prepare will name them (by the hash of their
  // text); without the file the parse still exports, but its findings are
  // not the unit's.
  bool Keep = taskWith(Index, Consumed, Task);
  UnitTask Sent = Task;
  Sent.Summaries = {true, Job.ModelFiles, EntriesPath, SourceRoot};
  // Not kept: a unit that crashes here is run again by its checks, which
  // report the crash (one message, one kept stack).
  UnitLimits Once = Limits;
  Once.KeepCrashes = false;
  UnitResult R = analyzeIsolated(Sent, Once);
  // Said now, not when the checks take this result after the passes.
  if (ParseFailures)
    ParseFailures->unitDone(Task.File, R.Status);
  UnitExport Out = summariesOf(R, Base);
  // The preamble work was done now, whether or not the result is used (a
  // worker that sent no result counted it up to its end: Isolation.h).
  UnitCounters Preamble;
  std::swap(Preamble.PreambleHits, R.Counters.PreambleHits);
  std::swap(Preamble.PreambleBuilds, R.Counters.PreambleBuilds);
  std::swap(Preamble.PreambleSkipped, R.Counters.PreambleSkipped);
  std::swap(Preamble.PreambleFailed, R.Counters.PreambleFailed);
  addCounters(Preamble, Task.Preamble.Stats);
  // A worker that sent nothing (a crash, the memory budget) is not kept:
  // the checks run the unit again and report what happened to it (a crash
  // with its stack, which this run did not keep). One stopped past
  // --tu-timeout is: the checks' run would spend a second whole budget on
  // the same parse to end the same way. A kept result's lost engine counts
  // (UnitCounters::Lost) are said when the checks take it.
  if (R.Summaries.empty()) {
    if (R.TimedOut && Keep)
      Results.keep(Task, std::move(R));
    return Out;
  }
  R.Summaries.clear();
  if (Keep)
    Results.keep(Task, std::move(R));
  return Out;
}

bool CrossTuRun::taskWith(size_t Index, const std::string &Consumed, UnitTask &Out) {
  Out = Plan.Tasks[TaskOf[Index]];
  if (Consumed.empty())
    return true;
  std::string Path = writeOverlay(Consumed);
  if (!Path.empty())
    addModelFile(Out.Options, Path);
  return !Path.empty();
}

void CrossTuRun::consumedLess(size_t Index, const std::string &Given,
                              const std::string &Consumed) {
  UnitTask From, To;
  if (parsesWithChecks(Index) && taskWith(Index, Given, From) &&
      taskWith(Index, Consumed, To))
    Results.rekey(From, To);
}

void explainShardSummaries(const CacheSettings &Settings, size_t SummaryFiles,
                           size_t Analysed) {
  if (!Settings.Summaries || !Settings.SummariesFile.empty() || SummaryFiles < 2)
    return;
  llvm::errs() << "cudagraph-tidy: note: this shard analyses " << Analysed << " of "
               << SummaryFiles << " files but summarises all " << SummaryFiles
               << ": a wrapper defined in another file decides what its files' findings "
                  "are. Run `cudagraph-tidy summarize -p DB -o summaries.json` once and "
                  "give each shard --summaries summaries.json to divide the work.\n";
}

bool CrossTuRun::useSummariesFile(const std::vector<std::string> &Analysed,
                                  std::string &Error) {
  std::string Path = absolute(Settings.SummariesFile);
  auto Model = ApiModel::builtin();
  if (!Model) {
    Error = "cannot load the built-in CUDA API model: " + toString(Model.takeError());
    return false;
  }
  size_t Builtin = (*Model)->functions().size();
  if (llvm::Error E = (*Model)->addFile(Path)) {
    Error = "--summaries '" + Settings.SummariesFile + "': " + toString(std::move(E));
    return false;
  }
  Summaries.Entries = (*Model)->functions().size() - Builtin;
  // The costs differ from one summarize run to the next; only the entries
  // decide findings, so only they key the units' results.
  if (Cache)
    if (auto Entries = entriesOnlyText(Path))
      Cache->presetDigest(Path, hashText(*Entries));
  for (const std::string &F : Analysed)
    Results.setSummaries(F, Path);
  FromFile = true;
  return true;
}

bool CrossTuRun::writeSummaries(std::string &Error) const {
  const std::string &Path = Settings.WriteSummaries;
  std::string Text = Summaries.Artifact.empty() ? writeModelJson(ModelDocument())
                                                : Summaries.Artifact;
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (!EC) {
    OS << Text;
    OS.close();
    EC = OS.error();
  }
  if (EC)
    Error = "cannot write the summaries to '" + Path + "': " + EC.message();
  return !EC;
}

int CrossTuRun::reportSummarized(const std::string &Path) const {
  llvm::errs() << "cudagraph-tidy: " << Summaries.Entries << " entries from "
               << Summaries.Overlays.size() << " translation units in " << Summaries.Passes
               << " pass" << (Summaries.Passes == 1 ? "" : "es")
               << (Summaries.Converged ? "" : " (still changing)") << " written to " << Path
               << "\n";
  return 0;
}

bool CrossTuRun::prepare(DriverRun &Run, const std::vector<std::string> &SummaryFiles,
                         const std::vector<std::string> &Analysed,
                         const ExportRequest &Request, std::string &Error) {
  if (!Settings.SummariesFile.empty())
    return useSummariesFile(Analysed, Error);
  if (!Settings.Summaries)
    return true;
  if (!prepareSummaries(Run, SummaryFiles, Analysed, Request, Error))
    return false;
  return Settings.WriteSummaries.empty() || writeSummaries(Error);
}

bool CrossTuRun::prepareSummaries(DriverRun &Run, const std::vector<std::string> &SummaryFiles,
                                  const std::vector<std::string> &Analysed,
                                  const ExportRequest &Request, std::string &Error) {
  // The project's entries live in the cache: without one, a one-file run
  // has none and a database run leaves none.
  bool Shared = Cache && Settings.Results;
  if (SummaryFiles.size() < 2) {
    if (Shared)
      useProjectSummaries(Analysed);
    return true;
  }
  // A parse with the checks needs a worker: its counts are the unit's own,
  // and only the result it is kept as adds them to this process's.
  ExportRequest Passes = Request;
  Passes.Progress = Run.Progress;
  if (Request.Workers) {
    planChecks(Run, SummaryFiles, Analysed);
    SourceRoot = Request.SourceRoot;
    Passes.Checked = this;
  }
  bool OK;
  {
    // The passes' own lifetime analyses (--in-process) are not the checks':
    // counted, they would make a cold run, which parses for the passes,
    // warn otherwise than a warm one, which replays them. The checks' parses
    // in the passes count in their workers, and their results bring the
    // counts when they are taken (runChecks).
    KeepLifetimeStats Keep;
    OK = computeProjectSummaries(*Run.OptionsProvider, *Run.Compilations, SummaryFiles,
                                 Passes, Settings.Results ? Cache.get() : nullptr, Summaries,
                                 Error);
  }
  Plan = UnitPlan();
  TaskOf.clear();
  if (!OK)
    return false;
  Ran = true;
  if (Shared && Settings.WholeDatabase)
    leaveProjectSummaries(SummaryFiles);
  // Looked up by absolute path: the database's files and the command
  // line's may be spelled differently.
  auto Abs = absolute;
  std::map<std::string, size_t> Index;
  for (size_t I = 0; I < SummaryFiles.size(); ++I)
    Index.emplace(Abs(SummaryFiles[I]), I);
  for (const std::string &F : Analysed) {
    auto It = Index.find(Abs(F));
    if (It == Index.end() || Summaries.Overlays[It->second].empty())
      continue;
    std::string Path = writeOverlay(Summaries.Overlays[It->second]);
    if (Path.empty()) {
      Error = "cannot write the summaries of other files for '" + F + "'";
      return false;
    }
    Results.setSummaries(F, Path);
  }
  return true;
}

void CrossTuRun::finish() {
  if (Cache && Settings.Results)
    Cache->evict();
}

std::string CrossTuRun::passesSummary() const {
  if (!Ran)
    return "";
  auto Count = [](unsigned N, llvm::StringRef Noun) {
    return std::to_string(N) + " " + Noun.str() +
           (N == 1 ? "" : Noun.ends_with("s") ? "es" : "s");
  };
  std::string Out = Summaries.Converged
                        ? "Cross-file summaries converged in " + Count(Summaries.Passes, "pass")
                        : "Cross-file summaries still changing after " +
                              Count(Summaries.Passes, "pass") +
                              " (wrappers nested deeper across files may be missing)";
  return Out + "; " + Count(AnalysedAgain, "unit") + " analysed again.";
}

std::string CrossTuRun::closingNotes() const {
  std::string Out = passesSummary();
  if (!Remote)
    return Out;
  unsigned FromRemote = Results.ReplayedRemote;
  unsigned Analysed = Results.analysed().size();
  return Out + (Out.empty() ? "" : " ") + "Results: " + std::to_string(FromRemote) +
         " units from the remote cache, " + std::to_string(Results.Replayed - FromRemote) +
         " from the local cache, " + std::to_string(Analysed) + " analysed" +
         (Remote->givenUp() ? " (the remote cache was given up)" : "") + ".";
}

void CrossTuRun::printStats() const {
  std::vector<std::string> Analysed = Results.analysed();
  if (Ran) {
    unsigned Both = Summaries.ParsedWithChecks;
    unsigned Alone = Summaries.Parsed - Both;
    unsigned Checks = Analysed.size() - Results.FromSummaryPasses;
    llvm::errs() << "cross-file summaries: " << Summaries.Entries << " entries in "
                 << Summaries.Passes << (Summaries.Passes == 1 ? " pass; " : " passes; ")
                 << Summaries.Parsed
                 << " unit exports parsed (" << Both << " with the unit's checks), "
                 << Summaries.Replayed << " replayed from the cache"
                 << (Summaries.Converged ? "" : "; not converged") << "\n";
    if (Summaries.KernelLaunches)
      llvm::errs() << "cross-file summaries: " << Summaries.KernelLaunches
                   << " launch shapes of kernels defined in another file\n";
    llvm::errs() << "translation unit parses: " << Both + Alone + Checks << " ("
                 << Both << " checks and summaries in one, " << Alone
                 << " summaries alone, " << Checks << " checks alone)\n";
  }
  if (FromFile)
    llvm::errs() << "cross-file summaries: " << Summaries.Entries << " entries read from "
                 << Settings.SummariesFile << "; no passes\n";
  for (const std::string &W : Summaries.AgainBecause)
    llvm::errs() << "cross-file summaries: parsed again, " << W << "\n";
  for (const std::string &C : Summaries.Conflicts)
    llvm::errs() << "cross-file summaries: not used, definitions disagree: " << C << "\n";
  llvm::errs() << "result cache: " << Results.Replayed << " replayed";
  if (Remote)
    llvm::errs() << " (" << Results.ReplayedRemote << " from the remote cache)";
  llvm::errs() << ", " << Analysed.size() << " analysed";
  for (size_t I = 0; I < Analysed.size(); ++I)
    llvm::errs() << (I ? ", " : " (") << Analysed[I];
  llvm::errs() << (Analysed.empty() ? "" : ")")
               << (Cache ? "" : "; no cache folder") << "\n";
  if (Remote)
    llvm::errs() << "remote cache: " << Remote->shownUrl() << ": " << Remote->Hits
                 << " entries fetched, " << Remote->Misses << " not there, "
                 << Remote->Invalid << " invalid, " << Remote->Stored << " stored"
                 << (Remote->readOnly() ? "; read only (a PUT was refused)" : "")
                 << (Remote->givenUp() ? "; given up: " + Remote->whyGivenUp() : "") << "\n";
}

} // namespace cgt
