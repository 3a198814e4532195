//===- TidyConfig.h - the clang-tidy options a run checks with -*- C++ -*-===//
//
// The checks and their options: .clang-tidy files found next to each
// source (as clang-tidy does), overridden by --config/--config-file and
// --checks, over the default '-*,cudagraph-*'; and --list-checks.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_TIDYCONFIG_H
#define CUDAGRAPH_TIDY_TOOLS_TIDYCONFIG_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace cgt {

/// What --checks, --config and --config-file said ("" when not given).
struct TidyConfigArgs {
  std::string Checks;
  std::string Config;
  std::string ConfigFile;
};

/// The provider of every unit's ClangTidyOptions; an error for a config
/// file that cannot be read or a configuration that does not parse.
llvm::Expected<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>>
makeOptionsProvider(const TidyConfigArgs &Args);

/// One warning per .clang-tidy governing some of the files that does not
/// parse (the units are checked without its settings).
void reportBrokenConfigFiles(const std::vector<std::string> &Files, llvm::raw_ostream &OS);

/// --list-checks: the enabled checks and their short descriptions on
/// stdout; the exit code.
int listChecks(const TidyConfigArgs &Args);

} // namespace cgt

#endif
