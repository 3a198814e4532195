//===- ClosingLines.cpp - what a run says on stderr when it ends ----------===//
//
// Split from CudaGraphTidyMain.cpp (issue 39): the lines printed after the
// report, so that main keeps only the steps of a run.
//
//===----------------------------------------------------------------------===//
#include "reports/ClosingLines.h"
#include "isolation/Isolation.h"

#include "Lifetime/LifetimeAnalysis.h"
#include "Streams/StreamOrder.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace cgt {

void printSummary(const RunResult &Result, double Seconds, const std::string &Passes,
                  bool WithBaseline) {
  size_t New = 0;
  for (size_t I = 0; I < Result.Findings.size(); ++I)
    if (Result.BaselineStates.empty() || Result.BaselineStates[I] != "unchanged")
      ++New;
  errs() << New << (!WithBaseline ? "" : " new") << " finding"
         << (New == 1 ? "" : "s");
  if (WithBaseline)
    errs() << " (" << Result.Unchanged << " already in the baseline)";
  errs() << " in " << Result.Units.size() << " translation unit"
         << (Result.Units.size() == 1 ? "" : "s") << " ("
         << format("%.1f", Seconds) << " s)." << (Passes.empty() ? "" : " ") << Passes
         << "\n";
}

void printSharedMemStats(const RunResult &Result) {
  unsigned K = 0, NoShape = 0, GaveUp = 0;
  for (const UnitStatus &U : Result.Units) {
    if (U.SharedKernels < 0)
      continue;
    K += U.SharedKernels;
    NoShape += U.SharedNoShape;
    GaveUp += U.SharedGaveUp;
    if (U.SharedKernels > 0)
      errs() << "shared-memory checks: " << U.File << ": " << U.SharedKernels
             << " kernels with __shared__ accesses, " << U.SharedNoShape
             << " without a block shape, " << U.SharedGaveUp
             << " over the step budget\n";
  }
  errs() << "shared-memory checks: " << K << " kernels with __shared__ accesses, "
         << NoShape << " without a block shape (no verdict), " << GaveUp
         << " over the step budget\n";
  std::map<std::string, unsigned> RaceSkips;
  for (const UnitStatus &U : Result.Units)
    for (const auto &[Reason, N] : U.SharedRaceSkips)
      RaceSkips[Reason] += N;
  for (const auto &[Reason, N] : RaceSkips)
    errs() << "shared-memory checks: race check: " << N << " kernel" << (N == 1 ? "" : "s")
           << " with accesses given no verdict: " << Reason << "\n";
}

namespace {

/// Units whose worker ended without a result sent no engine counts: said,
/// so that the counts above are not read as the whole run's. The preamble
/// cache's do cover them, up to where each ended (Isolation.h).
void printLostCounters() {
  unsigned N = unitsWithLostCounters();
  if (!N)
    return;
  errs() << "counts missing: " << N << " translation unit" << (N == 1 ? "" : "s")
         << " ended without a result (stopped past --tu-timeout, crashed or out of "
            "memory); the lifetime engine, witness path and stream gap counts above leave "
         << (N == 1 ? "it" : "them") << " out\n";
}

} // namespace

void printStats(const PreambleCacheStats &PreambleStats) {
  errs() << "preamble cache: " << PreambleStats.Hits << " hits, "
         << PreambleStats.Builds << " built, " << PreambleStats.Skipped
         << " files without a usable preamble, " << PreambleStats.Failed
         << " failed and parsed without\n";
  const LifetimeStats &S = lifetimeStats();
  errs() << "lifetime engine: " << S.Functions << " functions analysed, "
         << S.WidenedFunctions << " widened past the per-resource state bound, "
         << S.BudgetFunctions << " over the loop revisit budget; at most "
         << S.MostDisjuncts << " disjuncts at one point\n";
  errs() << "witness paths: " << S.Confirmed << " findings confirmed by a feasible path, "
         << S.Refuted << " dropped (every path refuted), " << S.RefutationGaveUp
         << " kept unconfirmed (search bounded: loop unrolled three times, step or query "
            "budget)\n";
  const streams::StreamStats &G = streams::streamStats();
  errs() << "stream gaps (work ordered on some paths only): " << G.GapsConfirmed
         << " confirmed by a feasible path and reported, " << G.GapsNoPath
         << " silent (no path leaves the work unordered), " << G.GapsCut
         << " silent undecided (search bounded: loop unrolled three times, step or query "
            "budget)\n";
  printLostCounters();
}

} // namespace cgt
