//===- ExportUnit.h - one translation unit's exportable summaries -*- C++ -*-===//
//
// The per-unit half of `--export-model` (ExportModel.cpp runs the passes
// and merges): parses one translation unit and asks the lifetime engine
// for the summary of each definition other files can call by name.
//
// The reading of the AST is one consumer, newExportConsumer, which
// exportUnit's own parse runs and which a checking run adds to the parse
// that runs the checks (CheckedExport.h), so that a unit it analyses is
// parsed once for both.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_EXPORTUNIT_H
#define CUDAGRAPH_TIDY_TOOLS_EXPORTUNIT_H

#include "ApiModel/ApiModel.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
}

namespace cgt {

/// One definition other files may call: its summary, or an entry without
/// effects (kept to find names whose definitions disagree).
struct Definition {
  FunctionModel Model;
  bool HasEffect = false;
};

/// How a unit calls a function it does not define: what a change of that
/// function's entry can reach in the unit (ConsumedChanges.h).
struct CalleeUse {
  /// Bit i: at some call, argument i may name something the checks track
  /// (anything but a constant or the plain result of a system function that
  /// acquires nothing).
  uint64_t Args = 0;
  /// Reached otherwise than by plain calls of at most 64 arguments (named
  /// as a value, called as a method, operator or kernel, or spelled once
  /// and evaluated twice in a macro): any change of its entry may matter.
  bool Opaque = false;
};

/// Kernel (kernelKey) -> its launches with constant block shapes.
using KernelLaunchMap = std::map<std::string, std::vector<KernelLaunch>>;

struct UnitExport {
  bool Parsed = true;
  std::string Problem;
  std::vector<Definition> Definitions;
  /// Functions the unit calls or names but does not define: a later pass
  /// re-reads the unit when one of them gets an entry, and a checking run
  /// gives the unit the entries of these names only (CrossTu.h).
  std::set<std::string> ExternalCallees;
  /// For each of them, how the unit calls it.
  std::map<std::string, CalleeUse> CalleeUses;
  /// Functions the unit calls or names and defines: an entry of one of
  /// these names would be applied instead of its body (ExportModel.cpp
  /// keeps a parse's result only when the entries it was given name none).
  std::set<std::string> InternalCallees;
  /// Launches in this unit, with constant block shapes, of kernels it
  /// declares and does not define, by kernel (lib/SharedMem/
  /// CrossFileLaunches.h): the units that define them are given them.
  KernelLaunchMap KernelLaunches;
  /// The kernels it defines: it is given their launches in other units,
  /// and parsed again when those change.
  std::set<std::string> DefinedKernels;
  /// Every file the parse read, by absolute path (ReadFiles.h), and the
  /// paths it looked for and did not find.
  std::vector<std::string> Dependencies, AbsentFiles;
  /// CPU seconds of the worker's parse that produced this export (with the
  /// checks when it ran them); 0 when not measured. A summaries artifact
  /// carries them so that `--shard` can deal units by cost (Sharding.h).
  double Seconds = 0;
};

/// Names files in "doc" and capture notes: relative to the source root
/// when under it, so the file is the same on every machine.
class FileNamer {
public:
  explicit FileNamer(std::string Root) : Root(std::move(Root)) {}
  std::string name(llvm::StringRef Path) const {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Path, Real))
      Real = Path;
    llvm::StringRef Rel = Real;
    if (!Root.empty() && Rel.consume_front(Root) && Rel.consume_front("/"))
      return Rel.str();
    return std::string(Real);
  }
  const std::string &root() const { return Root; }

private:
  std::string Root;
};

/// What the analysis of one translation unit needs.
struct UnitJob {
  std::string File;
  std::vector<clang::tooling::CompileCommand> Commands;
  std::vector<std::string> ExtraArgsBefore, ExtraArgs; ///< from the options
  std::string ModelFiles; ///< the unit's ApiModelFiles, the output left out
  std::string Fault; ///< tests only (--inject-fault): see ExportWorker.cpp
};

/// Reads a parsed unit's exports into `Out` (its definitions and the
/// names it calls; nothing when the parse had errors), with the model
/// `Model` (the entries so far applied) and `Base` (built-in and
/// hand-written entries, whose names are not exported). The models and
/// `Out` must outlive it.
std::unique_ptr<clang::ASTConsumer> newExportConsumer(const ApiModel &Model,
                                                      const ApiModel &Base,
                                                      const FileNamer &Names, UnitExport &Out);

/// Parses `Job`'s unit with the model `Model` (the entries so far applied)
/// and exports its definitions that `Base` (built-in and hand-written
/// entries) does not describe.
UnitExport exportUnit(const UnitJob &Job, const ApiModel &Model, const ApiModel &Base,
                      const FileNamer &Names);

} // namespace cgt

#endif
