//===- CrossTu.h - a checking run that sees every unit ----------*- C++ -*-===//
//
// `cudagraph-tidy -p build` (with --shard, --diff or files too) does in one
// command what --export-model and a second run did: it computes the
// exported summaries of every unit of the database (the passes of
// ExportModel.cpp, in parallel, to the fixpoint across units), writes for
// each analysed unit a model file of the entries it calls or names and
// does not define, named by the hash of its contents, and adds it to the
// unit's ApiModelFiles. A release wrapper in another file is then known
// at every call, with no model file for the user to manage.
//
// Summaries come from every file of the database, not just the analysed
// ones: a shard or a --diff run sees the wrappers of files it does not
// analyse. With fewer than two files there is nothing to learn (a unit's
// own functions are summarised from their bodies) and no pass runs.
//
// The entries are also left in the cache folder for the project (the git
// work tree) of the files (ProjectSummaries/ProjectSummaries.h), where the
// plugin finds them, and where a one-file run (the pre-commit hook,
// `cudagraph-tidy launch` in a build), which has no other files to
// summarise, takes them from: as its own ApiModelFiles entry, so that its
// result key covers them.
//
// The order of work: the passes parse each analysed unit with its checks
// (CheckedExport.h; in worker processes, not with --in-process), giving the
// checks the summaries the unit consumes so far, and the other files of
// the database for their summaries alone (ExportModel.cpp). After the
// fixpoint the checks run (runChecks); a unit whose consumed summaries did
// not change since its last parse in the passes (most units: those that
// call no other file's wrappers have none) has exactly the task it was
// parsed with, and the result of that parse is its result (ResultCache.h:
// kept). So a cold run parses each unit once where the first pass's order
// (UnitOrder.h) starts it after the files whose wrappers it calls, and a
// unit whose call the order missed once more, in the pass after the
// wrapper's entry appeared, if it matters to it.
//
// Both the summary passes and the checks go through the unit cache
// (UnitCache.h; ExportCache.h, ResultCache.h) unless --result-cache=off:
// a warm run replays every unchanged unit without parsing it, and after a
// change re-analyses the changed units and the units whose consumed
// summaries changed, no others. With --cache-url that cache also lives on
// a shared server (RemoteCache.h), which a CI fleet's machines fill and
// replay from.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_CROSSTU_H
#define CUDAGRAPH_TIDY_TOOLS_CROSSTU_H

#include "summaries/ExportModel.h"
#include "caches/RemoteCache.h"
#include "caches/ResultCache.h"
#include "caches/UnitCache.h"
#include <memory>
#include <mutex>
#include <set>

namespace cgt {

struct CacheSettings {
  bool Results = true;   ///< --result-cache
  std::string Directory; ///< --cache-dir, else the preamble cache's folder
  uint64_t MaxBytes = 2048ull << 20;
  bool Summaries = true; ///< --cross-tu-summaries
  /// The summaries cover a whole database (-p): only then are they left
  /// for the project, which a run over some files would overwrite with part.
  bool WholeDatabase = false;
  /// --summaries: the entries of every file, from a file a summarize run
  /// (or --write-summaries) wrote; no passes run.
  std::string SummariesFile;
  /// Where the passes' entries are written (`summarize -o`,
  /// --write-summaries); "" for nowhere.
  std::string WriteSummaries;
  /// --cache-url, --cache-timeout: the shared server, if any.
  RemoteSettings Remote;
};

/// A --shard run: says on stderr, when it is about to summarise every file
/// of the database for its share, that it does and why, and how a
/// summaries file avoids it.
void explainShardSummaries(const CacheSettings &Settings, size_t SummaryFiles,
                           size_t Analysed);

/// Whether --cache-dir's `Directory` is one, or can be made one; false
/// with `Error` saying why not.
bool usableCacheDirectory(const std::string &Directory, std::string &Error);

/// Reads --result-cache (on|off; "" takes $CUDAGRAPH_TIDY_RESULT_CACHE,
/// else on), --cross-tu-summaries (on|off), --cache-dir (must be a
/// directory or creatable) and --cache-max-mb (0: the preamble cache's
/// $CUDAGRAPH_TIDY_CACHE_MB, else 2048). False with `Error` for a bad value.
bool cacheSettings(std::string ResultMode, const std::string &SummaryMode,
                   const std::string &Directory, unsigned MaxMB, CacheSettings &Out,
                   std::string &Error);

/// The files whose summaries a run computes: `Files`, and with a database
/// (-p) every file of it too, each file once (compared by absolute path:
/// the command line may name a file relatively that the database names
/// absolutely).
std::vector<std::string> summaryFiles(const std::vector<std::string> &Files,
                                      const clang::tooling::CompilationDatabase *Db);

class CrossTuRun : private CheckedParses {
public:
  CrossTuRun(const CacheSettings &Settings, bool StoreResults);
  ~CrossTuRun();

  /// Computes the summaries over `SummaryFiles` and prepares the model
  /// file of each of `Analysed`, which `Run` (its hooks this run's) is
  /// about to check; with workers, those units are parsed with their
  /// checks in the passes. False with `Error` when a model file the
  /// options name does not load.
  bool prepare(DriverRun &Run, const std::vector<std::string> &SummaryFiles,
               const std::vector<std::string> &Analysed, const ExportRequest &Request,
               std::string &Error);
  UnitHooks *hooks() { return &Results; }
  /// Whether the passes printed progress lines (DriverRun::Progress).
  bool announcedUnits() const { return !Started.empty(); }
  /// After the run: the cache within its bound.
  void finish();
  /// The --stats lines.
  void printStats() const;
  /// `summarize`: what was written where (stderr); the exit code.
  int reportSummarized(const std::string &Path) const;
  /// For the closing line, when the summary passes ran: whether they
  /// converged and how many units they analysed more than once; "" when
  /// they did not run.
  std::string passesSummary() const;
  /// The closing line's notes: passesSummary, and with --cache-url where
  /// the units' results came from.
  std::string closingNotes() const;

private:
  /// The checks' tasks of the analysed units, and which unit of the
  /// passes each is.
  void planChecks(DriverRun &Run, const std::vector<std::string> &SummaryFiles,
                  const std::vector<std::string> &Analysed);
  bool parsesWithChecks(size_t Index) const override;
  UnitExport parseWithChecks(size_t Index, const UnitJob &Job, const std::string &EntriesPath,
                             const std::string &Consumed, const ApiModel &Base,
                             const PassProgress &Pass) override;
  void consumedLess(size_t Index, const std::string &Given,
                    const std::string &Consumed) override;
  /// Unit `Index`'s task with the consumed summaries `Consumed` ("" for
  /// none); false when their file cannot be written.
  bool taskWith(size_t Index, const std::string &Consumed, UnitTask &Out);
  std::string writeOverlay(const std::string &Text);
  /// prepare's passes.
  bool prepareSummaries(DriverRun &Run, const std::vector<std::string> &SummaryFiles,
                        const std::vector<std::string> &Analysed,
                        const ExportRequest &Request, std::string &Error);
  /// Leaves the entries where the plugin and one-file runs find them.
  void leaveProjectSummaries(const std::vector<std::string> &Files);
  /// A one-file run: the entries a database run left, when there are some.
  void useProjectSummaries(const std::vector<std::string> &Analysed);
  /// --summaries: every analysed unit consumes the file's entries.
  bool useSummariesFile(const std::vector<std::string> &Analysed, std::string &Error);
  /// `summarize -o`, --write-summaries: the entries as one model file.
  bool writeSummaries(std::string &Error) const;
  CacheSettings Settings;
  std::unique_ptr<RemoteCache> Remote; ///< --cache-url, with the result cache
  std::unique_ptr<UnitCache> Cache;
  ResultCache Results;
  ProjectSummaries Summaries;
  bool Ran = false;
  bool FromFile = false; ///< --summaries gave the entries
  std::mutex OverlayLock;
  std::string TempDir; ///< model files when there is no cache folder
  /// While the passes run: the checks' tasks (planUnits) and, per unit of
  /// the passes, the index of its task (npos: not analysed, export only).
  UnitPlan Plan;
  std::vector<size_t> TaskOf;
  UnitLimits Limits;
  /// "[3/66] file" as a parse with the checks starts (DriverRun::Progress):
  /// on a cold run that is where the time goes. A unit parsed again in a
  /// later pass is not counted again.
  bool Progress = false;
  std::set<std::string> Started;
  /// DriverRun::ParseFailures: units that do not parse, said as parsed.
  ParseFailureNotes *ParseFailures = nullptr;
  unsigned AnalysedAgain = 0; ///< parses with the checks after a unit's first
  std::mutex ProgressLock;
  std::string SourceRoot;
};

} // namespace cgt

#endif
