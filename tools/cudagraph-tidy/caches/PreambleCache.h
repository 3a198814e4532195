//===- PreambleCache.h - precompiled preambles kept between runs -*- C++ -*-===//
//
// Most of the time of a one-file run is parsing the file's leading #include
// block (cuda_runtime.h alone is most of a second). As clangd does, the
// driver precompiles that block, the "preamble" (clang::PrecompiledPreamble),
// and parses only the rest of the file on top of it. Unlike clangd the
// driver is a new process each time, so the PCH is kept on disk:
//
//   $XDG_CACHE_HOME/cudagraph-tidy (else ~/.cache/cudagraph-tidy)
//     <key>.pch   the preamble, as PrecompiledPreamble wrote it
//     <key>.deps  every file the preamble read, with size and mtime
//
// The key is a hash of the preamble's text, the unit's command line as
// given (every flag, in order, duplicates and all), the cc1 command line
// clang derives from it (which builds and reads the entry; the resource
// directory and the CUDA installation's include paths are on it), the clang
// version and the driver's version. A key says what the
// preamble was built from; the .deps file says whether the headers it read
// are still the ones on disk, and a changed header means a rebuild. Not
// noticed (as in clangd): a new header that would now shadow one the
// preamble found further down the include path.
//
// Concurrent runs: entries are written under a temporary name and renamed
// into place (atomic on one file system), so a reader sees a whole entry or
// none; two writers of one key write equivalent files and the last rename
// wins. A build writes in a folder of its own ("build-XXXXXX": clang's PCH
// and the entry's temporary names) until it publishes, so that a builder
// killed midway leaves one folder, which its parent removes and a later
// build sweeps once it is an hour old. A reader hard-links the PCH to a
// private name before using it, so an
// eviction by another process cannot pull it away mid-parse. The cache is
// capped (CUDAGRAPH_TIDY_CACHE_MB, default 2048); least recently used
// entries go first.
//
// A preamble that failed once is not used again: a parse against it that
// reports compiler errors a plain parse does not have is redone here
// without it, and a worker that dies while building or reading it has it
// marked by its parent (Isolation.h); either way "<key>.failed" keeps the
// entry from being read or rebuilt.
//
// Findings do not depend on the cache: the AST is the same, and the checks
// traverse declarations read from the PCH as they do parsed ones. The one
// thing a PCH cannot replay is a compiler warning inside the preamble, so
// runs that enable clang-diagnostic-* checks do not use the cache.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_PREAMBLECACHE_H
#define CUDAGRAPH_TIDY_TOOLS_PREAMBLECACHE_H

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cgt {

struct PreambleCacheStats {
  std::atomic<unsigned> Hits{0}, Builds{0}, Skipped{0};
  /// Parses whose preamble path failed (a crash, a hang, errors a plain
  /// parse does not have) and that were redone without a preamble.
  std::atomic<unsigned> Failed{0};
};

struct PreambleCacheConfig {
  bool Enabled = true;
  /// Whether missing entries are built. Building costs about one more parse
  /// of the preamble; it pays off from the second run on, which a pre-commit
  /// or editor run has and a one-off CI run over thousands of files does
  /// not: see preambleCacheConfig().
  bool Build = true;
  /// Build an entry on the second miss of its key, not the first ("auto"):
  /// a key seen once is only marked ("<key>.seen"), so that a one-off run
  /// costs what a run without the cache costs, and the build, about one
  /// more parse of the preamble, is paid by a run that has a next one.
  bool BuildOnSecondMiss = false;
  std::string Directory;            ///< empty: the default location
  uint64_t MaxBytes = 2048ull << 20;
  PreambleCacheStats *Stats = nullptr;
  /// When set, the cache entry a parse is about to build or read is
  /// written to this file first, with the private link it reads it through
  /// or the folder it builds it in: if the parse then dies, the parent
  /// process knows which entry to mark failed and what to remove
  /// (Isolation.cpp, readInUseMarker).
  std::string InUseMarker;
  /// When set, the counts in Stats are written to this file each time one
  /// changes: a worker stopped past --tu-timeout sends no result, and its
  /// parent still knows what the cache did for the unit up to then
  /// (readPreambleCounts, Isolation.cpp).
  std::string CountsFile;
  /// Tests only (--inject-fault=preamble-crash:FILE): crash as clang's
  /// ASTReader does on some C++20 preambles, only when reading an entry.
  bool FaultCrashOnRead = false;
  /// Tests only (--inject-fault=preamble-build-kill:FILE): the worker is
  /// killed (SIGKILL, as the kernel's OOM killer or --tu-timeout would)
  /// once clang has written the preamble's PCH, before it is published.
  bool FaultKillInBuild = false;
};

/// Marks the entry at `PchPath` as one that failed once: it is removed and
/// never built or read again for the same key (a "<key>.failed" file);
/// `Link`, the private name a dead reader left behind, is removed.
void markPreambleFailed(const std::string &PchPath, const std::string &Link = "");

/// What a parse's InUseMarker file says: the entry it was building or
/// reading ("" for none), the private link it read it through ("" while
/// building) and the folder it built it in ("" while reading).
struct InUseEntry {
  std::string Pch, Link, BuildFolder;
};
InUseEntry readInUseMarker(const std::string &MarkerPath);

/// Removes what a dead worker left in the cache folder for `Entry`: its
/// private link and its builder's folder, never the entry itself.
void removeDeadWorkerFiles(const InUseEntry &Entry);

/// The counts a CountsFile holds; false when it holds none (the worker
/// counted nothing, or the file is not one this binary wrote).
bool readPreambleCounts(const std::string &Path, unsigned &Hits, unsigned &Builds,
                        unsigned &Skipped, unsigned &Failed);

/// $XDG_CACHE_HOME/cudagraph-tidy, else $HOME/.cache/cudagraph-tidy; ""
/// when neither variable is set.
std::string defaultPreambleCacheDir();

/// The configuration for `Mode` ("auto", "on" or "off"; "" takes
/// $CUDAGRAPH_TIDY_PREAMBLE_CACHE, else "auto") and a run over `Files`
/// translation units: "auto" reuses entries always and builds them for runs
/// of at most AutoBuildLimit files, on the second miss of a key; "on"
/// always builds, on the first miss. The entries lie in `Directory`
/// (--cache-dir; "": defaultPreambleCacheDir(), and no cache where that is
/// ""). The cap comes from CUDAGRAPH_TIDY_CACHE_MB. Returns false with
/// `Error` for a bad mode.
bool preambleCacheConfig(std::string Mode, size_t Files, const std::string &Directory,
                         PreambleCacheConfig &Out, std::string &Error);
constexpr size_t AutoBuildLimit = 8;

/// Another consumer of the AST the checks read, made for each parse (a
/// unit may be parsed twice: see runClangTidyWithPreamble).
using ExtraConsumerFactory = std::function<std::unique_ptr<clang::ASTConsumer>()>;

/// clang::tidy::runClangTidy for one translation unit, with the preamble
/// served from (and added to) the cache when `Cache.Enabled`. `UsedEntry`,
/// when given, is set to the .pch the result was parsed against ("" for a
/// plain parse), whose headers the parse did not open itself. `Extra`,
/// when set, reads the same AST after the checks.
std::vector<clang::tidy::ClangTidyError>
runClangTidyWithPreamble(clang::tidy::ClangTidyContext &Context,
                         const clang::tooling::CompilationDatabase &Compilations,
                         const std::string &File,
                         llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                         const PreambleCacheConfig &Cache,
                         std::string *UsedEntry = nullptr,
                         const ExtraConsumerFactory &Extra = {});

/// A precompiled preamble names the headers it read by absolute path, where
/// a full parse of a main file named relatively ("src/a.cu") names the
/// headers found next to it relatively ("src/a.cuh"). For runs on such a
/// file, paths under `Directory` (the compile's working directory) are
/// spelled relative to it, with the cache and without, so that the reports
/// agree.
void spellRelativeTo(std::vector<clang::tidy::ClangTidyError> &Errors,
                     const std::string &Directory);

} // namespace cgt

#endif
