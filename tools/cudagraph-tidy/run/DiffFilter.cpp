//===- DiffFilter.cpp - findings on changed lines only --------------------===//
#include "run/DiffFilter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace cgt {

bool ChangedLines::contains(const std::string &File, unsigned Line) const {
  auto It = Files.find(File);
  if (It == Files.end())
    return false;
  for (const auto &[First, Last] : It->second)
    if (Line >= First && Line <= Last)
      return true;
  return false;
}

bool ChangedLines::containsFile(const std::string &File) const {
  return Files.count(File) != 0;
}

std::string realPathOf(const std::string &File) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Abs, Real))
    return std::string(Real);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

namespace {

/// "+++ b/src/a.cu\t2024-..." -> "src/a.cu"; "" for /dev/null.
std::string newSidePath(llvm::StringRef Line) {
  llvm::StringRef P = Line.drop_front(4).rtrim("\r");
  P = P.take_until([](char C) { return C == '\t'; });
  if (P.size() >= 2 && P.front() == '"' && P.back() == '"')
    P = P.drop_front().drop_back();
  if (P == "/dev/null")
    return "";
  P.consume_front("b/");
  return P.str();
}

/// Parses the "+c,d" of "@@ -a,b +c,d @@" into an inclusive range; a pure
/// deletion (d = 0) gives the lines either side of the cut.
bool newRange(llvm::StringRef Hunk, unsigned &First, unsigned &Last) {
  size_t Plus = Hunk.find(" +");
  if (Plus == llvm::StringRef::npos)
    return false;
  llvm::StringRef Spec = Hunk.substr(Plus + 2).take_until(
      [](char C) { return C == ' '; });
  auto [StartText, CountText] = Spec.split(',');
  unsigned Start = 0, Count = 1;
  if (StartText.getAsInteger(10, Start) ||
      (!CountText.empty() && CountText.getAsInteger(10, Count)))
    return false;
  if (Count == 0) {
    First = std::max(1u, Start);
    Last = Start + 1;
  } else {
    First = Start;
    Last = Start + Count - 1;
  }
  return true;
}

/// What `git Args...` prints in the current directory; false when git is
/// missing or fails (then `Out` holds nothing useful).
bool gitOutput(std::vector<llvm::StringRef> Args, std::string &Out,
               std::string &Error) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git) {
    Error = "--diff needs git on PATH";
    return false;
  }
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("cudagraph-tidy-diff", "txt", OutFile) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-diff", "err", ErrFile)) {
    Error = "cannot create a temporary file for git's output";
    return false;
  }
  llvm::FileRemover RemoveOut(OutFile), RemoveErr(ErrFile);
  Args.insert(Args.begin(), *Git);
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutFile), llvm::StringRef(ErrFile)};
  int RC = llvm::sys::ExecuteAndWait(*Git, Args, std::nullopt, Redirects);
  auto Buf = llvm::MemoryBuffer::getFile(OutFile);
  Out = Buf ? (*Buf)->getBuffer().str() : "";
  if (RC != 0) {
    auto ErrBuf = llvm::MemoryBuffer::getFile(ErrFile);
    Error = "git " + Args[1].str() + " failed" +
            (ErrBuf ? ": " + (*ErrBuf)->getBuffer().trim().str() : "");
    return false;
  }
  return true;
}

} // namespace

bool parseUnifiedDiff(const std::string &Text, const std::string &Root,
                      ChangedLines &Out, std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  std::string Current; // real path of the file the hunks belong to
  for (llvm::StringRef L : Lines) {
    if (L.starts_with("+++ ")) {
      std::string Rel = newSidePath(L);
      if (Rel.empty()) {
        Current.clear();
        continue;
      }
      llvm::SmallString<256> Path(Rel);
      if (llvm::sys::path::is_relative(Path)) {
        Path = Root;
        llvm::sys::path::append(Path, Rel);
      }
      Current = realPathOf(std::string(Path));
      Out.Files[Current]; // a file with only deletions is still "changed"
      continue;
    }
    if (!L.starts_with("@@ ") || Current.empty())
      continue;
    unsigned First, Last;
    if (!newRange(L, First, Last)) {
      Error = "malformed hunk header in the diff: '" + L.rtrim("\r").str() + "'";
      return false;
    }
    Out.Files[Current].push_back({First, Last});
  }
  return true;
}

bool readChangedLines(const std::string &Spec, ChangedLines &Out,
                      std::string &Error) {
  std::string Top;
  // Paths in a git diff are relative to the top of the work tree; a diff on
  // stdin outside git is taken relative to the current directory.
  std::string Ignored;
  if (gitOutput({"rev-parse", "--show-toplevel"}, Top, Ignored))
    Top = llvm::StringRef(Top).trim().str();
  else
    Top.clear();
  if (Top.empty()) {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Top = std::string(Cwd);
  }
  std::string Diff;
  if (Spec == "-") {
    auto Buf = llvm::MemoryBuffer::getSTDIN();
    if (!Buf) {
      Error = "--diff -: cannot read stdin: " + Buf.getError().message();
      return false;
    }
    Diff = (*Buf)->getBuffer().str();
  } else {
    // Fixed prefixes and no external diff tool: the user's git
    // configuration must not change what is parsed.
    std::string Rev = Spec;
    if (!gitOutput({"diff", "-U0", "--no-color", "--no-ext-diff",
                    "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", Rev,
                    "--"},
                   Diff, Error)) {
      Error = "--diff '" + Spec + "': " + Error;
      return false;
    }
  }
  return parseUnifiedDiff(Diff, Top, Out, Error);
}

std::vector<FindingRecord> onChangedLines(std::vector<FindingRecord> Findings,
                                          const ChangedLines &Changed) {
  std::map<std::string, std::string> Real;
  auto Touched = [&](const SourcePos &P) {
    if (P.File.empty())
      return false;
    auto It = Real.find(P.File);
    if (It == Real.end())
      It = Real.emplace(P.File, realPathOf(P.File)).first;
    return Changed.contains(It->second, P.Line);
  };
  std::vector<FindingRecord> Kept;
  for (FindingRecord &F : Findings) {
    bool Keep = Touched(F.Pos);
    for (const NoteRecord &N : F.Notes)
      Keep = Keep || Touched(N.Pos);
    if (Keep)
      Kept.push_back(std::move(F));
  }
  return Kept;
}

} // namespace cgt
