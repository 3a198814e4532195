//===- DriverSupport.h - running the checks and writing reports -*- C++ -*-===//
#ifndef CUDAGRAPH_TIDY_TOOLS_DRIVERSUPPORT_H
#define CUDAGRAPH_TIDY_TOOLS_DRIVERSUPPORT_H

#include "Report/Finding.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <string>
#include <vector>

namespace cgt {

struct DriverRun {
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> OptionsProvider;
  const clang::tooling::CompilationDatabase *Compilations = nullptr;
  bool DeviceSide = false;
};

struct RunResult {
  std::vector<FindingRecord> Findings; ///< sorted by file, offset, check
  std::vector<UnitStatus> Units;       ///< one per input file, in input order
  std::vector<std::string> ConfigErrors; ///< bad options or model files
};

/// Analyses each file with the enabled checks.
RunResult runChecks(DriverRun &Run, const std::vector<std::string> &Files);

/// Writes the report in `Format` ("text" or "sarif") to `OutputPath` (stdout
/// when empty). Returns false with `Error` set when it cannot.
bool writeReport(const RunResult &Result, const std::string &Format,
                 const std::string &OutputPath, std::string &Error);

/// Prints findings the way clang-tidy does: "file:line:col: warning: msg [check]"
/// followed by the notes.
std::string formatText(const std::vector<FindingRecord> &Findings);

/// 0 no findings, 1 findings, 2 the tool could not do its job.
int exitCodeFor(const RunResult &Result);

/// Makes a compile command analysable by clang: host-side analysis of CUDA
/// files unless `DeviceSide`, `-x cuda` for .cuh headers.
std::vector<std::string> adjustCudaArgs(const std::vector<std::string> &Args,
                                        const std::string &File,
                                        bool DeviceSide);

} // namespace cgt

#endif
