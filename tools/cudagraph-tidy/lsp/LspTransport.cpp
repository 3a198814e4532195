//===- LspTransport.cpp - JSON-RPC messages over stdio for `lsp` ----------===//
//
// Headers other than Content-Length (Content-Type) are read and ignored, as
// the specification allows. Reads go through a buffer because a header
// block and its body may arrive in one read or in many.
//
//===----------------------------------------------------------------------===//
#include "lsp/LspTransport.h"

#include "llvm/ADT/StringRef.h"
#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace cgt {

bool LspTransport::fill() {
  char Chunk[65536];
  for (;;) {
    ssize_t N = ::read(In, Chunk, sizeof(Chunk));
    if (N > 0) {
      Buffer.append(Chunk, static_cast<size_t>(N));
      return true;
    }
    if (N < 0 && errno == EINTR)
      continue;
    return false;
  }
}

bool LspTransport::waitReadable(int TimeoutMs) {
  if (!Buffer.empty())
    return true;
  struct pollfd P = {In, POLLIN, 0};
  for (;;) {
    int N = ::poll(&P, 1, TimeoutMs);
    if (N < 0 && errno == EINTR)
      continue;
    // End of input or an error is "readable" too: read() then says so.
    return N > 0;
  }
}

std::optional<std::string> LspTransport::line() {
  for (;;) {
    size_t End = Buffer.find("\r\n");
    if (End != std::string::npos) {
      std::string L = Buffer.substr(0, End);
      Buffer.erase(0, End + 2);
      return L;
    }
    if (!fill())
      return std::nullopt;
  }
}

std::optional<std::string> LspTransport::read() {
  std::optional<size_t> Length;
  for (;;) {
    std::optional<std::string> L = line();
    if (!L)
      return std::nullopt;
    if (L->empty())
      break;
    llvm::StringRef Header(*L);
    if (Header.consume_front_insensitive("content-length:")) {
      size_t N;
      if (Header.trim().getAsInteger(10, N))
        return std::nullopt;
      Length = N;
    }
  }
  if (!Length)
    return std::nullopt;
  while (Buffer.size() < *Length)
    if (!fill())
      return std::nullopt;
  std::string Body = Buffer.substr(0, *Length);
  Buffer.erase(0, *Length);
  return Body;
}

bool LspTransport::write(const std::string &Body) {
  std::string Message =
      "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
  size_t Done = 0;
  while (Done < Message.size()) {
    ssize_t N = ::write(Out, Message.data() + Done, Message.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += static_cast<size_t>(N);
  }
  return true;
}

} // namespace cgt
