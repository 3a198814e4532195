//===- Interpreter.cpp - per-thread execution of a kernel body ------------===//
//
// See Interpreter.h. Concrete where the thread makes things concrete, SymVal
// linear forms where values are warp-uniform unknowns, Top otherwise.
// Soundness rules that matter for false positives:
//   * an if/?: /&&/|| whose condition is not decided runs both sides with the
//     path marked Guarded, and joins variables (different values -> Top);
//   * a return/break under such a condition leaves the rest Guarded;
//   * a loop is unrolled while its condition is decided (up to MaxUnroll
//     iterations), then runs once more with every variable it writes
//     havocked: simple counters become `current + step*K`, others Top;
//   * calls are opaque (Top), except min/max on constants.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/Hashing.h"

using namespace clang;

namespace cgt::smem {

ArrayLayout layoutOf(ASTContext &Ctx, const VarDecl *VD, const LaunchConfig &Cfg,
                     const std::map<const VarDecl *, uint64_t> &Pad) {
  ArrayLayout L;
  QualType T = VD->getType();
  std::vector<int64_t> Ext;
  while (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      Ext.push_back(static_cast<int64_t>(CAT->getSize().getZExtValue()));
    else
      Ext.push_back(-1);
    T = AT->getElementType();
  }
  int64_t Elem = T->isIncompleteType() ? 0 : Ctx.getTypeSizeInChars(T).getQuantity();
  auto P = Pad.find(VD);
  if (P != Pad.end() && !Ext.empty())
    Ext.back() = static_cast<int64_t>(P->second);
  L.Extents = Ext;
  L.Strides.assign(Ext.size(), Elem);
  for (int I = static_cast<int>(Ext.size()) - 2; I >= 0; --I)
    L.Strides[I] = L.Strides[I + 1] * Ext[I + 1];
  if (!Ext.empty() && Ext[0] < 0) {
    // extern __shared__ T a[]: all of them alias the dynamic region.
    if (Cfg.DynSharedBytes && L.Strides[0] > 0) {
      L.TotalBytes = static_cast<int64_t>(*Cfg.DynSharedBytes);
      L.Extents[0] = L.TotalBytes / L.Strides[0];
    }
  } else if (Ext.empty()) {
    L.TotalBytes = Elem;
  } else {
    L.TotalBytes = L.Strides[0] * Ext[0];
  }
  return L;
}

namespace {

enum class Tri { False, True, Unknown };
enum class Flow { Normal, Return, Break, Continue };

struct PtrVal {
  const VarDecl *VD = nullptr; ///< null: not provably __shared__
  SymVal Off;
  /// The pointer was derived from this carve: a local pointer declared at
  /// the top of the kernel at a thread-independent offset of the array
  /// (`float *b = smem + 256;`), starting at CarveStart.
  const VarDecl *Carve = nullptr;
  SymVal CarveStart;
};

struct Loc {
  const VarDecl *VD = nullptr;
  SymVal Off;
  const VarDecl *Carve = nullptr;
  SymVal CarveStart;
  std::vector<SymVal> Dims;
  bool Direct = false; ///< reached only through subscripts of the array
  bool Member = false;
};

/// What a loop writes; counters with a constant-free step become
/// `current + step*K` when the loop cannot be unrolled further.
struct LoopInfo {
  std::vector<const VarDecl *> Written;
  bool Exits = false; ///< a break, return or goto may leave it early
  llvm::DenseMap<const VarDecl *, std::pair<const Expr *, int>> Step;
};

class LoopScanner : public RecursiveASTVisitor<LoopScanner> {
public:
  llvm::DenseMap<const VarDecl *, unsigned> Count;
  llvm::DenseMap<const VarDecl *, std::pair<const Expr *, int>> Step;
  llvm::DenseSet<const VarDecl *> Complex;
  std::vector<const VarDecl *> Order;

  static const VarDecl *varOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  }
  void note(const VarDecl *V, const Expr *StepE, int Sign) {
    if (!V)
      return;
    if (!Count.count(V))
      Order.push_back(V);
    if (++Count[V] > 1 || !StepE)
      Complex.insert(V);
    else
      Step[V] = {StepE, Sign};
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isAssignmentOp())
      return true;
    const VarDecl *V = varOf(B->getLHS());
    if (B->getOpcode() == BO_AddAssign)
      note(V, B->getRHS(), 1);
    else if (B->getOpcode() == BO_SubAssign)
      note(V, B->getRHS(), -1);
    else
      note(V, nullptr, 0);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      note(varOf(U->getSubExpr()), U, U->isIncrementOp() ? 1 : -1);
    else if (U->getOpcode() == UO_AddrOf)
      note(varOf(U->getSubExpr()), nullptr, 0);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      Refs.insert(V);
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) { return Exits = true; }
  bool VisitReturnStmt(ReturnStmt *) { return Exits = true; }
  bool VisitGotoStmt(GotoStmt *) { return Exits = true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      if (F->isNoReturn() || F->getName() == "__trap")
        Exits = true;
    return true;
  }
  llvm::DenseSet<const VarDecl *> Refs;
  bool Exits = false;
};

/// Locals whose value can change behind the interpreter's back: their
/// address is taken, a non-const reference binds to them (a local `int &r = v`,
/// an argument for a `T &` parameter of a callee that is not followed, a
/// by-reference lambda capture). Reads of them are unknown.
class EscapeScanner : public RecursiveASTVisitor<EscapeScanner> {
public:
  llvm::DenseSet<const VarDecl *> Vars;

  static const VarDecl *local(const Expr *E) {
    if (!E)
      return nullptr;
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || V->hasGlobalStorage() || V->hasAttr<CUDASharedAttr>())
      return nullptr;
    return V;
  }
  static bool mutableRef(QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }
  void add(const Expr *E) {
    if (const VarDecl *V = local(E))
      Vars.insert(V);
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf)
      add(U->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (mutableRef(D->getType()))
      add(D->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F) {
      for (const Expr *A : C->arguments())
        if (A->isLValue())
          add(A);
      return true;
    }
    // A member operator's first argument is the object, not a parameter.
    unsigned Skip = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F) ? 1 : 0;
    for (unsigned I = Skip; I < C->getNumArgs(); ++I) {
      unsigned P = I - Skip;
      if (P < F->getNumParams() && mutableRef(F->getParamDecl(P)->getType()))
        add(C->getArg(I));
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar()))
          Vars.insert(V);
    return true;
  }
};

class Interp {
public:
  Interp(ASTContext &Ctx, const FunctionDecl *K, const LaunchConfig &Cfg,
         unsigned MaxUnroll, const std::map<const VarDecl *, uint64_t> &Pad,
         std::vector<AccessRecord> &Out, uint64_t Budget)
      : Ctx(Ctx), Kernel(K), Cfg(Cfg), MaxUnroll(MaxUnroll), Pad(Pad), Out(Out),
        Budget(Budget) {}
  uint64_t stepsTaken() const { return Steps; }

  bool run() {
    {
      EscapeScanner ES;
      ES.TraverseStmt(Kernel->getBody());
      Escaped = std::move(ES.Vars);
    }
    const BlockShape &B = Cfg.Block;
    for (unsigned Z = 0; Z < B.Z; ++Z)
      for (unsigned Y = 0; Y < B.Y; ++Y)
        for (unsigned X = 0; X < B.X; ++X) {
          Tx = X, Ty = Y, Tz = Z;
          Tid = X + Y * B.X + Z * B.X * B.Y;
          Env.clear();
          Ptrs.clear();
          SymRanges.clear();
          Guarded = false;
          PathShapeDep = false;
          Iters.clear();
          LoopDepth = 0;
          exec(Kernel->getBody());
          if (Exhausted)
            return false;
        }
    for (AccessRecord &R : Out) {
      auto It = Carves.find(R.Array);
      if (It != Carves.end())
        R.Carves = It->second;
    }
    return true;
  }

private:
  // ---- values ------------------------------------------------------------
  static uint64_t key(const void *P, unsigned Salt = 0) {
    return static_cast<uint64_t>(llvm::hash_combine(P, Salt, 0x5eedu));
  }

  bool step() {
    if (++Steps > Budget)
      Exhausted = true;
    return !Exhausted;
  }

  std::optional<int64_t> constantOf(const Expr *E) {
    auto It = Consts.find(E);
    if (It != Consts.end())
      return It->second;
    std::optional<int64_t> R;
    QualType T = E->getType();
    if (!E->isValueDependent() && !E->isTypeDependent() &&
        (T->isIntegralOrEnumerationType()) && !E->HasSideEffects(Ctx)) {
      Expr::EvalResult ER;
      if (E->EvaluateAsInt(ER, Ctx) && ER.Val.getInt().getSignificantBits() <= 64)
        R = ER.Val.getInt().getExtValue();
    }
    Consts[E] = R;
    return R;
  }

  SymVal normalize(SymVal V, QualType T) {
    if (!V.isConst() || !T->isIntegralOrEnumerationType())
      return V;
    if (T->isBooleanType()) {
      V.C = V.C != 0;
      return V;
    }
    unsigned W = Ctx.getIntWidth(T);
    if (W >= 64)
      return V;
    uint64_t Mask = (uint64_t(1) << W) - 1;
    uint64_t U = static_cast<uint64_t>(V.C) & Mask;
    if (T->isUnsignedIntegerOrEnumerationType())
      V.C = static_cast<int64_t>(U);
    else
      V.C = (U >> (W - 1)) ? static_cast<int64_t>(U | ~Mask) : static_cast<int64_t>(U);
    return V;
  }

  /// threadIdx/blockDim/blockIdx/gridDim .x/.y/.z, parsed from the property
  /// access clang builds for them (MSPropertyRefExpr on the builtin variable).
  std::optional<SymVal> builtin(const Expr *E) {
    const auto *P = dyn_cast<PseudoObjectExpr>(E);
    if (!P)
      return std::nullopt;
    const auto *M = dyn_cast<MSPropertyRefExpr>(P->getSyntacticForm()->IgnoreParens());
    if (!M)
      return std::nullopt;
    const Expr *Base = M->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
      Base = O->getSourceExpr()->IgnoreParenImpCasts();
    const auto *D = dyn_cast<DeclRefExpr>(Base);
    if (!D)
      return std::nullopt;
    StringRef Var = D->getDecl()->getName(), Prop = M->getPropertyDecl()->getName();
    int Dim = Prop == "x" ? 0 : Prop == "y" ? 1 : Prop == "z" ? 2 : -1;
    if (Dim < 0)
      return std::nullopt;
    const BlockShape &B = Cfg.Block;
    if (Var == "threadIdx") {
      SymVal V = SymVal::constant(Dim == 0 ? Tx : Dim == 1 ? Ty : Tz);
      V.ShapeDep = Dim != 0;
      V.ThreadDep = true;
      return V;
    }
    if (Var == "blockDim") {
      SymVal V = SymVal::constant(Dim == 0 ? B.X : Dim == 1 ? B.Y : B.Z);
      V.ShapeDep = true;
      return V;
    }
    if (Var == "blockIdx" || Var == "gridDim") {
      uint64_t Id = static_cast<uint64_t>(llvm::hash_combine(Var, Dim, 0xb1du)) | 1;
      (Var == "blockIdx" ? BlockSyms : ParamSyms).insert(Id);
      return SymVal::symbol(Id);
    }
    return std::nullopt;
  }

  Tri truth(const SymVal &V) {
    LastCondDep = V.Top || V.ThreadDep;
    LastCondShape = V.Top || V.ShapeDep;
    LastInterior = V.Interior;
    if (V.isConst())
      return V.C ? Tri::True : Tri::False;
    return Tri::Unknown;
  }

  /// Decides a condition; LastCondDep then says whether an undecided one can
  /// differ between threads (only those make a path "guarded").
  Tri cond(const Expr *E) { return truth(evalAny(E)); }

  // ---- symbol classes, ranges and interior blocks -------------------------
  /// An opaque result; one computed from kernel parameters only is a
  /// parameter value itself (a bound it reaches depends on the parameter).
  SymVal opq(uint64_t Key, const SymVal &A, const SymVal &B) {
    SymVal R = opaque(Key, A, B);
    classify(R, A, B);
    return R;
  }
  void classify(const SymVal &R, const SymVal &A, const SymVal &B) {
    if (R.Top || R.Terms.size() != 1 || (A.Terms.empty() && B.Terms.empty()))
      return;
    for (const SymVal *X : {&A, &B})
      for (const auto &T : X->Terms)
        if (!ParamSyms.count(T.first))
          return;
    ParamSyms.insert(R.Terms[0].first);
  }

  static int64_t satAdd(int64_t A, int64_t B) {
    int64_t R;
    if (__builtin_add_overflow(A, B, &R))
      return B > 0 ? INT64_MAX : INT64_MIN;
    return R;
  }
  /// Range of a linear form from the ranges of its symbols.
  Bound boundOf(const SymVal &V) {
    Bound B;
    if (V.Top)
      return B;
    B.Lo = B.Hi = V.C;
    B.Attainable = true;
    for (const auto &[Id, Coef] : V.Terms) {
      auto It = SymRanges.find(Id);
      Bound S = It != SymRanges.end() ? It->second : Bound();
      if (It == SymRanges.end())
        S.Attainable = !ParamSyms.count(Id);
      B.Attainable &= S.Attainable;
      auto mulSat = [](int64_t X, int64_t C) -> int64_t {
        if (X == INT64_MIN || X == INT64_MAX)
          return (X > 0) == (C > 0) ? INT64_MAX : INT64_MIN;
        int64_t R;
        if (__builtin_mul_overflow(X, C, &R))
          return (X > 0) == (C > 0) ? INT64_MAX : INT64_MIN;
        return R;
      };
      int64_t A = mulSat(S.Lo, Coef), Z = mulSat(S.Hi, Coef);
      if (A > Z)
        std::swap(A, Z);
      B.Lo = (B.Lo == INT64_MIN || A == INT64_MIN) ? INT64_MIN : satAdd(B.Lo, A);
      B.Hi = (B.Hi == INT64_MAX || Z == INT64_MAX) ? INT64_MAX : satAdd(B.Hi, Z);
    }
    return B;
  }
  /// A fresh symbol in [Lo, Hi]. Derived from a known operand it is keyed
  /// by that operand (uniform stays uniform); from an unknown one it differs
  /// per evaluation (lane-dependent unknown).
  SymVal rangedSym(uint64_t Key, const SymVal &From, Bound R) {
    uint64_t Id = From.Top ? static_cast<uint64_t>(llvm::hash_combine(
                                 Key, Tid, ++Fresh, 0xf7e5u)) | 1
                           : static_cast<uint64_t>(llvm::hash_combine(
                                 Key, From.hash(), 0x7a9u)) | 1;
    SymVal V = SymVal::symbol(Id);
    V.ThreadDep = From.Top || From.ThreadDep;
    V.ShapeDep = From.ShapeDep;
    if (!From.Top) {
      bool Param = !From.Terms.empty();
      for (const auto &T : From.Terms)
        Param &= ParamSyms.count(T.first) > 0;
      if (Param)
        ParamSyms.insert(Id);
    }
    SymRanges[Id] = R;
    return V;
  }
  /// Masks, modulo, shifts and divisions by constants of a value that is not
  /// a constant: `data & 63` lies in [0, 63] whatever the data.
  std::optional<SymVal> rangedOp(BinaryOperatorKind Op, const SymVal &A,
                                 const SymVal &B, const void *Site) {
    bool AC = A.isConst(), BC = B.isConst();
    if (AC == BC)
      return std::nullopt;
    const SymVal &X = AC ? B : A;
    int64_t K = AC ? A.C : B.C;
    if (AC && Op != BO_And) // only `x op K` has the constant on the right
      return std::nullopt;
    Bound XB = boundOf(X);
    bool XAtt = X.Top || XB.Attainable;
    Bound R;
    R.Attainable = XAtt;
    switch (Op) {
    case BO_And:
      if (K < 0)
        return std::nullopt;
      R.Lo = 0;
      R.Hi = (XB.finiteLo() && XB.Lo >= 0 && XB.finiteHi()) ? std::min(K, XB.Hi) : K;
      break;
    case BO_Rem:
      if (K <= 0)
        return std::nullopt;
      // Indices are taken modulo a size from non-negative values; a negative
      // dividend is not assumed.
      R.Lo = 0;
      R.Hi = (XB.finiteLo() && XB.Lo >= 0 && XB.finiteHi()) ? std::min(K - 1, XB.Hi)
                                                           : K - 1;
      break;
    case BO_Shr:
    case BO_Div:
      if (K < 0 || (Op == BO_Div && K == 0) || (Op == BO_Shr && K >= 63))
        return std::nullopt;
      if (!XB.finiteLo() || !XB.finiteHi())
        return std::nullopt;
      R.Lo = Op == BO_Shr ? XB.Lo >> K : XB.Lo / K;
      R.Hi = Op == BO_Shr ? XB.Hi >> K : XB.Hi / K;
      break;
    default:
      return std::nullopt;
    }
    return rangedSym(key(Site, Op), X, R);
  }
  /// A value of a narrow integer type that is otherwise unknown lies in the
  /// type's range (`unsigned char c = data[i]`). The bound proves accesses
  /// in bounds; it is not taken as reached (a byte often holds a small code
  /// the program knows the range of), so past it is only "possible".
  SymVal typeBounded(SymVal V, QualType T, const void *Site) {
    if (V.isConst() || !T->isIntegerType() || T->isBooleanType())
      return V;
    unsigned W = Ctx.getIntWidth(T);
    if (W > 16)
      return V;
    Bound R;
    R.Attainable = true;
    if (T->isUnsignedIntegerType()) {
      R.Lo = 0;
      R.Hi = (int64_t(1) << W) - 1;
    } else {
      R.Lo = -(int64_t(1) << (W - 1));
      R.Hi = (int64_t(1) << (W - 1)) - 1;
    }
    Bound Old = boundOf(V);
    if (!V.Top && Old.finiteLo() && Old.finiteHi() && Old.Lo >= R.Lo && Old.Hi <= R.Hi)
      return V; // already within the type
    R.Attainable = false;
    return rangedSym(key(Site, 0x7e), V, R);
  }

  /// Interior blocks of a large enough problem: a comparison of a global
  /// coordinate (a blockIdx term) with a kernel parameter (a problem size)
  /// holds as `coordinate < size`; one with a constant as `coordinate >
  /// constant`. -1 when the difference has other unknowns.
  int8_t interiorTruth(BinaryOperatorKind Op, const SymVal &D) {
    int PSign = 0, BSign = 0;
    for (const auto &[Id, Coef] : D.Terms) {
      int Sg = Coef > 0 ? 1 : -1;
      int &Slot = BlockSyms.count(Id) ? BSign : ParamSyms.count(Id) ? PSign : BSign;
      if (!BlockSyms.count(Id) && !ParamSyms.count(Id))
        return -1;
      if (Slot && Slot != Sg)
        return -1;
      Slot = Sg;
    }
    if (!BSign)
      return -1; // no global coordinate: depends on the parameter's value
    int Sign = PSign ? PSign : BSign;
    switch (Op) {
    case BO_LT: case BO_LE: return Sign < 0;
    case BO_GT: case BO_GE: return Sign > 0;
    case BO_EQ: return 0;
    case BO_NE: return 1;
    default: return -1;
    }
  }

  /// Narrows the range of the one symbol of `L - R` when `L op R` is known
  /// to be `Holds` (inside a branch or a loop body).
  void narrow(const Expr *Cond, bool Holds) {
    const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!B)
      return;
    if (B->getOpcode() == BO_LAnd && Holds) {
      narrow(B->getLHS(), true);
      narrow(B->getRHS(), true);
      return;
    }
    if (B->getOpcode() == BO_LOr && !Holds) {
      narrow(B->getLHS(), false);
      narrow(B->getRHS(), false);
      return;
    }
    if (!B->isComparisonOp() || B->getLHS()->HasSideEffects(Ctx) ||
        B->getRHS()->HasSideEffects(Ctx) || B->getLHS()->getType()->isPointerType())
      return;
    bool SavedNR = NoRecord;
    NoRecord = true;
    SymVal D = sub(eval(B->getLHS()), eval(B->getRHS()));
    NoRecord = SavedNR;
    if (D.Top || D.Terms.empty())
      return;
    BinaryOperatorKind Op = B->getOpcode();
    if (!Holds)
      Op = BinaryOperator::negateComparisonOp(Op);
    // The symbol to narrow: a loop's iteration count if there is one, else
    // the only symbol; the rest of the difference contributes its range.
    size_t Pick = 0;
    if (D.Terms.size() > 1) {
      Pick = D.Terms.size();
      for (size_t I = 0; I < D.Terms.size(); ++I)
        if (IterSyms.count(D.Terms[I].first))
          Pick = I;
      if (Pick == D.Terms.size())
        return;
    }
    auto [Id, A] = D.Terms[Pick];
    SymVal Rest = D;
    Rest.Terms.erase(Rest.Terms.begin() + Pick);
    Rest.C = 0;
    Bound RB = boundOf(Rest);
    int64_t C = D.C;
    // A*s + C op 0  ->  bounds on s.
    auto floorDiv = [](int64_t N, int64_t M) {
      int64_t Q = N / M;
      return (N % M != 0 && ((N < 0) != (M < 0))) ? Q - 1 : Q;
    };
    auto ceilDiv = [&](int64_t N, int64_t M) { return -floorDiv(-N, M); };
    std::optional<int64_t> Hi, Lo;
    // Normalise to A*s op' -C with A > 0.
    // A*s + Rest + C op 0 with Rest in [RB.Lo, RB.Hi]; negated when A < 0.
    if (A < 0) {
      A = -A;
      C = -C;
      Op = BinaryOperator::reverseComparisonOp(Op);
      int64_t L = RB.Hi == INT64_MAX ? INT64_MIN : -RB.Hi;
      int64_t H = RB.Lo == INT64_MIN ? INT64_MAX : -RB.Lo;
      RB.Lo = L;
      RB.Hi = H;
    }
    bool Small = std::abs(C) < (int64_t(1) << 40);
    if (!Small)
      return;
    switch (Op) {
    case BO_LT:
    case BO_LE:
      if (Rest.Terms.empty() || RB.finiteLo())
        Hi = floorDiv(-C - (Rest.Terms.empty() ? 0 : RB.Lo) - (Op == BO_LT), A);
      break;
    case BO_GT:
    case BO_GE:
      if (Rest.Terms.empty() || RB.finiteHi())
        Lo = ceilDiv(-C - (Rest.Terms.empty() ? 0 : RB.Hi) + (Op == BO_GT), A);
      break;
    default:
      return;
    }
    bool Had = SymRanges.count(Id);
    Bound &R = SymRanges[Id];
    if (!Had)
      R.Attainable = !ParamSyms.count(Id);
    if (!Rest.Terms.empty())
      R.Attainable &= RB.Attainable;
    if (Hi && *Hi < R.Hi)
      R.Hi = *Hi;
    if (Lo && *Lo > R.Lo)
      R.Lo = *Lo;
  }

  SymVal evalAny(const Expr *E) {
    // Error recovery leaves expressions without a type (the ParenListExpr
    // under a RecoveryExpr of `UnknownType v(a, b);`): nothing to learn.
    if (!E || E->getType().isNull())
      return SymVal::top();
    QualType T = E->getType();
    if (T->isPointerType() || T->isArrayType()) {
      PtrVal P = evalPtr(E);
      (void)P;
      return SymVal::top();
    }
    return eval(E);
  }

  SymVal loadVar(const VarDecl *V) {
    if (Escaped.count(V))
      return SymVal::top();
    auto It = Env.find(V);
    if (It != Env.end())
      return It->second;
    if (isa<ParmVarDecl>(V) || V->hasGlobalStorage() || V->hasAttr<CUDASharedAttr>()) {
      uint64_t Id = key(V, 1) | 1; // uniform over the block
      if (!V->hasAttr<CUDASharedAttr>())
        ParamSyms.insert(Id);
      return SymVal::symbol(Id);
    }
    return SymVal::top();
  }

  SymVal eval(const Expr *E) {
    if (!step())
      return SymVal::top();
    E = E->IgnoreParens();
    if (auto C = constantOf(E))
      return SymVal::constant(*C);
    if (auto B = builtin(E))
      return *B;
    if (const auto *CE = dyn_cast<CastExpr>(E))
      return evalCast(CE);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return evalUnary(U);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return evalBinary(B);
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return evalConditional(C->getCond(), C->getTrueExpr(), C->getFalseExpr());
    if (const auto *C = dyn_cast<CallExpr>(E))
      return evalCall(C);
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        return loadVar(V);
      return SymVal::top();
    }
    if (const auto *P = dyn_cast<PseudoObjectExpr>(E))
      return eval(P->getResultExpr() ? P->getResultExpr() : P->getSyntacticForm());
    if (const auto *EW = dyn_cast<ExprWithCleanups>(E))
      return eval(EW->getSubExpr());
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return eval(M->getSubExpr());
    if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
      if (CC->getNumArgs() == 1 && CC->getConstructor() &&
          CC->getConstructor()->isCopyOrMoveConstructor())
        recordRead(CC->getArg(0));
      else
        for (const Expr *A : CC->arguments())
          evalAny(A);
      return SymVal::top();
    }
    if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E)) {
      // an lvalue used as such (reference binding, class copy)
      Loc L = resolve(E);
      (void)L;
      return SymVal::top();
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        evalAny(CE);
    return SymVal::top();
  }

  SymVal evalCast(const CastExpr *CE) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue: {
      SymVal V = load(Sub);
      // Data read from memory: unknown, but within its type.
      if (!isa<DeclRefExpr>(Sub->IgnoreParens()))
        return typeBounded(V, CE->getType(), CE);
      return V;
    }
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral: {
      SymVal V = eval(Sub);
      if (CE->getCastKind() == CK_BooleanToSignedIntegral && V.isConst())
        V.C = V.C ? -1 : 0;
      if (CE->getCastKind() == CK_IntegralToBoolean && !V.isConst() && !V.Top)
        return opq(key(CE), V, SymVal());
      if (CE->getCastKind() == CK_IntegralCast && !V.isConst() &&
          Ctx.getIntWidth(CE->getType()) < Ctx.getIntWidth(Sub->getType()))
        return typeBounded(V, CE->getType(), CE);
      return normalize(V, CE->getType());
    }
    default:
      evalAny(Sub);
      return SymVal::top();
    }
  }

  SymVal load(const Expr *Sub) {
    Sub = Sub->IgnoreParens();
    if (const auto *D = dyn_cast<DeclRefExpr>(Sub)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!V)
        return SymVal::top();
      if (V->getType()->isIntegralOrEnumerationType())
        return loadVar(V);
      return SymVal::top();
    }
    // A field of a by-value struct parameter (`p.width`) is a kernel
    // parameter too: uniform, a problem size for the interior-block rule.
    if (const auto *M = dyn_cast<MemberExpr>(Sub);
        M && !M->isArrow() && M->getType()->isIntegralOrEnumerationType())
      if (const auto *D = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts()))
        if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
            P && !P->getType()->isReferenceType() && !Escaped.count(P)) {
          auto It = Env.find(P);
          if (It == Env.end() || !It->second.Top) {
            uint64_t Id = key(M->getMemberDecl(), 13) ^ key(P, 17) | 1;
            ParamSyms.insert(Id);
            return SymVal::symbol(Id);
          }
        }
    Loc L = resolve(Sub);
    if (!L.VD)
      return SymVal::top();
    record(L, Sub, /*Load=*/true, /*Store=*/false);
    // The loaded value is uniform when the address is (same symbol for every
    // lane), lane-dependent otherwise.
    return opaque(key(Sub, 2), L.Off, SymVal());
  }

  SymVal evalUnary(const UnaryOperator *U) {
    const Expr *Sub = U->getSubExpr();
    switch (U->getOpcode()) {
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      int D = U->isIncrementOp() ? 1 : -1;
      if (const VarDecl *V = localVar(Sub)) {
        if (V->getType()->isPointerType()) {
          PtrVal P = lookupPtr(V);
          if (P.VD)
            P.Off = add(P.Off, SymVal::constant(D * pointeeBytes(V->getType())));
          Ptrs[V] = P;
          return SymVal::top();
        }
        SymVal Old = loadVar(V);
        SymVal New = normalize(add(Old, SymVal::constant(D)), V->getType());
        Env[V] = New;
        return U->isPrefix() ? New : Old;
      }
      Loc L = resolve(Sub);
      if (L.VD)
        record(L, Sub, true, true);
      return SymVal::top();
    }
    case UO_Minus:
      return normalize(scale(eval(Sub), -1), U->getType());
    case UO_Plus:
      return eval(Sub);
    case UO_Not: {
      SymVal V = eval(Sub);
      if (V.isConst())
        return normalize(SymVal::constant(~V.C), U->getType());
      return opq(key(U), V, SymVal());
    }
    case UO_LNot: {
      SymVal V = evalAny(Sub);
      if (V.isConst()) {
        SymVal R = V;
        R.C = !V.C;
        return R;
      }
      SymVal R = V.Top ? SymVal::top() : opq(key(U), V, SymVal());
      R.ThreadDep = V.Top || V.ThreadDep;
      R.Interior = V.Interior < 0 ? -1 : !V.Interior;
      return R;
    }
    case UO_AddrOf:
    case UO_Deref:
      evalPtr(U);
      return SymVal::top();
    default:
      return evalAny(Sub);
    }
  }

  SymVal arith(BinaryOperatorKind Op, const SymVal &A, const SymVal &B,
               const void *Site) {
    if (auto R = rangedOp(Op, A, B, Site))
      return *R;
    if (A.Top || B.Top)
      return SymVal::top();
    uint64_t K = key(Site, Op);
    auto CA = A.asConst(), CB = B.asConst();
    SymVal R;
    switch (Op) {
    case BO_Add:
      return add(A, B);
    case BO_Sub:
      return sub(A, B);
    case BO_Mul: {
      SymVal M = mul(A, B, K);
      if (!CA && !CB)
        classify(M, A, B);
      return M;
    }
    case BO_Shl:
      if (CB && *CB >= 0 && *CB < 62)
        return scale(A, int64_t(1) << *CB);
      return opq(K, A, B);
    default:
      break;
    }
    if (!CA || !CB)
      return opq(K, A, B);
    int64_t X = *CA, Y = *CB;
    switch (Op) {
    case BO_Div:
      if (Y == 0)
        return SymVal::top();
      R = SymVal::constant(X / Y);
      break;
    case BO_Rem:
      if (Y == 0)
        return SymVal::top();
      R = SymVal::constant(X % Y);
      break;
    case BO_Shr:
      if (Y < 0 || Y >= 63)
        return SymVal::top();
      R = SymVal::constant(X >> Y);
      break;
    case BO_And:
      R = SymVal::constant(X & Y);
      break;
    case BO_Or:
      R = SymVal::constant(X | Y);
      break;
    case BO_Xor:
      R = SymVal::constant(X ^ Y);
      break;
    case BO_LT: R = SymVal::constant(X < Y); break;
    case BO_GT: R = SymVal::constant(X > Y); break;
    case BO_LE: R = SymVal::constant(X <= Y); break;
    case BO_GE: R = SymVal::constant(X >= Y); break;
    case BO_EQ: R = SymVal::constant(X == Y); break;
    case BO_NE: R = SymVal::constant(X != Y); break;
    default:
      return SymVal::top();
    }
    R.ShapeDep = A.ShapeDep || B.ShapeDep;
    R.ThreadDep = A.ThreadDep || B.ThreadDep;
    return R;
  }

  SymVal compare(BinaryOperatorKind Op, const SymVal &A, const SymVal &B,
                 const void *Site) {
    if (A.isConst() && B.isConst())
      return arith(Op, A, B, Site);
    if (A.sameTerms(B)) { // difference is a constant: decide on it
      SymVal R = arith(Op, SymVal::constant(A.C), SymVal::constant(B.C), Site);
      R.ThreadDep = A.ThreadDep || B.ThreadDep;
      return R;
    }
    if (!A.Top && !B.Top) {
      // The ranges of the difference's symbols may decide it.
      Bound D = boundOf(sub(A, B));
      std::optional<bool> T;
      if (D.finiteHi() && D.Hi < 0)
        T = Op == BO_LT || Op == BO_LE || Op == BO_NE;
      else if (D.finiteLo() && D.Lo > 0)
        T = Op == BO_GT || Op == BO_GE || Op == BO_NE;
      else if (D.finiteHi() && D.Hi == 0 && (Op == BO_LE || Op == BO_GT))
        T = Op == BO_LE;
      else if (D.finiteLo() && D.Lo == 0 && (Op == BO_GE || Op == BO_LT))
        T = Op == BO_GE;
      if (T) {
        SymVal R = SymVal::constant(*T);
        R.ThreadDep = A.ThreadDep || B.ThreadDep;
        return R;
      }
    }
    SymVal R = opq(key(Site, Op), A, B);
    if (!A.Top && !B.Top)
      R.Interior = interiorTruth(Op, sub(A, B));
    return R;
  }

  SymVal evalBinary(const BinaryOperator *B) {
    if (B->isAssignmentOp())
      return assign(B);
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_Comma) {
      evalAny(B->getLHS());
      return evalAny(B->getRHS());
    }
    if (Op == BO_LAnd || Op == BO_LOr) {
      Tri L = cond(B->getLHS());
      bool Short = (Op == BO_LAnd) ? L == Tri::False : L == Tri::True;
      if (Short)
        return SymVal::constant(Op == BO_LOr);
      int IL = L == Tri::Unknown ? LastInterior : L == Tri::True;
      bool DL = LastCondDep;
      bool Saved = Guarded;
      if (L == Tri::Unknown)
        Guarded = Saved || LastCondDep;
      Tri R = cond(B->getRHS());
      int IR = R == Tri::Unknown ? LastInterior : R == Tri::True;
      bool DR = LastCondDep;
      Guarded = Saved;
      SymVal U = SymVal::top();
      U.ThreadDep = DL || DR;
      // In the interior blocks: both sides' interior values combined.
      if (Op == BO_LAnd)
        U.Interior = (IL == 0 || IR == 0) ? 0 : (IL == 1 && IR == 1) ? 1 : -1;
      else
        U.Interior = (IL == 1 || IR == 1) ? 1 : (IL == 0 && IR == 0) ? 0 : -1;
      if (L != Tri::Unknown)
        return R == Tri::Unknown ? U : SymVal::constant(R == Tri::True);
      // L unknown: decided only when R forces the result.
      if (Op == BO_LAnd && R == Tri::False)
        return SymVal::constant(0);
      if (Op == BO_LOr && R == Tri::True)
        return SymVal::constant(1);
      return U;
    }
    if (B->getLHS()->getType()->isPointerType() ||
        B->getRHS()->getType()->isPointerType()) {
      // Pointer comparisons and differences: only their operands matter.
      evalAny(B->getLHS());
      evalAny(B->getRHS());
      return SymVal::top();
    }
    SymVal L = eval(B->getLHS()), R = eval(B->getRHS());
    if (B->isComparisonOp())
      return compare(Op, L, R, B);
    return normalize(arith(Op, L, R, B), B->getType());
  }

  SymVal evalConditional(const Expr *C, const Expr *T, const Expr *F) {
    Tri Cd = cond(C);
    if (Cd == Tri::True)
      return evalAny(T);
    if (Cd == Tri::False)
      return evalAny(F);
    bool Saved = Guarded;
    Guarded = Saved || LastCondDep;
    SymVal A = evalAny(T), B = evalAny(F);
    Guarded = Saved;
    return A == B ? A : SymVal::top();
  }

  /// A class-type glvalue read as a whole (copy constructor / assignment
  /// source): `float4 v = tile[i];`.
  void recordRead(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr()->IgnoreParenImpCasts();
    if (E->isGLValue() && (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E) ||
                           isa<UnaryOperator>(E))) {
      Loc L = resolve(E);
      if (L.VD)
        record(L, E, /*Load=*/true, /*Store=*/false);
      return;
    }
    evalAny(E);
  }

  SymVal evalCall(const CallExpr *C) {
    // Trivial struct assignment (float2/float4/...) is an operator= call.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C)) {
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
        recordRead(Op->getArg(1));
        const Expr *LHS = Op->getArg(0)->IgnoreParens();
        if (!localVar(LHS)) {
          Loc L = resolve(LHS);
          if (L.VD)
            record(L, LHS, /*Load=*/false, /*Store=*/true);
        }
        return SymVal::top();
      }
    }
    // atomicAdd(&hist[bin], 1) and friends read and write the pointee.
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->getIdentifier() && F->getName().starts_with("atomic") &&
        C->getNumArgs() >= 1 && C->getArg(0)->getType()->isPointerType()) {
      const Expr *A0 = C->getArg(0)->IgnoreParenImpCasts();
      Loc L;
      const Expr *Site = A0;
      if (const auto *U = dyn_cast<UnaryOperator>(A0);
          U && U->getOpcode() == UO_AddrOf) {
        Site = U->getSubExpr()->IgnoreParens();
        L = resolve(Site);
      } else {
        PtrVal P = evalPtr(A0);
        L.VD = P.VD;
        L.Off = P.Off;
        L.Carve = P.Carve;
        L.CarveStart = P.CarveStart;
      }
      if (L.VD) {
        AtomicSite = true;
        record(L, Site, /*Load=*/true, /*Store=*/true);
        AtomicSite = false;
      }
      for (unsigned I = 1; I < C->getNumArgs(); ++I)
        evalAny(C->getArg(I));
      return SymVal::top();
    }
    std::vector<SymVal> Args;
    for (const Expr *A : C->arguments())
      Args.push_back(evalAny(A));
    if (const FunctionDecl *F = C->getDirectCallee()) {
      StringRef N = F->getName();
      if ((N == "min" || N == "max" || N == "umin" || N == "umax") &&
          Args.size() == 2 && Args[0].isConst() && Args[1].isConst() &&
          C->getType()->isIntegerType()) {
        int64_t X = Args[0].C, Y = Args[1].C;
        return SymVal::constant(N.ends_with("min") ? std::min(X, Y) : std::max(X, Y));
      }
      // min(x, K) <= K, max(x, K) >= K whatever x is.
      if ((N == "min" || N == "max" || N == "umin" || N == "umax") &&
          Args.size() == 2 && Args[0].isConst() != Args[1].isConst() &&
          C->getType()->isIntegerType()) {
        const SymVal &X = Args[0].isConst() ? Args[1] : Args[0];
        int64_t K = Args[0].isConst() ? Args[0].C : Args[1].C;
        Bound XB = boundOf(X), R = XB;
        R.Attainable = X.Top || XB.Attainable;
        if (N.ends_with("min")) {
          R.Hi = XB.finiteHi() ? std::min(K, XB.Hi) : K;
          R.Lo = XB.finiteLo() ? std::min(K, XB.Lo) : INT64_MIN;
        } else {
          R.Lo = XB.finiteLo() ? std::max(K, XB.Lo) : K;
          R.Hi = XB.finiteHi() ? std::max(K, XB.Hi) : INT64_MAX;
        }
        return rangedSym(key(C, 0x313), X, R);
      }
    }
    return SymVal::top();
  }

  PtrVal lookupPtr(const VarDecl *V) {
    return Escaped.count(V) ? PtrVal() : Ptrs.lookup(V);
  }

  const VarDecl *localVar(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    const auto *D = dyn_cast<DeclRefExpr>(E);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || V->hasGlobalStorage() || V->hasAttr<CUDASharedAttr>())
      return nullptr;
    return V;
  }

  int64_t pointeeBytes(QualType PtrT) {
    QualType P = PtrT->getPointeeType();
    if (P.isNull() || P->isIncompleteType() || P->isVoidType())
      return 1;
    return Ctx.getTypeSizeInChars(P).getQuantity();
  }

  SymVal assign(const BinaryOperator *B) {
    BinaryOperatorKind Op = B->getOpcode();
    bool Plain = Op == BO_Assign;
    const Expr *LHS = B->getLHS()->IgnoreParens();
    if (const VarDecl *V = localVar(LHS)) {
      QualType T = V->getType();
      if (T->isPointerType()) {
        if (Plain) {
          Ptrs[V] = evalPtr(B->getRHS());
        } else {
          SymVal I = eval(B->getRHS());
          PtrVal P = lookupPtr(V);
          if (P.VD) {
            SymVal D = scale(I, pointeeBytes(T));
            P.Off = Op == BO_AddAssign ? add(P.Off, D)
                    : Op == BO_SubAssign ? sub(P.Off, D) : SymVal::top();
          }
          Ptrs[V] = P;
        }
        return SymVal::top();
      }
      if (T->isIntegralOrEnumerationType()) {
        SymVal R = eval(B->getRHS());
        SymVal New = Plain ? R
                           : arith(BinaryOperator::getOpForCompoundAssignment(Op),
                                   loadVar(V), R, B);
        New = normalize(New, T);
        Env[V] = New;
        return New;
      }
      evalAny(B->getRHS());
      Env[V] = SymVal::top();
      return SymVal::top();
    }
    evalAny(B->getRHS());
    Loc L = resolve(LHS);
    if (L.VD)
      record(L, LHS, /*Load=*/!Plain, /*Store=*/true);
    return SymVal::top();
  }

  // ---- locations and pointers -------------------------------------------
  ArrayLayout &layout(const VarDecl *VD) {
    auto It = Layouts.find(VD);
    if (It == Layouts.end())
      It = Layouts.emplace(VD, layoutOf(Ctx, VD, Cfg, Pad)).first;
    return It->second;
  }

  int64_t bytesOf(QualType T) {
    if (T->isIncompleteType() || T->isDependentType())
      return 0;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }

  Loc resolve(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      SymVal Idx = eval(AS->getIdx());
      const Expr *Base = AS->getBase()->IgnoreParens();
      const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
      if (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
        Loc In = resolve(Decay->getSubExpr());
        if (!In.VD)
          return In;
        ArrayLayout &L = layout(In.VD);
        if (In.Direct && !In.Member && In.Dims.size() < L.Strides.size()) {
          In.Off = add(In.Off, scale(Idx, L.Strides[In.Dims.size()]));
          In.Dims.push_back(Idx);
          return In;
        }
        In.Direct = false;
        In.Off = add(In.Off, scale(Idx, bytesOf(AS->getType())));
        return In;
      }
      PtrVal P = evalPtr(AS->getBase());
      Loc L;
      if (P.VD) {
        L.VD = P.VD;
        L.Off = add(P.Off, scale(Idx, bytesOf(AS->getType())));
        L.Carve = P.Carve;
        L.CarveStart = P.CarveStart;
      }
      return L;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      Loc L;
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (V && V->hasAttr<CUDASharedAttr>()) {
        L.VD = V;
        L.Direct = true;
      }
      return L;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Deref) {
        PtrVal P = evalPtr(U->getSubExpr());
        Loc L;
        L.VD = P.VD;
        L.Off = P.Off;
        L.Carve = P.Carve;
        L.CarveStart = P.CarveStart;
        return L;
      }
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      Loc L;
      if (M->isArrow()) {
        PtrVal P = evalPtr(M->getBase());
        L.VD = P.VD;
        L.Off = P.Off;
      } else {
        L = resolve(M->getBase());
      }
      const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!L.VD || !FD || FD->getParent()->isInvalidDecl() ||
          FD->getParent()->isDependentType()) {
        L.VD = nullptr;
        return L;
      }
      const ASTRecordLayout &RL = Ctx.getASTRecordLayout(FD->getParent());
      L.Off = add(L.Off, SymVal::constant(
                             RL.getFieldOffset(FD->getFieldIndex()) / 8));
      L.Member = true;
      return L;
    }
    if (const auto *CE = dyn_cast<CastExpr>(E))
      if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueBitCast)
        return resolve(CE->getSubExpr());
    evalAny(E);
    return Loc();
  }

  PtrVal evalPtr(const Expr *E) {
    if (!step())
      return PtrVal();
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = CE->getSubExpr();
      switch (CE->getCastKind()) {
      case CK_ArrayToPointerDecay: {
        Loc L = resolve(Sub);
        return PtrVal{L.VD, L.Off};
      }
      case CK_LValueToRValue: {
        if (const VarDecl *V = localVar(Sub))
          return lookupPtr(V);
        resolve(Sub);
        return PtrVal();
      }
      case CK_BitCast:
      case CK_NoOp:
      case CK_AddressSpaceConversion:
      case CK_UserDefinedConversion:
        return evalPtr(Sub);
      default:
        evalAny(Sub);
        return PtrVal();
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf) {
        Loc L = resolve(U->getSubExpr());
        return PtrVal{L.VD, L.Off};
      }
      if (U->isIncrementDecrementOp()) {
        evalUnary(U);
        if (const VarDecl *V = localVar(U->getSubExpr()))
          return lookupPtr(V);
        return PtrVal();
      }
      if (U->getOpcode() == UO_Deref) {
        resolve(U);
        return PtrVal();
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp()) {
        assign(B);
        if (const VarDecl *V = localVar(B->getLHS()))
          return lookupPtr(V);
        return PtrVal();
      }
      if (B->getOpcode() == BO_Comma) {
        evalAny(B->getLHS());
        return evalPtr(B->getRHS());
      }
      if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) {
        bool LP = B->getLHS()->getType()->isPointerType() ||
                  B->getLHS()->getType()->isArrayType();
        const Expr *PE = LP ? B->getLHS() : B->getRHS();
        const Expr *IE = LP ? B->getRHS() : B->getLHS();
        if (IE->getType()->isPointerType()) { // pointer difference
          evalPtr(PE);
          evalPtr(IE);
          return PtrVal();
        }
        PtrVal P = evalPtr(PE);
        SymVal I = scale(eval(IE), pointeeBytes(B->getType()));
        if (P.VD)
          P.Off = B->getOpcode() == BO_Add ? add(P.Off, I) : sub(P.Off, I);
        return P;
      }
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      Tri Cd = cond(C->getCond());
      if (Cd == Tri::True)
        return evalPtr(C->getTrueExpr());
      if (Cd == Tri::False)
        return evalPtr(C->getFalseExpr());
      bool Saved = Guarded;
      Guarded = Saved || LastCondDep;
      PtrVal A = evalPtr(C->getTrueExpr()), B = evalPtr(C->getFalseExpr());
      Guarded = Saved;
      // `use_smem ? smem : dst` may point anywhere: not a shared access.
      if (A.VD && A.VD == B.VD && A.Off == B.Off)
        return A;
      return PtrVal();
    }
    if (const auto *EW = dyn_cast<ExprWithCleanups>(E))
      return evalPtr(EW->getSubExpr());
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalPtr(M->getSubExpr());
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      for (const Expr *A : C->arguments())
        evalAny(A);
      if (const VarDecl *V = returnedSharedArray(C->getDirectCallee()))
        return PtrVal{V, SymVal::constant(0)};
      return PtrVal();
    }
    // Anything else yields an unknown pointer; visit the operands only (never
    // eval(E) itself, which would come back here).
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        evalAny(CE);
    return PtrVal();
  }

  /// The one-line accessor idiom `extern __shared__ int s[]; return (T *)s;`
  /// (cuda-samples' SharedMemory<T>::operator T*, many hand-written
  /// helpers): the call yields a pointer to that array.
  const VarDecl *returnedSharedArray(const FunctionDecl *F) {
    if (!F || !F->hasBody())
      return nullptr;
    const auto *Body = dyn_cast<CompoundStmt>(F->getBody());
    if (!Body || Body->size() > 3)
      return nullptr;
    const VarDecl *Found = nullptr;
    for (const Stmt *S : Body->body()) {
      const auto *R = dyn_cast<ReturnStmt>(S);
      if (!R || !R->getRetValue())
        continue;
      const Expr *V = R->getRetValue()->IgnoreParenCasts();
      const auto *D = dyn_cast<DeclRefExpr>(V);
      const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      if (!VD || !VD->hasAttr<CUDASharedAttr>() || !VD->getType()->isArrayType())
        return nullptr;
      Found = VD;
    }
    return Found;
  }

  // ---- recording ---------------------------------------------------------
  unsigned iterKey() {
    auto It = IterKeys.find(Iters);
    if (It != IterKeys.end())
      return It->second;
    unsigned K = IterKeys.size();
    IterKeys.emplace(Iters, K);
    return K;
  }

  void record(const Loc &L, const Expr *E, bool Load, bool Store) {
    if (NoRecord || Exhausted)
      return;
    auto It = Index.find(E);
    if (It == Index.end()) {
      AccessRecord R;
      R.E = E;
      R.Array = L.VD;
      R.Bytes = static_cast<unsigned>(bytesOf(E->getType()));
      if (AtomicSite && E->getType()->isPointerType())
        R.Bytes = static_cast<unsigned>(pointeeBytes(E->getType()));
      It = Index.try_emplace(E, static_cast<unsigned>(Out.size())).first;
      Out.push_back(std::move(R));
    }
    AccessRecord &R = Out[It->second];
    R.Load |= Load;
    R.Store |= Store;
    R.Atomic |= AtomicSite;
    R.InLoop |= LoopDepth > 0;
    R.Direct &= L.Direct;
    if (R.Inst.size() >= MaxInstances) {
      Exhausted = true;
      return;
    }
    Instance I;
    I.Tid = Tid;
    I.IterKey = iterKey();
    I.Off = L.Off;
    I.Off.ShapeDep |= PathShapeDep;
    if (L.Direct) {
      I.Dims = L.Dims;
      for (const SymVal &D : L.Dims)
        I.DimBounds.push_back(D.isConst() ? Bound() : boundOf(D));
    }
    if (!L.Off.isConst())
      I.OffBound = boundOf(L.Off);
    if (L.Carve && !L.Off.Top && !L.CarveStart.Top) {
      I.Carve = L.Carve;
      I.CarveStart = L.CarveStart;
      SymVal Rel = sub(L.Off, L.CarveStart);
      I.CarveRel = Rel;
      if (!Rel.isConst())
        I.CarveRelBound = boundOf(Rel);
    }
    I.Guarded = Guarded;
    R.Inst.push_back(std::move(I));
  }

  // ---- statements --------------------------------------------------------
  using EnvT = llvm::DenseMap<const VarDecl *, SymVal>;
  using PtrEnvT = llvm::DenseMap<const VarDecl *, PtrVal>;

  void join(const EnvT &A, const PtrEnvT &PA, const EnvT &B, const PtrEnvT &PB) {
    Env.clear();
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      Env[KV.first] = (It != B.end() && It->second == KV.second) ? KV.second
                                                                 : SymVal::top();
    }
    for (const auto &KV : B)
      if (!A.count(KV.first))
        Env[KV.first] = SymVal::top();
    Ptrs.clear();
    for (const auto &KV : PA) {
      auto It = PB.find(KV.first);
      bool Same = It != PB.end() && It->second.VD == KV.second.VD &&
                  It->second.Off == KV.second.Off &&
                  It->second.Carve == KV.second.Carve;
      Ptrs[KV.first] = Same ? KV.second : PtrVal();
    }
    for (const auto &KV : PB)
      if (!PA.count(KV.first))
        Ptrs[KV.first] = PtrVal();
  }

  Flow exec(const Stmt *S) {
    if (!S || Exhausted)
      return Flow::Normal;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body()) {
        Flow F = exec(Child);
        if (F != Flow::Normal)
          return F;
      }
      return Flow::Normal;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          declare(V);
      return Flow::Normal;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      // A thread that calls __trap()/abort()/__assert_fail() goes no further.
      if (isNoReturnCall(E)) {
        evalAny(E);
        return Flow::Return;
      }
      // assert(c) expands to `c ? void(0) : __assert_fail(...)`: a guard.
      if (const auto *CO = dyn_cast<ConditionalOperator>(
              E->IgnoreImplicit()->IgnoreParenCasts()))
        if (isNoReturnCall(CO->getTrueExpr()) || isNoReturnCall(CO->getFalseExpr()))
          return execBranch(CO->getCond(), CO->getTrueExpr(), CO->getFalseExpr(),
                            /*Consteval=*/false);
      evalAny(E);
      return Flow::Normal;
    }
    if (const auto *I = dyn_cast<IfStmt>(S))
      return execIf(I);
    if (const auto *F = dyn_cast<ForStmt>(S))
      return execLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(),
                      false, F->getConditionVariableDeclStmt());
    if (const auto *W = dyn_cast<WhileStmt>(S))
      return execLoop(W, nullptr, W->getCond(), nullptr, W->getBody(), false,
                      W->getConditionVariableDeclStmt());
    if (const auto *D = dyn_cast<DoStmt>(S))
      return execLoop(D, nullptr, D->getCond(), nullptr, D->getBody(), true,
                      nullptr);
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (R->getRetValue())
        evalAny(R->getRetValue());
      return Flow::Return;
    }
    if (isa<BreakStmt>(S))
      return Flow::Break;
    if (isa<ContinueStmt>(S))
      return Flow::Continue;
    if (const auto *L = dyn_cast<LabelStmt>(S))
      return exec(L->getSubStmt());
    if (const auto *A = dyn_cast<AttributedStmt>(S))
      return exec(A->getSubStmt());
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      evalAny(Sw->getCond());
      return opaqueRegion(Sw->getBody(), Sw);
    }
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      return opaqueRegion(R->getBody(), R);
    if (isa<NullStmt>(S) || isa<AsmStmt>(S))
      return Flow::Normal;
    // goto and anything unusual: give up on the rest of this thread's path.
    Guarded = true;
    return Flow::Normal;
  }

  void declare(const VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>() || V->hasGlobalStorage())
      return;
    const Expr *Init = V->getInit();
    QualType T = V->getType();
    if (T->isPointerType()) {
      PtrVal P = Init ? evalPtr(Init) : PtrVal();
      if (P.VD && !P.Off.Top && !P.Off.ThreadDep && LoopDepth == 0 && !Guarded) {
        P.Carve = V;
        P.CarveStart = P.Off;
        auto &C = Carves[P.VD];
        if (std::find(C.begin(), C.end(), P.Off) == C.end())
          C.push_back(P.Off);
      }
      Ptrs[V] = P;
      return;
    }
    if (T->isReferenceType()) {
      if (Init)
        evalAny(Init);
      return;
    }
    SymVal Val = Init ? evalAny(Init) : SymVal::top();
    Env[V] = T->isIntegralOrEnumerationType() ? normalize(Val, T) : SymVal::top();
  }

  Flow execIf(const IfStmt *I) {
    if (I->getInit())
      exec(I->getInit());
    if (I->getConditionVariableDeclStmt())
      exec(I->getConditionVariableDeclStmt());
    return execBranch(I->getCond(), I->getThen(), I->getElse(), I->isConsteval());
  }

  /// A call that does not return to the thread (noreturn, or CUDA's __trap).
  static bool isNoReturnCall(const Expr *E) {
    if (!E)
      return false;
    const auto *C = dyn_cast<CallExpr>(E->IgnoreImplicit()->IgnoreParenCasts());
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    if (!F)
      return false;
    if (F->isNoReturn())
      return true;
    StringRef N = F->getName();
    return N == "__trap" || N == "__assert_fail" || N == "__assertfail" || N == "abort";
  }

  Flow execBranch(const Expr *Cond, const Stmt *Then, const Stmt *Else, bool Consteval) {
    Tri C = Consteval ? Tri::Unknown : cond(Cond);
    // Which threads get here depends on the block shape: under an assumed
    // shape, nothing on this path can be judged.
    bool SavedShape = PathShapeDep, Shape = LastCondShape;
    PathShapeDep |= Shape;
    if (C != Tri::Unknown) {
      Flow F = exec(C == Tri::True ? Then : Else);
      PathShapeDep = SavedShape || (Shape && F != Flow::Normal);
      return F;
    }
    bool Saved = Guarded, Dep = LastCondDep;
    int Interior = LastInterior;
    // A guard on a global coordinate against a problem size takes one side
    // in every interior block: that side is not "guarded".
    Guarded = Saved || (Dep && Interior != 1);
    EnvT E0 = Env;
    PtrEnvT P0 = Ptrs;
    RangeMap R0 = SymRanges;
    if (!Consteval)
      narrow(Cond, true);
    Flow FT = exec(Then);
    EnvT ET = std::move(Env);
    PtrEnvT PT = std::move(Ptrs);
    Env = std::move(E0);
    Ptrs = std::move(P0);
    SymRanges = R0;
    Guarded = Saved || (Dep && Interior != 0);
    if (!Consteval)
      narrow(Cond, false);
    Flow FE = exec(Else);
    EnvT EE = std::move(Env);
    PtrEnvT PE = std::move(Ptrs);
    SymRanges = std::move(R0);
    // After the branch: a side that returned leaves the other's facts.
    if (!Consteval && FT != Flow::Normal && FE == Flow::Normal)
      narrow(Cond, false);
    else if (!Consteval && FE != Flow::Normal && FT == Flow::Normal)
      narrow(Cond, true);
    join(ET, PT, EE, PE); // rebuilds Env/Ptrs: its inputs must not alias them
    // A branch that may leave keeps the rest of the path undecided, unless
    // only edge blocks take it.
    bool Leaves = Interior == 1   ? FT != Flow::Normal
                  : Interior == 0 ? FE != Flow::Normal
                                  : (FT != Flow::Normal || FE != Flow::Normal);
    Guarded = Saved || (Dep && Leaves);
    PathShapeDep = SavedShape || (Shape && (FT != Flow::Normal || FE != Flow::Normal));
    if (FT == Flow::Return && FE == Flow::Return)
      return Flow::Return;
    return Flow::Normal;
  }

  /// Runs a region whose control flow is not modelled (switch, range-for):
  /// once, guarded, with everything it writes havocked.
  Flow opaqueRegion(const Stmt *Body, const Stmt *Key) {
    bool Saved = Guarded;
    Guarded = true;
    havoc(Key, Body, nullptr, nullptr, /*Induction=*/false);
    ++LoopDepth;
    Iters.push_back(-1);
    exec(Body);
    Iters.pop_back();
    --LoopDepth;
    havoc(Key, Body, nullptr, nullptr, false);
    Guarded = Saved;
    return Flow::Normal;
  }

  LoopInfo &loopInfo(const Stmt *Loop, const Stmt *Body, const Expr *Cond,
                     const Expr *Inc) {
    auto It = Loops.find(Loop);
    if (It != Loops.end())
      return It->second;
    LoopScanner S;
    S.TraverseStmt(const_cast<Stmt *>(Body));
    if (Cond)
      S.TraverseStmt(const_cast<Expr *>(Cond));
    if (Inc)
      S.TraverseStmt(const_cast<Expr *>(Inc));
    LoopInfo LI;
    LI.Written = S.Order;
    LI.Exits = S.Exits;
    for (const VarDecl *V : S.Order) {
      if (S.Complex.count(V) || !S.Step.count(V))
        continue;
      auto St = S.Step[V];
      // the step must not change inside the loop
      LoopScanner Inner;
      if (!isa<UnaryOperator>(St.first))
        Inner.TraverseStmt(const_cast<Expr *>(St.first));
      bool Stable = true;
      for (const VarDecl *W : S.Order)
        if (Inner.Refs.count(W))
          Stable = false;
      if (Stable)
        LI.Step[V] = St;
    }
    return Loops.emplace(Loop, std::move(LI)).first->second;
  }

  void havoc(const Stmt *Loop, const Stmt *Body, const Expr *Cond,
             const Expr *Inc, bool Induction) {
    LoopInfo &LI = loopInfo(Loop, Body, Cond, Inc);
    for (const VarDecl *V : LI.Written) {
      if (V->hasGlobalStorage() || V->hasAttr<CUDASharedAttr>())
        continue;
      if (V->getType()->isPointerType()) {
        Ptrs[V] = PtrVal();
        continue;
      }
      auto St = LI.Step.find(V);
      if (!Induction || St == LI.Step.end()) {
        Env[V] = SymVal::top();
        continue;
      }
      SymVal StepV;
      if (isa<UnaryOperator>(St->second.first)) {
        StepV = SymVal::constant(1);
      } else {
        bool SavedNR = NoRecord;
        NoRecord = true;
        StepV = eval(St->second.first);
        NoRecord = SavedNR;
      }
      StepV = scale(StepV, St->second.second);
      uint64_t KId = (key(Loop, 7) ^ key(V, 9)) | 1;
      SymVal K = SymVal::symbol(KId);
      // The number of further iterations: at least 0; its upper bound comes
      // from the loop condition (narrow). The bound is reached when nothing
      // but the condition leaves the loop.
      IterSyms.insert(KId);
      Bound KB;
      KB.Lo = 0;
      KB.Attainable = !LI.Exits;
      SymRanges[KId] = KB;
      Env[V] = add(loadVar(V), mul(StepV, K, key(Loop, 11)));
    }
  }

  Flow execLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                const Expr *Inc, const Stmt *Body, bool IsDo,
                const DeclStmt *CondVar) {
    if (Init)
      exec(Init);
    ++LoopDepth;
    Iters.push_back(0);
    Flow Result = Flow::Normal;
    bool Symbolic = false, EntryInterior = false;
    bool SavedShape = PathShapeDep;
    for (unsigned I = 0;; ++I) {
      if (I >= MaxUnroll || Exhausted) {
        Symbolic = true;
        break;
      }
      if (!IsDo || I > 0) {
        if (CondVar)
          exec(CondVar);
        Tri C = Cond ? cond(Cond) : Tri::True;
        if (Cond)
          PathShapeDep |= LastCondShape;
        if (C == Tri::False)
          break;
        if (C == Tri::Unknown) {
          // Every thread of an interior block enters the loop.
          EntryInterior = I == 0 && LastInterior == 1;
          Symbolic = true;
          break;
        }
      }
      Iters.back() = static_cast<int>(I);
      Flow F = exec(Body);
      if (F == Flow::Return) {
        Result = Flow::Return;
        break;
      }
      if (F == Flow::Break)
        break;
      if (Inc)
        evalAny(Inc);
    }
    if (Symbolic && !Exhausted) {
      bool Saved = Guarded;
      havoc(Loop, Body, Cond, Inc, /*Induction=*/true);
      Iters.back() = -1;
      if (CondVar)
        exec(CondVar);
      Tri C = Cond ? cond(Cond) : Tri::Unknown;
      if (!Cond)
        LastCondDep = true; // an unrolled-out infinite loop: who stays is unknown
      if (C != Tri::False) {
        Guarded = Saved || (C == Tri::Unknown && LastCondDep && !EntryInterior &&
                            LastInterior != 1);
        RangeMap R0 = SymRanges;
        if (Cond)
          narrow(Cond, true);
        exec(Body);
        SymRanges = std::move(R0);
      }
      if (Inc)
        evalAny(Inc);
      havoc(Loop, Body, Cond, Inc, /*Induction=*/false);
      Guarded = Saved;
    }
    Iters.pop_back();
    --LoopDepth;
    PathShapeDep = SavedShape || (PathShapeDep && Result != Flow::Normal);
    return Result;
  }

  ASTContext &Ctx;
  const FunctionDecl *Kernel;
  const LaunchConfig &Cfg;
  unsigned MaxUnroll;
  const std::map<const VarDecl *, uint64_t> &Pad;
  std::vector<AccessRecord> &Out;

  uint64_t Budget;
  static constexpr size_t MaxInstances = 400000;
  uint64_t Steps = 0;
  bool Exhausted = false;
  bool NoRecord = false;
  bool AtomicSite = false; ///< recording the pointee of an atomic*() call
  bool LastCondDep = true;
  bool LastCondShape = true;
  int LastInterior = -1; ///< interior value of the last undecided condition
  bool PathShapeDep = false; ///< a condition on the path depends on blockDim/threadIdx.y/z

  unsigned Tx = 0, Ty = 0, Tz = 0, Tid = 0;
  using RangeMap = llvm::DenseMap<uint64_t, Bound>;
  RangeMap SymRanges; ///< per thread: ranges of symbols (masks, counters)
  llvm::DenseSet<uint64_t> BlockSyms, ParamSyms, IterSyms;
  uint64_t Fresh = 0;
  EnvT Env;
  PtrEnvT Ptrs;
  llvm::DenseSet<const VarDecl *> Escaped; // see EscapeScanner
  bool Guarded = false;
  std::vector<int> Iters;
  unsigned LoopDepth = 0;

  llvm::DenseMap<const Expr *, std::optional<int64_t>> Consts;
  llvm::DenseMap<const Expr *, unsigned> Index;
  std::map<std::vector<int>, unsigned> IterKeys;
  std::map<const VarDecl *, ArrayLayout> Layouts;
  std::map<const Stmt *, LoopInfo> Loops;
  std::map<const VarDecl *, std::vector<SymVal>> Carves; ///< starts, per array
};

} // namespace

bool interpretKernel(ASTContext &Ctx, const FunctionDecl *Kernel,
                     const LaunchConfig &Cfg, unsigned MaxUnroll,
                     const std::map<const VarDecl *, uint64_t> &Pad,
                     std::vector<AccessRecord> &Out, uint64_t &Budget) {
  if (!Kernel->hasBody())
    return true;
  Interp I(Ctx, Kernel, Cfg, MaxUnroll, Pad, Out, Budget);
  bool Done = I.run();
  Budget -= std::min(Budget, I.stepsTaken());
  return Done;
}

} // namespace cgt::smem
