//===- MergeSarif.cpp - the `cudagraph-tidy merge-sarif` subcommand -------===//
//
// A subcommand rather than a separate tool so that CI needs nothing but the
// driver it already has. Argument handling is by hand: LLVM's cl options are
// the analysis's, and none of them apply here.
//
//===----------------------------------------------------------------------===//
#include "reports/MergeSarif.h"
#include "Sarif/SarifMerge.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cgt {
namespace {

int usage(const llvm::Twine &Problem) {
  llvm::errs() << "cudagraph-tidy merge-sarif: error: " << Problem << "\n"
               << "usage: cudagraph-tidy merge-sarif LOG.sarif... [-o OUT.sarif]\n";
  return 2;
}

} // namespace

int mergeSarifMain(int Argc, const char **Argv) {
  std::vector<std::string> Inputs;
  std::string Output;
  for (int I = 2; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "-h" || A == "--help") {
      llvm::outs() << "usage: cudagraph-tidy merge-sarif LOG.sarif... [-o OUT.sarif]\n"
                      "Merges the SARIF logs of shards (--shard I/N) into one run: "
                      "results deduplicated and ordered by content, so the output "
                      "does not depend on the order of the logs.\n";
      return 0;
    }
    if (A == "-o" || A == "--output") {
      if (++I == Argc)
        return usage("-o needs a file name");
      Output = Argv[I];
    } else if (A.consume_front("-o=") || A.consume_front("--output=")) {
      Output = A.str();
    } else if (A.starts_with("-") && A != "-") {
      return usage("unknown option '" + A + "'");
    } else {
      Inputs.push_back(A.str());
    }
  }
  if (Inputs.empty())
    return usage("no logs to merge");
  std::vector<std::string> Texts;
  for (const std::string &Path : Inputs) {
    auto Buf = Path == "-" ? llvm::MemoryBuffer::getSTDIN()
                           : llvm::MemoryBuffer::getFile(Path);
    if (!Buf)
      return usage("cannot read '" + Path + "': " + Buf.getError().message());
    Texts.push_back((*Buf)->getBuffer().str());
  }
  std::string Merged, Error;
  if (!mergeSarifLogs(Texts, Inputs, Merged, Error)) {
    llvm::errs() << "cudagraph-tidy merge-sarif: error: " << Error << "\n";
    return 2;
  }
  if (Output.empty() || Output == "-") {
    llvm::outs() << Merged;
    return 0;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC);
  if (EC)
    return usage("cannot write '" + Output + "': " + EC.message());
  OS << Merged;
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    return usage("cannot write '" + Output + "'");
  }
  return 0;
}

} // namespace cgt
