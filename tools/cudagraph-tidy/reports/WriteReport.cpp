//===- WriteReport.cpp - the report of a run ------------------------------===//
//
// Text (clang-tidy's layout or one line per finding: TextReport.h), SARIF
// with the git provenance of the source root, Code Climate; the baseline
// filter on SARIF's fingerprints; the default source root.
//
//===----------------------------------------------------------------------===//
#include "run/DriverRun.h"
#include "reports/TextReport.h"
#include "Sarif/CodeClimateWriter.h"
#include "Sarif/SarifWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace cgt {
namespace {

/// What `git -C Dir Args...` prints, trimmed; "" when git is missing or fails.
std::string gitOutput(const std::string &Dir,
                      std::initializer_list<llvm::StringRef> Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  llvm::SmallString<128> Out;
  if (!Git || llvm::sys::fs::createTemporaryFile("cudagraph-tidy-git", "txt", Out))
    return "";
  llvm::FileRemover Remove(Out);
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(Out),
                                                llvm::StringRef("")};
  if (llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects) != 0)
    return "";
  auto Buf = llvm::MemoryBuffer::getFile(Out);
  return Buf ? (*Buf)->getBuffer().trim().str() : "";
}

/// When the source root is the top level of a git work tree with a commit
/// and an origin, names that commit and origin's URL. Without an origin
/// there is none: the local repository's URI would be a path of the
/// analysing machine, which the log never carries.
void addGitProvenance(SarifOptions &SO) {
  std::string Top = gitOutput(SO.SourceRoot, {"rev-parse", "--show-toplevel"});
  llvm::SmallString<256> Real;
  if (Top.empty() || llvm::sys::fs::real_path(Top, Real) || Real != SO.SourceRoot)
    return;
  SO.RevisionId = gitOutput(SO.SourceRoot, {"rev-parse", "-q", "--verify", "HEAD"});
  SO.RepositoryUri = repositoryUriFromRemote(
      gitOutput(SO.SourceRoot, {"remote", "get-url", "origin"}));
  if (llvm::StringRef(SO.RepositoryUri).starts_with("file:"))
    SO.RepositoryUri.clear(); // an origin on this machine is a local path too
  SO.Branch = gitOutput(SO.SourceRoot, {"symbolic-ref", "-q", "--short", "HEAD"});
}

std::string sarifText(const RunResult &Result, const ReportOptions &Opts) {
  SarifInput In;
  In.Findings = Result.Findings;
  In.BaselineStates = Result.BaselineStates;
  In.Units = Result.Units;
  In.ConfigErrors = Result.ConfigErrors;
  In.Incomplete = Result.Incomplete;
  SarifOptions SO;
  SO.SourceRoot = Opts.SarifRoot;
  SO.ToolVersion = CUDAGRAPH_TIDY_VERSION;
  if (!SO.SourceRoot.empty())
    addGitProvenance(SO);
  return writeSarif(In, SO);
}

} // namespace

bool writeReport(const RunResult &Result, const ReportOptions &Opts,
                 std::string &Error) {
  // Text and Code Climate show what needs attention: findings a baseline
  // already had are only kept for SARIF consumers (baselineState).
  std::vector<FindingRecord> Shown;
  std::vector<bool> Hidden;
  for (size_t I = 0; I < Result.Findings.size(); ++I) {
    Hidden.push_back(!Result.BaselineStates.empty() &&
                     Result.BaselineStates[I] == "unchanged");
    if (!Hidden.back())
      Shown.push_back(Result.Findings[I]);
  }
  std::string Text;
  if (Opts.Format == "text")
    Text = formatClangText(Shown, Opts.Color);
  else if (Opts.Format == "text-plain")
    Text = formatPlainText(Shown);
  else if (Opts.Format == "sarif")
    Text = sarifText(Result, Opts);
  else if (Opts.Format == "codeclimate")
    Text = writeCodeClimate(Result.Findings, Hidden, Opts.SarifRoot);
  else {
    Error = "unknown format '" + Opts.Format + "'";
    return false;
  }
  if (Opts.OutputPath.empty() || Opts.OutputPath == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Opts.OutputPath, EC);
  if (EC) {
    Error = "cannot write '" + Opts.OutputPath + "': " + EC.message();
    return false;
  }
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    Error = "cannot write '" + Opts.OutputPath + "': " + OS.error().message();
    OS.clear_error();
    return false;
  }
  return true;
}

void applyBaseline(RunResult &Result, const std::set<std::string> &Baseline,
                   const std::string &SarifRoot, bool KeepUnchanged) {
  SourceText Text;
  std::vector<std::string> Prints =
      computeFingerprints(Result.Findings, SarifRoot, Text);
  std::vector<FindingRecord> Kept;
  std::vector<std::string> States;
  Result.Unchanged = 0;
  for (size_t I = 0; I < Result.Findings.size(); ++I) {
    bool Old = Baseline.count(Prints[I]) != 0;
    Result.Unchanged += Old;
    if (Old && !KeepUnchanged)
      continue;
    Kept.push_back(std::move(Result.Findings[I]));
    States.push_back(Old ? "unchanged" : "new");
  }
  Result.Findings = std::move(Kept);
  Result.BaselineStates = std::move(States);
}

std::string defaultSarifRoot() {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "";
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Cwd, Real))
    Cwd = Real;
  for (llvm::StringRef Dir = Cwd; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Git(Dir);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Dir.str();
  }
  return std::string(Cwd);
}

} // namespace cgt
