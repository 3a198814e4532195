//===- RunChecks.cpp - the units of a run, in parallel --------------------===//
//
// The plan (each file's commands, options and the hooks' changes, resolved
// on the main thread), the threads that analyse the units (each in a worker
// process unless --in-process: Isolation.h), the merge of their results in
// input order and the exit code.
//
//===----------------------------------------------------------------------===//
#include "run/DriverRun.h"
#include "isolation/Isolation.h"
#include "run/ParseFailures.h"
#include "ApiModel/ApiModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>
#include <set>

using namespace clang;
using namespace clang::tidy;

namespace cgt {
namespace {

void sortAndDedupe(std::vector<FindingRecord> &Findings) {
  std::stable_sort(Findings.begin(), Findings.end(),
                   [](const FindingRecord &A, const FindingRecord &B) {
                     return std::tie(A.Pos.File, A.Pos.Offset, A.CheckName, A.Message) <
                            std::tie(B.Pos.File, B.Pos.Offset, B.CheckName, B.Message);
                   });
  // A header included by several files yields the same finding once per file.
  Findings.erase(
      std::unique(Findings.begin(), Findings.end(),
                  [](const FindingRecord &A, const FindingRecord &B) {
                    return A.Pos.File == B.Pos.File && A.Pos.Offset == B.Pos.Offset &&
                           A.CheckName == B.CheckName && A.Message == B.Message;
                  }),
      Findings.end());
}

/// Tests only: `Spec` is KIND:FILE (Worker.cpp); the unit whose file name
/// is FILE gets the fault.
void injectFaultInto(UnitTask &Task, llvm::StringRef Spec) {
  auto [Kind, Name] = Spec.split(':');
  if (Name.empty() || llvm::sys::path::filename(Task.File) != Name)
    return;
  if (Kind == "preamble-crash")
    Task.Preamble.FaultCrashOnRead = true;
  else if (Kind == "preamble-build-kill")
    Task.Preamble.FaultKillInBuild = true;
  else
    Task.Fault = Kind.str();
}

/// The "[12/175] path/file.cu" lines: numbered in the order units start, so
/// a slow file is the one named last while the count stops moving. Lines
/// are whole even when several workers start at once.
class StartCounter {
public:
  StartCounter(bool Enabled, size_t Total) : Enabled(Enabled), Total(Total) {}
  void started(const std::string &File) {
    if (!Enabled)
      return;
    std::lock_guard<std::mutex> Lock(M);
    llvm::errs() << "[" << ++Started << "/" << Total << "] " << File << "\n";
  }

private:
  bool Enabled;
  size_t Total;
  size_t Started = 0;
  std::mutex M;
};

} // namespace

UnitPlan planUnits(DriverRun &Run, const std::vector<std::string> &Files) {
  UnitPlan Plan;
  Plan.Units.resize(Files.size());
  Plan.Tasks.resize(Files.size());
  // Commands looked up here, on one thread: the user's database (JSON,
  // interpolating) is not documented as safe for concurrent use. As the
  // summary passes look them up (analysisCommands), so that both parse
  // with the same command.
  for (size_t I = 0; I < Files.size(); ++I) {
    Plan.Units[I].Status.File = Files[I];
    if (!llvm::sys::fs::exists(Files[I])) {
      Plan.Units[I].Status.Analyzed = false;
      Plan.Units[I].Status.Problem = "no such file";
      continue;
    }
    Plan.Tasks[I].Commands = analysisCommands(*Run.Compilations, Files[I], Run.DeviceSide);
    Plan.Tasks[I].Unsaved = Run.Unsaved;
    if (Plan.Tasks[I].Commands.empty()) {
      Plan.Units[I].Status.Analyzed = false;
      Plan.Units[I].Status.Problem =
          "no compile command for this file in the compilation database";
      continue;
    }
    Plan.ToAnalyze.push_back(I);
  }
  // Options resolved here too: the provider reads .clang-tidy files and
  // caches them, which is not documented as thread-safe either.
  for (size_t I : Plan.ToAnalyze) {
    UnitTask &T = Plan.Tasks[I];
    T.File = Files[I];
    T.Options = ClangTidyOptions::getDefaults().merge(
        Run.OptionsProvider->getOptions(Files[I]), 0);
    T.Preamble = Run.Preamble;
    injectFaultInto(T, Run.Limits.Fault);
    if (Run.Hooks)
      Run.Hooks->prepare(I, T);
  }
  return Plan;
}

RunResult runChecks(DriverRun &Run, const std::vector<std::string> &Files) {
  RunResult Result;
  UnitPlan Plan = planUnits(Run, Files);
  std::vector<UnitResult> &Units = Plan.Units;
  std::vector<UnitTask> &Tasks = Plan.Tasks;
  const std::vector<size_t> &ToAnalyze = Plan.ToAnalyze;
  unsigned Threads = Run.Jobs ? Run.Jobs : llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min<unsigned>(Threads, ToAnalyze.size()));
  StartCounter Progress{Run.Progress, ToAnalyze.size()};
  auto AnalyzeOne = [&](size_t I) {
    Progress.started(Files[I]);
    if (!Run.Hooks || !Run.Hooks->replay(Tasks[I], Units[I])) {
      Units[I] = analyzeTask(Tasks[I], Run.Limits);
      if (Run.Hooks)
        Run.Hooks->store(Tasks[I], Units[I]);
    }
    if (Run.ParseFailures)
      Run.ParseFailures->unitDone(Files[I], Units[I].Status);
  };
  if (Threads <= 1) {
    for (size_t I : ToAnalyze)
      AnalyzeOne(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t I : ToAnalyze)
      Pool.async([&, I] { AnalyzeOne(I); });
    Pool.wait();
  }
  // Merged in input order and then sorted, so the report does not depend on
  // which thread finished first.
  std::set<std::string> SeenConfig;
  for (size_t I = 0; I < Units.size(); ++I) {
    UnitResult &U = Units[I];
    U.Status.File = Files[I]; // as the user named it
    Result.Units.push_back(U.Status);
    Result.UnitDetails.push_back(U.Detail);
    for (FindingRecord &F : U.Findings)
      Result.Findings.push_back(std::move(F));
    for (const std::string &C : U.ConfigErrors)
      if (SeenConfig.insert(C).second)
        Result.ConfigErrors.push_back(C);
    addCounters(U.Counters, Run.Preamble.Stats);
  }
  sortAndDedupe(Result.Findings);
  return Result;
}

std::vector<std::string>
validateApiModelFiles(ClangTidyOptionsProvider &Provider,
                      const std::vector<std::string> &Files) {
  std::set<std::string> Values;
  for (const std::string &File : Files) {
    ClangTidyOptions Opts = Provider.getOptions(File);
    for (const auto &KV : Opts.CheckOptions) {
      llvm::StringRef Key = KV.getKey();
      if (Key == "ApiModelFiles" || Key.ends_with(".ApiModelFiles"))
        Values.insert(KV.getValue().Value);
    }
  }
  std::vector<std::string> Errors;
  for (const std::string &Value : Values) {
    auto Model = ApiModel::builtin();
    if (!Model) {
      Errors.push_back("cannot load the built-in CUDA API model: " +
                       llvm::toString(Model.takeError()));
      return Errors;
    }
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(Value).split(Parts, ';', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts)
      if (llvm::Error E = (*Model)->addFile(Part.trim()))
        Errors.push_back("invalid API model file (ApiModelFiles=" + Value +
                         "): " + llvm::toString(std::move(E)));
  }
  return Errors;
}

int exitCodeFor(const RunResult &Result) {
  for (const UnitStatus &U : Result.Units)
    if (!U.Analyzed)
      return 2;
  if (!Result.ConfigErrors.empty())
    return 2;
  for (size_t I = 0; I < Result.Findings.size(); ++I)
    if (Result.BaselineStates.empty() || Result.BaselineStates[I] != "unchanged")
      return 1;
  return 0;
}

} // namespace cgt
