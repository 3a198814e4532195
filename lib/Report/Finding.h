//===- Finding.h - diagnostics in a tool-neutral form -----------*- C++ -*-===//
//
// The driver converts every clang-tidy diagnostic into these records before
// printing it, so the text printer and the SARIF writer work from the same
// data. Positions are 1-based lines and 1-based byte columns, as clang prints
// them; the SARIF writer converts columns to code points.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_REPORT_FINDING_H
#define CUDAGRAPH_TIDY_REPORT_FINDING_H

#include <map>
#include <string>
#include <vector>

namespace cgt {

struct SourcePos {
  std::string File;      ///< absolute path as the compiler saw it
  unsigned Line = 0;     ///< 1-based; 0 when the diagnostic has no location
  unsigned Column = 0;   ///< 1-based byte column
  unsigned EndLine = 0;
  unsigned EndColumn = 0; ///< exclusive
  unsigned Offset = 0;   ///< byte offset in File
};

/// A source range the diagnostic highlights, as clang-tidy keeps it (byte
/// offset and length): the text printer underlines it with clang's carets.
struct RangeRecord {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
};

struct FixRecord {
  SourcePos Pos;          ///< the replaced range
  unsigned Length = 0;    ///< bytes replaced
  std::string Replacement;
};

struct NoteRecord {
  SourcePos Pos;
  std::string Message;
  std::vector<RangeRecord> Ranges;
  std::vector<FixRecord> Fixes; ///< fix-its clang-tidy attaches to the note
};

struct FindingRecord {
  std::string CheckName;  ///< "cudagraph-unpaired-instantiate"
  std::string Level;      ///< "warning" or "error"
  std::string Message;
  SourcePos Pos;
  std::vector<RangeRecord> Ranges; ///< every range of the message, in order
  std::vector<NoteRecord> Notes;
  std::vector<FixRecord> Fixes;
};

/// What happened to one translation unit; a TU that failed is never silently
/// counted as clean.
struct UnitStatus {
  std::string File;
  bool Analyzed = true;
  std::string Problem;    ///< why it was not analysed (or compiler errors)
  /// Shared-memory checks' coverage (lib/SharedMem UnitCoverage): kernels
  /// with __shared__ accesses, and those without a verdict (no block shape;
  /// over the step budget). SharedKernels < 0: the checks did not run.
  int SharedKernels = -1;
  unsigned SharedNoShape = 0, SharedGaveUp = 0;
  std::vector<std::string> SharedGaveUpKernels; ///< names of those over the budget
  /// The race check's kernels with accesses it gave no verdict on, counted
  /// per reason (lib/SharedMem UnitCoverage::RaceSkips); empty when none or
  /// when the check did not run.
  std::map<std::string, unsigned> SharedRaceSkips;
};

} // namespace cgt

#endif
