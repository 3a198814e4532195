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

#include "ExportUnit.h"
#include "UnitCache.h"
#include <atomic>
#include <map>

namespace cgt {

using EntryKey = std::pair<std::string, int>; // name, parameter count

struct ExportCacheStats {
  std::atomic<unsigned> Parsed{0}, Replayed{0};
};

/// exportUnit(Job, Model, Base, Names), or its replay from `Cache`, where
/// `Entries` are the entries exported so far (those applied by `Model`).
/// A crash inside the parse costs the unit its exports only.
UnitExport exportUnitCached(const UnitJob &Job, const ApiModel &Model, const ApiModel &Base,
                            const FileNamer &Names,
                            const std::map<EntryKey, FunctionModel> &Entries,
                            UnitCache &Cache, ExportCacheStats &Stats);

} // namespace cgt

#endif
