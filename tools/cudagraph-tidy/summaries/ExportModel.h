//===- ExportModel.h - project summaries as an API model file ---*- C++ -*-===//
//
// `cudagraph-tidy -p build --export-model summaries.json`: the summaries of
// every function with external linkage (what it acquires, releases or uses
// through its parameters and return value), written as an API model file
// that the checks read through ApiModelFiles, so that a wrapper defined in
// one file is known where another file calls it.
//
// The same passes give a checking run its cross-file summaries
// (computeProjectSummaries, CrossTu.h), where the units the run analyses
// are parsed with their checks (CheckedParses).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_EXPORTMODEL_H
#define CUDAGRAPH_TIDY_TOOLS_EXPORTMODEL_H

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace cgt {

class ApiModel;
class UnitCache;
struct UnitExport;
struct UnitJob;
struct UnitLimits;

/// Where a parse stands in the passes, for progress lines: pass `Pass`
/// (1-based), the `Started`-th unit of the `Units` the pass parses.
struct PassProgress {
  unsigned Pass = 1, Started = 0, Units = 0;
};

/// A checking run's parses of the units it analyses (CrossTu.h): a unit's
/// export comes from the worker that runs its checks (CheckedExport.h),
/// which parses it once for both.
class CheckedParses {
public:
  virtual ~CheckedParses() = default;
  /// Whether unit `Index` (of the passes' files) is parsed with its checks.
  virtual bool parsesWithChecks(size_t Index) const = 0;
  /// Parses unit `Index` with its checks, which consume `Consumed` (the
  /// model file text of the entries it calls and does not define, "" for
  /// none), and exports it as exportUnit would export `Job` with the
  /// entries so far from `EntriesPath` ("" for none); `Base` reads them.
  virtual UnitExport parseWithChecks(size_t Index, const UnitJob &Job,
                                     const std::string &EntriesPath,
                                     const std::string &Consumed, const ApiModel &Base,
                                     const PassProgress &Progress) = 0;
  /// The parse of unit `Index` given the entries `Given` consumes only
  /// `Consumed` and names nothing else of them: its result is the result
  /// with `Consumed` (UnitOrder.h: the first pass gives a unit the entries
  /// of the names its text calls, some of which the parse may not call).
  virtual void consumedLess(size_t Index, const std::string &Given,
                            const std::string &Consumed) = 0;
};

struct ExportRequest {
  std::string OutputPath;
  unsigned Jobs = 1; ///< translation units analysed at once; 0: all cores
  bool DeviceSide = false;
  /// Files are named relative to it in the entries' "doc".
  std::string SourceRoot;
  /// Passes over the translation units at most: each pass applies what the
  /// previous one exported, so wrappers of wrappers in other files compose.
  unsigned MaxRounds = 5;
  /// When set, each unit's export runs in a worker process within these
  /// limits (ExportWorker.h); else in this process.
  const UnitLimits *Workers = nullptr;
  /// When set, the units it names are parsed with their checks.
  CheckedParses *Checked = nullptr;
  /// "[summaries i/N] file" on stderr as a unit not parsed with its checks
  /// starts (the checked ones are announced by CheckedParses).
  bool Progress = false;
};

/// What the passes of a checking run found (CrossTu.cpp): for each file,
/// the model file text of the entries it calls or names and does not
/// define ("" when none), so that the unit's findings depend on those
/// entries only.
struct ProjectSummaries {
  std::vector<std::string> Overlays; ///< parallel to the files
  std::string AllEntries; ///< every entry, as --export-model writes them
  /// AllEntries with each unit's CPU seconds (`unitSeconds`): what
  /// `summarize -o` and --write-summaries write for --shard. Kept apart
  /// because the costs differ from run to run and AllEntries keys caches.
  std::string Artifact;
  unsigned Entries = 0, Passes = 0;
  /// Launches of kernels defined in another unit than the launch's.
  unsigned KernelLaunches = 0;
  bool Converged = true;
  std::vector<std::string> Conflicts; ///< names left out, for --stats
  unsigned Parsed = 0, Replayed = 0;  ///< unit exports computed / from the cache
  unsigned ParsedWithChecks = 0;      ///< of Parsed, by CheckedParses
  /// Units parsed (or replayed) in the passes after the first: those whose
  /// consumed entries changed in a way that can change their findings.
  unsigned ParsedAgain = 0;
  /// For --stats, per unit parsed again: which consumed entry changed and
  /// how ("pass 2: b.cu: 'f' (1 parameters) appeared").
  std::vector<std::string> AgainBecause;
};

/// The passes of exportModel over `Files`, without writing a file, through
/// `Cache` when given. False with `Error` when a model file does not load;
/// a unit that does not parse just exports nothing (its check says why).
bool computeProjectSummaries(clang::tidy::ClangTidyOptionsProvider &Options,
                             const clang::tooling::CompilationDatabase &Db,
                             const std::vector<std::string> &Files,
                             const ExportRequest &Request, UnitCache *Cache,
                             ProjectSummaries &Out, std::string &Error);

/// Exports the summaries of `Files`. Returns the exit code: 0 the file was
/// written, 2 it was not, or some translation unit did not parse (the file
/// then holds what the others gave).
int exportModel(clang::tidy::ClangTidyOptionsProvider &Options,
                const clang::tooling::CompilationDatabase &Db,
                const std::vector<std::string> &Files, const ExportRequest &Request);

} // namespace cgt

#endif
