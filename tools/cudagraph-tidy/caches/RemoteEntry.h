//===- RemoteEntry.h - a unit cache entry as a remote server keeps it -*- C++ -*-===//
//
// What RemoteCache.h PUTs and GETs: the local entry's text behind one head
// line,
//
//   cudagraph-tidy-entry 1 <name> <length of the text> <hash of the text>
//
// so that a reader can tell its own entry from anything else a server may
// answer with: a page of the server's own, another key's entry, an upload
// cut short, a format of another version. Such an answer is a miss, never
// a result: the report must not depend on what the server did.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_REMOTEENTRY_H
#define CUDAGRAPH_TIDY_TOOLS_REMOTEENTRY_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cgt {

/// `Text`, the entry `Name`, with its head line.
std::string wrapRemoteEntry(llvm::StringRef Name, llvm::StringRef Text);

/// The entry's text when `Stored` is the entry `Name` whole, in this
/// format; else false, with what is wrong with it in `Why`.
bool unwrapRemoteEntry(llvm::StringRef Name, llvm::StringRef Stored, std::string &Text,
                       std::string &Why);

} // namespace cgt

#endif
