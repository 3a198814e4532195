//===- TidyConfig.cpp - the clang-tidy options a run checks with ----------===//
//
// Split from CudaGraphTidyMain.cpp (issue 39), so that main keeps only the
// steps of a run.
//
//===----------------------------------------------------------------------===//
#include "run/TidyConfig.h"

#include "Report/Rules.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang::tidy;
using namespace llvm;

namespace cgt {

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
  return std::make_unique<FileOptionsProvider>(Global, Defaults, Override);
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
