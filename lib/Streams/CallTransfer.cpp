//===- CallTransfer.cpp - what a call or launch does to the stream order --===//
//
// A `<<<>>>` launch enqueues its pointer arguments on its stream. A call
// goes to the model's "streamOrder" and "capture" roles (and its
// instantiations and cudaGetLastError for unchecked end-captures), to a
// same-file helper's steps (HelperEffects.cpp), or, for any other call
// given a stream or event, to "everything may be ordered now": it may
// synchronise, and it may end a capture on the stream it gets.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

namespace cgt {
namespace streams {

using namespace clang;

std::vector<unsigned> FunctionRun::memoryArgs(const CallExpr *Call, const std::vector<int> &Idx) {
  std::vector<unsigned> Mem;
  for (int I : Idx)
    if (I < static_cast<int>(Call->getNumArgs()))
      if (unsigned P = pointerOf(Call->getArg(I)); P != Unknown)
        Mem.push_back(P);
  return Mem;
}

void FunctionRun::applyLaunch(OrderState &St, const CUDAKernelCallExpr *Launch) {
  const CallExpr *Config = Launch->getConfig();
  unsigned S = Config && Config->getNumArgs() > 3 ? streamOf(Config->getArg(3)) : defaultStream();
  std::vector<unsigned> Mem;
  for (const Expr *Arg : Launch->arguments())
    if (unsigned P = pointerOf(Arg); P != Unknown)
      Mem.push_back(P);
  enqueue(St, Launch, S, Mem, calleeName(Launch), false);
}

void FunctionRun::applyCall(OrderState &St, const CallExpr *Call) {
  // A launch's configuration call gets the stream but is the launch itself.
  if (const auto *Launch = dyn_cast_or_null<CUDAKernelCallExpr>(PM.getParent(Call));
      Launch && Launch->getConfig() == Call)
    return;
  if (const FunctionModel *M = A.modelFor(Call))
    return applyModel(St, Call, *M);
  if (const HelperSummary *H = A.helperOf(Call))
    return applyHelper(St, Call, *H);
  applyUnknownCall(St, Call);
}

void FunctionRun::applyModel(OrderState &St, const CallExpr *Call, const FunctionModel &M) {
  auto Arg = [&](int I) -> const Expr * {
    return I >= 0 && I < static_cast<int>(Call->getNumArgs()) ? Call->getArg(I) : nullptr;
  };
  if (M.ReturnsLastStatus)
    St.Unchecked.clear(); // cudaGetLastError reads every dropped status
  for (const UseEffect &U : M.Uses)
    if (U.Instantiates && Arg(U.Arg))
      instantiate(St, Call, pointerOf(Arg(U.Arg)));
  if (M.Capture == CaptureRole::Begin && Arg(M.StreamArg))
    beginCapture(St, Call, streamOf(Arg(M.StreamArg)));
  else if (M.Capture == CaptureRole::End)
    endCapture(St, Call, M);
  const OrderEffect &O = M.Order;
  unsigned S = O.StreamArg < 0 ? defaultStream() : streamOf(Arg(O.StreamArg));
  std::string What = calleeName(Call);
  switch (O.Role) {
  case OrderRole::Enqueue:
    // A call the capture forbids is capture-unsafe-call's report already.
    enqueue(St, Call, S, memoryArgs(Call, O.MemoryArgs), What, O.Synchronous,
            M.LegalDuringCapture);
    break;
  case OrderRole::Alloc:
    if (!O.MemoryArgs.empty())
      allocate(St, Call, pointerOutOf(Arg(O.MemoryArgs[0])), S);
    break;
  case OrderRole::Free:
    if (!O.MemoryArgs.empty())
      freeAsync(St, Call, pointerOf(Arg(O.MemoryArgs[0])), S, What);
    break;
  case OrderRole::Record:
    record(St, Call, eventOf(Arg(O.EventArg)), S);
    break;
  case OrderRole::Wait:
    wait(St, Call, S, eventOf(Arg(O.EventArg)), O);
    break;
  case OrderRole::SyncStream:
    syncStream(St, S);
    break;
  case OrderRole::SyncEvent:
    syncEvent(St, eventOf(Arg(O.EventArg)));
    break;
  case OrderRole::SyncDevice:
    syncAll(St);
    break;
  case OrderRole::None:
  case OrderRole::CreateStream:
    break;
  }
}

void FunctionRun::applyHelper(OrderState &St, const CallExpr *Call, const HelperSummary &H) {
  if (H.Opaque)
    return applyUnknownCall(St, Call);
  if (H.Captures)
    forgetCapturesOn(St, Call);
  auto Arg = [&](int I) -> const Expr * {
    return I >= 0 && I < static_cast<int>(Call->getNumArgs()) ? Call->getArg(I) : nullptr;
  };
  std::string What = calleeName(Call);
  // The steps ignore the helper's branches: one taken only outside a
  // capture (`if (!capturing) cudaMemcpy(...)`) says nothing of the legacy
  // stream during the caller's capture. A step every call runs does
  // (`launch(p, n)` whose `cudaStream_t stream = 0` defaults to it).
  bool WasQuiet = QuietCapture;
  for (const HelperStep &Step : H.Steps) {
    QuietCapture = WasQuiet || !Step.Unconditional;
    unsigned S = Step.StreamParam < 0 ? defaultStream() : streamOf(Arg(Step.StreamParam));
    std::vector<unsigned> Mem;
    for (int I : Step.MemoryParams)
      if (const Expr *E = Arg(I))
        if (unsigned P = Step.Role == OrderRole::Alloc ? pointerOutOf(E) : pointerOf(E);
            P != Unknown)
          Mem.push_back(P);
    switch (Step.Role) {
    case OrderRole::Enqueue:
      enqueue(St, Call, S, Mem, What, false);
      break;
    case OrderRole::Alloc:
      if (Step.MemoryParams == std::vector<int>{HelperStep::ReturnValue})
        allocate(St, Call, Unknown, S, /*Returned=*/true);
      else if (!Mem.empty())
        allocate(St, Call, Mem[0], S);
      break;
    case OrderRole::Free:
      if (!Mem.empty())
        freeAsync(St, Call, Mem[0], S, What);
      break;
    case OrderRole::SyncStream:
      syncStream(St, S);
      break;
    case OrderRole::SyncDevice:
      syncAll(St);
      break;
    default:
      break;
    }
  }
  QuietCapture = WasQuiet;
}

namespace {
/// A member of a standard library class (`pool.push_back(e)`,
/// `streams[i]`, `events.erase(it)`): it stores, finds or drops the handle
/// and runs no CUDA call, so it neither synchronises nor ends a capture.
bool isStandardLibraryMember(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return Method && Method->getParent()->isInStdNamespace();
}
} // namespace

bool FunctionRun::forgetCapturesOn(OrderState &St, const CallExpr *Call) {
  bool GetsStream = false;
  for (const Expr *Arg : Call->arguments()) {
    const auto *TT = Arg->IgnoreParenImpCasts()->getType()->getAs<TypedefType>();
    const ResourceKind *K = TT ? A.Model.kindOfType(TT->getDecl()->getName()) : nullptr;
    if (!K || (K->Name != "stream" && K->Name != "event"))
      continue;
    GetsStream = true;
    if (K->Name == "stream")
      St.Captures.erase(streamOf(Arg));
  }
  return GetsStream;
}

void FunctionRun::applyUnknownCall(OrderState &St, const CallExpr *Call) {
  if (isStandardLibraryMember(Call))
    return;
  // It may end a capture on a stream it is given, and synchronise.
  if (forgetCapturesOn(St, Call))
    syncAll(St);
}

} // namespace streams
} // namespace cgt
