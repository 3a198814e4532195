//===- DriverSupport.cpp --------------------------------------------------===//
#include "DriverSupport.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace clang;
using namespace clang::tidy;

namespace cgt {
namespace {

bool isCudaFile(llvm::StringRef File) {
  return File.ends_with(".cu") || File.ends_with(".cuh");
}

bool hasArg(const std::vector<std::string> &Args, llvm::StringRef Prefix) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with(Prefix))
      return true;
  return false;
}

/// Byte offsets to 1-based line/column, reading each file once.
class LineTable {
public:
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
  for (const tooling::DiagnosticMessage &N : E.Notes) {
    NoteRecord Note;
    Note.Message = N.Message;
    if (!N.FilePath.empty())
      Note.Pos = Lines.position(N.FilePath, N.FileOffset);
    R.Notes.push_back(std::move(Note));
  }
  for (const auto &FileFix : E.Message.Fix)
    for (const tooling::Replacement &Rep : FileFix.second) {
      FixRecord F;
      F.Pos = Lines.position(Rep.getFilePath().str(), Rep.getOffset());
      SourcePos End = Lines.position(Rep.getFilePath().str(),
                                     Rep.getOffset() + Rep.getLength());
      F.Pos.EndLine = End.Line;
      F.Pos.EndColumn = End.Column;
      F.Length = Rep.getLength();
      F.Replacement = Rep.getReplacementText().str();
      R.Fixes.push_back(std::move(F));
    }
  return R;
}

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == tooling::Diagnostic::Error &&
         llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

bool isConfigError(const ClangTidyError &E) {
  return E.DiagnosticName == "clang-tidy-config";
}

} // namespace

std::vector<std::string> adjustCudaArgs(const std::vector<std::string> &Args,
                                        const std::string &File,
                                        bool DeviceSide) {
  if (!isCudaFile(File) && !hasArg(Args, "-xcuda") &&
      std::find(Args.begin(), Args.end(), "cuda") == Args.end())
    return Args;
  std::vector<std::string> Out = Args;
  auto InsertAt = Out.empty() ? Out.end() : Out.begin() + 1;
  std::vector<std::string> Extra;
  if (!hasArg(Args, "--cuda-host-only") && !hasArg(Args, "--cuda-device-only") &&
      !hasArg(Args, "--cuda-compile-host-device"))
    Extra.push_back(DeviceSide ? "--cuda-device-only" : "--cuda-host-only");
  if (!hasArg(Args, "-Wno-unknown-cuda-version"))
    Extra.push_back("-Wno-unknown-cuda-version");
  if (llvm::StringRef(File).ends_with(".cuh") && !hasArg(Args, "-x")) {
    Extra.push_back("-x");
    Extra.push_back("cuda");
  }
  Out.insert(InsertAt, Extra.begin(), Extra.end());
  return Out;
}

namespace {

/// Applies adjustCudaArgs to every command of the underlying database.
class CudaAdjustingDatabase : public tooling::CompilationDatabase {
public:
  CudaAdjustingDatabase(const tooling::CompilationDatabase &Inner, bool DeviceSide)
      : Inner(Inner), DeviceSide(DeviceSide) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    auto Cmds = Inner.getCompileCommands(File);
    for (tooling::CompileCommand &C : Cmds)
      C.CommandLine = adjustCudaArgs(C.CommandLine, C.Filename, DeviceSide);
    return Cmds;
  }
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }

private:
  const tooling::CompilationDatabase &Inner;
  bool DeviceSide;
};

} // namespace

RunResult runChecks(DriverRun &Run, const std::vector<std::string> &Files) {
  RunResult Result;
  LineTable Lines;
  CudaAdjustingDatabase Db(*Run.Compilations, Run.DeviceSide);
  for (const std::string &File : Files) {
    UnitStatus Unit;
    Unit.File = File;
    if (!llvm::sys::fs::exists(File)) {
      Unit.Analyzed = false;
      Unit.Problem = "no such file";
      Result.Units.push_back(Unit);
      continue;
    }
    if (Db.getCompileCommands(File).empty()) {
      Unit.Analyzed = false;
      Unit.Problem = "no compile command for this file in the compilation database";
      Result.Units.push_back(Unit);
      continue;
    }
    ClangTidyContext Context(
        std::make_unique<FileOptionsProvider>(
            Run.OptionsProvider->getGlobalOptions(),
            ClangTidyOptions::getDefaults().merge(
                Run.OptionsProvider->getOptions(File), 0),
            ClangTidyOptions()),
        false, false, false);
    auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
        llvm::vfs::getRealFileSystem());
    std::string Captured;
    std::vector<ClangTidyError> Errors;
    {
      // runClangTidy prints "N warnings generated" and similar chatter to
      // stderr; it says nothing the report does not.
      Errors = runClangTidy(Context, Db, {File}, BaseFS,
                            /*ApplyAnyFix=*/false, false, "", /*Quiet=*/true);
    }
    unsigned CompilerErrors = 0;
    std::string FirstError;
    for (const ClangTidyError &E : Errors) {
      if (isConfigError(E)) {
        Result.ConfigErrors.push_back(E.Message.Message);
        continue;
      }
      if (isCompilerError(E)) {
        if (CompilerErrors++ == 0) {
          SourcePos P = Lines.position(E.Message.FilePath, E.Message.FileOffset);
          FirstError = P.File + ":" + std::to_string(P.Line) + ":" +
                       std::to_string(P.Column) + ": " + E.Message.Message;
        }
        continue;
      }
      Result.Findings.push_back(toRecord(E, Lines));
    }
    if (CompilerErrors) {
      Unit.Analyzed = false;
      Unit.Problem = "the translation unit does not parse (" +
                     std::to_string(CompilerErrors) + " compiler error" +
                     (CompilerErrors == 1 ? "" : "s") + "; first: " + FirstError + ")";
    }
    Result.Units.push_back(Unit);
  }
  std::stable_sort(Result.Findings.begin(), Result.Findings.end(),
                   [](const FindingRecord &A, const FindingRecord &B) {
                     return std::tie(A.Pos.File, A.Pos.Offset, A.CheckName, A.Message) <
                            std::tie(B.Pos.File, B.Pos.Offset, B.CheckName, B.Message);
                   });
  // A header included by several files yields the same finding once per file.
  Result.Findings.erase(
      std::unique(Result.Findings.begin(), Result.Findings.end(),
                  [](const FindingRecord &A, const FindingRecord &B) {
                    return A.Pos.File == B.Pos.File && A.Pos.Offset == B.Pos.Offset &&
                           A.CheckName == B.CheckName && A.Message == B.Message;
                  }),
      Result.Findings.end());
  return Result;
}

std::string formatText(const std::vector<FindingRecord> &Findings) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const FindingRecord &F : Findings) {
    OS << F.Pos.File << ":" << F.Pos.Line << ":" << F.Pos.Column << ": "
       << F.Level << ": " << F.Message << " [" << F.CheckName << "]\n";
    for (const NoteRecord &N : F.Notes)
      OS << N.Pos.File << ":" << N.Pos.Line << ":" << N.Pos.Column
         << ": note: " << N.Message << "\n";
  }
  return Out;
}

bool writeReport(const RunResult &Result, const std::string &Format,
                 const std::string &OutputPath, std::string &Error) {
  std::string Text;
  if (Format == "text") {
    Text = formatText(Result.Findings);
  } else {
    Error = "--format=sarif is not available in this build";
    return false;
  }
  if (OutputPath.empty()) {
    llvm::outs() << Text;
    llvm::outs().flush();
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(OutputPath, EC);
  if (EC) {
    Error = "cannot write '" + OutputPath + "': " + EC.message();
    return false;
  }
  OS << Text;
  return true;
}

int exitCodeFor(const RunResult &Result) {
  for (const UnitStatus &U : Result.Units)
    if (!U.Analyzed)
      return 2;
  if (!Result.ConfigErrors.empty())
    return 2;
  return Result.Findings.empty() ? 0 : 1;
}

} // namespace cgt
