//===- TidyFindings.h - clang-tidy diagnostics as findings ------*- C++ -*-===//
//
// What one unit's clang-tidy run reported, turned into the driver's
// records (Report/Finding.h): file names resolved against the compile's
// directory, byte offsets to lines and columns (of unsaved editor buffers
// too), compiler and configuration errors told apart from findings.
// Private to the driver: AnalyzeUnit.cpp is its one user.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_TIDYFINDINGS_H
#define CUDAGRAPH_TIDY_TOOLS_TIDYFINDINGS_H

#include "run/DriverRun.h"
#include "Report/Finding.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace cgt {

/// Byte offsets to 1-based line/column, reading each file once (or taking
/// its unsaved text, which the offsets then refer to).
class LineTable {
public:
  void useText(const std::string &File, llvm::StringRef Text) {
    std::vector<unsigned> &Starts = Cache[File];
    Starts = {0};
    for (unsigned I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
  }

  SourcePos position(const std::string &File, unsigned Offset) {
    SourcePos P;
    P.File = File;
    P.Offset = Offset;
    const std::vector<unsigned> &Starts = lineStarts(File);
    if (Starts.empty())
      return P;
    auto It = std::upper_bound(Starts.begin(), Starts.end(), Offset);
    unsigned Line = It - Starts.begin();
    P.Line = Line;
    P.Column = Offset - Starts[Line - 1] + 1;
    P.EndLine = P.Line;
    P.EndColumn = P.Column;
    return P;
  }

private:
  const std::vector<unsigned> &lineStarts(const std::string &File) {
    auto It = Cache.find(File);
    if (It != Cache.end())
      return It->second;
    std::vector<unsigned> &Starts = Cache[File];
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return Starts;
    llvm::StringRef Text = (*Buf)->getBuffer();
    Starts.push_back(0);
    for (unsigned I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
    return Starts;
  }
  std::map<std::string, std::vector<unsigned>> Cache;
};

/// The finding a clang-tidy diagnostic is, with its notes and fix-its.
FindingRecord toRecord(const clang::tidy::ClangTidyError &E, LineTable &Lines);

/// A diagnostic names a file as its compile did: relative to the command's
/// directory when the command named it so. Resolves every such name against
/// that directory (TidyFindings.cpp says why).
void resolveAgainstBuildDirectory(std::vector<clang::tidy::ClangTidyError> &Errors);

/// A compiler error (the unit does not parse), not a finding.
bool isCompilerError(const clang::tidy::ClangTidyError &E);

/// A bad option or model file, not a finding.
bool isConfigError(const clang::tidy::ClangTidyError &E);

/// Unsaved buffers as a layer over the disk: the parse reads them instead
/// of the files, and the line table counts lines in them. They are keyed
/// by their real path too, which is how resolved diagnostics name them.
void overlayUnsaved(llvm::vfs::OverlayFileSystem &FS, const UnsavedFiles &Unsaved,
                    LineTable &Lines);

} // namespace cgt

#endif
