//===- LspProtocol.h - findings as LSP diagnostics and code actions -*- C++ -*-===//
//
// What `cudagraph-tidy lsp` sends: each finding as a Diagnostic (its notes
// as relatedInformation, the check as code with a link to its page) and
// each fix-it as a quickfix CodeAction whose WorkspaceEdit is the fix.
// Positions are converted from the findings' 1-based byte columns to the
// protocol's 0-based UTF-16 code units, reading the lines from disk.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_LSPPROTOCOL_H
#define CUDAGRAPH_TIDY_TOOLS_LSPPROTOCOL_H

#include "Report/Finding.h"
#include "Sarif/SarifWriter.h"
#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <vector>

namespace cgt {

/// "/a b/c.cu" for "file:///a%20b/c.cu" (the way back from Sarif/Uris.h's
/// fileUri); "" for a URI that is not a file: URI.
std::string pathOfUri(const std::string &Uri);

/// The number of UTF-16 code units in the first `Bytes` bytes of `Line`.
unsigned utf16Units(const std::string &Line, unsigned Bytes);

class LspConverter {
public:
  /// Names the document at `Path` as the client does: clients spell URIs
  /// in their own ways (which characters are percent-encoded, the case of
  /// the hex digits), and a URI spelled otherwise is another document.
  void knowDocument(const std::string &Path, const std::string &Uri) {
    Uris[Path] = Uri;
  }

  /// One Diagnostic per finding, in order.
  nlohmann::json diagnostics(const std::vector<FindingRecord> &Findings);
  /// Quickfix CodeActions for the fix-its of the findings whose range meets
  /// `Range` (an LSP Range of the document at `Path`).
  nlohmann::json codeActions(const std::vector<FindingRecord> &Findings,
                             const std::string &Path, const nlohmann::json &Range);
  /// A diagnostic at the top of the file saying the file was not analysed.
  static nlohmann::json notAnalysed(const std::string &Problem);

private:
  std::string uriOf(const std::string &File) const {
    auto It = Uris.find(File);
    return It != Uris.end() ? It->second : fileUri(File);
  }
  nlohmann::json position(const std::string &File, unsigned Line, unsigned Column);
  nlohmann::json range(const SourcePos &P);
  nlohmann::json diagnostic(const FindingRecord &F);
  nlohmann::json fixAction(const FindingRecord &F, const std::vector<FixRecord> &Fixes,
                           bool Preferred);
  SourceText Text;
  std::map<std::string, std::string> Uris;
};

} // namespace cgt

#endif
