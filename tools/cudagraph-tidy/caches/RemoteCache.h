//===- RemoteCache.h - the unit cache on a shared HTTP server ---*- C++ -*-===//
//
// --cache-url=http://host:port/prefix: the unit cache's entries (UnitCache.h:
// the summaries' xm-/xv- entries and the findings' r- entries) also live on
// a cache server that the machines of a CI fleet share, so that the second
// machine replays what the first analysed. The protocol is the plain one
// of ccache's HTTP remote storage and Bazel's HTTP remote cache:
//
//   GET <url>/<entry name>   200 with the entry, or 404
//   PUT <url>/<entry name>   stores it (any 2xx)
//
// which nginx's WebDAV module, a bazel-remote or an S3-style bucket behind
// a proxy serve as they are. An entry travels with a head line
// (RemoteEntry.h) and is checked as any local entry is: a remote hit is
// replayed only if every file it lists still has its hash here.
//
// The server can only make a run faster, never change its report:
//  - an answer that is not this entry intact is a miss (and is overwritten
//    by the unit's analysis);
//  - a server that is down, slow (past the timeouts) or answers anything
//    but 200/404 to a GET, or a 5xx to a PUT, is not asked again in this
//    run; the run goes on from the local folder (or, empty, by analysing);
//  - a server that refuses a PUT (4xx: read-only for this client, as a
//    fleet's pull-request jobs may be) is only read from for the rest of it.
// Each is said once on stderr, when it first happens.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_REMOTECACHE_H
#define CUDAGRAPH_TIDY_TOOLS_REMOTECACHE_H

#include "caches/HttpClient.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace cgt {

struct RemoteSettings {
  std::string Url;  ///< "" for none; no trailing '/'
  unsigned TimeoutMs = 10000;
  unsigned ConnectTimeoutMs = 2000;
};

/// Reads --cache-url ("" takes $CUDAGRAPH_TIDY_CACHE_URL; http:// or
/// https:// only) and --cache-timeout (seconds a request may take; 0 takes
/// $CUDAGRAPH_TIDY_CACHE_TIMEOUT, else 10; connecting may take at most 2 of
/// them). False with `Error` for a bad value.
bool remoteCacheSettings(std::string Url, unsigned TimeoutSeconds, RemoteSettings &Out,
                         std::string &Error);

class RemoteCache {
public:
  explicit RemoteCache(const RemoteSettings &Settings);

  /// The text of entry `Name`, "" on a miss (404, an answer that is not
  /// the entry, a server given up).
  std::string get(llvm::StringRef Name);
  /// Stores the entry; a failure gives the server up.
  void put(llvm::StringRef Name, llvm::StringRef Text);

  /// The URL as printed: without a user:password part.
  const std::string &shownUrl() const { return Shown; }
  /// Whether the server was given up, and why.
  bool givenUp() const { return Off; }
  std::string whyGivenUp() const;
  /// Whether a PUT was refused (then nothing more is sent).
  bool readOnly() const { return NoWrites; }

  std::atomic<unsigned> Hits{0}, Misses{0}, Stored{0}, Invalid{0};

private:
  std::string urlOf(llvm::StringRef Name) const;
  /// The first failure: said once, and the server is not asked again.
  void giveUp(const std::string &Why, bool Unreachable);
  void noteInvalid(llvm::StringRef Name, const std::string &Why);
  void noteRefused(long Status);
  RemoteSettings Settings;
  std::string Shown;
  HttpClient Http;
  std::atomic<bool> Off{false};
  std::atomic<bool> SaidInvalid{false};
  std::atomic<bool> NoWrites{false};
  mutable std::mutex M;
  std::string Why;
};

} // namespace cgt

#endif
