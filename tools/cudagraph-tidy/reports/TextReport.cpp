//===- TextReport.cpp - the driver's two text formats ---------------------===//
//
// formatClangText() rebuilds, per finding, the diagnostic clang-tidy's
// ErrorReporter (clang-tidy/ClangTidy.cpp) emits: a custom "%0 [%1]"
// warning at the message's offset carrying its ranges and fix-its, then one
// custom note per note, and hands them to clang's TextDiagnosticPrinter with
// default DiagnosticOptions and LangOptions, as clang-tidy does. Doing the
// same steps is what makes the two outputs the same layout, byte for byte,
// rather than a look-alike that drifts with each LLVM release.
//
//===----------------------------------------------------------------------===//
#include "reports/TextReport.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cgt {

std::string formatPlainText(const std::vector<FindingRecord> &Findings) {
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

namespace {

/// One printer for the whole report: files are read once into its
/// SourceManager, as in clang-tidy's ErrorReporter.
class ClangTextPrinter {
public:
  ClangTextPrinter(llvm::raw_ostream &OS, bool Color)
      : Files(FileSystemOptions()), Printer(new TextDiagnosticPrinter(OS, Opts)),
        Diags(DiagnosticIDs::create(), Opts, Printer), SourceMgr(Diags, Files) {
    Opts.ShowColors = Color;
    Printer->BeginSourceFile(LangOpts, /*PP=*/nullptr);
  }
  ~ClangTextPrinter() { Printer->EndSourceFile(); }

  void print(const FindingRecord &F) {
    auto Level = F.Level == "error" ? DiagnosticsEngine::Error
                                    : DiagnosticsEngine::Warning;
    {
      DiagnosticBuilder D =
          Diags.Report(location(F.Pos.File, F.Pos.Offset, F.Pos.Line),
                       Diags.getCustomDiagID(Level, "%0 [%1]"))
          << F.Message << F.CheckName;
      addRangesAndFixes(D, F.Ranges, F.Fixes);
    }
    for (const NoteRecord &N : F.Notes) {
      DiagnosticBuilder D =
          Diags.Report(location(N.Pos.File, N.Pos.Offset, N.Pos.Line),
                       Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
          << N.Message;
      addRangesAndFixes(D, N.Ranges, N.Fixes);
    }
  }

private:
  /// `Line` 0 means the diagnostic had no location: clang then prints the
  /// message without one.
  SourceLocation location(const std::string &File, unsigned Offset,
                          unsigned Line) {
    if (File.empty() || Line == 0)
      return {};
    auto Entry = Files.getOptionalFileRef(File);
    if (!Entry)
      return {};
    FileID ID = SourceMgr.getOrCreateFileID(*Entry, SrcMgr::C_User);
    return SourceMgr.getLocForStartOfFile(ID).getLocWithOffset(Offset);
  }

  CharSourceRange range(const std::string &File, unsigned Offset,
                        unsigned Length) {
    SourceLocation Begin = location(File, Offset, /*Line=*/1);
    return CharSourceRange::getCharRange(Begin, Begin.getLocWithOffset(Length));
  }

  void addRangesAndFixes(DiagnosticBuilder &D,
                         const std::vector<RangeRecord> &Ranges,
                         const std::vector<FixRecord> &Fixes) {
    for (const RangeRecord &R : Ranges)
      D << range(R.File, R.Offset, R.Length);
    for (const FixRecord &X : Fixes)
      D << FixItHint::CreateReplacement(range(X.Pos.File, X.Pos.Offset, X.Length),
                                        X.Replacement);
  }

  DiagnosticOptions Opts;
  LangOptions LangOpts;
  FileManager Files;
  TextDiagnosticPrinter *Printer; ///< owned by Diags
  DiagnosticsEngine Diags;
  SourceManager SourceMgr;
};

} // namespace

std::string formatClangText(const std::vector<FindingRecord> &Findings,
                            bool Color) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  // A string stream has no terminal to ask; the caller decided.
  OS.enable_colors(Color);
  {
    ClangTextPrinter Printer(OS, Color);
    for (const FindingRecord &F : Findings)
      Printer.print(F);
  }
  OS.flush();
  return Out;
}

} // namespace cgt
