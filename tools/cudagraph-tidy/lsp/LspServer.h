//===- LspServer.h - `cudagraph-tidy lsp`, a language server ----*- C++ -*-===//
//
// A Language Server Protocol server over stdio that runs beside clangd:
// when an editor opens or saves a .cu, .cuh or C++ file it analyses the file
// as the driver does (the compile database found above it, or -p; the
// preamble cache, so a save after the first analysis is a warm run; one
// worker process per analysis, so a crash costs one result) and publishes
// the findings as diagnostics, the notes as relatedInformation and the
// fix-its as quickfix code actions.
//
//   cudagraph-tidy lsp [-p DIR] [--checks=GLOBS] [--config-file=FILE]
//                      [--preamble-cache=auto|on|off] [--cache-dir=DIR]
//                      [--cache-max-mb=MIB] [-- FALLBACK FLAGS]
//
// --cache-dir is the driver's: the folder of the preambles and of the nvcc
// compatibility header (the server keeps no result or summary cache).
// --cache-max-mb bounds the preambles as the driver's option does
// (least recently used first; default $CUDAGRAPH_TIDY_CACHE_MB, else 2048).
//
// Edits that are not saved are analysed too (didChange, full or
// incremental, after a pause in typing: LspServer.cpp), from the editor's
// text over the files on disk.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_LSPSERVER_H
#define CUDAGRAPH_TIDY_TOOLS_LSPSERVER_H

namespace cgt {

/// `cudagraph-tidy lsp ...`; argv[1] is "lsp". Exit 0 after shutdown and
/// exit, 1 when the client left without shutdown, 2 for bad arguments.
int lspMain(int Argc, const char **Argv);

} // namespace cgt

#endif
