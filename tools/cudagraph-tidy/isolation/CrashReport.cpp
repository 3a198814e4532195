//===- CrashReport.cpp - what the driver keeps of a crashed worker --------===//
//
// The kept job is the job the worker was sent, so the reproduction runs the
// same parse with the same options, cache settings and (in the driver's own
// tests) the same injected fault. Its folder is never removed by the
// driver: it is the user's to read, attach to a bug report, or delete.
//
//===----------------------------------------------------------------------===//
#include "isolation/CrashReport.h"
#include "isolation/UnitWire.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cgt {
namespace {

std::string selfPath() {
  static int Anchor;
  return llvm::sys::fs::getMainExecutable("cudagraph-tidy", &Anchor);
}

/// A new folder for one crash, named after the unit so that a user with
/// several can tell them apart.
bool crashFolder(llvm::StringRef Unit, llvm::SmallVectorImpl<char> &Out) {
  llvm::SmallString<256> Model;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  std::string Name = "cudagraph-tidy-crash-" + llvm::sys::path::filename(Unit).str();
  // A file name is all it takes from the unit; keep it a plain word.
  for (char &C : Name)
    if (!llvm::isAlnum(C) && C != '.' && C != '-' && C != '_')
      C = '_';
  llvm::sys::path::append(Model, Name + "-%%%%%%");
  for (int Try = 0; Try < 16; ++Try) {
    llvm::SmallString<256> Dir;
    llvm::sys::fs::createUniquePath(Model, Dir, /*MakeAbsolute=*/false);
    if (!llvm::sys::fs::create_directory(Dir, /*IgnoreExisting=*/false)) {
      Out.assign(Dir.begin(), Dir.end());
      return true;
    }
  }
  return false;
}

std::string pathIn(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

} // namespace

std::string shellWord(llvm::StringRef Arg) {
  bool Plain = !Arg.empty();
  for (char C : Arg)
    if (!llvm::isAlnum(C) && !llvm::StringRef("/._-+=:,@%").contains(C))
      Plain = false;
  if (Plain)
    return Arg.str();
  std::string Out = "'";
  for (char C : Arg)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

bool keepCrash(llvm::StringRef Unit, llvm::StringRef Subcommand,
               const std::string &JobText, const std::string &StderrText,
               CrashRecord &Out) {
  Out.StackText = StderrText;
  llvm::SmallString<256> Dir;
  if (!crashFolder(Unit, Dir))
    return false;
  std::string Stack = pathIn(Dir, "stack.txt"), Job = pathIn(Dir, "job.json");
  if (!writeWireFile(Stack, StderrText) || !writeWireFile(Job, JobText))
    return false;
  Out.StackPath = Stack;
  Out.Reproduce = shellWord(selfPath()) + " " + Subcommand.str() + " " + shellWord(Job) +
                  " " + shellWord(pathIn(Dir, "result.json"));
  return true;
}

std::string crashDetail(const CrashRecord &R, bool Verbose) {
  std::string Out;
  if (!R.StackPath.empty())
    Out += "  stack trace: " + R.StackPath + (Verbose ? "" : " (--verbose prints it)") + "\n";
  if (!R.Reproduce.empty())
    Out += "  reproduce: " + R.Reproduce + "\n";
  if (Verbose || R.StackPath.empty()) {
    llvm::StringRef Text = llvm::StringRef(R.StackText).rtrim();
    if (!Text.empty())
      Out += Text.str() + "\n";
  }
  return Out;
}

} // namespace cgt
