//===- PreambleEntries.h - a preamble cache entry on disk ------*- C++ -*-===//
//
// Private to caches/: the entries of the preamble cache as files (KEY.pch,
// KEY.deps, KEY.seen, KEY.failed), used by PreambleCache.cpp when a parse
// reads or builds one.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_PREAMBLEENTRIES_H
#define CUDAGRAPH_TIDY_TOOLS_PREAMBLEENTRIES_H

#include "caches/PreambleCache.h"

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class FileManager;
}

namespace cgt::preamble {

/// True when every dependency listed in `DepsPath` is unchanged on disk.
bool depsStillValid(const std::string &DepsPath);

/// The entry's key: the driver's and clang's versions, the working folder,
/// the unit's command line and its cc1 line, the preamble's text.
std::string keyOf(const clang::CompilerInvocation &CI,
                  const std::vector<std::string> &DriverArgs,
                  llvm::StringRef WorkingDir, llvm::StringRef Preamble,
                  bool EndsAtStartOfLine);

std::string join(llvm::StringRef Dir, llvm::StringRef Name);

/// Writes `Contents` (or copies `FromFile`) to `Final` through a unique
/// temporary name and a rename. The temporary lies in `Stage` when given (a
/// builder's folder, on the same file system: see newBuildFolder), else
/// beside `Final`.
bool publish(const std::string &Final, const std::string *Contents,
             const std::string *FromFile, const std::string &Stage = "");

/// Removes least recently used entries until the cache is within 3/4 of
/// its cap, never `Keep`; also leftovers of runs that died (temporary
/// names, private links, builders' folders) older than an hour.
void evict(const std::string &Dir, uint64_t MaxBytes, const std::string &Keep);

/// A new private folder in the cache folder `Dir` ("build-XXXXXX"; "" when
/// it cannot be made) for one build of an entry: everything the build
/// writes before the entry is published lies in it, so that a builder
/// killed midway leaves one folder, which its parent removes (the marker
/// file names it: PreambleCache.cpp) or a later run sweeps (evict).
std::string newBuildFolder(const std::string &Dir);

/// Whether `Path` is a folder newBuildFolder made: the parent removes
/// nothing else a dead worker's marker names.
bool isBuildFolder(llvm::StringRef Path);

/// Builds the preamble of the invocation's main file in `Folder` (from
/// newBuildFolder, which the caller removes) and publishes it under `Key`
/// in `Dir`. False when clang cannot (errors in the preamble, a read-only
/// cache): the run then parses everything itself. `KillWhenBuilt`: tests
/// only, see PreambleCacheConfig::FaultKillInBuild.
bool buildEntry(const clang::CompilerInvocation &CI, clang::FileManager &Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                const llvm::MemoryBuffer &Main, clang::PreambleBounds Bounds,
                const std::string &MainPath, const std::string &Folder,
                const std::string &Dir, const std::string &Key,
                bool KillWhenBuilt = false);

/// KEY.failed beside KEY.pch: an entry a parse died reading.
std::string failedMarkerOf(llvm::StringRef PchPath);

/// With BuildOnSecondMiss, true the first time the entry is missed: the
/// key is marked seen, and the parse goes on without a preamble.
bool firstMiss(const PreambleCacheConfig &Cache, llvm::StringRef PchPath);

} // namespace cgt::preamble

#endif
