//===- HttpClient.cpp - plain HTTP GET and PUT through libcurl ------------===//
//
// curl_easy_reset between requests clears the options but keeps a handle's
// live connection, which is why handles are pooled rather than made per
// request. CURLOPT_NOSIGNAL: the driver is multithreaded, and curl's
// timeouts must not use SIGALRM.
//
//===----------------------------------------------------------------------===//
#include "caches/HttpClient.h"

#include <algorithm>
#include <curl/curl.h>
#include <mutex>

namespace cgt {
namespace {

size_t appendBody(char *Data, size_t Size, size_t N, void *Out) {
  static_cast<std::string *>(Out)->append(Data, Size * N);
  return Size * N;
}

/// What is left of a PUT's body to send.
struct Upload {
  const char *Data;
  size_t Left;
};

size_t readBody(char *Buffer, size_t Size, size_t N, void *In) {
  auto *U = static_cast<Upload *>(In);
  size_t Take = std::min(Size * N, U->Left);
  std::copy(U->Data, U->Data + Take, Buffer);
  U->Data += Take;
  U->Left -= Take;
  return Take;
}

void setCommon(CURL *H, const std::string &Url, unsigned ConnectMs, unsigned TotalMs) {
  curl_easy_setopt(H, CURLOPT_URL, Url.c_str());
  curl_easy_setopt(H, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(H, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(ConnectMs));
  curl_easy_setopt(H, CURLOPT_TIMEOUT_MS, static_cast<long>(TotalMs));
  curl_easy_setopt(H, CURLOPT_FOLLOWLOCATION, 0L);
  // Only the schemes --cache-url accepts, whatever the URL turns into.
  curl_easy_setopt(H, CURLOPT_PROTOCOLS_STR, "http,https");
}

} // namespace

HttpClient::HttpClient(unsigned ConnectTimeoutMs, unsigned TimeoutMs)
    : ConnectTimeoutMs(ConnectTimeoutMs), TimeoutMs(TimeoutMs) {
  // Not thread-safe itself: the first client is made before any worker
  // thread runs.
  static std::once_flag Once;
  std::call_once(Once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpClient::~HttpClient() {
  for (void *H : Idle)
    curl_easy_cleanup(static_cast<CURL *>(H));
}

void *HttpClient::take() {
  {
    std::lock_guard<std::mutex> Lock(M);
    if (!Idle.empty()) {
      void *H = Idle.back();
      Idle.pop_back();
      curl_easy_reset(static_cast<CURL *>(H));
      return H;
    }
  }
  return curl_easy_init();
}

void HttpClient::give(void *H) {
  std::lock_guard<std::mutex> Lock(M);
  Idle.push_back(H);
}

HttpReply HttpClient::perform(void *Handle) {
  CURL *H = static_cast<CURL *>(Handle);
  HttpReply R;
  char Message[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(H, CURLOPT_ERRORBUFFER, Message);
  curl_easy_setopt(H, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(H, CURLOPT_WRITEDATA, &R.Body);
  CURLcode C = curl_easy_perform(H);
  curl_easy_setopt(H, CURLOPT_ERRORBUFFER, nullptr);
  if (C != CURLE_OK) {
    R.Error = Message[0] ? Message : curl_easy_strerror(C);
    R.TimedOut = C == CURLE_OPERATION_TIMEDOUT;
    return R;
  }
  curl_easy_getinfo(H, CURLINFO_RESPONSE_CODE, &R.Status);
  return R;
}

HttpReply HttpClient::get(const std::string &Url) {
  void *H = take();
  if (!H)
    return {0, "", "cannot start an HTTP request (curl_easy_init)", false};
  setCommon(static_cast<CURL *>(H), Url, ConnectTimeoutMs, TimeoutMs);
  HttpReply R = perform(H);
  give(H);
  return R;
}

HttpReply HttpClient::put(const std::string &Url, llvm::StringRef Body) {
  void *Handle = take();
  if (!Handle)
    return {0, "", "cannot start an HTTP request (curl_easy_init)", false};
  CURL *H = static_cast<CURL *>(Handle);
  setCommon(H, Url, ConnectTimeoutMs, TimeoutMs);
  Upload U{Body.data(), Body.size()};
  curl_easy_setopt(H, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(H, CURLOPT_READFUNCTION, readBody);
  curl_easy_setopt(H, CURLOPT_READDATA, &U);
  curl_easy_setopt(H, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(Body.size()));
  // "Expect: 100-continue" costs a round trip (or a second's wait on
  // servers that ignore it) for every large entry.
  curl_slist *Headers = curl_slist_append(nullptr, "Expect:");
  Headers = curl_slist_append(Headers, "Content-Type: application/octet-stream");
  curl_easy_setopt(H, CURLOPT_HTTPHEADER, Headers);
  HttpReply R = perform(H);
  curl_easy_setopt(H, CURLOPT_HTTPHEADER, nullptr);
  curl_slist_free_all(Headers);
  give(H);
  return R;
}

} // namespace cgt
