//===- HelperEffects.cpp - what a same-file helper enqueues, in order -----===//
//
// A helper defined in the translation unit (`launch_fwd(p, stream)`) is
// summarised as the steps it takes on its parameters, in source order,
// ignoring its branches: launches and async copies (which stream parameter,
// which pointer parameters), stream-ordered allocations into a pointer
// parameter or into the local it returns, frees of a pointer parameter, synchronisations of a stream parameter or the device.
// At a call the steps run on the caller's arguments (StreamOrder.cpp).
//
// Steps on places that are not parameters are dropped when they only
// enqueue (work enqueued on a stream the caller cannot name orders nothing
// of the caller's). A helper that records or waits for events, synchronises
// a stream it does not get, or hands a stream to code this translation unit
// does not define is *opaque*: at its call every token is taken as done, as
// at any unknown call given a stream (no report rests on what it might have
// done). A helper that begins or ends a capture (a graph owner's
// `begin(s)`, on the member it keeps `s` in) orders nothing by that: at its
// call a capture open on a stream it gets is forgotten, and the tokens stay.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"


#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {
constexpr int NotAParam = -2;

/// Does some `return` of FD give back the local VD (`void *p; ...; return p;`)?
bool returnsLocal(const FunctionDecl *FD, const VarDecl *VD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *VD;
    bool Found = false;
    bool VisitReturnStmt(ReturnStmt *R) {
      if (const Expr *V = R->getRetValue())
        if (const auto *DR = dyn_cast<DeclRefExpr>(V->IgnoreParenCasts()))
          Found |= DR->getDecl() == VD;
      return !Found;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } F;
  F.VD = VD;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

/// The calls of FD that run whenever FD does: those in its body's leading
/// statements that neither branch, loop, return nor throw, outside the arms
/// of `?:`, `&&` and `||` and outside lambdas.
llvm::DenseSet<const Stmt *> straightLineCalls(const FunctionDecl *FD) {
  struct Collect : RecursiveASTVisitor<Collect> {
    llvm::DenseSet<const Stmt *> Calls;
    bool VisitCallExpr(CallExpr *C) {
      Calls.insert(C);
      return true;
    }
    bool TraverseConditionalOperator(ConditionalOperator *CO) {
      return TraverseStmt(CO->getCond());
    }
    bool TraverseBinaryConditionalOperator(BinaryConditionalOperator *) { return true; }
    bool TraverseBinaryOperator(BinaryOperator *BO) {
      if (BO->isLogicalOp())
        return TraverseStmt(BO->getLHS());
      return RecursiveASTVisitor::TraverseBinaryOperator(BO);
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } C;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return {};
  for (const Stmt *S : Body->body()) {
    if (!isa<Expr>(S) && !isa<DeclStmt>(S))
      break;
    C.TraverseStmt(const_cast<Stmt *>(S));
  }
  return std::move(C.Calls);
}

/// `&local` handed to an allocation, the local returned by the helper.
bool allocatesReturnValue(const FunctionDecl *FD, const Expr *Out) {
  const auto *UO = Out ? dyn_cast<UnaryOperator>(Out->IgnoreParenCasts()) : nullptr;
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return false;
  const auto *DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return VD && VD->isLocalVarDecl() && returnsLocal(FD, VD);
}

int paramIndexOf(const FunctionDecl *FD, const Expr *E) {
  E = stripDefault(E);
  if (!E)
    return NotAParam;
  E = E->IgnoreParenCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
      for (unsigned I = 0; I < FD->getNumParams(); ++I)
        if (FD->getParamDecl(I) == P)
          return static_cast<int>(I);
  return NotAParam;
}

/// The stream parameter an argument names: -1 the default stream.
int streamParamOf(const FunctionDecl *FD, const Expr *E, ASTContext &Ctx) {
  if (!E || isDefaultStreamLiteral(E, Ctx))
    return -1;
  return paramIndexOf(FD, E);
}

/// The pointer parameter an argument names, through `p + n` and `&p[i]`.
int memoryParamOf(const FunctionDecl *FD, const Expr *E) {
  return paramIndexOf(FD, memoryBase(E));
}

bool isStreamOrEventType(QualType T, const ApiModel &Model) {
  const auto *TT = T->getAs<TypedefType>();
  if (!TT)
    return false;
  const ResourceKind *K = Model.kindOfType(TT->getDecl()->getName());
  return K && (K->Name == "stream" || K->Name == "event");
}

} // namespace

const HelperSummary *StreamOrderAnalyzer::Impl::helperOf(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->isDependentContext() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      Def->hasAttr<CUDAGlobalAttr>() ||
      (Def->hasAttr<CUDADeviceAttr>() && !Def->hasAttr<CUDAHostAttr>()))
    return nullptr;
  if (auto It = Helpers.find(Def); It != Helpers.end())
    return It->second.get();
  auto S = std::make_unique<HelperSummary>();
  if (InProgress.size() >= 4 || !InProgress.insert(Def).second) {
    S->Opaque = true; // recursion, or nested too deep to follow
    return (Helpers[Def] = std::move(S)).get();
  }
  llvm::DenseSet<const Stmt *> Always = straightLineCalls(Def);
  const CallExpr *Inner = nullptr;
  auto Step = [&](OrderRole R, int Stream, std::vector<int> Mem, const Stmt *Site,
                  bool NestedAlways = true) {
    S->Steps.push_back({R, Stream, std::move(Mem), Site, NestedAlways && Always.count(Inner)});
  };
  // In source order, outside lambdas: a lambda's calls run when it is
  // called, not where it is written.
  for (const WrittenCall &W : Calls->of(Def->getBody()).Calls) {
    if (W.InLambda)
      continue;
    Inner = W.Call;
    if (S->Opaque)
      break;
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Inner)) {
      const CallExpr *Config = Launch->getConfig();
      int Stream = Config && Config->getNumArgs() > 3
                       ? streamParamOf(Def, Config->getArg(3), Ctx)
                       : -1;
      std::vector<int> Mem;
      for (const Expr *Arg : Launch->arguments())
        if (int P = memoryParamOf(Def, Arg); P >= 0)
          Mem.push_back(P);
      if (Stream != NotAParam && !Mem.empty())
        Step(OrderRole::Enqueue, Stream, Mem, Launch);
      continue;
    }
    if (const FunctionModel *M = modelFor(Inner)) {
      const OrderEffect &O = M->Order;
      auto Arg = [&](int I) -> const Expr * {
        return I >= 0 && I < static_cast<int>(Inner->getNumArgs()) ? Inner->getArg(I) : nullptr;
      };
      int Stream = O.StreamArg < 0 ? -1 : streamParamOf(Def, Arg(O.StreamArg), Ctx);
      if (M->Capture != CaptureRole::None)
        S->Captures = true;
      switch (O.Role) {
      case OrderRole::Enqueue:
      case OrderRole::Free: {
        std::vector<int> Mem;
        for (int I : O.MemoryArgs)
          if (int P = memoryParamOf(Def, Arg(I)); P >= 0)
            Mem.push_back(P);
        if (Stream != NotAParam && (!Mem.empty() || O.Synchronous))
          Step(O.Role, Stream, Mem, Inner);
        if (O.Synchronous)
          Step(OrderRole::SyncStream, Stream, {}, Inner);
        break;
      }
      case OrderRole::Alloc: {
        // `cudaMallocAsync(out, n, s)` with `void **out` a parameter, or
        // `cudaMallocAsync(&p, n, s); ... return p;`.
        const Expr *Out = O.MemoryArgs.empty() ? nullptr : Arg(O.MemoryArgs[0]);
        int P = paramIndexOf(Def, Out);
        if (P < 0 && allocatesReturnValue(Def, Out))
          P = HelperStep::ReturnValue;
        if (P != NotAParam && Stream != NotAParam)
          Step(OrderRole::Alloc, Stream, {P}, Inner);
        break;
      }
      case OrderRole::SyncStream:
        if (Stream == NotAParam)
          S->Opaque = true;
        else
          Step(OrderRole::SyncStream, Stream, {}, Inner);
        break;
      case OrderRole::SyncDevice:
        Step(OrderRole::SyncDevice, -1, {}, Inner);
        break;
      case OrderRole::Record:
      case OrderRole::Wait:
      case OrderRole::SyncEvent:
        S->Opaque = true;
        break;
      case OrderRole::None:
      case OrderRole::CreateStream:
        break;
      }
      continue;
    }
    if (const HelperSummary *H = helperOf(Inner)) {
      if (H->Opaque) {
        S->Opaque = true;
        break;
      }
      S->Captures |= H->Captures;
      // Its parameters are our arguments: keep the steps on our parameters.
      for (const HelperStep &Nested : H->Steps) {
        auto Map = [&](int I) {
          return I < 0 ? -1 : I < static_cast<int>(Inner->getNumArgs())
                                   ? paramIndexOf(Def, Inner->getArg(I))
                                   : NotAParam;
        };
        int Stream = Map(Nested.StreamParam);
        std::vector<int> Mem;
        for (int I : Nested.MemoryParams)
          if (int P = Map(I); P >= 0)
            Mem.push_back(P);
        if (Stream == NotAParam && Nested.Role != OrderRole::Enqueue)
          S->Opaque = true;
        else if (Stream != NotAParam && (!Mem.empty() || Nested.Role == OrderRole::SyncStream ||
                                         Nested.Role == OrderRole::SyncDevice))
          Step(Nested.Role, Stream, Mem, Nested.Site, Nested.Unconditional);
      }
      continue;
    }
    for (const Expr *Arg : Inner->arguments())
      if (isStreamOrEventType(Arg->getType(), Model))
        S->Opaque = true;
  }
  InProgress.erase(Def);
  return (Helpers[Def] = std::move(S)).get();
}

} // namespace streams
} // namespace cgt
