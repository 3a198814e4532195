//===- Isolation.cpp - running one translation unit in a worker -----------===//
//
// The parent side of Isolation.h. Waiting polls (llvm::sys::Wait with a
// zero timeout) instead of using Wait's own timeout, which is an alarm()
// for the whole process and so cannot serve several --jobs threads at once.
//
// How a worker starts:
//
//   parent runs one thread ──fork──> child: memory budget, counters zeroed,
//                                    the worker's entry point, _exit
//   parent runs several    ──exec──> `cudagraph-tidy SUBCOMMAND JOB RESULT`,
//                                    main() calls the same entry point
//
// A fork of a one-thread process inherits what an exec would build again:
// libclang-cpp's and libLLVM's relocations and static constructors (the
// dynamic linker alone is 29M instructions a start, about 0.3% of a unit
// like ggml-cuda.cu; bench/perf/README.md, 2026-12-04). With
// other threads running (--jobs, the thread pools of the summary passes)
// a fork could copy a lock some other thread holds, which nothing in the
// child would ever release: those workers are exec'd. Both kinds run the
// same entry point on the same job and result files, so the outcome is the
// same (test/driver/isolation.test compares --jobs 1 with --jobs 2).
//
//===----------------------------------------------------------------------===//
#include "isolation/Isolation.h"
#include "isolation/CrashReport.h"
#include "isolation/UnitWire.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "Streams/StreamOrder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace cgt {
namespace {

/// How one worker ended.
struct WorkerEnd {
  bool TimedOut = false;
  bool Cancelled = false; ///< stopped because UnitLimits::Cancelled said so
  int ReturnCode = 0; ///< -2: killed by a signal
  std::string Message; ///< the signal's description, or why it did not start
  std::string Stderr;  ///< what it wrote to stderr (CrashReport.h says why)

  bool crashed() const {
    return !TimedOut && !Cancelled &&
           (ReturnCode == WorkerCrashedExit || ReturnCode == -2);
  }
};

std::string selfPath() {
  static int Anchor;
  return llvm::sys::fs::getMainExecutable("cudagraph-tidy", &Anchor);
}

/// True when this process runs exactly one thread (Linux's
/// /proc/self/status); false when that cannot be read.
bool runsOneThread() {
  int Fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  char Buf[8192];
  ssize_t N = ::read(Fd, Buf, sizeof(Buf) - 1);
  ::close(Fd);
  if (N <= 0)
    return false;
  Buf[N] = '\0';
  const char *Line = ::strstr(Buf, "\nThreads:");
  return Line && std::strtol(Line + std::strlen("\nThreads:"), nullptr, 10) == 1;
}

/// The budget ExecuteNoWait gives an exec'd worker, set the same way.
void limitMemory(unsigned MemoryMB) {
  if (!MemoryMB)
    return;
  struct rlimit R;
  rlim_t Limit = static_cast<rlim_t>(MemoryMB) * 1048576;
  if (::getrlimit(RLIMIT_DATA, &R) == 0) {
    R.rlim_cur = Limit;
    ::setrlimit(RLIMIT_DATA, &R);
  }
}

/// The child side of a forked worker: what main() of an exec'd worker
/// would do before calling the entry point, minus what the fork already
/// gave it. Never returns: the parent's atexit handlers and static
/// destructors are the parent's to run.
[[noreturn]] void runForkedWorker(const WorkerEntry &Entry, const char **Argv,
                                  unsigned MemoryMB, const char *StderrPath) {
  int Err = ::open(StderrPath, O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (Err >= 0) {
    ::dup2(Err, 2);
    ::close(Err);
  }
  limitMemory(MemoryMB);
  // A worker reports its own unit's counts; the parent's so far are not.
  resetLifetimeStats();
  int Code = Entry.Main(4, Argv);
  llvm::outs().flush();
  std::fflush(nullptr);
  ::_exit(Code);
}

/// Starts the worker: forked when this process runs one thread, else
/// exec'd (the head comment says why).
llvm::sys::ProcessInfo startWorker(const WorkerEntry &Entry, const std::string &JobPath,
                                   const std::string &ResultPath,
                                   const std::string &StderrPath, unsigned MemoryMB,
                                   std::string &Message, bool &Failed) {
  std::string Self = selfPath();
  if (!runsOneThread()) {
    llvm::StringRef Args[] = {Self, Entry.Subcommand, JobPath, ResultPath};
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                  llvm::StringRef(StderrPath)};
    return llvm::sys::ExecuteNoWait(Self, Args, std::nullopt, Redirects, MemoryMB,
                                    &Message, &Failed);
  }
  std::string Sub = Entry.Subcommand.str();
  const char *Argv[] = {Self.c_str(), Sub.c_str(), JobPath.c_str(), ResultPath.c_str(),
                        nullptr};
  // Buffered output would otherwise be written twice: by the parent and by
  // the child that copied the buffer.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  llvm::sys::ProcessInfo PI;
  pid_t Pid = ::fork();
  if (Pid == 0)
    runForkedWorker(Entry, Argv, MemoryMB, StderrPath.c_str());
  if (Pid < 0) {
    Message = std::string("cannot fork: ") + std::strerror(errno);
    Failed = true;
    return PI;
  }
  PI.Pid = PI.Process = Pid;
  return PI;
}

/// Starts the worker and waits for it within the time budget.
void waitForWorker(const std::string &JobPath, const std::string &ResultPath,
                   const std::string &StderrPath, const UnitLimits &Limits,
                   const WorkerEntry &Entry, WorkerEnd &End) {
  bool Failed = false;
  llvm::sys::ProcessInfo PI = startWorker(Entry, JobPath, ResultPath, StderrPath,
                                          Limits.MemoryMB, End.Message, Failed);
  if (Failed) {
    End.ReturnCode = -1;
    return;
  }
  auto Start = std::chrono::steady_clock::now();
  for (;;) {
    llvm::sys::ProcessInfo R = llvm::sys::Wait(PI, 0, &End.Message);
    if (R.Pid == PI.Pid || R.Pid == -1) {
      End.ReturnCode = R.ReturnCode;
      return;
    }
    double Elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - Start).count();
    bool Cancel = Limits.Cancelled && Limits.Cancelled();
    if (Cancel || (Limits.TimeoutSeconds && Elapsed > Limits.TimeoutSeconds)) {
      ::kill(PI.Pid, SIGKILL);
      llvm::sys::Wait(PI, std::nullopt);
      (Cancel ? End.Cancelled : End.TimedOut) = true;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

/// Runs the worker to its end, its stderr into a file (read back into
/// WorkerEnd::Stderr): a crash's stack trace is the caller's to keep or
/// print (CrashReport.h), anything else is passed on (passOn).
WorkerEnd runWorker(const std::string &JobPath, const std::string &ResultPath,
                    const UnitLimits &Limits, const WorkerEntry &Entry) {
  WorkerEnd End;
  llvm::SmallString<128> StderrPath;
  if (llvm::sys::fs::createTemporaryFile("cudagraph-tidy-stderr", "txt", StderrPath)) {
    End.ReturnCode = -1;
    End.Message = "cannot create its stderr file in the temporary directory";
    return End;
  }
  llvm::FileRemover RemoveStderr(StderrPath);
  waitForWorker(JobPath, ResultPath, std::string(StderrPath), Limits, Entry, End);
  End.Stderr = readWireFile(std::string(StderrPath));
  return End;
}

/// The text of a worker's stderr that is not a crash's: passed on whole.
void passOn(const WorkerEnd &End) {
  if (!End.crashed() && !End.Stderr.empty())
    llvm::errs() << End.Stderr;
}

/// Why a worker that produced no usable result failed, for the report.
std::string failureText(const WorkerEnd &End, const std::string &ResultText,
                        const UnitLimits &Limits) {
  if (End.Cancelled)
    return "the analysis was cancelled";
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

/// How one worker run of a unit ended, when it produced no result.
struct Attempt {
  bool OK = false;
  std::string Problem;
  /// The preamble cache entry the worker was building or reading when it
  /// died (the marker file, PreambleCache.h), with the private link it
  /// read it through or the folder it built it in; all "" when it died
  /// elsewhere.
  InUseEntry Preamble;
  /// What the preamble cache did for the unit until the worker ended (its
  /// counts file): a worker that ends without a result sends no counters.
  UnitCounters Counted;
  WorkerEnd End;
  std::string JobText; ///< the job, for a crash's reproduction
};

/// The counts a worker that sent no result left in its counts file
/// (PreambleCacheConfig::CountsFile); zero where it left none.
UnitCounters countedUntilTheEnd(const std::string &CountsPath) {
  UnitCounters C;
  readPreambleCounts(CountsPath, C.PreambleHits, C.PreambleBuilds, C.PreambleSkipped,
                     C.PreambleFailed);
  return C;
}

/// One worker run. `OK` with `Out` filled when the worker produced a
/// result; else the problem, the preamble cache's counts until then and,
/// when it died in the preamble path, the entry.
Attempt attempt(const UnitTask &Job, const UnitLimits &Limits, UnitResult &Out) {
  Attempt A;
  llvm::SmallString<128> JobPath, ResultPath, MarkerPath, CountsPath;
  if (llvm::sys::fs::createTemporaryFile("cudagraph-tidy-job", "json", JobPath) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-result", "json", ResultPath) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-preamble", "txt", MarkerPath) ||
      llvm::sys::fs::createTemporaryFile("cudagraph-tidy-counts", "txt", CountsPath)) {
    A.Problem = "cannot create the analysis worker's files in the temporary directory";
    return A;
  }
  // The counts file's ".new" is its writer's temporary (writeCounts).
  std::string CountsNew = (CountsPath + ".new").str();
  llvm::FileRemover RemoveJob(JobPath), RemoveResult(ResultPath),
      RemoveMarker(MarkerPath), RemoveCounts(CountsPath), RemoveCountsNew(CountsNew);
  // The job as a reproduction runs it: without this run's marker and
  // counts files.
  A.JobText = taskToJson(Job);
  UnitTask Sent = Job;
  Sent.Preamble.InUseMarker = std::string(MarkerPath);
  Sent.Preamble.CountsFile = std::string(CountsPath);
  if (!writeWireFile(std::string(JobPath), taskToJson(Sent))) {
    A.Problem = "cannot write the analysis worker's job file";
    return A;
  }
  A.End = runWorker(std::string(JobPath), std::string(ResultPath), Limits,
                    {"__analyze-unit", analyzeUnitWorkerMain});
  passOn(A.End);
  std::string Text = readWireFile(std::string(ResultPath));
  if (!A.End.TimedOut && !A.End.Cancelled && A.End.ReturnCode == 0) {
    std::string Error;
    A.OK = resultFromJson(Text, Out, Error);
    if (!A.OK)
      A.Problem = "the analysis worker's result is unreadable: " + Error;
    return A;
  }
  A.Problem = failureText(A.End, Text, Limits);
  A.Preamble = readInUseMarker(std::string(MarkerPath));
  A.Counted = countedUntilTheEnd(std::string(CountsPath));
  // Whatever the worker was doing in the cache folder, it does no more.
  removeDeadWorkerFiles(A.Preamble);
  return A;
}

/// The unit's result when its last attempt failed; a crash's stack and job
/// are kept and named (CrashReport.h) unless the caller runs it again. Its
/// counters are the preamble cache's until the worker ended, the only ones
/// a worker without a result leaves; the engines' are lost, and said to be
/// (UnitCounters::Lost).
UnitResult failedUnit(const UnitTask &Job, const UnitLimits &Limits, const Attempt &A) {
  UnitResult Out;
  Out.Status.File = Job.File;
  Out.Status.Analyzed = false;
  Out.Status.Problem = A.Problem;
  Out.TimedOut = A.End.TimedOut;
  Out.Counters = A.Counted;
  Out.Counters.Lost = 1;
  if (A.End.crashed() && Limits.KeepCrashes) {
    CrashRecord Crash;
    keepCrash(Job.File, "__analyze-unit", A.JobText, A.End.Stderr, Crash);
    Out.Detail = crashDetail(Crash, Limits.Verbose);
  }
  return Out;
}

/// Whether the preamble the failed attempt was building or reading may be
/// what failed it: a crash or an exhausted memory budget may be clang's
/// reading of the PCH (its ASTReader crashes on some C++20 code). A worker
/// stopped from outside, past --tu-timeout or cancelled, says nothing
/// against the entry: the plain parse a retry would do reads more, not
/// less, so it would spend a second whole budget to end the same way, and
/// a sound entry would be thrown away for every later run.
bool preambleMayBeAtFault(const Attempt &A) {
  return !A.Preamble.Pch.empty() && !A.End.TimedOut && !A.End.Cancelled;
}

void raiseTo(std::atomic<unsigned> &Max, unsigned V) {
  unsigned Old = Max.load();
  while (V > Old && !Max.compare_exchange_weak(Old, V)) {
  }
}

} // namespace

bool runWorkerJob(const WorkerEntry &Entry, const std::string &JobText,
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
  WorkerEnd End = runWorker(std::string(JobPath), std::string(ResultPath), Limits, Entry);
  // A crash here costs only this unit's summaries, and the unit's checks,
  // when it has any, run it again and report it: its stack is not kept.
  passOn(End);
  if (End.crashed() && Limits.Verbose)
    llvm::errs() << End.Stderr;
  ResultText = readWireFile(std::string(ResultPath));
  if (!End.TimedOut && End.ReturnCode == 0)
    return true;
  Problem = failureText(End, ResultText, Limits);
  return false;
}

UnitResult analyzeIsolated(const UnitTask &Job, const UnitLimits &Limits) {
  UnitResult Out;
  Attempt A = attempt(Job, Limits, Out);
  if (A.OK)
    return Out;
  if (!preambleMayBeAtFault(A))
    return failedUnit(Job, Limits, A);
  // Died inside the preamble path: never trust that entry again, and
  // give the unit the plain parse it would have had without a cache. What
  // the cache did for it until then counts as that one failure.
  markPreambleFailed(A.Preamble.Pch);
  llvm::errs() << "cudagraph-tidy: note: " << Job.File << ": " << A.Problem
               << (A.Preamble.Link.empty() ? " while building its preamble"
                                           : " while using its cached preamble")
               << "; analysing it again without one\n";
  if (Limits.Verbose && A.End.crashed())
    llvm::errs() << A.End.Stderr;
  if (Job.Preamble.Stats)
    ++Job.Preamble.Stats->Failed;
  UnitTask Plain = Job;
  Plain.Preamble.Enabled = false;
  Out = UnitResult();
  A = attempt(Plain, Limits, Out);
  if (A.OK)
    return Out;
  return failedUnit(Job, Limits, A);
}

void resetLifetimeStats() {
  LifetimeStats &S = lifetimeStats();
  S.Functions = 0;
  S.WidenedFunctions = 0;
  S.BudgetFunctions = 0;
  S.MostDisjuncts = 0;
  S.Confirmed = 0;
  S.Refuted = 0;
  S.RefutationGaveUp = 0;
  streams::StreamStats &G = streams::streamStats();
  G.GapsConfirmed = 0;
  G.GapsNoPath = 0;
  G.GapsCut = 0;
}

KeepLifetimeStats::KeepLifetimeStats() {
  const LifetimeStats &S = lifetimeStats();
  Saved[0] = S.Functions;
  Saved[1] = S.WidenedFunctions;
  Saved[2] = S.BudgetFunctions;
  Saved[3] = S.MostDisjuncts;
  Saved[4] = S.Confirmed;
  Saved[5] = S.Refuted;
  Saved[6] = S.RefutationGaveUp;
  const streams::StreamStats &G = streams::streamStats();
  Saved[7] = G.GapsConfirmed;
  Saved[8] = G.GapsNoPath;
  Saved[9] = G.GapsCut;
}

KeepLifetimeStats::~KeepLifetimeStats() {
  LifetimeStats &S = lifetimeStats();
  S.Functions = Saved[0];
  S.WidenedFunctions = Saved[1];
  S.BudgetFunctions = Saved[2];
  S.MostDisjuncts = Saved[3];
  S.Confirmed = Saved[4];
  S.Refuted = Saved[5];
  S.RefutationGaveUp = Saved[6];
  streams::StreamStats &G = streams::streamStats();
  G.GapsConfirmed = Saved[7];
  G.GapsNoPath = Saved[8];
  G.GapsCut = Saved[9];
}

namespace {
/// Units whose counters were lost (UnitCounters::Lost), over the run.
std::atomic<unsigned> LostCounters{0};
} // namespace

unsigned unitsWithLostCounters() { return LostCounters; }

void addCounters(const UnitCounters &C, PreambleCacheStats *Preamble) {
  LostCounters += C.Lost;
  LifetimeStats &S = lifetimeStats();
  S.Functions += C.Functions;
  S.WidenedFunctions += C.WidenedFunctions;
  S.BudgetFunctions += C.BudgetFunctions;
  raiseTo(S.MostDisjuncts, C.MostDisjuncts);
  S.Confirmed += C.Confirmed;
  S.Refuted += C.Refuted;
  S.RefutationGaveUp += C.RefutationGaveUp;
  streams::StreamStats &G = streams::streamStats();
  G.GapsConfirmed += C.GapsConfirmed;
  G.GapsNoPath += C.GapsNoPath;
  G.GapsCut += C.GapsCut;
  if (!Preamble)
    return;
  Preamble->Hits += C.PreambleHits;
  Preamble->Builds += C.PreambleBuilds;
  Preamble->Skipped += C.PreambleSkipped;
  Preamble->Failed += C.PreambleFailed;
}

} // namespace cgt
