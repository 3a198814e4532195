//===- UnitCache.h - per-unit results kept between runs ---------*- C++ -*-===//
//
// A content-addressed store for what one translation unit's analysis
// produced: its exported summaries (ExportCache.cpp) and its findings
// (ResultCache.cpp). It lives in the preamble cache's folder:
//
//   <cache folder>/units/<kind>-<key>.json
//
// A key is a hash of everything that can change the entry: the tool's own
// binary, the unit's file and effective flags, its resolved clang-tidy
// options (the .clang-tidy chain, --config, --checks), the contents of its
// API model files, the summaries of other units it consumed, and the
// contents of every file it read. The last is known only after a parse,
// so an entry records its files with their content hashes and a reader
// checks them (ccache's "direct mode"): contents, not timestamps, so that a
// fresh checkout on another CI machine hits the entries a shard saved.
//
// Writes go to a unique temporary name and are renamed into place, so
// parallel jobs, shards and machines sharing one folder see a whole entry
// or none. An entry that does not parse is ignored (and rewritten by the
// run that misses it). Reading an entry touches it; at the end of a run
// the least recently used entries go until the folder's units/ part is
// within its bound (--cache-max-mb).
//
// With a remote cache (RemoteCache.h, --cache-url) the folder comes first:
// a local miss asks the server, and what it has is kept in the folder too;
// every entry written is also sent to the server.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_UNITCACHE_H
#define CUDAGRAPH_TIDY_TOOLS_UNITCACHE_H

#include "llvm/ADT/StringRef.h"
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cgt {

class RemoteCache;

/// A file the entry depends on and the hash of its contents, or
/// AbsentDigest for a path that must still not exist.
using FileDigest = std::pair<std::string, std::string>;
constexpr const char *AbsentDigest = "-";

class UnitCache {
public:
  /// `Directory` is the cache folder; entries go to its units/ folder.
  UnitCache(std::string Directory, uint64_t MaxBytes);

  /// Entries are also looked up on, and sent to, `Remote` (null: none).
  void setRemote(RemoteCache *R) { Remote = R; }
  RemoteCache *remote() const { return Remote; }

  /// The entry's text, "" when there is none. Touches it (recently used).
  /// `FromRemote`, when given, says whether the server had it.
  std::string get(llvm::StringRef Name, bool *FromRemote = nullptr) const;
  /// Publishes the entry atomically (and sends it to the remote cache);
  /// false when the folder is not writable.
  bool put(llvm::StringRef Name, llvm::StringRef Text) const;
  /// Removes least recently used entries past the bound.
  void evict() const;
  /// Where content-addressed files other than entries go (the summaries
  /// each unit consumed, which its options name): <folder>/summaries.
  std::string summariesDirectory() const;

  /// The hash of a file's contents, "" when it cannot be read. Each file is
  /// read once per run.
  std::string fileDigest(const std::string &Path);
  /// From now on fileDigest(Path) is `Digest`: a file that holds more than
  /// what keys results (a summaries artifact's unit costs) is keyed by the
  /// part that matters.
  void presetDigest(const std::string &Path, const std::string &Digest);
  /// The files with their hashes, and the paths that must stay absent;
  /// false when a file cannot be read or an absent path now exists.
  bool digestAll(const std::vector<std::string> &Paths,
                 const std::vector<std::string> &Absent, std::vector<FileDigest> &Out);
  /// Whether every file still has the recorded hash, and every absent
  /// path is still absent.
  bool stillSame(const std::vector<FileDigest> &Files);

  /// `Path` is a file whose name fixes its contents, which the driver
  /// writes into the cache folder itself (the nvcc compatibility header,
  /// named by the hash of its text and rewritten when its text differs).
  /// Keys name it by its name (keyArg), and entries do not list it among
  /// the files they read: the cache folder is elsewhere on another machine
  /// (--cache-dir), and an entry from the remote cache must match there.
  void addSelfNamedFile(const std::string &Path);
  /// `Arg` of a compile command as a key names it: a self-named file by
  /// its name, anything else as it is.
  std::string keyArg(const std::string &Arg) const;

  mutable std::atomic<unsigned> Corrupt{0}; ///< entries that did not parse

private:
  bool putLocal(llvm::StringRef Name, llvm::StringRef Text) const;
  RemoteCache *Remote = nullptr;
  std::string Units;
  std::string Root;
  uint64_t MaxBytes;
  std::mutex M;
  std::map<std::string, std::string> Digests;
  std::map<std::string, bool> Exists;
  /// addSelfNamedFile's; set before the run's threads start.
  std::vector<std::string> SelfNamed;
  bool selfNamed(const std::string &Path) const;
  bool exists(const std::string &Path);
};

/// A 128-bit hash of `Text`, as 32 hex digits.
std::string hashText(llvm::StringRef Text);

/// Builds a key from parts; each part is length-prefixed, so that parts
/// cannot run into each other.
class KeyBuilder {
public:
  KeyBuilder &add(llvm::StringRef Part);
  std::string key() const { return hashText(Text); }

private:
  std::string Text;
};

/// The hash of this binary's own contents: any change to the tool, a
/// rebuild during development included, invalidates every entry.
const std::string &toolIdentity();

} // namespace cgt

#endif
