//===- Isolation.cpp - running one translation unit in a worker -----------===//
//
// The parent side of Isolation.h. Waiting polls (llvm::sys::Wait with a
// zero timeout) instead of using Wait's own timeout, which is an alarm()
// for the whole process and so cannot serve several --jobs threads at once.
//
//===----------------------------------------------------------------------===//
#include "Isolation.h"
#include "UnitWire.h"
#include "Lifetime/LifetimeAnalysis.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

namespace cgt {
namespace {

/// How one worker ended.
struct WorkerEnd {
  bool TimedOut = false;
  int ReturnCode = 0; ///< -2: killed by a signal
  std::string Message; ///< the signal's description, or why it did not start
};

std::string selfPath() {
  static int Anchor;
  return llvm::sys::fs::getMainExecutable("cudagraph-tidy", &Anchor);
}

WorkerEnd runWorker(const std::string &JobPath, const std::string &ResultPath,
                    const UnitLimits &Limits,
                    llvm::StringRef Subcommand = "__analyze-unit") {
  std::string Self = selfPath();
  llvm::StringRef Args[] = {Self, Subcommand, JobPath, ResultPath};
  WorkerEnd End;
  bool Failed = false;
  llvm::sys::ProcessInfo PI = llvm::sys::ExecuteNoWait(
      Self, Args, std::nullopt, {}, Limits.MemoryMB, &End.Message, &Failed);
  if (Failed) {
    End.ReturnCode = -1;
    return End;
  }
  auto Start = std::chrono::steady_clock::now();
  for (;;) {
    llvm::sys::ProcessInfo R = llvm::sys::Wait(PI, 0, &End.Message);
    if (R.Pid == PI.Pid || R.Pid == -1) {
      End.ReturnCode = R.ReturnCode;
      return End;
    }
    double Elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - Start).count();
    if (Limits.TimeoutSeconds && Elapsed > Limits.TimeoutSeconds) {
      ::kill(PI.Pid, SIGKILL);
      llvm::sys::Wait(PI, std::nullopt);
      End.TimedOut = true;
      return End;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

/// Why a worker that produced no usable result failed, for the report.
std::string failureText(const WorkerEnd &End, const std::string &ResultText,
                        const UnitLimits &Limits) {
  if (End.TimedOut)
    return "the analysis did not finish within " +
           std::to_string(Limits.TimeoutSeconds) +
           " s (--tu-timeout) and was stopped";
  if (End.ReturnCode == WorkerOutOfMemoryExit)
    return "the analysis ran out of memory (--tu-memory budget of " +
           std::to_string(Limits.MemoryMB) + " MiB) and was stopped";
  if (End.ReturnCode == WorkerCrashedExit) {
    int Signal = 0;
    llvm::StringRef(ResultText).trim().getAsInteger(10, Signal);
    return "the analysis crashed (signal " + std::to_string(Signal) + ", " +
           (Signal > 0 ? ::strsignal(Signal) : "unknown") + ")";
  }
  if (End.ReturnCode == -2)
    return "the analysis crashed (" + End.Message + ")";
  if (End.ReturnCode == -1)
    return "the analysis worker could not be started: " + End.Message;
  return "the analysis worker failed (exit code " +
         std::to_string(End.ReturnCode) + ")";
}

/// One worker run. Returns true with `Out` filled when the worker
/// produced a result; else false with `Problem`, and `PreambleEntry` set
/// when it died while reading a cached preamble.
bool attempt(const UnitTask &Job, const UnitLimits &Limits, UnitResult &Out,
             std::string &Problem, std::string &PreambleEntry,
             std::string &PreambleLink) {
  llvm::SmallString<128> JobPath, ResultPath, MarkerPath;
  if (llvm::sys::fs::createTemporaryFile("cudagraph-tidy-job", "json", JobPath) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-result", "json", ResultPath) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-preamble", "txt", MarkerPath)) {
    Problem = "cannot create the analysis worker's files in the temporary directory";
    return false;
  }
  llvm::FileRemover RemoveJob(JobPath), RemoveResult(ResultPath),
      RemoveMarker(MarkerPath);
  UnitTask Sent = Job;
  Sent.Preamble.InUseMarker = std::string(MarkerPath);
  if (!writeWireFile(std::string(JobPath), taskToJson(Sent))) {
    Problem = "cannot write the analysis worker's job file";
    return false;
  }
  WorkerEnd End = runWorker(std::string(JobPath), std::string(ResultPath), Limits);
  std::string Text = readWireFile(std::string(ResultPath));
  if (!End.TimedOut && End.ReturnCode == 0) {
    std::string Error;
    if (resultFromJson(Text, Out, Error))
      return true;
    Problem = "the analysis worker's result is unreadable: " + Error;
    return false;
  }
  Problem = failureText(End, Text, Limits);
  std::string Marker = readWireFile(std::string(MarkerPath));
  auto [Entry, Link] = llvm::StringRef(Marker).split('\n');
  PreambleEntry = Entry.trim().str();
  PreambleLink = Link.trim().str();
  return false;
}

void raiseTo(std::atomic<unsigned> &Max, unsigned V) {
  unsigned Old = Max.load();
  while (V > Old && !Max.compare_exchange_weak(Old, V)) {
  }
}

} // namespace

bool runWorkerJob(llvm::StringRef Subcommand, const std::string &JobText,
                  const UnitLimits &Limits, std::string &ResultText, std::string &Problem) {
  llvm::SmallString<128> JobPath, ResultPath;
  if (llvm::sys::fs::createTemporaryFile("cudagraph-tidy-job", "json", JobPath) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-result", "json", ResultPath)) {
    Problem = "cannot create the analysis worker's files in the temporary directory";
    return false;
  }
  llvm::FileRemover RemoveJob(JobPath), RemoveResult(ResultPath);
  if (!writeWireFile(std::string(JobPath), JobText)) {
    Problem = "cannot write the analysis worker's job file";
    return false;
  }
  WorkerEnd End = runWorker(std::string(JobPath), std::string(ResultPath), Limits, Subcommand);
  ResultText = readWireFile(std::string(ResultPath));
  if (!End.TimedOut && End.ReturnCode == 0)
    return true;
  Problem = failureText(End, ResultText, Limits);
  return false;
}

UnitResult analyzeIsolated(const UnitTask &Job, const UnitLimits &Limits) {
  UnitResult Out;
  std::string Problem, Entry, Link;
  if (attempt(Job, Limits, Out, Problem, Entry, Link))
    return Out;
  if (!Entry.empty()) {
    // Died inside the preamble path: never trust that entry again, and
    // give the unit the plain parse it would have had without a cache.
    markPreambleFailed(Entry, Link);
    llvm::errs() << "cudagraph-tidy: note: " << Job.File << ": " << Problem
                 << " while using its cached preamble; analysing it again "
                    "without one\n";
    if (Job.Preamble.Stats)
      ++Job.Preamble.Stats->Failed;
    UnitTask Plain = Job;
    Plain.Preamble.Enabled = false;
    Out = UnitResult();
    std::string Ignored, IgnoredLink;
    if (attempt(Plain, Limits, Out, Problem, Ignored, IgnoredLink))
      return Out;
  }
  Out = UnitResult();
  Out.Status.File = Job.File;
  Out.Status.Analyzed = false;
  Out.Status.Problem = Problem;
  return Out;
}

KeepLifetimeStats::KeepLifetimeStats() {
  const LifetimeStats &S = lifetimeStats();
  Saved[0] = S.Functions;
  Saved[1] = S.WidenedFunctions;
  Saved[2] = S.BudgetFunctions;
  Saved[3] = S.MostDisjuncts;
}

KeepLifetimeStats::~KeepLifetimeStats() {
  LifetimeStats &S = lifetimeStats();
  S.Functions = Saved[0];
  S.WidenedFunctions = Saved[1];
  S.BudgetFunctions = Saved[2];
  S.MostDisjuncts = Saved[3];
}

void addCounters(const UnitCounters &C, PreambleCacheStats *Preamble) {
  LifetimeStats &S = lifetimeStats();
  S.Functions += C.Functions;
  S.WidenedFunctions += C.WidenedFunctions;
  S.BudgetFunctions += C.BudgetFunctions;
  raiseTo(S.MostDisjuncts, C.MostDisjuncts);
  if (!Preamble)
    return;
  Preamble->Hits += C.PreambleHits;
  Preamble->Builds += C.PreambleBuilds;
  Preamble->Skipped += C.PreambleSkipped;
  Preamble->Failed += C.PreambleFailed;
}

} // namespace cgt
