//===- HttpClient.h - plain HTTP GET and PUT through libcurl ----*- C++ -*-===//
//
// The transport of the remote result cache (RemoteCache.h): one GET or PUT
// of a whole body, with a connect timeout and a total timeout, nothing
// else (no redirects, no retries: a cache that is slow or odd is given up,
// not waited for). Thread-safe: the summary passes and the checks ask from
// several threads; idle connections are kept in a small pool of curl
// handles, so that a run over hundreds of units does not reconnect for
// each entry.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_HTTPCLIENT_H
#define CUDAGRAPH_TIDY_TOOLS_HTTPCLIENT_H

#include "llvm/ADT/StringRef.h"
#include <mutex>
#include <string>
#include <vector>

namespace cgt {

/// What one request came to: Error is non-empty when no HTTP answer came
/// (refused, timed out, not HTTP); else Status is the HTTP status.
struct HttpReply {
  long Status = 0;
  std::string Body;
  std::string Error;
  bool TimedOut = false;
};

class HttpClient {
public:
  HttpClient(unsigned ConnectTimeoutMs, unsigned TimeoutMs);
  ~HttpClient();
  HttpClient(const HttpClient &) = delete;
  HttpClient &operator=(const HttpClient &) = delete;

  HttpReply get(const std::string &Url);
  HttpReply put(const std::string &Url, llvm::StringRef Body);

private:
  void *take();           ///< a curl easy handle, from the pool or new
  void give(void *Handle); ///< back to the pool (its connection kept)
  HttpReply perform(void *Handle);
  unsigned ConnectTimeoutMs, TimeoutMs;
  std::mutex M;
  std::vector<void *> Idle;
};

} // namespace cgt

#endif
