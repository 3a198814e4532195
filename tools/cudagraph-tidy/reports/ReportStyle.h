//===- ReportStyle.h - which report format and colours a run gets -*- C++ -*-===//
//
// --format and --color, resolved once: the values checked (a bad one is an
// error, exit 2, before any analysis) and `auto` decided against stdout.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_REPORTSTYLE_H
#define CUDAGRAPH_TIDY_TOOLS_REPORTSTYLE_H

#include "run/DriverRun.h"
#include "llvm/Support/CommandLine.h"
#include <string>

namespace cgt {

/// Registers --color=auto|always|never in `Category` and returns it. LLVM
/// has a boolean --color of its own (WithColor, for its error helpers,
/// which the driver does not use); it is unregistered first, else the
/// two names collide when the command line is parsed.
llvm::cl::opt<std::string> &colorOption(llvm::cl::OptionCategory &Category);

/// Sets Out.Format and Out.Color from the option values ("" for --format
/// means it was not given). Without --format the report is clang-tidy's
/// layout on a terminal and the one-line form otherwise, so that scripts
/// reading the driver's stdout keep the form they parse. Returns false with
/// `Error` for a value it does not know.
bool resolveReportStyle(const std::string &Format, const std::string &Color,
                        const std::string &OutputPath, ReportOptions &Out,
                        std::string &Error);

} // namespace cgt

#endif
