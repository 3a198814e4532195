//===- ExportWorker.h - one unit's summaries in a worker process -*- C++ -*-===//
//
// The summary passes of a checking run (CrossTu.h) parse every unit of the
// database, so they get what the checks get (Isolation.h): each unit's
// export runs in a worker process, `cudagraph-tidy __export-unit JOB
// RESULT`, under --tu-timeout and --tu-memory. A worker that crashes, hangs
// or runs out of memory costs that unit its summaries, never the run; the
// unit's own check, in its own worker, reports what happened to it.
//
// The job names the unit (file, commands, ExtraArgs, ApiModelFiles), the
// source root and a model file holding the entries exported so far; the
// result is the unit's exports as unitExportToJson writes them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_EXPORTWORKER_H
#define CUDAGRAPH_TIDY_TOOLS_EXPORTWORKER_H

#include "run/DriverRun.h"
#include "summaries/ExportUnit.h"
#include <memory>

namespace cgt {

/// exportUnit in a worker, the entries so far read from `OverlayPath`
/// ("" for none). A failed worker gives an unparsed unit saying why.
UnitExport exportIsolated(const UnitJob &Job, const std::string &OverlayPath,
                          const ApiModel &Base, const FileNamer &Names,
                          const UnitLimits &Limits);

/// The models of a unit's export: `Base` the built-in model and the
/// unit's ApiModelFiles (`ModelFiles`, ';'-separated), `Model` the base
/// and the entries so far (`EntriesPath`, "" for none). False with `Error`
/// when a file does not load.
struct ExportModels {
  std::unique_ptr<ApiModel> Base, Model;
};
bool loadExportModels(const std::string &ModelFiles, const std::string &EntriesPath,
                      ExportModels &Out, std::string &Error);

/// `cudagraph-tidy __export-unit JOB RESULT`.
int exportUnitWorkerMain(int Argc, const char **Argv);

} // namespace cgt

#endif
