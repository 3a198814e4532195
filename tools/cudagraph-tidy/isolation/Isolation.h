//===- Isolation.h - one translation unit cannot take the run down -*- C++ -*-===//
//
// Each translation unit is analysed in a worker process: a fork of the
// driver when it runs one thread, else this same binary run as
// `cudagraph-tidy __analyze-unit JOB RESULT` (Isolation.cpp says why); both
// run Worker.cpp's entry point with the job and result passed as JSON
// files (UnitWire.h). The parent waits with
// a wall-time budget (--tu-timeout; past it the worker is killed) and
// starts the worker under a memory budget (--tu-memory, an rlimit on its
// data segment, so an allocation past it fails inside the worker). A worker
// that crashes, hangs or runs out of memory costs only its own unit: the
// unit is reported as not analysed, naming the signal or the limit, and
// every other unit's findings are still written. A worker's stderr goes to
// a file: a crash's stack trace is kept there and named, with the command
// that reproduces the crash, rather than printed (CrashReport.h).
//
// A worker that dies while parsing against a cached preamble (the cache
// entry it was reading is named in a marker file first) has that entry
// marked failed, and the unit is analysed again without a preamble: the
// cache may cost time, never an outcome. Dying means crashing or running
// out of memory, which clang's reading of a PCH can cause; a worker stopped
// from outside (past --tu-timeout, or cancelled) is not run again and its
// entry stays: Isolation.cpp's preambleMayBeAtFault says why. Either way,
// the private link a dead reader made and the folder a dead builder wrote
// in (the marker names them) are removed from the cache folder.
//
// A worker that ends without a result sends no counters. The preamble
// cache's counts reach the parent anyway, through a file the worker
// rewrites as they change (PreambleCacheConfig::CountsFile); the engines'
// change with every function and are not sent before the end, so the unit
// is counted as one whose engine counts are lost, and --stats says how
// many such units its counts leave out.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_ISOLATION_H
#define CUDAGRAPH_TIDY_TOOLS_ISOLATION_H

#include "run/DriverRun.h"

namespace cgt {

/// Analyses `Job` in a worker process within `Limits`.
UnitResult analyzeIsolated(const UnitTask &Job, const UnitLimits &Limits);

/// A worker's entry point: the subcommand an exec'd worker is started
/// with, and the function it runs (`Main(4, {self, Subcommand, JOB,
/// RESULT})`), which a forked worker calls directly.
struct WorkerEntry {
  llvm::StringRef Subcommand;
  int (*Main)(int Argc, const char **Argv);
};

/// Runs `Entry` with `JobText` as the job, within `Limits`. True with the
/// result file's text when the worker exited 0; else false with `Problem`
/// saying how it ended (a signal, a limit). The summary passes' workers
/// use it (ExportWorker.cpp).
bool runWorkerJob(const WorkerEntry &Entry, const std::string &JobText,
                  const UnitLimits &Limits, std::string &ResultText, std::string &Problem);

/// Tests only: `Extra` with, for the faults check-crash and check-hang, a
/// consumer that crashes or hangs after the parse (Worker.cpp); `Extra`
/// itself for any other.
ExtraConsumerFactory withInjectedFault(const std::string &Fault,
                                       const ExtraConsumerFactory &Extra);

/// In a worker: a failed allocation exits with WorkerOutOfMemoryExit.
void exitOnOutOfMemory();

/// In a worker: memory freed stays with the process rather than going back
/// to the system. A worker lives for one unit and its exit returns
/// everything; glibc's default gives large blocks back as soon as they are
/// freed, so the kernel checks, which build and drop megabytes of access
/// records per kernel instance, page the same memory in again for each of
/// them (a fifth of their time on ggml's mmvf.cu). The peak is unchanged.
void retainFreedMemory();

/// CPU seconds (user and system) the calling thread has used so far: a
/// worker's cost of a unit is the difference around its work.
double threadCpuSeconds();

/// Adds a worker's counters to this process's (lib/Lifetime's statistics
/// and the preamble cache's).
void addCounters(const UnitCounters &C, PreambleCacheStats *Preamble);

/// How many units' counters addCounters was given as lost
/// (UnitCounters::Lost): --stats says its engine counts leave them out.
unsigned unitsWithLostCounters();

/// Sets this process's lifetime and stream counts to zero (a forked
/// worker's start).
void resetLifetimeStats();

/// Puts this process's lifetime and stream counts (the budget warnings and --stats
/// are made of them) back as they were when it was made: work that is not
/// a unit's checks, such as the summary passes, must not add to them.
class KeepLifetimeStats {
public:
  KeepLifetimeStats();
  ~KeepLifetimeStats();

private:
  unsigned Saved[10];
};

/// `cudagraph-tidy __analyze-unit JOB RESULT`: the worker (Worker.cpp).
int analyzeUnitWorkerMain(int Argc, const char **Argv);

/// --tu-memory's default. Sanitizer runtimes reserve terabytes of address
/// space at start-up, which any data limit refuses: no default limit there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr unsigned DefaultTuMemoryMB = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr unsigned DefaultTuMemoryMB = 0;
#else
constexpr unsigned DefaultTuMemoryMB = 8192;
#endif
#else
constexpr unsigned DefaultTuMemoryMB = 8192;
#endif

/// The worker's exit code when an allocation failed (its memory budget).
constexpr int WorkerOutOfMemoryExit = 3;
/// The worker's exit code when CrashRecoveryContext caught a crash; the
/// result file then holds the signal.
constexpr int WorkerCrashedExit = 4;

} // namespace cgt

#endif
