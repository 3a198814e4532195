//===- Budgets.cpp - saying what the engines gave up ----------------------===//
//
// The lifetime engine bounds its work per function (a revisit budget per
// block, a bound on the states of one resource) so that no input hangs it
// or makes its memory climb; past a bound it stops following some paths or
// widens a resource, which can only lose findings, never add false ones.
// A run that lost findings that way must not look complete: the driver
// says so on stderr and as a warning notification in SARIF. The counts are
// process-wide (lib/Lifetime's LifetimeStats), which is one driver run.
// The shared-memory interpreter has a step budget per kernel; a kernel over
// it gets no verdict at all, so each one is named, with its file.
//
//===----------------------------------------------------------------------===//
#include "run/DriverRun.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "SharedMem/SharedMemAnalysis.h"

namespace cgt {

void noteEngineBudgets(RunResult &Result) {
  const LifetimeStats &S = lifetimeStats();
  unsigned Budget = S.BudgetFunctions, Widened = S.WidenedFunctions;
  auto Functions = [](unsigned N) {
    return std::to_string(N) + (N == 1 ? " function" : " functions");
  };
  if (Budget)
    Result.Incomplete.push_back(
        "the lifetime analysis of " + Functions(Budget) +
        " stopped following some loop paths at its revisit budget; findings "
        "on those paths may be missing (--stats prints the counts)");
  if (Widened)
    Result.Incomplete.push_back(
        "the lifetime analysis of " + Functions(Widened) +
        " gave up on resources with too many distinct states at one point; "
        "findings about them may be missing (--stats prints the counts)");
  uint64_t Steps = smem::AnalysisOptions().StepBudget;
  for (const UnitStatus &U : Result.Units)
    for (const std::string &Kernel : U.SharedGaveUpKernels)
      Result.Incomplete.push_back(
          "the shared-memory analysis of kernel '" + Kernel + "' in " + U.File +
          " stopped at its step budget (" + std::to_string(Steps) +
          " interpreter steps over all threads and block shapes); its __shared__ "
          "findings are missing");
}

} // namespace cgt
