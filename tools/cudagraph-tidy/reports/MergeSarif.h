//===- MergeSarif.h - the `cudagraph-tidy merge-sarif` subcommand -*- C++ -*-===//
#ifndef CUDAGRAPH_TIDY_TOOLS_MERGESARIF_H
#define CUDAGRAPH_TIDY_TOOLS_MERGESARIF_H

namespace cgt {

/// `cudagraph-tidy merge-sarif LOG... [-o OUT]`: argv[1] is "merge-sarif".
/// Exit 0 when merged, 2 when a log is unreadable or the logs cannot be one
/// run (see lib/Sarif/SarifMerge.h).
int mergeSarifMain(int Argc, const char **Argv);

} // namespace cgt

#endif
