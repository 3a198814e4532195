//===- PathFormula.cpp - one program path as an SMT formula ---------------===//
//
// The encoding of C++ scalar expressions into bit-vector terms, the
// environment of places with its undo log, and the escape scan that says
// which locals only direct writes change. The model is in PathFormula.h.
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
            Escapes = !UO->isIncrementDecrementOp();
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

void PathFormula::write(PlaceId P, std::optional<Val> V) {
  auto It = Env.find(P);
  std::optional<Val> Before;
  if (It != Env.end())
    Before = It->second;
  else if (!V)
    return;
  Undo.push_back({false, reinterpret_cast<const void *>(static_cast<uintptr_t>(P)), Before});
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
  for (const Expr *Arg : Args)
    Handed(Arg);
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

// --- encoding ---------------------------------------------------------------

bool PathFormula::scalarShape(QualType T, unsigned &Width, bool &Signed) const {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isBooleanType()) {
    Width = 0;
    Signed = false;
    return true;
  }
  if (T->isIntegralOrEnumerationType() || T->isAnyPointerType() || T->isNullPtrType()) {
    if (T->isEnumeralType() && !cast<EnumType>(T)->getDecl()->isComplete())
      return false;
    Width = static_cast<unsigned>(Ctx.getTypeSize(T));
    Signed = T->isSignedIntegerOrEnumerationType();
    return Width > 0 && Width <= 128;
  }
  return false;
}

std::optional<PathFormula::Val> PathFormula::fresh(QualType T) {
  unsigned W;
  bool Sg;
  if (!scalarShape(T, W, Sg))
    return std::nullopt;
  std::string Name = "v" + std::to_string(Fresh++);
  return Val{Solver->mkSymbol(Name.c_str(), W == 0 ? Solver->getBoolSort()
                                                   : Solver->getBitvectorSort(W)),
             W, Sg};
}

std::optional<PathFormula::Val> PathFormula::constant(const llvm::APSInt &V, QualType T) {
  unsigned W;
  bool Sg;
  if (!scalarShape(T, W, Sg))
    return std::nullopt;
  if (W == 0)
    return Val{Solver->mkBoolean(V.getBoolValue()), 0, false};
  llvm::APSInt Bits(V.extOrTrunc(W), /*isUnsigned=*/true);
  return Val{Solver->mkBitvector(Bits, W), W, Sg};
}

llvm::SMTExprRef PathFormula::asBool(const Val &V) {
  if (V.Width == 0)
    return V.E;
  llvm::SMTExprRef Zero = Solver->mkBitvector(llvm::APSInt(llvm::APInt(V.Width, 0)), V.Width);
  return Solver->mkNot(Solver->mkEqual(V.E, Zero));
}

PathFormula::Val PathFormula::asBits(const Val &V, unsigned Width, bool Signed) {
  if (V.Width == 0) {
    llvm::SMTExprRef One = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Width, 1)), Width);
    llvm::SMTExprRef Zero = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Width, 0)), Width);
    return {Solver->mkIte(V.E, One, Zero), Width, Signed};
  }
  if (V.Width == Width)
    return {V.E, Width, Signed};
  if (V.Width < Width)
    return {V.Signed ? Solver->mkBVSignExt(Width - V.Width, V.E)
                     : Solver->mkBVZeroExt(Width - V.Width, V.E),
            Width, Signed};
  return {Solver->mkBVExtract(Width - 1, 0, V.E), Width, Signed};
}

std::optional<PathFormula::Val> PathFormula::read(const Expr *LValue) {
  std::optional<PlaceId> P = placeOf(LValue);
  if (!P)
    return fresh(LValue->getType());
  if (auto It = Env.find(*P); It != Env.end())
    return It->second;
  std::optional<Val> V = fresh(LValue->getType());
  if (V)
    write(*P, V); // what the path reads first, it reads again
  return V;
}

std::optional<PathFormula::Val> PathFormula::encodeCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
    return read(Sub);
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_PointerToBoolean:
  case CK_NullToPointer:
  case CK_BitCast:
  case CK_IntegralToPointer:
  case CK_PointerToIntegral:
  case CK_BooleanToSignedIntegral:
    break;
  default:
    return fresh(CE->getType());
  }
  std::optional<Val> V = encode(Sub);
  unsigned W;
  bool Sg;
  if (!V || !scalarShape(CE->getType(), W, Sg))
    return fresh(CE->getType());
  if (W == 0)
    return Val{asBool(*V), 0, false};
  return asBits(*V, W, Sg);
}

std::optional<PathFormula::Val> PathFormula::encodeBinary(const BinaryOperator *BO) {
  BinaryOperator::Opcode Op = BO->getOpcode();
  if (BO->isAssignmentOp())
    return read(BO->getLHS()); // the element for it is already applied
  if (Op == BO_Comma)
    return encode(BO->getRHS());
  std::optional<Val> L = encode(BO->getLHS()), R = encode(BO->getRHS());
  if (!L || !R)
    return fresh(BO->getType());
  if (BO->isLogicalOp()) {
    llvm::SMTExprRef A = asBool(*L), B = asBool(*R);
    return Val{Op == BO_LAnd ? Solver->mkAnd(A, B) : Solver->mkOr(A, B), 0, false};
  }
  if (BO->isComparisonOp()) {
    if (L->Width == 0 && R->Width == 0 && BO->isEqualityOp()) {
      llvm::SMTExprRef Eq = Solver->mkEqual(L->E, R->E);
      return Val{Op == BO_EQ ? Eq : Solver->mkNot(Eq), 0, false};
    }
    unsigned W = std::max({L->Width, R->Width, 1u});
    QualType OT = BO->getLHS()->getType();
    bool Sg = OT->isSignedIntegerOrEnumerationType();
    Val A = asBits(*L, W, L->Signed), B = asBits(*R, W, R->Signed);
    llvm::SMTExprRef E = nullptr;
    switch (Op) {
    case BO_EQ: E = Solver->mkEqual(A.E, B.E); break;
    case BO_NE: E = Solver->mkNot(Solver->mkEqual(A.E, B.E)); break;
    case BO_LT: E = Sg ? Solver->mkBVSlt(A.E, B.E) : Solver->mkBVUlt(A.E, B.E); break;
    case BO_GT: E = Sg ? Solver->mkBVSgt(A.E, B.E) : Solver->mkBVUgt(A.E, B.E); break;
    case BO_LE: E = Sg ? Solver->mkBVSle(A.E, B.E) : Solver->mkBVUle(A.E, B.E); break;
    case BO_GE: E = Sg ? Solver->mkBVSge(A.E, B.E) : Solver->mkBVUge(A.E, B.E); break;
    default: return fresh(BO->getType());
    }
    return Val{E, 0, false};
  }
  unsigned W;
  bool Sg;
  if (!BO->getType()->isIntegralOrEnumerationType() || !scalarShape(BO->getType(), W, Sg) ||
      W == 0)
    return fresh(BO->getType()); // pointer arithmetic, floats
  if (std::optional<Val> V = arithmetic(Op, asBits(*L, W, Sg), asBits(*R, W, Sg)))
    return V;
  return fresh(BO->getType());
}

/// `A op B` on two bit-vectors of one width and signedness; none for an
/// operator without a bit-vector counterpart.
std::optional<PathFormula::Val> PathFormula::arithmetic(BinaryOperator::Opcode Op, const Val &A,
                                                        const Val &B) {
  bool Sg = A.Signed;
  llvm::SMTExprRef E = nullptr;
  switch (Op) {
  case BO_Add: E = Solver->mkBVAdd(A.E, B.E); break;
  case BO_Sub: E = Solver->mkBVSub(A.E, B.E); break;
  case BO_Mul: E = Solver->mkBVMul(A.E, B.E); break;
  case BO_Div: E = Sg ? Solver->mkBVSDiv(A.E, B.E) : Solver->mkBVUDiv(A.E, B.E); break;
  case BO_Rem: E = Sg ? Solver->mkBVSRem(A.E, B.E) : Solver->mkBVURem(A.E, B.E); break;
  case BO_And: E = Solver->mkBVAnd(A.E, B.E); break;
  case BO_Or: E = Solver->mkBVOr(A.E, B.E); break;
  case BO_Xor: E = Solver->mkBVXor(A.E, B.E); break;
  case BO_Shl: E = Solver->mkBVShl(A.E, B.E); break;
  case BO_Shr: E = Sg ? Solver->mkBVAshr(A.E, B.E) : Solver->mkBVLshr(A.E, B.E); break;
  default: return std::nullopt;
  }
  return Val{E, A.Width, Sg};
}

std::optional<PathFormula::Val> PathFormula::encode(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return encode(FE->getSubExpr());
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return encode(MTE->getSubExpr());
  if (isa<CallExpr>(E)) {
    if (auto It = CallValues.find(E); It != CallValues.end())
      return It->second;
    return fresh(E->getType());
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (isa<ImplicitCastExpr>(CE) || isa<CStyleCastExpr, CXXStaticCastExpr, CXXFunctionalCastExpr>(CE))
      return encodeCast(CE);
    return fresh(E->getType());
  }
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return constant(llvm::APSInt(llvm::APInt(64, 0)), E->getType());
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_LNot:
      if (std::optional<Val> V = encode(UO->getSubExpr()))
        return Val{Solver->mkNot(asBool(*V)), 0, false};
      return fresh(E->getType());
    case UO_Minus:
    case UO_Not: {
      std::optional<Val> V = encode(UO->getSubExpr());
      unsigned W;
      bool Sg;
      if (!V || !scalarShape(E->getType(), W, Sg) || W == 0)
        return fresh(E->getType());
      Val B = asBits(*V, W, Sg);
      return Val{UO->getOpcode() == UO_Minus ? Solver->mkBVNeg(B.E) : Solver->mkBVNot(B.E), W, Sg};
    }
    case UO_Plus:
      return encode(UO->getSubExpr());
    case UO_PreInc:
    case UO_PreDec:
      return read(UO->getSubExpr());
    case UO_PostInc:
    case UO_PostDec: {
      std::optional<Val> Now = read(UO->getSubExpr());
      if (!Now || Now->Width == 0 || !UO->getSubExpr()->getType()->isIntegerType())
        return fresh(E->getType());
      llvm::SMTExprRef One = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Now->Width, 1)), Now->Width);
      return Val{UO->getOpcode() == UO_PostInc ? Solver->mkBVSub(Now->E, One)
                                               : Solver->mkBVAdd(Now->E, One),
                 Now->Width, Now->Signed};
    }
    default:
      return fresh(E->getType());
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return encodeBinary(BO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<Val> C = encode(CO->getCond()), T = encode(CO->getTrueExpr()),
                       F = encode(CO->getFalseExpr());
    unsigned W;
    bool Sg;
    if (!C || !T || !F || !scalarShape(E->getType(), W, Sg))
      return fresh(E->getType());
    if (W == 0)
      return Val{Solver->mkIte(asBool(*C), asBool(*T), asBool(*F)), 0, false};
    return Val{Solver->mkIte(asBool(*C), asBits(*T, W, Sg).E, asBits(*F, W, Sg).E), W, Sg};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return constant(ECD->getInitVal(), E->getType());
  Expr::EvalResult R;
  if (!E->isValueDependent() && !E->isTypeDependent() && E->isPRValue() &&
      E->EvaluateAsInt(R, Ctx))
    return constant(R.Val.getInt(), E->getType());
  return fresh(E->getType());
}

bool PathFormula::assume(const Expr *Cond, bool Value) {
  Solver->push();
  ++Scopes;
  std::optional<Val> V = encode(Cond);
  if (!V)
    return true;
  llvm::SMTExprRef C = asBool(*V);
  Solver->addConstraint(Value ? C : Solver->mkNot(C));
  ++Queries;
  std::optional<bool> Sat = Solver->check();
  return !Sat || *Sat; // unknown: an unknown never refutes
}

} // namespace values
} // namespace cgt
