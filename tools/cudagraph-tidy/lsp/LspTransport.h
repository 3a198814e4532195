//===- LspTransport.h - JSON-RPC messages over stdio for `lsp` --*- C++ -*-===//
//
// The base protocol of the Language Server Protocol: each message is a
// "Content-Length: N\r\n" header block, an empty line and N bytes of JSON.
// Only this framing lives here; what the messages mean is LspServer's.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_LSPTRANSPORT_H
#define CUDAGRAPH_TIDY_TOOLS_LSPTRANSPORT_H

#include <optional>
#include <string>

namespace cgt {

class LspTransport {
public:
  /// Reads from and writes to these descriptors (not 0 and 1 themselves:
  /// see lspMain, which keeps the protocol's channel away from anything
  /// else in the process or its workers that would print).
  LspTransport(int In, int Out) : In(In), Out(Out) {}

  /// The next message's body; nullopt at end of input or on a header
  /// block without a usable Content-Length.
  std::optional<std::string> read();
  /// Whether input is waiting (buffered, or readable within `TimeoutMs`
  /// milliseconds): read() then returns without waiting for the client.
  bool waitReadable(int TimeoutMs);
  /// Writes one message; false when the client has gone.
  bool write(const std::string &Body);

private:
  bool fill();
  std::optional<std::string> line();
  int In, Out;
  std::string Buffer;
};

} // namespace cgt

#endif
