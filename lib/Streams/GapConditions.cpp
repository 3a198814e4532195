//===- GapConditions.cpp - what a branch says to the gap search -----------===//
//
// The witness search of PathGaps.cpp follows a path's branches with an SMT
// formula of their conditions. Three kinds of condition say more than the
// formula can read, and this file reads them:
//
//   * a test of two handles' identity (`s != b`, `bool same = a == b`): the
//     engine's places are two streams, the program's may be one;
//   * a test of a CUDA call's status against success: its failing way is
//     error handling;
//   * a test of a call the API model does not name (`cfg.overlap()`): the
//     formula gives each call a value of its own, the search holds two
//     tests of one call to one value.
//
//===----------------------------------------------------------------------===//
#include "Streams/GapConditions.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {

/// A CUDA handle and its like: a pointer to a type the program never
/// completes (`CUstream_st *`). Two of them compared are one stream, event
/// or graph, or two: the engine's places cannot say which.
bool isOpaqueHandle(const Expr *E) {
  QualType T = E->IgnoreParenImpCasts()->getType();
  if (!T->isPointerType())
    return false;
  QualType Pointee = T->getPointeeType();
  return Pointee->isIncompleteType() && Pointee->isRecordType();
}

bool isNull(const Expr *E, ASTContext &Ctx) {
  return E->IgnoreParenImpCasts()->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

/// The status type (`cudaError_t`, `CUresult`) E has, or "".
llvm::StringRef statusTypeOf(const Expr *E, const ApiModel &Model) {
  const auto *TT = E->IgnoreParenImpCasts()->getType()->getAs<TypedefType>();
  if (!TT || !Model.isStatusType(TT->getDecl()->getName()))
    return "";
  return TT->getDecl()->getName();
}

/// E is the success value of the status type: its enumerator, or 0.
bool isSuccessValue(const Expr *E, llvm::StringRef StatusType, const ApiModel &Model,
                    ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (isa<EnumConstantDecl>(DR->getDecl()))
      return DR->getDecl()->getName() == Model.successValue(StatusType);
  Expr::EvalResult R;
  return !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

} // namespace

/// `a == b` / `a != b` of two handles, neither of them null.
const BinaryOperator *handleComparison(const Expr *E, ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || !BO->isEqualityOp())
    return nullptr;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (isNull(L, Ctx) || isNull(R, Ctx) || !isOpaqueHandle(L) || !isOpaqueHandle(R))
    return nullptr;
  return BO;
}

/// Whether E compares two handles anywhere in it, or reads a local that
/// `Bound` says holds such a comparison.
bool testsHandleIdentity(const Expr *E, ASTContext &Ctx,
                         const std::set<const VarDecl *> &Bound) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    const std::set<const VarDecl *> &Bound;
    bool Found = false;
    Finder(ASTContext &Ctx, const std::set<const VarDecl *> &Bound) : Ctx(Ctx), Bound(Bound) {}
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= handleComparison(BO, Ctx) != nullptr;
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Found |= Bound.count(VD) > 0;
      return !Found;
    }
  } F(Ctx, Bound);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

/// Locals given a value that compares two handles (`bool same = s == b;`,
/// `forked = (side != main);`), followed through locals given those.
std::set<const VarDecl *> localsBoundToHandleTests(const FunctionDecl *FD, ASTContext &Ctx) {
  std::set<const VarDecl *> Bound;
  struct Scan : RecursiveASTVisitor<Scan> {
    ASTContext &Ctx;
    std::set<const VarDecl *> &Bound;
    bool Grew = false;
    Scan(ASTContext &Ctx, std::set<const VarDecl *> &Bound) : Ctx(Ctx), Bound(Bound) {}
    void bind(const VarDecl *VD, const Expr *Value) {
      if (VD && VD->isLocalVarDecl() && Value && !Bound.count(VD) &&
          testsHandleIdentity(Value, Ctx, Bound))
        Grew |= Bound.insert(VD).second;
    }
    bool VisitVarDecl(VarDecl *VD) {
      bind(VD, VD->getInit());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          bind(dyn_cast<VarDecl>(DR->getDecl()), BO->getRHS());
      return true;
    }
  };
  for (bool Grew = true; Grew;) {
    Scan S(Ctx, Bound);
    S.TraverseStmt(FD->getBody());
    Grew = S.Grew;
  }
  return Bound;
}

/// A condition that calls a function the API model does not name
/// (`cfg.overlap()`, `use_graphs()`), as its text without a leading `!`, and
/// the value the way taken gives that text. The formula gives each call a
/// value of its own, so two tests of one such call would be decided apart;
/// the search holds them to one value instead. Only conditions with such a
/// call: the formula relates the others. Null: not such a condition.
std::optional<std::pair<std::string, bool>> callTestOf(const Expr *Cond, bool Taken,
                                                      const StreamOrderAnalyzer::Impl &A,
                                                      ASTContext &Ctx) {
  const Expr *E = Cond->IgnoreParenImpCasts();
  while (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot)
      break;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
    Taken = !Taken;
  }
  struct Finder : RecursiveASTVisitor<Finder> {
    const StreamOrderAnalyzer::Impl &A;
    bool Unmodelled = false, Modelled = false;
    explicit Finder(const StreamOrderAnalyzer::Impl &A) : A(A) {}
    bool VisitCallExpr(CallExpr *C) {
      (A.modelFor(C) ? Modelled : Unmodelled) = true;
      return true;
    }
  } F(A);
  F.TraverseStmt(const_cast<Expr *>(E));
  if (!F.Unmodelled || F.Modelled)
    return std::nullopt;
  std::string Text = Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()),
                                          Ctx.getSourceManager(), Ctx.getLangOpts())
                         .str();
  if (Text.empty())
    return std::nullopt;
  return std::make_pair(std::move(Text), Taken);
}

/// A call of a function the API model does not name, that returns a
/// number or a truth value and is given nothing it could write through
/// (`timing_on(o)`, `cfg.overlap()`, `ready(n)`), as its text: two such
/// calls with one text on a path are held to one result, wherever they
/// stand (a bool bound to one, a branch on the other), as callTestOf holds
/// two tests of one. A function that answers differently each time
/// (`try_lock()` twice) is then read as answering alike: a gap can be
/// missed there, none is made up. Null: not such a call.
std::optional<std::string> heldCallKey(const CallExpr *Call, const StreamOrderAnalyzer::Impl &A,
                                       ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  QualType Result = Call->getType();
  if (!Callee || A.modelFor(Call) || !(Result->isIntegralOrEnumerationType()))
    return std::nullopt;
  for (const ParmVarDecl *P : Callee->parameters()) {
    QualType T = P->getType();
    if ((T->isPointerType() || T->isReferenceType()) && !T->getPointeeType().isConstQualified())
      return std::nullopt;
  }
  std::string Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Call->getSourceRange()),
                                          Ctx.getSourceManager(), Ctx.getLangOpts())
                         .str();
  if (Text.empty())
    return std::nullopt;
  return Text;
}

/// The way of a two-way branch on which a CUDA call's status, tested
/// against success, says it failed (0: the true way, 1: the false way), or
/// nothing. A poll's status is no failure: not ready is an answer.
std::optional<unsigned> FunctionRun::failingWayOf(const Expr *Cond, const OrderState &St) const {
  const Expr *E = Cond->IgnoreParenImpCasts();
  bool Negated = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
    E = UO->getSubExpr()->IgnoreParenImpCasts();
    Negated = true;
  }
  const Expr *Status = E;
  bool FailsWhenTrue = true; // `if (st)`: a nonzero status is a failure
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isEqualityOp()) {
    Status = BO->getLHS();
    const Expr *Other = BO->getRHS();
    if (statusTypeOf(Status, A.Model).empty())
      std::swap(Status, Other);
    if (!isSuccessValue(Other, statusTypeOf(Status, A.Model), A.Model, Ctx))
      return std::nullopt;
    FailsWhenTrue = BO->getOpcode() == BO_NE;
  }
  if (statusTypeOf(Status, A.Model).empty() || pollCallOf(Status, St))
    return std::nullopt;
  return (FailsWhenTrue != Negated) ? 0u : 1u;
}

} // namespace streams
} // namespace cgt
