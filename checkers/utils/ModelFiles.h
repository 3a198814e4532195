//===- ModelFiles.h - the API model a unit's checks read --------*- C++ -*-===//
//
// The lifetime checks read the whole API model; the kernel checks read the
// launch shapes a project's summaries carry across files ("kernelLaunches").
// Both read the same files: the ApiModelFiles option (which the driver
// extends with the summaries a unit consumes), and, for the plugin and
// one-file runs, the summaries a driver run left for the project of the
// main file (ProjectSummaries/ProjectSummaries.h). Models are shared
// between checks and translation units: parsing the same files again for
// every check would be wasted work. A model that fails to load is
// remembered too, so that its error is reported once per process.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_MODELFILES_H
#define CUDAGRAPH_TIDY_CHECKERS_MODELFILES_H

#include "ApiModel/ApiModel.h"
#include "clang/Basic/SourceManager.h"
#include <memory>
#include <string>

namespace clang::tidy::cudagraph {

/// `ApiModelFiles`, and the project's summaries after it when
/// `ProjectSummaries` is on and a driver run left some.
std::string modelFilesFor(const SourceManager &SM, StringRef ApiModelFiles,
                          bool ProjectSummaries);

/// The built-in model and the files of `ModelFiles` (';'-separated), loaded
/// once per value. Null when it does not load; `Error` then says why, the
/// first time only ("" after).
std::shared_ptr<const cgt::ApiModel> loadApiModel(const std::string &ModelFiles,
                                                  std::string &Error);

} // namespace clang::tidy::cudagraph

#endif
