//===- ExportCache.h - one unit's summaries, from the cache -----*- C++ -*-===//
//
// exportUnit (ExportUnit.h) through the unit cache (UnitCache.h), for the
// summary passes of a checking run. A unit's exports depend on its own
// files and flags and, of the entries exported so far, only on those of
// the functions it calls or names without defining them (the body of a
// function it defines wins over any entry). So an entry is found in two
// steps:
//
//   xm-<unit key>               the files the unit read, with their hashes,
//                               and the names it calls or names
//   xv-<unit key, files, used>  the unit's exports, given the entries of
//                               those names ("used")
//
// where the unit key covers the tool, the file, its commands, the
// ExtraArgs of its options, its ApiModelFiles and their contents, the
// source root (the entries' "doc" names files relative to it) and the
// main file's contents. Each pass of the fixpoint has its own xv- entry,
// so a warm run replays every pass without parsing.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_EXPORTCACHE_H
#define CUDAGRAPH_TIDY_TOOLS_EXPORTCACHE_H

#include "summaries/ExportUnit.h"
#include "caches/UnitCache.h"
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace cgt {

/// An entry of the merged summaries: the name, the parameter count and,
/// for overloads of one count, the parameter types (empty otherwise).
struct EntryKey {
  std::string Name;
  int Params = -1;
  std::vector<std::string> Signature;
  bool operator<(const EntryKey &O) const {
    return std::tie(Name, Params, Signature) < std::tie(O.Name, O.Params, O.Signature);
  }
  bool operator==(const EntryKey &O) const {
    return Name == O.Name && Params == O.Params && Signature == O.Signature;
  }
  /// "'release' (1 parameter)", "'release' (1 parameter: struct CUstream_st *)".
  std::string describe() const;
};

struct ExportCacheStats {
  std::atomic<unsigned> Parsed{0}, Replayed{0};
};

/// How a unit's exports are computed on a miss: exportUnit with the model
/// of the entries so far, in this process or in a worker (ExportWorker.h).
using ParseUnit = std::function<UnitExport(const UnitJob &)>;

/// Parse(Job), or its replay from `Cache`, where `Entries` are the entries
/// exported so far (those Parse applies).
UnitExport exportUnitCached(const UnitJob &Job, const ApiModel &Base, const FileNamer &Names,
                            const std::map<EntryKey, FunctionModel> &Entries,
                            UnitCache &Cache, ExportCacheStats &Stats, const ParseUnit &Parse);

/// A unit's exports as JSON, and back: each group of definitions that share
/// no (name, parameter count) is a model document, read back into a copy
/// of `Base`, which declares every kind they may name. Also the worker's
/// result (ExportWorker.cpp).
std::string unitExportToJson(const UnitExport &U);
bool unitExportFromJson(const std::string &Text, const ApiModel &Base, UnitExport &Out);

} // namespace cgt

#endif
