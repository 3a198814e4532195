//===- SourceText.h - source lines for a SARIF log --------------*- C++ -*-===//
//
// The log quotes the flagged code, converts clang's byte columns to the code
// point columns SARIF counts, and fingerprints findings by the text of their
// line and the enclosing declaration; this reads each source file once for
// all of that. It knows nothing of clang: files are read from disk.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SARIF_SOURCETEXT_H
#define CUDAGRAPH_TIDY_SARIF_SOURCETEXT_H

#include <map>
#include <string>
#include <vector>

namespace cgt {

/// Reads source files once and answers line-level questions about them.
/// Files that cannot be read behave as empty, so columns pass through.
class SourceText {
public:
  /// Text of 1-based `Line` without its newline (and without a trailing CR).
  const std::string &line(const std::string &File, unsigned Line);
  /// Converts a 1-based byte column on `Line` to a 1-based code-point column.
  unsigned codePointColumn(const std::string &File, unsigned Line,
                           unsigned ByteColumn);
  /// The nearest line at or above `Line` that starts a top-level declaration
  /// (no indentation, not a brace, comment or preprocessor line): the
  /// signature of the enclosing function in ordinary code.
  std::string enclosingContext(const std::string &File, unsigned Line);
  /// The text between two 1-based code-point positions (end exclusive),
  /// lines joined by '\n'; what a region's snippet shows.
  std::string text(const std::string &File, unsigned StartLine,
                   unsigned StartColumn, unsigned EndLine, unsigned EndColumn);

private:
  const std::vector<std::string> &lines(const std::string &File);
  std::map<std::string, std::vector<std::string>> Cache;
};

/// `S` without spaces, tabs and line ends: what fingerprints compare, so
/// that reformatting a line keeps a finding's identity.
std::string stripWhitespace(const std::string &S);

} // namespace cgt

#endif
