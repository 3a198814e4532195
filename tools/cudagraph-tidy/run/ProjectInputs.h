//===- ProjectInputs.h - the database and files a run is given -*- C++ -*-===//
//
// What a run reads from its command line before any analysis: the
// compilation database -p names (loaded here, not by CommonOptionsParser,
// so that a missing or broken one is an error and not a silent run without
// flags), the files to analyse and the folder SARIF URIs are relative to.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_PROJECTINPUTS_H
#define CUDAGRAPH_TIDY_TOOLS_PROJECTINPUTS_H

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <string>
#include <vector>

namespace cgt {

/// The value of -p in argv ("" when absent), read before
/// CommonOptionsParser sees it.
std::string buildPathArg(int Argc, const char **Argv);

/// The database -p names, prepared the way CommonOptionsParser prepares
/// its own. Sets `Problem` (exit 2) when -p names no loadable database.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadBuildPath(const std::string &BuildPath, std::string &Problem);

/// Files named on the command line, else every file of the database (-p).
std::vector<std::string> inputFiles(clang::tooling::CommonOptionsParser &Parser,
                                    const clang::tooling::CompilationDatabase *Db);

/// The first file named on the command line that does not exist, or "".
std::string missingNamedFile(clang::tooling::CommonOptionsParser &Parser);

/// --sarif-root resolved to a real directory; the default when `Option` is
/// empty. Sets `Error` when it is not a directory.
std::string resolvedSarifRoot(const std::string &Option, std::string &Error);

} // namespace cgt

#endif
