//===- RemoteCache.cpp - the unit cache on a shared HTTP server -----------===//
//
// Giving up on the first failure, rather than per request, is what keeps a
// dead server cheap: a run over 66 units would otherwise wait out the
// timeout for each of its ~200 entries. A bad entry is not a failure of
// the server (one upload cut short must not cost the fleet its cache), so
// the server stays in use and the unit's analysis overwrites the entry.
//
//===----------------------------------------------------------------------===//
#include "caches/RemoteCache.h"
#include "caches/RemoteEntry.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace cgt {
namespace {

/// `Url` without "user:password@" (printed URLs must not carry secrets).
std::string withoutCredentials(const std::string &Url) {
  size_t Scheme = Url.find("://");
  size_t Start = Scheme == std::string::npos ? 0 : Scheme + 3;
  size_t End = Url.find('/', Start);
  size_t At = Url.rfind('@', End == std::string::npos ? Url.size() : End);
  if (At == std::string::npos || At < Start)
    return Url;
  return Url.substr(0, Start) + Url.substr(At + 1);
}

/// Why a request that got no HTTP answer failed.
std::string transportFailure(const HttpReply &R, unsigned TimeoutMs) {
  if (!R.TimedOut)
    return R.Error;
  return "no answer within " + std::to_string(TimeoutMs / 1000) + " s: " + R.Error;
}

} // namespace

bool remoteCacheSettings(std::string Url, unsigned TimeoutSeconds, RemoteSettings &Out,
                         std::string &Error) {
  if (Url.empty())
    if (auto Env = llvm::sys::Process::GetEnv("CUDAGRAPH_TIDY_CACHE_URL"))
      Url = *Env;
  uint64_t Seconds = TimeoutSeconds;
  if (!Seconds)
    if (auto Env = llvm::sys::Process::GetEnv("CUDAGRAPH_TIDY_CACHE_TIMEOUT"))
      llvm::StringRef(*Env).getAsInteger(10, Seconds);
  Out.TimeoutMs = static_cast<unsigned>((Seconds ? Seconds : 10) * 1000);
  Out.ConnectTimeoutMs = std::min(Out.TimeoutMs, 2000u);
  llvm::StringRef U(Url);
  U = U.trim();
  while (U.ends_with("/"))
    U = U.drop_back();
  if (U.empty()) {
    Out.Url.clear();
    return true;
  }
  llvm::StringRef Lower = U.take_front(8);
  bool Http = Lower.starts_with_insensitive("http://");
  bool Https = Lower.starts_with_insensitive("https://");
  if ((!Http && !Https) || U.size() <= (Http ? 7u : 8u)) {
    Error = "--cache-url '" + Url + "': expected http://host[:port][/prefix] or https://...";
    return false;
  }
  Out.Url = U.str();
  return true;
}

RemoteCache::RemoteCache(const RemoteSettings &S)
    : Settings(S), Shown(withoutCredentials(S.Url)),
      Http(S.ConnectTimeoutMs, S.TimeoutMs) {}

std::string RemoteCache::urlOf(llvm::StringRef Name) const {
  return Settings.Url + "/" + Name.str();
}

std::string RemoteCache::whyGivenUp() const {
  std::lock_guard<std::mutex> Lock(M);
  return Why;
}

void RemoteCache::giveUp(const std::string &Reason, bool Unreachable) {
  if (Off.exchange(true))
    return; // another thread's failure was first, and was said
  {
    std::lock_guard<std::mutex> Lock(M);
    Why = Reason;
  }
  llvm::errs() << "cudagraph-tidy: warning: remote cache " << Shown
               << (Unreachable ? " unreachable (" : " unusable (") << Reason
               << "); using the local cache only for the rest of this run\n";
}

void RemoteCache::noteRefused(long Status) {
  if (NoWrites.exchange(true))
    return;
  llvm::errs() << "cudagraph-tidy: note: remote cache " << Shown
               << " refused to store an entry (HTTP " << Status
               << " to a PUT); only reading from it for the rest of this run\n";
}

void RemoteCache::noteInvalid(llvm::StringRef Name, const std::string &Reason) {
  ++Invalid;
  if (SaidInvalid.exchange(true))
    return;
  llvm::errs() << "cudagraph-tidy: warning: remote cache " << Shown
               << " sent what is not a valid entry (" << Name << ": " << Reason
               << "); such answers count as misses and the entries are stored again\n";
}

std::string RemoteCache::get(llvm::StringRef Name) {
  if (Off)
    return "";
  HttpReply R = Http.get(urlOf(Name));
  if (!R.Error.empty()) {
    giveUp(transportFailure(R, Settings.TimeoutMs), true);
    return "";
  }
  if (R.Status == 404) {
    ++Misses;
    return "";
  }
  if (R.Status != 200) {
    giveUp("HTTP " + std::to_string(R.Status) + " to a GET", false);
    return "";
  }
  std::string Text, Reason;
  if (!unwrapRemoteEntry(Name, R.Body, Text, Reason)) {
    noteInvalid(Name, Reason);
    return "";
  }
  ++Hits;
  return Text;
}

void RemoteCache::put(llvm::StringRef Name, llvm::StringRef Text) {
  if (Off || NoWrites)
    return;
  HttpReply R = Http.put(urlOf(Name), wrapRemoteEntry(Name, Text));
  if (!R.Error.empty())
    giveUp(transportFailure(R, Settings.TimeoutMs), true);
  else if (R.Status >= 400 && R.Status < 500)
    noteRefused(R.Status);
  else if (R.Status < 200 || R.Status > 299)
    giveUp("HTTP " + std::to_string(R.Status) + " to a PUT", false);
  else
    ++Stored;
}

} // namespace cgt
