//===- RaceAnalysis.h - races and divergence from one kernel run -*- C++ -*-===//
//
// Internal to lib/SharedMem. Turns the accesses and the SyncLog of one
// interpreted (kernel, block shape) into cudagraph-shared-race and
// cudagraph-barrier-divergence findings; the model is SyncModel.h's.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_RACEANALYSIS_H
#define CUDAGRAPH_TIDY_SHAREDMEM_RACEANALYSIS_H

#include "SharedMem/Interpreter/Interpreter.h"
#include "SharedMem/SharedMemAnalysis.h"
#include "SharedMem/SyncModel.h"

namespace cgt::smem {

/// The first trace position at which two threads whose phases are known
/// meet different events; phases up to it mean the same interval in every
/// thread. UINT32_MAX when the traces agree (or are prefixes of each other).
uint32_t alignedPrefix(const SyncLog &Log);

/// Races among the accesses of one run. `Skips` gets the reasons some
/// accesses were not judged.
std::vector<RaceFinding> findRaces(const std::vector<AccessRecord> &Recs, const SyncLog &Log,
                                   const LaunchConfig &Cfg, bool SameValueStores,
                                   std::set<std::string> &Skips);

/// Barrier divergence in one run: a barrier that some live threads meet and
/// others skip at a test that splits them, barriers at different sites at
/// one trace position, __syncwarp masks without the caller.
/// With `Aligned`, a skipping thread that only exits afterwards counts too.
std::vector<DivergenceFinding> findDivergence(const SyncLog &Log, const LaunchConfig &Cfg,
                                              bool Aligned);

/// Text of a skip reason for the report.
const char *skipText(SkipReason R);

} // namespace cgt::smem

#endif
