//===- PathFormula.cpp - one program path as an SMT formula ---------------===//
//
// The environment of places with its undo log, the effects of statements
// and calls on it, and the escape scan that says which locals only direct
// writes change. The model is in PathFormula.h; expressions become terms in
// PathFormulaEncoding.cpp, skipped loop iterations in PathFormulaLoops.cpp.
//
//===----------------------------------------------------------------------===//
#include "Values/PathFormula.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Config/llvm-config.h"

using namespace clang;

namespace cgt {
namespace values {

namespace {

/// The deterministic work limit CSA's crosscheck uses (its
/// crosscheck-with-z3-rlimit-threshold); the wall-clock limit only guards
/// against a machine far slower than expected.
constexpr unsigned SolverResourceLimit = 400000;
constexpr unsigned SolverTimeoutMs = 2000;

/// The `this` root of member places.
const void *const ThisRoot = nullptr;

bool isConstReference(QualType T) {
  return T->isReferenceType() && T.getNonReferenceType().isConstQualified();
}

} // namespace

bool PathFormula::available() {
#if LLVM_WITH_Z3
  return true;
#else
  return false;
#endif
}

PathFormula::PathFormula(ASTContext &Ctx, const FunctionDecl *FD,
                         ArgumentsOnly WritesOnlyArguments)
    : Ctx(Ctx), FD(FD), WritesOnlyArguments(std::move(WritesOnlyArguments)) {
  Solver = llvm::CreateZ3Solver();
  Solver->setUnsignedParam("rlimit", SolverResourceLimit);
  Solver->setUnsignedParam("timeout", SolverTimeoutMs);
  scanEscapes();
}

PathFormula::~PathFormula() = default;

// --- the escape scan -----------------------------------------------------

/// Locals and by-value parameters whose every use reads them, writes them
/// directly or names one of their members; any other use (the address, a
/// reference to it, a non-const method on it, a capture by reference) lets
/// code elsewhere change them.
void PathFormula::scanEscapes() {
  if (!FD->getBody())
    return;
  std::vector<const Stmt *> Ancestors;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            Escaped.insert(VD);
      return; // its body runs where it is called, on its own copies
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType()) {
        const Stmt *Cur = DRE;
        bool Escapes = true;
        for (auto It = Ancestors.rbegin(); It != Ancestors.rend(); Cur = *It++) {
          const Stmt *Up = *It;
          if (isa<ParenExpr>(Up))
            continue;
          if (const auto *ME = dyn_cast<MemberExpr>(Up)) {
            if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl())) {
              Escapes = !MD->isConst();
              break;
            }
            if (!ME->isArrow())
              continue; // `s.field`: the use of the member decides
            Escapes = false; // `p->field` reads the pointer
            break;
          }
          if (const auto *IC = dyn_cast<ImplicitCastExpr>(Up)) {
            if (IC->getCastKind() == CK_NoOp)
              continue;
            Escapes = IC->getCastKind() != CK_LValueToRValue;
            break;
          }
          if (const auto *BO = dyn_cast<BinaryOperator>(Up)) {
            Escapes = !(BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Cur);
            break;
          }
          if (const auto *UO = dyn_cast<UnaryOperator>(Up)) {
            const Stmt *Above = std::next(It) != Ancestors.rend() ? *std::next(It) : nullptr;
            Escapes = !UO->isIncrementDecrementOp() && !isQueryOutArgument(UO, Above);
            break;
          }
          if (const auto *Call = dyn_cast<CallExpr>(Up)) {
            Escapes = true;
            const FunctionDecl *Callee = Call->getDirectCallee();
            for (unsigned I = 0; Callee && I < Call->getNumArgs(); ++I)
              if (Call->getArg(I)->IgnoreParens() == Cur && I < Callee->getNumParams())
                Escapes = !isConstReference(Callee->getParamDecl(I)->getType());
            break;
          }
          if (const auto *DS = dyn_cast<DeclStmt>(Up)) {
            Escapes = false;
            for (const Decl *D : DS->decls())
              if (const auto *Other = dyn_cast<VarDecl>(D))
                Escapes |= Other->getType()->isReferenceType() &&
                           !isConstReference(Other->getType());
            break;
          }
          break; // anything else: the address may leave
        }
        if (Escapes)
          Escaped.insert(VD);
      }
    Ancestors.push_back(S);
    for (const Stmt *Child : S->children())
      Visit(Child);
    Ancestors.pop_back();
  };
  Visit(FD->getBody());
}

/// `cudaGetDeviceCount(&n)`: the address of an integer handed to a call the
/// model knows (it writes only what its arguments point to) through a
/// parameter of pointer-to-integer type: a query's out-argument, written
/// during the call and kept by no one (an API keeps a pointer only as an
/// untyped `void *` of a callback). `n` stays a local the path can follow;
/// the call itself havocs it (applyCall).
bool PathFormula::isQueryOutArgument(const UnaryOperator *AddrOf, const Stmt *Parent) const {
  if (AddrOf->getOpcode() != UO_AddrOf || !WritesOnlyArguments)
    return false;
  // Converted (`(void **)&p`) or parenthesised: not the typed out-parameter.
  const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !WritesOnlyArguments(Call))
    return false;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
    if (Call->getArg(I)->IgnoreParens() == AddrOf) {
      QualType T = Callee->getParamDecl(I)->getType();
      return T->isPointerType() && T->getPointeeType()->isIntegerType() &&
             !T->getPointeeType().isConstQualified();
    }
  return false;
}

// --- places and the environment ------------------------------------------

std::optional<PathFormula::PlaceId> PathFormula::placeOf(const Expr *LValue) {
  const Expr *E = LValue->IgnoreParenNoopCasts(Ctx);
  std::vector<const void *> Path;
  bool Stable = false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    Path.push_back(VD);
    QualType T = VD->getType();
    Stable = VD->hasLocalStorage() &&
             (T->isReferenceType() ? isConstReference(T) : !Escaped.count(VD));
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return std::nullopt;
    std::optional<PlaceId> Base;
    if (!ME->isArrow()) {
      Base = placeOf(ME->getBase());
      if (!Base)
        return std::nullopt;
      Stable = Places[*Base].Stable;
    } else {
      const Expr *Ptr = ME->getBase()->IgnoreParenImpCasts();
      QualType Pointee = ME->getBase()->getType()->getPointeeType();
      if (isa<CXXThisExpr>(Ptr)) {
        Path.push_back(ThisRoot);
        const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        Stable = MD && MD->isConst();
      } else {
        Base = placeOf(Ptr);
        if (!Base)
          return std::nullopt;
        Stable = Places[*Base].Stable && !Pointee.isNull() && Pointee.isConstQualified();
      }
    }
    if (Base)
      Path = Places[*Base].Path;
    Path.push_back(Field);
  } else {
    return std::nullopt;
  }
  return internPlace(std::move(Path), Stable);
}

PathFormula::PlaceId PathFormula::internPlace(std::vector<const void *> Path, bool Stable) {
  auto [It, New] = PlaceIds.try_emplace(Path, static_cast<PlaceId>(Places.size()));
  if (New)
    Places.push_back({std::move(Path), Stable});
  return It->second;
}

void PathFormula::write(PlaceId P, std::optional<Val> V, bool FirstRead) {
  auto It = Env.find(P);
  std::optional<Val> Before;
  if (It != Env.end())
    Before = It->second;
  else if (!V)
    return;
  Undo.push_back(
      {false, reinterpret_cast<const void *>(static_cast<uintptr_t>(P)), Before, FirstRead});
  if (V)
    Env[P] = *V;
  else
    Env.erase(P);
}

/// The places reached through `P` (its members, what it points to), and
/// `P` itself when asked.
void PathFormula::invalidateUnder(PlaceId P, bool AndItself) {
  const std::vector<const void *> Prefix = Places[P].Path;
  std::vector<PlaceId> Gone;
  for (const auto &Entry : Env) {
    const std::vector<const void *> &Path = Places[Entry.first].Path;
    if (Path.size() >= Prefix.size() + (AndItself ? 0 : 1) &&
        std::equal(Prefix.begin(), Prefix.end(), Path.begin()))
      Gone.push_back(Entry.first);
  }
  for (PlaceId G : Gone)
    write(G, std::nullopt);
}

void PathFormula::invalidateVolatile() {
  std::vector<PlaceId> Gone;
  for (const auto &Entry : Env)
    if (!Places[Entry.first].Stable)
      Gone.push_back(Entry.first);
  for (PlaceId G : Gone)
    write(G, std::nullopt);
}

void PathFormula::backTo(Mark M) {
  while (Undo.size() > M.Undo) {
    UndoEntry U = std::move(Undo.back());
    Undo.pop_back();
    if (U.IsCall) {
      const auto *Call = static_cast<const Expr *>(U.Key);
      if (U.Before)
        CallValues[Call] = *U.Before;
      else
        CallValues.erase(Call);
      continue;
    }
    PlaceId P = static_cast<PlaceId>(reinterpret_cast<uintptr_t>(U.Key));
    if (U.Before)
      Env[P] = *U.Before;
    else
      Env.erase(P);
  }
  if (Scopes > M.Scopes)
    Solver->pop(Scopes - M.Scopes);
  Scopes = M.Scopes;
}

// --- effects of statements -----------------------------------------------

void PathFormula::applyCall(const Expr *Call, const FunctionDecl *Callee,
                            llvm::ArrayRef<const Expr *> Args, const Expr *Object) {
  // The parameter an argument binds, where the callee is known: `const T &`
  // and `const T *` promise the callee writes nothing through them.
  bool MemberOperator = isa_and_nonnull<CXXOperatorCallExpr>(Call) &&
                        isa_and_nonnull<CXXMethodDecl>(Callee);
  auto ReadOnlyParam = [&](size_t Index) {
    if (!Callee || (MemberOperator && Index == 0))
      return false;
    size_t P = MemberOperator ? Index - 1 : Index;
    if (P >= Callee->getNumParams())
      return false;
    QualType T = Callee->getParamDecl(P)->getType();
    return (T->isReferenceType() || T->isPointerType()) && T->getPointeeType().isConstQualified();
  };
  auto Handed = [&](const Expr *Arg) {
    const Expr *E = Arg->IgnoreParens();
    // `(void *)&flag`, `(void **)&p`: the address, converted.
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
        UO && UO->getOpcode() == UO_AddrOf) {
      if (std::optional<PlaceId> P = placeOf(UO->getSubExpr()))
        invalidateUnder(*P, /*AndItself=*/true);
      return;
    }
    if (E->isGLValue()) { // bound to a reference parameter
      if (std::optional<PlaceId> P = placeOf(E))
        invalidateUnder(*P, /*AndItself=*/true);
      return;
    }
    // A pointer passed by value: what it points to, not the pointer.
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E->IgnoreParenNoopCasts(Ctx));
        IC && IC->getCastKind() == CK_LValueToRValue && E->getType()->isPointerType())
      if (std::optional<PlaceId> P = placeOf(IC->getSubExpr()))
        invalidateUnder(*P, /*AndItself=*/false);
  };
  for (size_t I = 0; I < Args.size(); ++I)
    if (!ReadOnlyParam(I))
      Handed(Args[I]);
  if (Object) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!MD || !MD->isConst())
      if (std::optional<PlaceId> P = placeOf(Object))
        invalidateUnder(*P, /*AndItself=*/true);
  }
  const auto *AsCall = dyn_cast<CallExpr>(Call);
  if (!AsCall || !WritesOnlyArguments || !WritesOnlyArguments(AsCall))
    invalidateVolatile();
}

void PathFormula::sameValue(const CallExpr *Later, const CallExpr *Earlier) {
  auto It = CallValues.find(Earlier);
  if (It == CallValues.end() || Later == Earlier)
    return;
  Val Value = It->second;
  std::optional<Val> Before;
  if (auto L = CallValues.find(Later); L != CallValues.end())
    Before = L->second;
  Undo.push_back({true, Later, Before});
  CallValues[Later] = Value;
}

void PathFormula::apply(const Stmt *S) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return;
    std::optional<PlaceId> P = placeOf(BO->getLHS());
    if (!P) { // through a pointer or an element: anything it may alias
      invalidateVolatile();
      return;
    }
    std::optional<Val> V;
    if (BO->getOpcode() == BO_Assign) {
      V = encode(BO->getRHS());
    } else if (std::optional<Val> Old = read(BO->getLHS())) {
      // `x op= e` is `x = x op e` in the computation type.
      BinaryOperator::Opcode Op = BinaryOperator::getOpForCompoundAssignment(BO->getOpcode());
      std::optional<Val> R = encode(BO->getRHS());
      unsigned W;
      bool Sg;
      if (R && BO->getType()->isIntegralOrEnumerationType() &&
          scalarShape(BO->getType(), W, Sg) && W > 0) // not `p += n`
        V = arithmetic(Op, asBits(*Old, W, Sg), asBits(*R, W, Sg));
    }
    if (!Places[*P].Stable)
      invalidateVolatile(); // an alias of the place may be read next
    invalidateUnder(*P, /*AndItself=*/true);
    unsigned W;
    bool Sg;
    if (V && scalarShape(BO->getLHS()->getType(), W, Sg))
      write(*P, W == 0 ? Val{asBool(*V), 0, false} : asBits(*V, W, Sg));
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (!UO->isIncrementDecrementOp())
      return;
    std::optional<PlaceId> P = placeOf(UO->getSubExpr());
    if (!P) {
      invalidateVolatile();
      return;
    }
    std::optional<Val> Old = read(UO->getSubExpr());
    if (!Places[*P].Stable)
      invalidateVolatile();
    invalidateUnder(*P, /*AndItself=*/true);
    if (Old && Old->Width > 0 && UO->getSubExpr()->getType()->isIntegerType()) {
      llvm::SMTExprRef One = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Old->Width, 1)), Old->Width);
      write(*P, Val{UO->isIncrementOp() ? Solver->mkBVAdd(Old->E, One) : Solver->mkBVSub(Old->E, One),
                    Old->Width, Old->Signed});
    }
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      auto Id = PlaceIds.find({VD});
      if (Id != PlaceIds.end())
        invalidateUnder(Id->second, /*AndItself=*/true); // the loop's next instance starts unknown
      unsigned W;
      bool Sg;
      if (!VD->getInit() || VD->getType()->isReferenceType() || !scalarShape(VD->getType(), W, Sg))
        continue;
      if (std::optional<Val> V = encode(VD->getInit())) {
        PlaceId P = internPlace({VD}, VD->hasLocalStorage() && !Escaped.count(VD));
        write(P, W == 0 ? Val{asBool(*V), 0, false} : asBits(*V, W, Sg));
      }
    }
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    std::optional<Val> Before;
    if (auto It = CallValues.find(Call); It != CallValues.end())
      Before = It->second;
    Undo.push_back({true, Call, Before});
    if (std::optional<Val> V = fresh(Call->getType()))
      CallValues[Call] = *V;
    else
      CallValues.erase(Call);
    const Expr *Object = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      Object = MC->getImplicitObjectArgument();
    std::vector<const Expr *> Args(Call->arg_begin(), Call->arg_end());
    applyCall(Call, Call->getDirectCallee(), Args, Object);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
    applyCall(CE, CE->getConstructor(), Args, nullptr);
    return;
  }
  if (isa<CXXNewExpr, CXXDeleteExpr, CXXThrowExpr>(S))
    invalidateVolatile(); // constructors and destructors run
}

} // namespace values
} // namespace cgt
