//===- ExportWorker.cpp - one unit's summaries in a worker process --------===//
//
// The worker loads the built-in model, the unit's ApiModelFiles (the base,
// whose names are not exported) and on top the entries so far, exactly as
// the in-process pass does (ExportModel.cpp), so the two give the same
// exports; so does the checks' worker when it exports (CheckedExport.cpp). Crash and out-of-memory exits are the analysis worker's
// (Worker.cpp), so the parent words them the same way.
//
//===----------------------------------------------------------------------===//
#include "summaries/ExportWorker.h"
#include "caches/ExportCache.h"
#include "isolation/Isolation.h"
#include "isolation/UnitWire.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

using json = nlohmann::json;

namespace cgt {
namespace {

std::string jobText(const UnitJob &Job, const std::string &OverlayPath,
                    const FileNamer &Names) {
  json Cmds = json::array();
  for (const auto &C : Job.Commands)
    Cmds.push_back({{"directory", C.Directory},
                    {"file", C.Filename},
                    {"arguments", C.CommandLine},
                    {"output", C.Output}});
  return json{{"file", Job.File},         {"commands", Cmds},
              {"before", Job.ExtraArgsBefore}, {"after", Job.ExtraArgs},
              {"modelFiles", Job.ModelFiles}, {"overlay", OverlayPath},
              {"root", Names.root()},     {"fault", Job.Fault}}
      .dump();
}

UnitExport failed(const std::string &Problem) {
  UnitExport Out;
  Out.Parsed = false;
  Out.Problem = Problem;
  return Out;
}

/// Tests only (--inject-fault): the analysis worker's faults.
void injectFault(const std::string &Kind) {
  if (Kind == "crash")
    ::raise(SIGSEGV);
  if (Kind == "hang")
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
}

} // namespace

bool loadExportModels(const std::string &ModelFiles, const std::string &EntriesPath,
                      ExportModels &Out, std::string &Error) {
  auto Builtin = ApiModel::builtin();
  if (!Builtin) {
    Error = toString(Builtin.takeError());
    return false;
  }
  Out.Base = std::make_unique<ApiModel>(**Builtin);
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(ModelFiles).split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts)
    if (llvm::Error E = Out.Base->addFile(P.trim())) {
      Error = toString(std::move(E));
      return false;
    }
  Out.Model = std::make_unique<ApiModel>(*Out.Base);
  if (!EntriesPath.empty())
    if (llvm::Error E = Out.Model->addFile(EntriesPath)) {
      Error = toString(std::move(E));
      return false;
    }
  return true;
}

UnitExport exportIsolated(const UnitJob &Job, const std::string &OverlayPath,
                          const ApiModel &Base, const FileNamer &Names,
                          const UnitLimits &Limits) {
  std::string Result, Problem;
  if (!runWorkerJob({"__export-unit", exportUnitWorkerMain},
                    jobText(Job, OverlayPath, Names), Limits, Result, Problem))
    return failed("the summary analysis: " + Problem);
  UnitExport Out;
  if (!unitExportFromJson(Result, Base, Out))
    return failed("the summary worker's result is unreadable");
  return Out;
}

int exportUnitWorkerMain(int Argc, const char **Argv) {
  if (Argc != 4) {
    llvm::errs() << "cudagraph-tidy: error: __export-unit JOB RESULT is internal\n";
    return 2;
  }
  exitOnOutOfMemory();
  retainFreedMemory();
  UnitJob Job;
  std::string Overlay, Root;
  try {
    json J = json::parse(readWireFile(Argv[2]));
    Job.File = J.at("file");
    for (const json &C : J.at("commands"))
      Job.Commands.emplace_back(C.at("directory").get<std::string>(),
                                C.at("file").get<std::string>(),
                                C.at("arguments").get<std::vector<std::string>>(),
                                C.at("output").get<std::string>());
    Job.ExtraArgsBefore = J.at("before").get<std::vector<std::string>>();
    Job.ExtraArgs = J.at("after").get<std::vector<std::string>>();
    Job.ModelFiles = J.at("modelFiles");
    Job.Fault = J.at("fault");
    Overlay = J.at("overlay");
    Root = J.at("root");
  } catch (const json::exception &E) {
    llvm::errs() << "cudagraph-tidy: error: bad worker job '" << Argv[2] << "': " << E.what()
                 << "\n";
    return 2;
  }
  ExportModels Models;
  std::string Error;
  if (!loadExportModels(Job.ModelFiles, Overlay, Models, Error)) {
    llvm::errs() << "cudagraph-tidy: error: " << Error << "\n";
    return 2;
  }
  const ApiModel &Base = *Models.Base, &Model = *Models.Model;
  UnitExport Out;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext CRC;
  CRC.DumpStackAndCleanupOnFailure = true;
  double Start = threadCpuSeconds();
  if (!CRC.RunSafely([&] {
        injectFault(Job.Fault);
        Out = exportUnit(Job, Model, Base, FileNamer(Root));
      })) {
    int Signal = CRC.RetCode > 128 ? CRC.RetCode - 128 : 0;
    writeWireFile(Argv[3], std::to_string(Signal) + "\n");
    ::_exit(WorkerCrashedExit);
  }
  Out.Seconds = threadCpuSeconds() - Start;
  return writeWireFile(Argv[3], unitExportToJson(Out)) ? 0 : 2;
}

} // namespace cgt
