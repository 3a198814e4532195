//===- CaptureGuards.cpp - code that asks whether its stream captures -----===//
//
// Capture guards: `cudaStreamIsCapturing(s, &st)` and
// `cudaStreamGetCaptureInfo` (the API model's `captureStatusOut`) make `st`
// non-None on the disjuncts that hold the capture on `s` open, and a helper
// of the file that returns such a test (`is_capturing(s)`) is a value on
// those disjuncts (ValueFacts.cpp resolves it). The branch that synchronises
// when the stream does not capture is then not taken inside a capture.
// Flags copied from the capture's condition need nothing here: they are
// ordinary value facts.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

bool Analysis::captureOpenOn(const Expr *Stream, const PathState &P) {
  Key K = capturePlace(Stream);
  auto It = K ? P.Bind.find(K) : P.Bind.end();
  if (It == P.Bind.end())
    return false;
  return llvm::any_of(It->second, [&](unsigned R) {
    auto RS = P.Res.find(R);
    return RS != P.Res.end() && RS->second.Bits == Live;
  });
}

/// `cudaStreamIsCapturing(s, &st)`: where this path holds the capture on `s`
/// open, `st` is not cudaStreamCaptureStatusNone, so the branch that
/// synchronises when it is None is not taken (ValueFacts.cpp).
void Analysis::noteCaptureStatus(const CallExpr *Call, PathState &P) {
  const FunctionModel *M = A.modelFor(Call);
  if (!M || M->CaptureStatusOutArg < 0 || M->StreamArg < 0 ||
      std::max(M->CaptureStatusOutArg, M->StreamArg) >= static_cast<int>(Call->getNumArgs()))
    return;
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(M->CaptureStatusOutArg)));
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return;
  Key Status = storageOf(AddrOf->getSubExpr());
  if (!isValueSymbol(Status) || !captureOpenOn(Call->getArg(M->StreamArg), P))
    return;
  // The status was just written (forgotten by forgetFactsWrittenThrough):
  // nothing known can contradict it.
  (void)P.Values.assume(reinterpret_cast<values::Symbol>(Status), values::Relation::NE, 0);
}

namespace {

/// The local a query writes its capture status into, and the parameter
/// whose stream it asks about.
struct StatusQuery {
  const VarDecl *Status;
  unsigned Param;
};

} // namespace

/// `static bool is_capturing(cudaStream_t s) { cudaStreamIsCapturing(s, &st);
/// return st != cudaStreamCaptureStatusNone; }`: which parameter the helper
/// asks about, and whether it returns true while that stream captures.
/// Every return must compare the same status with a constant (or test it),
/// or return the constant answer the status gives while capturing: a
/// conservative `if (query fails) return true;` keeps "true while capturing".
std::optional<std::pair<unsigned, bool>>
Analysis::captureQueryOf(const FunctionDecl *Helper) {
  auto [It, New] = A.CaptureQueries.try_emplace(Helper);
  if (!New || !Helper->hasBody() || !Helper->getReturnType()->isScalarType())
    return It->second;
  std::vector<StatusQuery> Queries;
  std::vector<const Expr *> Returns;
  bool Unusable = false;
  llvm::SmallVector<const Stmt *, 16> Stack{Helper->getBody()};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      Unusable |= !RS->getRetValue();
      Returns.push_back(RS->getRetValue());
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionModel *M = A.modelFor(Call);
      if (M && M->CaptureStatusOutArg >= 0 && M->StreamArg >= 0 &&
          std::max(M->CaptureStatusOutArg, M->StreamArg) < static_cast<int>(Call->getNumArgs())) {
        const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(M->CaptureStatusOutArg)));
        const auto *Out = AddrOf && AddrOf->getOpcode() == UO_AddrOf
                              ? dyn_cast<DeclRefExpr>(strip(AddrOf->getSubExpr()))
                              : nullptr;
        const auto *Stream = dyn_cast<DeclRefExpr>(strip(Call->getArg(M->StreamArg)));
        const auto *Param = Stream ? dyn_cast<ParmVarDecl>(Stream->getDecl()) : nullptr;
        if (Out && isa<VarDecl>(Out->getDecl()) && Param)
          Queries.push_back({cast<VarDecl>(Out->getDecl()), Param->getFunctionScopeIndex()});
      }
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
  if (Unusable || Returns.empty() || Queries.size() != 1)
    return It->second;
  std::optional<bool> Polarity;
  llvm::SmallVector<bool, 2> ConstantAnswers;
  for (const Expr *R : Returns) {
    std::optional<bool> TrueWhenCapturing;
    if (std::optional<int64_t> C = constantValue(R)) {
      ConstantAnswers.push_back(*C != 0);
      continue;
    }
    const Expr *E = R->IgnoreParenImpCasts();
    bool Negated = false;
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
      Negated = true;
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    }
    auto IsStatus = [&](const Expr *X) {
      const auto *DRE = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
      return DRE && DRE->getDecl() == Queries.front().Status;
    };
    if (IsStatus(E)) {
      TrueWhenCapturing = true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
               BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *Other = IsStatus(BO->getLHS()) ? BO->getRHS()
                          : IsStatus(BO->getRHS()) ? BO->getLHS()
                                                   : nullptr;
      std::optional<int64_t> C = Other ? constantValue(Other) : std::nullopt;
      // `!= None` and `== Active` are true while capturing; `== None` false.
      if (C && *C == 0)
        TrueWhenCapturing = BO->getOpcode() == BO_NE;
      else if (C && BO->getOpcode() == BO_EQ)
        TrueWhenCapturing = true;
    }
    if (!TrueWhenCapturing)
      return It->second;
    bool P = *TrueWhenCapturing != Negated;
    if (Polarity && *Polarity != P)
      return A.CaptureQueries[Helper] = std::nullopt;
    Polarity = P;
  }
  if (!Polarity || llvm::any_of(ConstantAnswers, [&](bool C) { return C != *Polarity; }))
    return A.CaptureQueries[Helper] = std::nullopt;
  return A.CaptureQueries[Helper] = std::make_pair(Queries.front().Param, *Polarity);
}

} // namespace lifetime
} // namespace cgt
