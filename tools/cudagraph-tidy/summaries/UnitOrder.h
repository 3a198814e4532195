//===- UnitOrder.h - callees' units first in the first pass -----*- C++ -*-===//
//
// The first summary pass of a cold run parses every unit once. A unit that
// calls a wrapper defined in another unit is parsed again in the second
// pass when that wrapper's entry matters to it (ConsumedChanges.h), unless
// the wrapper's unit was parsed before it and its entries were given to
// it. A cold run has no cache to tell the call graph, so it is guessed
// from the main files' text, before any parse (UnitText.h): the functions
// each main file defines with external linkage, the names it, the project
// headers it includes and the macros it uses call, and so which units each
// unit calls into. Wrong guesses cost time, never findings: a unit's
// entries are those of the units it waited for, recorded as what it was
// parsed with, and the passes parse it again when an entry it consumes
// changed since in a way that matters, as before.
//
// The order: a unit starts when the units it calls into are done (cycles,
// ggml's `ggml_cuda_set_device` called back from the units ggml-cuda.cu
// calls, are broken at their lightest edge: the fewest names, a name the
// main file spells outweighing any its headers add), the units
// others wait on first, then the biggest main files (a big unit started
// last is the tail of the run).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_UNITORDER_H
#define CUDAGRAPH_TIDY_TOOLS_UNITORDER_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace cgt {

/// The units of one pass and the order to start them in.
struct UnitOrder {
  /// Start order: units others wait on first, then by main file size.
  std::vector<size_t> Order;
  /// Per unit: the units it waits for (whose entries it is given).
  std::vector<std::vector<size_t>> Waits;
  /// Per unit: the names its main file and its project headers call (what
/// its entries are for).
  std::vector<std::set<std::string>> Calls;
};

/// The order of `Files` (the passes' units; `Skip[i]`: not parsed).
UnitOrder orderUnits(const std::vector<std::string> &Files, const std::vector<bool> &Skip);

/// Runs `Run(i)` for each unit of `Order` on `Threads` threads, starting
/// each when the units it waits for (of those in `Order`) are done, the
/// first ready one in `Order` first. `Waits` empty: no waiting.
void runOrdered(const std::vector<size_t> &Order,
                const std::vector<std::vector<size_t>> &Waits, unsigned Threads,
                const std::function<void(size_t)> &Run);

} // namespace cgt

#endif
