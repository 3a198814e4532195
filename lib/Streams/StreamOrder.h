//===- StreamOrder.h - ordering of work across CUDA streams -----*- C++ -*-===//
//
// A forward dataflow over clang::CFG that follows which streams are ordered
// after which enqueued work, from the API model's "streamOrder" roles
// (ApiModel.h OrderRole) and the `<<<>>>` launches of a function, and
// reports the bugs that only compute-sanitizer's race detection or a
// capture error find at run time:
//
//   * stream-order: memory from a stream-ordered allocation used on another
//     stream with no ordering edge (event record + wait, a host
//     synchronisation, the legacy stream's implicit one) since the
//     allocation; freed with cudaFreeAsync while work on another stream that
//     uses it is not ordered before the free;
//   * capture structure: a stream forked into a capture whose work is not
//     joined back before cudaStreamEndCapture (cudaErrorStreamCaptureUnjoined),
//     a wait inside a capture on an event recorded outside it
//     (cudaErrorStreamCaptureIsolation), work on the legacy default stream
//     while a stream captures (cudaErrorStreamCaptureImplicit, or outside
//     the graph), a graph from an unchecked cudaStreamEndCapture instantiated.
//
// Measured behaviour of each on an H200: docs/validation.md. The findings
// use the lifetime engine's record (LifetimeFinding) so the checks share
// its plumbing; this engine knows nothing about the lifetime dataflow and
// nothing about clang-tidy. The lattice and its join are drawn in
// StreamEngine.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_STREAMS_STREAMORDER_H
#define CUDAGRAPH_TIDY_STREAMS_STREAMORDER_H

#include "ApiModel/ApiModel.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "clang/AST/ASTContext.h"
#include <atomic>
#include <memory>
#include <vector>

namespace cgt {
namespace streams {

/// Process-wide counts of the witness searches for work ordered on some
/// paths only (PathGaps.cpp), for `cudagraph-tidy --stats`: a path found
/// (reported), none within the bounds of a search that explored them all
/// (silent: no path leaves the work unordered), the search cut by its
/// bounds (silent as well, but undecided).
struct StreamStats {
  std::atomic<unsigned> GapsConfirmed{0};
  std::atomic<unsigned> GapsNoPath{0};
  std::atomic<unsigned> GapsCut{0};
};
StreamStats &streamStats();

class StreamOrderAnalyzer {
public:
  /// `Calls`: the unit's index of written calls, shared with the lifetime
  /// engine on the same unit (AstWalk/WrittenCalls.h).
  StreamOrderAnalyzer(const ApiModel &Model, clang::ASTContext &Ctx,
                      std::shared_ptr<WrittenCallsIndex> Calls = nullptr);
  ~StreamOrderAnalyzer();

  /// Findings of kinds StreamUse*, StreamFree*, Capture{Unjoined,
  /// Isolation, ImplicitLegacy, StatusUnchecked} for one definition.
  /// `Pattern`: FD is a dependent template pattern to analyse as it is
  /// (one the translation unit never instantiates); other dependent
  /// definitions are skipped (their instantiations are analysed).
  std::vector<LifetimeFinding> analyze(const clang::FunctionDecl *FD, bool Pattern = false);

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace streams
} // namespace cgt

#endif
