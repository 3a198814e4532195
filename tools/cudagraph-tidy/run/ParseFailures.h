//===- ParseFailures.h - units that do not parse, said as they happen -*- C++ -*-===//
//
// A unit clang cannot parse is listed with the other units not analysed at
// the end of a run (main). On a long `-p` run that end may be an hour away,
// and what fixes such a unit (a flag, an include folder) is known from its
// first error: so each one is also said on stderr as soon as its result is
// known, one line naming the file and that error,
//
//   cudagraph-tidy: note: src/a.cu does not parse: src/a.cu:5:23: expected ';' ...
//
// and the end keeps its list. A result is known in the summary passes'
// parses with the checks (CrossTu.cpp) or in runChecks (analysed, or
// replayed from the result cache); a unit is said once per run, wherever
// it comes first.
//
// The status crosses the worker's wire and the result cache as text, so
// the first error is read back from the problem text this file also
// writes (doesNotParse), not kept beside it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_PARSEFAILURES_H
#define CUDAGRAPH_TIDY_TOOLS_PARSEFAILURES_H

#include "Report/Finding.h"

#include <mutex>
#include <set>
#include <string>

namespace cgt {

/// The problem of a unit with `Errors` compiler errors, the first `First`
/// ("file:line:col: message", or the message alone when it has no place).
std::string doesNotParse(unsigned Errors, const std::string &First);

/// The first error of a status doesNotParse wrote; "" for any other.
std::string firstParseError(const UnitStatus &Status);

/// Says each unit that does not parse on stderr, once.
class ParseFailureNotes {
public:
  /// Disabled, it says nothing: a run of one unit, whose end follows its
  /// parse, would print the same unit twice in a row.
  explicit ParseFailureNotes(bool Enabled) : Enabled(Enabled) {}

  /// `File` (as the run names it) has `Status`: said when it does not
  /// parse and was not said before. Called from several threads.
  void unitDone(const std::string &File, const UnitStatus &Status);

private:
  bool Enabled;
  std::mutex M;
  std::set<std::string> Said;
};

} // namespace cgt

#endif
