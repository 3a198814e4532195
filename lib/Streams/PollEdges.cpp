//===- PollEdges.cpp - a branch that knows a poll succeeded waited --------===//
//
// Proxies and progress loops do not block: they poll.
//
//   while ((q = cudaEventQuery(e)) == cudaErrorNotReady) sched_yield();
//   if (q != cudaSuccess) return fail();
//   use(buf);                       // e completed: what it holds is done
//
// A poll (model role pollStream / pollEvent) does nothing where it is
// called; the branch that tests its status does. Along the edge where the
// status is known to be 0, or known not to be the model's `pending` status,
// the host has waited for the stream or the event, exactly as
// cudaStreamSynchronize / cudaEventSynchronize. Any other edge, and a test
// the engine cannot read (`a && q == 0`, a status passed through a call),
// says nothing. Ruling out only `pending` counts as done although an error
// is possible: an error from a poll is sticky, and the code after it does
// not run its work.
//
// The status is read in the condition itself (`cudaStreamQuery(s) == 0`,
// `(q = cudaEventQuery(e)) != cudaErrorNotReady`) or through a local the
// state records as holding it (OrderState::PollHeld, kept by the join only
// where every path agrees).
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {

const VarDecl *localOf(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return VD && VD->isLocalVarDecl() ? VD : nullptr;
}

bool isPoll(const FunctionModel *M) {
  return M && (M->Order.Role == OrderRole::PollStream || M->Order.Role == OrderRole::PollEvent);
}

} // namespace

const CallExpr *FunctionRun::pollCallOf(const Expr *E, const OrderState &St) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign)
    E = BO->getRHS()->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return isPoll(A.modelFor(Call)) ? Call : nullptr;
  if (const VarDecl *VD = localOf(E))
    if (auto It = St.PollHeld.find(VD); It != St.PollHeld.end())
      return It->second;
  return nullptr;
}

void FunctionRun::notePollStatus(OrderState &St, const VarDecl *To, const Expr *Value) {
  const auto *Call = Value ? dyn_cast<CallExpr>(Value->IgnoreParenImpCasts()) : nullptr;
  if (Call && isPoll(A.modelFor(Call)))
    St.PollHeld[To] = Call;
  else
    St.PollHeld.erase(To);
}

void FunctionRun::notePollAssignment(OrderState &St, const BinaryOperator *BO) {
  if (const VarDecl *VD = localOf(BO->getLHS()))
    notePollStatus(St, VD, BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
}

std::optional<FunctionRun::PollTest> FunctionRun::pollTestOf(const Expr *Cond,
                                                             const OrderState &St) const {
  bool Negated = false;
  const Expr *E = Cond->IgnoreParenImpCasts();
  while (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot)
      return std::nullopt;
    Negated = !Negated;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  // `poll(...)` alone tests `status != 0`.
  const Expr *Status = E;
  long long Against = 0;
  bool Equal = false;
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isEqualityOp()) {
    Equal = BO->getOpcode() == BO_EQ;
    auto L = constantOf(BO->getLHS(), Ctx), R = constantOf(BO->getRHS(), Ctx);
    if (R && !L) {
      Status = BO->getLHS();
      Against = *R;
    } else if (L && !R) {
      Status = BO->getRHS();
      Against = *L;
    } else {
      return std::nullopt;
    }
  }
  const CallExpr *Poll = pollCallOf(Status, St);
  if (!Poll)
    return std::nullopt;
  bool DoneOnTrue;
  if (Against == 0)
    DoneOnTrue = Equal;
  else if (Against == A.modelFor(Poll)->Order.PendingStatus)
    DoneOnTrue = !Equal;
  else
    return std::nullopt;
  return PollTest{Poll, DoneOnTrue != Negated};
}

std::optional<OrderState> FunctionRun::alongEdge(const clang::CFGBlock *From, unsigned SuccIndex,
                                                 const OrderState &St) {
  if (SuccIndex > 1 || From->succ_size() != 2)
    return std::nullopt;
  const Expr *Cond = dyn_cast_or_null<Expr>(From->getTerminatorCondition());
  if (!Cond)
    return std::nullopt;
  auto Test = pollTestOf(Cond, St);
  if (!Test || Test->DoneOnTrue != (SuccIndex == 0))
    return std::nullopt;
  const OrderEffect &O = A.modelFor(Test->Poll)->Order;
  int ArgIndex = O.Role == OrderRole::PollStream ? O.StreamArg : O.EventArg;
  if (ArgIndex < 0 || ArgIndex >= static_cast<int>(Test->Poll->getNumArgs()))
    return std::nullopt;
  const Expr *Arg = Test->Poll->getArg(ArgIndex);
  OrderState Out = St;
  if (O.Role == OrderRole::PollStream)
    syncStream(Out, streamOf(Arg));
  else
    syncEvent(Out, eventOf(Arg));
  return Out;
}

} // namespace streams
} // namespace cgt
