//===- ConsumedChanges.h - which summary changes a unit can see -*- C++ -*-===//
//
// The cross-file summary passes (ExportModel.cpp) parse a unit again only
// when an entry it consumes changed in a way that can change its findings
// or its own exports; a checking run then keeps each unit's result from its
// last parse, with the entries it was parsed with (CrossTu.h).
//
// The model: at a call of a function with no definition in the unit, the
// lifetime engine applies the function's entry, else treats the call as
// unknown (every argument escapes). An entry acts on the call's arguments
// one by one (uses and releases name an argument) or on the call as a
// whole (acquisitions, status, capture and ordering roles, legality during
// capture, which arguments escape). A per-argument effect can change
// nothing when that argument cannot name anything the engine tracks: a
// constant, or the plain result of a system function that acquires nothing
// (ExportUnit.cpp's isInertArgument). So a change matters to a unit when
//
//   * it touches the call as a whole (anything but uses and releases), or
//     the function is reached otherwise than by plain calls (CalleeUse::
//     Opaque: named as a value, a method, an operator, a macro argument
//     evaluated twice), and the unit calls the function at all;
//   * the values it returns changed ("returnValues"; the kernel checks fold
//     block sizes from them, lib/SharedMem/CallResults.h), and the unit
//     calls the function at all: `getWarpSizeCurrentDevice()` has no
//     argument, yet its entry's appearing gives a launch its shape;
//   * the entry appeared or went away and some call passes a non-constant
//     argument (every argument is then handled otherwise);
//   * the uses or releases of some argument changed and some call passes
//     a non-constant argument there.
//
// `ggml_cuda_error(#err, __func__, __FILE__, __LINE__, cudaGetErrorString(e))`,
// which every ggml unit calls through CUDA_CHECK, has an entry that uses its
// five arguments: no unit is parsed again for it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_CONSUMEDCHANGES_H
#define CUDAGRAPH_TIDY_TOOLS_CONSUMEDCHANGES_H

#include "caches/ExportCache.h"
#include "summaries/ExportUnit.h"
#include <map>
#include <string>
#include <vector>

namespace cgt {

/// Why replacing the entry `Before` (null: none) by `After` (null: none)
/// of a function the unit calls as `Use` says can change what the unit's
/// parse finds or exports; "" when it cannot.
std::string whyEntryChangeMatters(const FunctionModel *Before, const FunctionModel *After,
                                  const CalleeUse &Use);

/// Whether replacing the entry `Before` (null: none) by `After` (null:
/// none) of a function the unit calls as `Use` says can change what the
/// unit's parse finds or exports.
bool entryChangeMatters(const FunctionModel *Before, const FunctionModel *After,
                        const CalleeUse &Use);

/// Whether, between the entries `Before` and `After`, an entry of a
/// function `Unit` calls or names changed in a way that matters to it.
bool consumedChangeMatters(const UnitExport &Unit,
                           const std::map<EntryKey, FunctionModel> &Before,
                           const std::map<EntryKey, FunctionModel> &After);

/// The changes of consumedChangeMatters, one line each ("'f' (2
/// parameters) appeared"), for --stats; with `FirstOnly` the first alone.
std::vector<std::string>
consumedChanges(const UnitExport &Unit, const std::map<EntryKey, FunctionModel> &Before,
                const std::map<EntryKey, FunctionModel> &After, bool FirstOnly = false);

} // namespace cgt

#endif
