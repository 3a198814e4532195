//===- StreamOrderCheck.cpp -----------------------------------------------===//
//
// Words the engine's StreamUseUnordered and StreamFreeUnordered findings:
// Detail is "<stream of the work>|<the other stream>", as the engine names
// them ("stream 'b'", "the legacy default stream").
//
//===----------------------------------------------------------------------===//
#include "StreamOrderCheck.h"

namespace clang::tidy::cudagraph {

void StreamOrderCheck::handleFinding(const cgt::LifetimeFinding &F, const cgt::ApiModel &) {
  auto [Here, Other] = StringRef(F.Detail).split('|');
  if (F.Kind == cgt::FindingKind::StreamUseUnordered)
    emit(F, "'" + F.VarName + "' is used on " + Here.str() + " by '" + F.CalledFunction +
                "' before its allocation on " + Other.str() +
                " is ordered before that work; make " + Here.str() +
                " wait for an event recorded on " + Other.str() +
                " after the allocation (cudaEventRecord + cudaStreamWaitEvent), or allocate "
                "on the stream that uses it");
  else if (F.Kind == cgt::FindingKind::StreamFreeUnordered)
    emit(F, "'" + F.VarName + "' is freed on " + Here.str() + " by '" + F.CalledFunction +
                "' while work on " + Other.str() +
                " that uses it may still run; make " + Here.str() +
                " wait for an event recorded on " + Other.str() +
                " after that work before freeing it");
}

} // namespace clang::tidy::cudagraph
