//===- TidyFindings.cpp - clang-tidy diagnostics as findings --------------===//
//
// Each finding is read once, when its unit's run ends; a file's line
// starts are read once per unit (LineTable).
//
//===----------------------------------------------------------------------===//
#include "run/TidyFindings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tidy;

namespace cgt {
namespace {

std::vector<RangeRecord>
rangesOf(const llvm::SmallVector<tooling::FileByteRange, 1> &Ranges) {
  std::vector<RangeRecord> Out;
  for (const tooling::FileByteRange &R : Ranges)
    Out.push_back({R.FilePath, R.FileOffset, R.Length});
  return Out;
}

std::vector<FixRecord> fixesOf(const llvm::StringMap<tooling::Replacements> &Fix,
                               LineTable &Lines) {
  std::vector<FixRecord> Out;
  for (const auto &FileFix : Fix)
    for (const tooling::Replacement &Rep : FileFix.second) {
      FixRecord F;
      F.Pos = Lines.position(Rep.getFilePath().str(), Rep.getOffset());
      SourcePos End = Lines.position(Rep.getFilePath().str(),
                                     Rep.getOffset() + Rep.getLength());
      F.Pos.EndLine = End.Line;
      F.Pos.EndColumn = End.Column;
      F.Length = Rep.getLength();
      F.Replacement = Rep.getReplacementText().str();
      Out.push_back(std::move(F));
    }
  return Out;
}

/// Calls `Respell` on every file path of `E`: its message, notes, ranges
/// and fix-its.
void respellPaths(ClangTidyError &E, llvm::function_ref<void(std::string &)> Respell) {
  auto Message = [&](tooling::DiagnosticMessage &M) {
    if (!M.FilePath.empty())
      Respell(M.FilePath);
    for (tooling::FileByteRange &R : M.Ranges)
      Respell(R.FilePath);
    llvm::StringMap<tooling::Replacements> Fixes;
    for (auto &KV : M.Fix) {
      std::string File = KV.getKey().str();
      Respell(File);
      tooling::Replacements &Out = Fixes[File];
      for (const tooling::Replacement &R : KV.getValue())
        llvm::consumeError(Out.add(tooling::Replacement(
            File, R.getOffset(), R.getLength(), R.getReplacementText())));
    }
    M.Fix = std::move(Fixes);
  };
  Message(E.Message);
  for (tooling::DiagnosticMessage &N : E.Notes)
    Message(N);
}

} // namespace

FindingRecord toRecord(const ClangTidyError &E, LineTable &Lines) {
  FindingRecord R;
  R.CheckName = E.DiagnosticName;
  R.Level = E.DiagLevel == tooling::Diagnostic::Error ? "error" : "warning";
  R.Message = E.Message.Message;
  if (!E.Message.FilePath.empty()) {
    R.Pos = Lines.position(E.Message.FilePath, E.Message.FileOffset);
    for (const tooling::FileByteRange &Range : E.Message.Ranges) {
      if (Range.FilePath != E.Message.FilePath ||
          Range.FileOffset != E.Message.FileOffset)
        continue;
      SourcePos End = Lines.position(Range.FilePath, Range.FileOffset + Range.Length);
      R.Pos.EndLine = End.Line;
      R.Pos.EndColumn = End.Column;
    }
  }
  R.Ranges = rangesOf(E.Message.Ranges);
  for (const tooling::DiagnosticMessage &N : E.Notes) {
    NoteRecord Note;
    Note.Message = N.Message;
    if (!N.FilePath.empty())
      Note.Pos = Lines.position(N.FilePath, N.FileOffset);
    Note.Ranges = rangesOf(N.Ranges);
    Note.Fixes = fixesOf(N.Fix, Lines);
    R.Notes.push_back(std::move(Note));
  }
  R.Fixes = fixesOf(E.Message.Fix, Lines);
  return R;
}

/// A diagnostic names a file as its compile did: relative to the command's
/// directory when the command named it so (a Bear or compiledb database:
/// `"arguments": [..., "src/x.cu"]`, `-Iinclude`). clang-tidy resolves such a
/// name against that directory (ClangTidyError::BuildDirectory) when it
/// reports; so does the driver, here, before anything reads the file (line
/// numbers), compares it (--diff, baselines) or keys on it (caches). Symbolic
/// links and ".." are resolved too, so that a header reached as
/// `include/x.h` and as `src/../include/x.h` is one file with one name.
void resolveAgainstBuildDirectory(std::vector<ClangTidyError> &Errors) {
  std::map<std::string, std::string> Resolved; // by directory, then name
  for (ClangTidyError &E : Errors)
    respellPaths(E, [&](std::string &Path) {
      if (Path.empty() || llvm::sys::path::is_absolute(Path))
        return;
      std::string Key = E.BuildDirectory + '\0' + Path;
      auto It = Resolved.find(Key);
      if (It == Resolved.end()) {
        llvm::SmallString<256> Abs(E.BuildDirectory);
        llvm::sys::path::append(Abs, Path);
        llvm::sys::fs::make_absolute(Abs);
        llvm::SmallString<256> Real;
        if (llvm::sys::fs::real_path(Abs, Real))
          llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
        else
          Abs = Real;
        It = Resolved.emplace(Key, std::string(Abs)).first;
      }
      Path = It->second;
    });
}

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == tooling::Diagnostic::Error &&
         llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

bool isConfigError(const ClangTidyError &E) {
  return E.DiagnosticName == "clang-tidy-config";
}

/// Unsaved buffers as a layer over the disk: the parse reads them instead
/// of the files, and the line table counts lines in them. They are keyed
/// by their real path too, which is how resolved diagnostics name them.
void overlayUnsaved(llvm::vfs::OverlayFileSystem &FS, const UnsavedFiles &Unsaved,
                    LineTable &Lines) {
  if (Unsaved.empty())
    return;
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[Path, Text] : Unsaved) {
    Memory->addFile(Path, /*ModificationTime=*/0,
                    llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
    Lines.useText(Path, Text);
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Path, Real) && Real != Path)
      Lines.useText(std::string(Real), Text);
  }
  FS.pushOverlay(Memory);
}

} // namespace cgt
