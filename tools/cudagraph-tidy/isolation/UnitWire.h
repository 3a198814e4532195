//===- UnitWire.h - one translation unit's job and result as JSON -*- C++ -*-===//
//
// The driver analyses each translation unit in a worker process
// (Isolation.h). What crosses the process boundary is written here as JSON
// files: the job (the file, its compile commands, its resolved clang-tidy
// options as .clang-tidy YAML, the preamble cache settings, a summary
// pass's request) and the result (the unit's status, its findings,
// configuration errors, the engines' counters, which the parent adds to
// its own so --stats and the budget warnings cover every worker, and the
// unit's exported summaries when asked: CheckedExport.h). A field the reader does not know is an
// error: parent and worker are always the same binary.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_UNITWIRE_H
#define CUDAGRAPH_TIDY_TOOLS_UNITWIRE_H

#include "run/DriverRun.h"
#include <string>

namespace cgt {

std::string taskToJson(const UnitTask &Job);
/// False with `Error` when `Text` is not a job this binary wrote.
bool taskFromJson(const std::string &Text, UnitTask &Job, std::string &Error);

std::string resultToJson(const UnitResult &Result);
bool resultFromJson(const std::string &Text, UnitResult &Result,
                    std::string &Error);

/// The files both sides exchange: the whole text ("" when it cannot be
/// read), and a write that says whether every byte reached the file.
std::string readWireFile(const std::string &Path);
bool writeWireFile(const std::string &Path, const std::string &Text);

} // namespace cgt

#endif
