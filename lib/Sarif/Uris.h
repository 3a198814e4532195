//===- Uris.h - paths and repositories as SARIF URIs ------------*- C++ -*-===//
//
// A SARIF log names files relative to a source root and the repository it
// analysed; these turn the analysing machine's paths and git remotes into
// URIs that carry no absolute path and no credentials.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SARIF_URIS_H
#define CUDAGRAPH_TIDY_SARIF_URIS_H

#include <string>

namespace cgt {

/// Path of `File` relative to `Root` ("src/a.cu"), or "" when it is not
/// under Root. Both are taken as given (the caller resolves symlinks).
std::string relativeToRoot(const std::string &File, const std::string &Root);

/// Percent-encodes a relative path for a SARIF "uri" (keeps '/').
std::string encodeUriPath(const std::string &Path);

/// A git remote URL as a repositoryUri: user names and passwords (tokens)
/// removed, scp-like "host:path" as "ssh://host/path", a local path as a
/// file:// URI. "" when nothing is left.
std::string repositoryUriFromRemote(const std::string &Remote);

/// "file:///a%20b/c.cu" for the absolute path "/a b/c.cu".
std::string fileUri(const std::string &AbsPath);

} // namespace cgt

#endif
