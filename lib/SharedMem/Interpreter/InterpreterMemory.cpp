//===- InterpreterMemory.cpp - __shared__ locations and recording -----------===//
//
// Which expressions denote __shared__ storage and where in it: subscripts of
// the array keep per-dimension indices (Direct), pointers carry a byte offset
// from the array's start (PtrVal), and pointers declared at the top of the
// kernel at a thread-independent offset are carves with their own region.
// Only expressions that provably point into one array are locations; a
// pointer that may point elsewhere is no location and is never recorded.
// record() turns a location reached by a thread into an Instance, in the
// record of its expression and array (a helper's access reaches each array
// its calls pass, each with its own layout).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"

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

namespace detail {

const VarDecl *Interp::localVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V || isStatic(V))
    return nullptr;
  return V;
}

int64_t Interp::pointeeBytes(QualType PtrT) {
  QualType P = PtrT->getPointeeType();
  if (P.isNull() || P->isIncompleteType() || P->isVoidType())
    return 1;
  return Ctx.getTypeSizeInChars(P).getQuantity();
}

ArrayLayout &Interp::layout(const VarDecl *VD) {
  auto It = Layouts.find(VD);
  if (It == Layouts.end())
    It = Layouts.emplace(VD, layoutOf(Ctx, VD, Cfg, Pad)).first;
  return It->second;
}

int64_t Interp::bytesOf(QualType T) {
  if (T->isIncompleteType() || T->isDependentType())
    return 0;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

Loc Interp::resolve(const Expr *E) {
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
    if (auto It = V ? RefLocs.find(V) : RefLocs.end(); It != RefLocs.end())
      return It->second; // a callee's reference parameter bound to shared storage
    if (V && varClass(V) == VarClass::Shared) {
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

PtrVal Interp::evalPtr(const Expr *E) {
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
    bool Dep = LastCondDep;
    int Interior = LastInterior;
    OperandArm Arm = enterOperand(C->getCond(), true, Dep, Interior);
    PtrVal A = evalPtr(C->getTrueExpr());
    leaveOperand(Arm);
    Arm = enterOperand(C->getCond(), false, Dep, Interior);
    PtrVal B = evalPtr(C->getFalseExpr());
    leaveOperand(Arm);
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
    if (const FunctionDecl *F = C->getDirectCallee(); F && inlinable(C, F)) {
      inlineCall(C, F);
      return LastReturnPtr;
    }
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
const VarDecl *Interp::returnedSharedArray(const FunctionDecl *F) {
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

unsigned Interp::iterKey() {
  auto It = IterKeys.find(Iters);
  if (It != IterKeys.end())
    return It->second;
  unsigned K = IterKeys.size();
  IterKeys.emplace(Iters, K);
  return K;
}

unsigned Interp::iterKey(size_t Depth) {
  if (Depth >= Iters.size())
    return iterKey();
  std::vector<int> Prefix(Iters.begin(), Iters.begin() + Depth);
  auto It = IterKeys.find(Prefix);
  if (It != IterKeys.end())
    return It->second;
  unsigned K = IterKeys.size();
  IterKeys.emplace(std::move(Prefix), K);
  return K;
}

void Interp::record(const Loc &L, const Expr *E, bool Load, bool Store) {
  if (NoRecord || Exhausted)
    return;
  auto It = Index.find({E, L.VD});
  if (It == Index.end()) {
    AccessRecord R;
    R.E = E;
    R.Array = L.VD;
    R.Bytes = static_cast<unsigned>(bytesOf(E->getType()));
    if (AtomicSite && E->getType()->isPointerType())
      R.Bytes = static_cast<unsigned>(pointeeBytes(E->getType()));
    It = Index.try_emplace({E, L.VD}, static_cast<unsigned>(Out.size())).first;
    Out.push_back(std::move(R));
  }
  AccessRecord &R = Out[It->second];
  R.Load |= Load;
  R.Store |= Store;
  R.Atomic |= AtomicSite;
  R.InLoop |= LoopDepth > 0;
  R.Direct &= L.Direct;
  if (!Frames.empty() && !R.Via)
    R.Via = Frames.front().Site;
  if (R.Inst.size() >= MaxInstances) {
    Exhausted = true;
    return;
  }
  Instance I;
  I.Tid = Tid;
  I.IterKey = iterKey();
  I.SymIterKey = L.Off.Terms.empty() ? I.IterKey : iterKey(symDepth(L.Off));
  I.Off = L.Off;
  I.Off.ShapeDep |= PathShapeDep;
  if (L.Direct) {
    I.Dims = L.Dims;
    I.DimBounds.reserve(L.Dims.size());
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
  I.Sync = syncBits(L.Off);
  I.Phase = Cur.Phase;
  I.TraceLen = static_cast<uint32_t>(TS->Trace.size());
  I.Arm = ArmId;
  I.WarpSig = Cur.WarpSig;
  I.Value = Store ? PendingValue : 0;
  R.Inst.push_back(std::move(I));
}

} // namespace detail
} // namespace cgt::smem
