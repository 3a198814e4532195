//===- DiffFilter.h - findings on changed lines only ------------*- C++ -*-===//
//
// Code review and pre-commit modes: `--diff REF` reports only findings on
// lines changed since the git revision REF (working tree against REF), and
// `--diff -` reads a unified diff on stdin, as clang-tidy-diff does.
//
// The model, and its limits: a finding counts as changed when its location
// or one of its notes (the path that leads to it: where the resource was
// acquired, released, or left the scope) is on a line the diff adds or
// modifies. A pure deletion marks the lines either side of the cut, so that
// removing a cudaGraphExecDestroy still reports the leak it causes when the
// leak's note lands next to the cut. Findings whose whole path is on
// unchanged lines are not reported, even if the change caused them.
//
// With -p and no files named, only the database's files the diff touches are
// analysed; a change to a header alone analyses nothing unless a file
// including it is named.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_DIFFFILTER_H
#define CUDAGRAPH_TIDY_TOOLS_DIFFFILTER_H

#include "Report/Finding.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cgt {

/// Changed lines of the new side of a diff, by real (symlink-free) path.
struct ChangedLines {
  /// Inclusive 1-based line ranges.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Files;
  bool contains(const std::string &File, unsigned Line) const;
  bool containsFile(const std::string &File) const;
};

/// Parses a unified diff; paths are relative to `Root` (a "b/" prefix as git
/// writes it is removed). Returns false with `Error` set on a malformed hunk.
bool parseUnifiedDiff(const std::string &Text, const std::string &Root,
                      ChangedLines &Out, std::string &Error);

/// `--diff` values: "-" reads stdin, anything else is a git revision
/// compared with the working tree of the repository around the current
/// directory.
bool readChangedLines(const std::string &Spec, ChangedLines &Out,
                      std::string &Error);

/// The real path of `File` (made absolute against the current directory).
std::string realPathOf(const std::string &File);

/// Keeps the findings whose location or notes are on changed lines.
std::vector<FindingRecord> onChangedLines(std::vector<FindingRecord> Findings,
                                          const ChangedLines &Changed);

} // namespace cgt

#endif
