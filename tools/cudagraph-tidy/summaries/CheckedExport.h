//===- CheckedExport.h - a unit's summaries from its checks' parse -*- C++ -*-===//
//
// A checking run's summary passes (CrossTu.h) parse each unit the run
// analyses with its checks, not for the export alone: the worker that runs
// the unit's checks (Isolation.h) also runs newExportConsumer (ExportUnit.h)
// on the same AST, and its result carries the unit's exports beside its
// findings. The findings are kept (ResultCache::keep): when the unit's
// task after the fixpoint is the one it was parsed with, they are its
// result and the unit is not parsed again.
//
// The export is the one exportUnit (or its worker, ExportWorker.h) would
// give: the same compile command (analysisCommands, the options'
// ExtraArgs, the adjusters in one order, __clang_analyzer__ defined), the
// same models (loadExportModels: the base of the unit's ApiModelFiles, the
// entries so far on top; the consumed summaries the checks get are not
// part of them) and the same consumer. The files it depends on are those
// the checks' parse read (a cached preamble's headers included).
//
// The lifetime counts the result carries (UnitCounters) stay the checks'
// own: the export asks the engine for summaries only, which the counts do
// not cover, and the worker keeps them as the checks left them all the
// same (KeepLifetimeStats).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_CHECKEDEXPORT_H
#define CUDAGRAPH_TIDY_TOOLS_CHECKEDEXPORT_H

#include "run/DriverRun.h"
#include "summaries/ExportUnit.h"

namespace cgt {

/// In the worker: analyzeUnit(Task) with the export of Task.Summaries
/// read from the same AST into the result's Summaries. When the models do
/// not load the checks run alone (they report the bad model file).
UnitResult analyzeWithSummaries(const UnitTask &Task);

/// In the parent: the exports a worker's result carries, read back into a
/// copy of `Base` (the unit's base model). A worker that sent none (it
/// crashed, hung or ran out of memory) gives an unparsed unit saying why,
/// as a failed summary worker does.
UnitExport summariesOf(const UnitResult &Result, const ApiModel &Base);

} // namespace cgt

#endif
