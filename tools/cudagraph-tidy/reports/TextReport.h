//===- TextReport.h - the driver's two text formats -------------*- C++ -*-===//
//
// `--format=text`: each finding the way clang-tidy prints it, through clang's
// own TextDiagnosticPrinter (the source line, the caret and the highlighted
// ranges, fix-it hints under them, the notes likewise; ANSI colours when
// asked for). `--format=text-plain`: one "file:line:col: level: msg [check]"
// line per finding and note, for scripts.
//
// Findings come back from worker processes as records (lib/Report), so the
// rich form is rendered here from those records and the files on disk,
// which is also what clang-tidy's own reporter does (it re-reads each file
// into a fresh SourceManager after the analysis).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_TEXTREPORT_H
#define CUDAGRAPH_TIDY_TOOLS_TEXTREPORT_H

#include "Report/Finding.h"
#include <string>
#include <vector>

namespace cgt {

/// One line per finding and note: "file:line:col: warning: msg [check]".
std::string formatPlainText(const std::vector<FindingRecord> &Findings);

/// clang-tidy's layout: clang's TextDiagnosticPrinter over the files as they
/// are on disk now; `Color` adds clang's ANSI colours.
std::string formatClangText(const std::vector<FindingRecord> &Findings,
                            bool Color);

} // namespace cgt

#endif
