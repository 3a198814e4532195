//===- Worker.cpp - the worker process that analyses one unit -------------===//
//
// `cudagraph-tidy __analyze-unit JOB RESULT` (Isolation.h): reads the job,
// analyses the unit in this process and writes the result (with its
// exported summaries when a summary pass asks: CheckedExport.h). A crash
// inside the analysis is caught by llvm::CrashRecoveryContext, which writes
// clang's stack trace and lets the worker say which signal it was (exit code
// WorkerCrashedExit); a failed allocation exits with WorkerOutOfMemoryExit.
// The worker never tries to go on after either: it has one unit, and its
// state after a signal is not to be trusted.
//
// Fault injection, for tests only (--inject-fault=KIND:FILE, its --help
// line says so): makes the analysis of the unit whose file name is FILE
// crash (SIGSEGV) before it parses, crash inside the checks' pass over the
// parsed unit (check-crash, where a bug in a check would), hang (sleep
// forever) before it parses or inside the checks' pass (check-hang, where a
// pathological function would spend its time, with a cached preamble still
// in use), allocate without bound, crash only while a parse reads a
// cached preamble (preamble-crash), or be killed while it builds one
// (preamble-build-kill, PreambleCacheConfig::FaultKillInBuild), so that the
// tests can show what a real failure of each kind leaves of a run.
//
//===----------------------------------------------------------------------===//
#include "summaries/CheckedExport.h"
#include "isolation/Isolation.h"
#include "isolation/UnitWire.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "Streams/StreamOrder.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <limits>
#include <new>
#include <thread>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <vector>

namespace cgt {
namespace {

[[noreturn]] void outOfMemory() {
  const char Msg[] = "cudagraph-tidy: the analysis worker ran out of memory\n";
  (void)!::write(2, Msg, sizeof(Msg) - 1);
  ::_exit(WorkerOutOfMemoryExit);
}

void injectFault(llvm::StringRef Kind) {
  if (Kind == "crash")
    ::raise(SIGSEGV);
  if (Kind == "hang")
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  if (Kind == "alloc") {
    // Touched, so that the memory is really used, as a runaway analysis
    // would use it; ends at the budget (outOfMemory) or when the
    // system refuses.
    std::vector<char *> Blocks;
    for (;;) {
      char *B = new char[64 << 20];
      for (size_t I = 0; I < (64u << 20); I += 4096)
        B[I] = 1;
      Blocks.push_back(B);
    }
  }
}

/// check-crash: a consumer that crashes when the unit has been parsed.
class CrashingConsumer : public clang::ASTConsumer {
  void HandleTranslationUnit(clang::ASTContext &) override { ::raise(SIGSEGV); }
};

/// check-hang: a consumer that never returns once the unit has been parsed,
/// as a check stuck in one function would (the parent's --tu-timeout ends
/// it).
class HangingConsumer : public clang::ASTConsumer {
  void HandleTranslationUnit(clang::ASTContext &) override { injectFault("hang"); }
};

/// The consumer a check-* fault adds after the checks; null for the others.
std::unique_ptr<clang::ASTConsumer> faultyConsumer(const std::string &Fault) {
  if (Fault == "check-crash")
    return std::make_unique<CrashingConsumer>();
  if (Fault == "check-hang")
    return std::make_unique<HangingConsumer>();
  return nullptr;
}

UnitCounters countersOfThisProcess() {
  UnitCounters C;
  const LifetimeStats &S = lifetimeStats();
  C.Functions = S.Functions;
  C.WidenedFunctions = S.WidenedFunctions;
  C.BudgetFunctions = S.BudgetFunctions;
  C.MostDisjuncts = S.MostDisjuncts;
  C.Confirmed = S.Confirmed;
  C.Refuted = S.Refuted;
  C.RefutationGaveUp = S.RefutationGaveUp;
  const streams::StreamStats &G = streams::streamStats();
  C.GapsConfirmed = G.GapsConfirmed;
  C.GapsNoPath = G.GapsNoPath;
  C.GapsCut = G.GapsCut;
  return C;
}

} // namespace

ExtraConsumerFactory withInjectedFault(const std::string &Fault,
                                       const ExtraConsumerFactory &Extra) {
  if (!faultyConsumer(Fault))
    return Extra;
  return [Extra, Fault]() -> std::unique_ptr<clang::ASTConsumer> {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Both;
    if (Extra)
      Both.push_back(Extra());
    Both.push_back(faultyConsumer(Fault));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Both));
  };
}

void exitOnOutOfMemory() {
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { outOfMemory(); });
}

void retainFreedMemory() {
#ifdef __GLIBC__
  // Blocks up to glibc's largest mmap threshold come from the heap, and the
  // heap's top is never trimmed (setting either also stops glibc's own
  // adjustment of the other).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
#endif
}

double threadCpuSeconds() {
  struct rusage U;
  if (::getrusage(RUSAGE_THREAD, &U) != 0)
    return 0;
  auto Seconds = [](const timeval &T) { return double(T.tv_sec) + double(T.tv_usec) / 1e6; };
  return Seconds(U.ru_utime) + Seconds(U.ru_stime);
}

int analyzeUnitWorkerMain(int Argc, const char **Argv) {
  if (Argc != 4) {
    llvm::errs() << "cudagraph-tidy: error: __analyze-unit JOB RESULT is internal\n";
    return 2;
  }
  exitOnOutOfMemory();
  retainFreedMemory();
  auto Buf = llvm::MemoryBuffer::getFile(Argv[2]);
  UnitTask Task;
  std::string Error;
  if (!Buf || !taskFromJson((*Buf)->getBuffer().str(), Task, Error)) {
    llvm::errs() << "cudagraph-tidy: error: bad worker job '" << Argv[2]
                 << "': " << Error << "\n";
    return 2;
  }
  PreambleCacheStats Stats;
  Task.Preamble.Stats = &Stats;
  UnitResult Result;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext CRC;
  CRC.DumpStackAndCleanupOnFailure = true;
  bool OK = CRC.RunSafely([&] {
    injectFault(Task.Fault);
    Result = Task.Summaries.Enabled ? analyzeWithSummaries(Task) : analyzeUnit(Task);
  });
  if (!OK) {
    // RetCode is 128 + the signal for a caught signal.
    int Signal = CRC.RetCode > 128 ? CRC.RetCode - 128 : 0;
    writeWireFile(Argv[3], std::to_string(Signal) + "\n");
    ::_exit(WorkerCrashedExit);
  }
  Result.Counters = countersOfThisProcess();
  Result.Counters.PreambleHits = Stats.Hits;
  Result.Counters.PreambleBuilds = Stats.Builds;
  Result.Counters.PreambleSkipped = Stats.Skipped;
  Result.Counters.PreambleFailed = Stats.Failed;
  return writeWireFile(Argv[3], resultToJson(Result)) ? 0 : 2;
}

} // namespace cgt
