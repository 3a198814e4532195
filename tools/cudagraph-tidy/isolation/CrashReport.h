//===- CrashReport.h - what the driver keeps of a crashed worker -*- C++ -*-===//
//
// A worker that crashes (Isolation.h) printed clang's stack trace, about 75
// lines, to its stderr. Printed into the run's stderr, that buried the one
// line a user needs: which unit, which signal, how to run it again. The
// worker's stderr therefore goes to a file; when the worker crashes, the
// file and the worker's job are kept in a folder of the temporary
// directory, and the unit's error names the stack file and the command that
// runs the same worker on the same job. --verbose prints the stack as well.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_CRASHREPORT_H
#define CUDAGRAPH_TIDY_TOOLS_CRASHREPORT_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cgt {

/// A crash's kept files.
struct CrashRecord {
  std::string StackPath; ///< the worker's stderr: clang's stack trace
  std::string Reproduce; ///< the worker's command line on the kept job
  std::string StackText; ///< the same text, for --verbose
};

/// Keeps `StderrText` and `JobText` in a new folder
/// `$TMPDIR/cudagraph-tidy-crash-<unit's file name>-XXXXXX`, and words the
/// command that runs `Subcommand` on the kept job. False when nothing could
/// be written (the record then has only the stack text).
bool keepCrash(llvm::StringRef Unit, llvm::StringRef Subcommand,
               const std::string &JobText, const std::string &StderrText,
               CrashRecord &Out);

/// The lines printed under the unit's error: where the stack trace is and
/// how to reproduce the crash, then the stack itself when `Verbose`.
std::string crashDetail(const CrashRecord &R, bool Verbose);

/// `Arg` as one shell word: unchanged when it needs no quoting.
std::string shellWord(llvm::StringRef Arg);

} // namespace cgt

#endif
