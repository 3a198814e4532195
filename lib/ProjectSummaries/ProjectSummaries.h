//===- ProjectSummaries.h - a project's summaries left in the cache -*- C++ -*-===//
//
// A driver run over a database computes the exported summaries of every
// file (tools/cudagraph-tidy/summaries/CrossTu.h). The plugin and a one-file driver
// run (the pre-commit hook, `cudagraph-tidy launch` inside a build) see one
// translation unit and cannot compute them, so the driver leaves the whole
// set where they look, per project:
//
//   <cache folder>/summaries/project-<hash of the git top level>.json
//
// an API model file as --export-model writes it. The project of a file is
// the git work tree it is in (else its directory). The file is as fresh as
// the last driver run over the database: a wrapper changed since is still
// known the old way until the next one.
//
// This layer knows nothing about clang or clang-tidy.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_PROJECTSUMMARIES_PROJECTSUMMARIES_H
#define CUDAGRAPH_TIDY_PROJECTSUMMARIES_PROJECTSUMMARIES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cgt {

/// $XDG_CACHE_HOME/cudagraph-tidy, else $HOME/.cache/cudagraph-tidy; ""
/// when neither variable is set.
std::string defaultCacheFolder();

/// The project of `AbsoluteFile`: the nearest directory above it holding
/// `.git`, else the file's directory.
std::string projectOf(llvm::StringRef AbsoluteFile);

/// Where the summaries of `Project` live in `CacheFolder`.
std::string projectSummariesPath(llvm::StringRef CacheFolder, llvm::StringRef Project);

} // namespace cgt

#endif
