//===- ResultCache.h - replaying a unit's findings --------------*- C++ -*-===//
//
// The hooks a checking run calls around each unit (UnitHooks in
// DriverRun.h): before the analysis, the unit's options get the model
// file of the summaries of other units it consumes (CrossTu.h); then its
// result is the one a summary pass's parse already analysed with the same
// task, kept in memory (keep: the unit consumes what it consumed then, and
// is not parsed again; it counts as analysed and is stored as below), else
// it is looked up in the unit cache (UnitCache.h):
//
//   r-<unit key>   two lines of JSON: the files the analysis read, with
//                  their hashes; the unit's result as the worker wrote it
//                  (UnitWire.h)
//
// The unit key covers the tool, the file, its commands, the process's
// working directory (files named relatively are reported as named), the
// unit's resolved options as clang-tidy YAML (its .clang-tidy chain,
// --config, --checks, and the consumed summaries' file, which is named
// by the hash of its contents), the contents of every ApiModelFiles file
// and of the main file. When every recorded file still has its hash the
// stored result is the result: findings with their notes and fix-its,
// the unit's status and the engines' counters (so that the budget
// warnings say the same), byte for byte what the worker wrote. The
// preamble cache's counters are not replayed: no preamble was read.
//
// The model files the driver writes into the cache folder (the consumed
// summaries, named by the hash of their text) are keyed by that name, not
// their path: cache folders differ between machines, and an entry from a
// remote cache (RemoteCache.h) must match on the next machine. So is the
// nvcc compatibility header the commands include from the folder
// (UnitCache::addSelfNamedFile).
//
// Stored: units whose worker sent a result, with every file they read and
// every path they looked for in vain (a unit that does not parse too: a
// header installed later at a path it missed makes it a miss); not those
// that crashed or ran out of a budget, which the next run tries again.
// Only from worker processes, whose counters are the unit's own
// (--in-process runs read entries but do not write them).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_RESULTCACHE_H
#define CUDAGRAPH_TIDY_TOOLS_RESULTCACHE_H

#include "run/DriverRun.h"
#include "caches/UnitCache.h"
#include <atomic>
#include <map>
#include <mutex>

namespace cgt {

class ResultCache : public UnitHooks {
public:
  /// `Cache` null: no results kept, only the summaries given.
  ResultCache(UnitCache *Cache, bool Store) : Cache(Cache), Store(Store) {}

  /// The consumed summaries' model file for the unit of `File` (as the
  /// run names it).
  void setSummaries(const std::string &File, const std::string &ModelPath);

  /// The result of `Task`, analysed by a summary pass's parse before the
  /// checks run (CheckedExport.h). The checks' replay takes it when their
  /// task for the file is still `Task`; a later one for the file replaces it.
  void keep(const UnitTask &Task, UnitResult Result);
  /// The result kept for `From` is also the one of `To` (the same file),
  /// which takes its place.
  void rekey(const UnitTask &From, const UnitTask &To);

  void prepare(size_t Index, UnitTask &Task) override;
  /// A kept result (counted as analysed, and stored), else the cache's.
  bool replay(const UnitTask &Task, UnitResult &Out) override;
  void store(const UnitTask &Task, const UnitResult &Result) override;

  std::atomic<unsigned> Replayed{0}, Stored{0};
  /// Of those replayed, the entries the remote cache had (--cache-url).
  std::atomic<unsigned> ReplayedRemote{0};
  /// Of the units analysed, those whose kept result was their result.
  std::atomic<unsigned> FromSummaryPasses{0};
  /// The units analysed, for --stats.
  std::vector<std::string> analysed() const;

private:
  std::string keyOf(const UnitTask &Task) const;
  bool replayKept(const UnitTask &Task, UnitResult &Out);
  void save(const UnitTask &Task, const UnitResult &Result);
  UnitCache *Cache;
  bool Store;
  std::map<std::string, std::string> Summaries;
  mutable std::mutex M;
  std::vector<std::string> Analysed;
  /// By file: the task as text (taskToJson) and its result.
  std::map<std::string, std::pair<std::string, UnitResult>> Kept;
};

/// Adds `ModelPath` to every ApiModelFiles option of `Opts` (the global
/// one, added when missing, and those of single checks).
void addModelFile(clang::tidy::ClangTidyOptions &Opts, const std::string &ModelPath);

} // namespace cgt

#endif
