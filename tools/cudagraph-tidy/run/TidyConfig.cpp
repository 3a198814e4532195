//===- TidyConfig.cpp - the clang-tidy options a run checks with ----------===//
//
// Split from CudaGraphTidyMain.cpp (issue 39), so that main keeps only the
// steps of a run.
//
// A .clang-tidy that does not parse (a key an older clang-tidy knew) is
// read as no settings, as clang-tidy goes on without it; clang-tidy says so
// at every lookup, four times a unit, from every worker. Here the lookups
// are quiet and the run says it once per file (reportBrokenConfigFiles).
//
//===----------------------------------------------------------------------===//
#include "run/TidyConfig.h"

#include "Report/Rules.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace clang::tidy;
using namespace llvm;

namespace cgt {

namespace {

constexpr const char *ConfigFileName = ".clang-tidy";

/// A configuration file's options, or its first problem in `Problem`.
ErrorOr<ClangTidyOptions> parseConfigFile(MemoryBufferRef Buffer, std::string &Problem) {
  auto Parsed = parseConfigurationWithDiags(Buffer, [&](const SMDiagnostic &D) {
    if (Problem.empty() && D.getKind() == SourceMgr::DK_Error)
      Problem = D.getMessage().str();
  });
  if (!Parsed && Problem.empty())
    Problem = Parsed.getError().message();
  return Parsed;
}

ErrorOr<ClangTidyOptions> readQuietly(MemoryBufferRef Buffer) {
  std::string Problem;
  auto Parsed = parseConfigFile(Buffer, Problem);
  return Parsed ? Parsed : ErrorOr<ClangTidyOptions>(ClangTidyOptions());
}

/// .clang-tidy files read with readQuietly. (The constructor that takes
/// handlers leaves the file system unset in clang-tidy 22: the handlers are
/// replaced after the one that sets it.)
class QuietFileOptionsProvider : public FileOptionsProvider {
public:
  QuietFileOptionsProvider(ClangTidyGlobalOptions Global, ClangTidyOptions Defaults,
                           ClangTidyOptions Override)
      : FileOptionsProvider(std::move(Global), std::move(Defaults), std::move(Override)) {
    ConfigHandlers = {{ConfigFileName, readQuietly}};
  }
};

} // namespace

void reportBrokenConfigFiles(const std::vector<std::string> &Files, raw_ostream &OS) {
  std::set<std::string> Seen;
  for (const std::string &F : Files) {
    SmallString<256> Dir(F);
    sys::fs::make_absolute(Dir);
    sys::path::remove_filename(Dir);
    for (; !Dir.empty(); Dir = sys::path::parent_path(Dir)) {
      SmallString<256> Config(Dir);
      sys::path::append(Config, ConfigFileName);
      if (!sys::fs::exists(Config))
        continue;
      if (!Seen.insert(Config.str().str()).second)
        break;
      auto Buf = MemoryBuffer::getFile(Config);
      std::string Problem;
      if (!Buf)
        Problem = Buf.getError().message();
      else
        parseConfigFile((*Buf)->getMemBufferRef(), Problem);
      if (!Problem.empty())
        OS << "cudagraph-tidy: warning: " << Config << ": " << Problem
           << "; the units under it are checked without its settings\n";
      break; // the nearest file decides, as clang-tidy reads it
    }
  }
}

Expected<std::unique_ptr<ClangTidyOptionsProvider>>
makeOptionsProvider(const TidyConfigArgs &Args) {
  ClangTidyGlobalOptions Global;
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,cudagraph-*";
  ClangTidyOptions Override;
  if (!Args.Checks.empty())
    Override.Checks = Args.Checks;
  std::string ConfigText = Args.Config;
  if (!Args.ConfigFile.empty()) {
    auto Buf = MemoryBuffer::getFile(Args.ConfigFile);
    if (!Buf)
      return createStringError(Buf.getError(), "cannot read config file '%s': %s",
                               Args.ConfigFile.c_str(),
                               Buf.getError().message().c_str());
    ConfigText = (*Buf)->getBuffer().str();
  }
  if (!ConfigText.empty()) {
    auto Parsed = parseConfiguration(MemoryBufferRef(ConfigText, "--config"));
    if (!Parsed)
      return createStringError(Parsed.getError(), "invalid configuration: %s",
                               Parsed.getError().message().c_str());
    return std::make_unique<ConfigOptionsProvider>(
        Global, Defaults, Defaults.merge(*Parsed, 0), Override);
  }
  return std::make_unique<QuietFileOptionsProvider>(Global, Defaults, Override);
}

int listChecks(const TidyConfigArgs &Args) {
  auto Provider = makeOptionsProvider(Args);
  if (!Provider) {
    errs() << "cudagraph-tidy: error: " << toString(Provider.takeError()) << "\n";
    return 2;
  }
  ClangTidyOptions Opts = (*Provider)->getOptions("dummy.cu");
  outs() << "Enabled checks:\n";
  for (const std::string &Name : getCheckNames(Opts, false, false)) {
    const RuleInfo *R = findRule(Name);
    outs() << "    " << Name;
    if (R)
      outs() << "  - " << R->ShortDescription;
    outs() << "\n";
  }
  return 0;
}

} // namespace cgt
