//===- ClosingLines.h - what a run says on stderr when it ends -*- C++ -*-===//
//
// The closing line (findings, units, wall time) and, with --stats, what the
// run counted: the preamble cache, the lifetime engine's bounds and witness
// searches, the shared-memory checks per unit. Always stderr: stdout may be
// the report.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_CLOSINGLINES_H
#define CUDAGRAPH_TIDY_TOOLS_CLOSINGLINES_H

#include "run/DriverRun.h"

#include <string>

namespace cgt {

/// "N findings in M translation units (S s)." and the passes' summary;
/// with a baseline, "N new findings (K already in the baseline)".
void printSummary(const RunResult &Result, double Seconds, const std::string &Passes,
                  bool WithBaseline);

/// --stats: the preamble cache's counts, the lifetime engine's bounds and
/// the witness searches, and how many units' engine counts are missing
/// from them (workers that ended without a result: Isolation.h).
void printStats(const PreambleCacheStats &Preamble);

/// --stats, per translation unit: kernels with __shared__ accesses the
/// shared-memory checks analysed and those that got no verdict.
void printSharedMemStats(const RunResult &Result);

} // namespace cgt

#endif
