//===- HandleLeakCheck.cpp ------------------------------------------------===//
//
// Words the engine's Leak and Overwrite findings of the kinds the API model
// gives to cudagraph-handle-leak (streams, events, pools, memory, ...).
//
//===----------------------------------------------------------------------===//
#include "HandleLeakCheck.h"

namespace clang::tidy::cudagraph {

void HandleLeakCheck::handleFinding(const cgt::LifetimeFinding &F,
                                    const cgt::ApiModel &Model) {
  // The model says which check owns the leaks of each kind.
  const cgt::ResourceKind *Kind = Model.kind(F.ResourceKind);
  if (!Kind || Kind->LeakCheck != "cudagraph-handle-leak")
    return;
  std::string Named = F.VarName.empty() ? "" : "'" + F.VarName + "' ";
  std::string Release = familyReleaseFunction(*Kind, F.AcquiredBy);
  switch (F.Kind) {
  case cgt::FindingKind::Leak:
    // Lost to a call that wrote another handle over it (a capture's end
    // into the variable of a created graph): the last note is that call.
    if (!F.CalledFunction.empty() && !F.Notes.empty() && astContext()) {
      unsigned Line =
          astContext()->getSourceManager().getExpansionLineNumber(F.Notes.back().Loc);
      emit(F, Kind->Noun + " " + Named + origin(F) + " is overwritten by " +
                  F.CalledFunction + " at line " + std::to_string(Line) +
                  " before it is destroyed; call " + Release + " first");
      break;
    }
    emit(F, Kind->Noun + " " + Named + origin(F) + " is not released on every path; call " +
                Release + leakAdvice(F, " or hand it to an owner"));
    break;
  case cgt::FindingKind::Overwrite:
    // A launch that allocates a graph's memory node again (the engine names
    // the launch): the previous launch's allocation is still live.
    if (!F.CalledFunction.empty()) {
      emit(F, "'" + F.CalledFunction + "' relaunches a graph that allocates " +
                  quotedVar(F, Kind) + " while the previous launch's " + Kind->Noun +
                  " is still allocated: the launch fails; free it with " + Release +
                  " before relaunching, or instantiate with "
                  "cudaGraphInstantiateFlagAutoFreeOnLaunch");
      break;
    }
    emit(F, "'" + F.AcquiredBy + "' overwrites " + quotedVar(F, Kind) +
                ", which still holds a live " + Kind->Noun +
                "; release it with " + Release + " first");
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
