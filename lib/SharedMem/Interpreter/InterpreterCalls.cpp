//===- InterpreterCalls.cpp - __device__ callees run in place ---------------===//
//
// Kernels compute indices and touch __shared__ arrays in helpers:
// `int i = lane_index(tid, k); smem[i]`, `store_tile(smem, row, v)` with the
// array passed as a pointer, `f(float (&s)[32])` by reference. The model: a
// call of a __device__ function defined in the user's code of this TU runs
// its body in place, for the calling thread, as if inlined:
//   * parameters are bound to the arguments' values in the caller (integers
//     to their SymVal, pointers to their PtrVal, references to a __shared__
//     location to that location), so accesses in the callee are accesses of
//     the caller's array and its bounds apply;
//   * the value of the call is the join of the callee's returns (Top when
//     they differ);
//   * an undecided guard inside the callee marks only the callee's rest of
//     path: every thread continues after the call, so the caller's Guarded
//     state is restored;
//   * depth budget: MaxCallDepth nested calls; deeper calls, recursion,
//     calls of functions in system headers (CUDA's own intrinsics), methods
//     and variadic functions stay opaque (Top), as before. The step budget
//     counts the callee's steps.
// An access inside a callee is recorded at its own expression and remembers
// the kernel's call that led to it (AccessRecord::Via) for the report.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterScanners.h"
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cgt::smem::detail {

bool Interp::inlinable(const CallExpr *C, const FunctionDecl *F) {
  if (isa<CXXOperatorCallExpr>(C) || isa<CXXMemberCallExpr>(C) ||
      isa<CUDAKernelCallExpr>(C))
    return false;
  if (!F->hasAttr<CUDADeviceAttr>() || F->hasAttr<CUDAGlobalAttr>() ||
      F->isVariadic() || isa<CXXMethodDecl>(F))
    return false;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def || Def->isDependentContext())
    return false;
  // CUDA's headers define their intrinsics as __device__ functions: their
  // bodies are builtins the interpreter knows nothing of.
  if (Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  if (Frames.size() >= MaxCallDepth || C->getNumArgs() != Def->getNumParams())
    return false;
  for (const CallFrame &Fr : Frames)
    if (Fr.Callee == Def)
      return false; // recursion
  return true;
}

void Interp::scanEscapes(const FunctionDecl *F) {
  if (!EscapesScanned.insert(F).second)
    return;
  EscapeScanner ES;
  ES.TraverseStmt(F->getBody());
  Escaped.insert(ES.Vars.begin(), ES.Vars.end());
}

Interp::ArgBinding Interp::evalArgument(const ParmVarDecl *P, const Expr *Arg) {
  ArgBinding B;
  B.Param = P;
  QualType T = P->getType();
  if (T->isPointerType()) {
    B.Ptr = evalPtr(Arg);
    return B;
  }
  if (T->isReferenceType()) {
    // A reference to shared storage (an array, an element) aliases it.
    B.Ref = Arg->isGLValue() ? resolve(Arg) : Loc();
    if (B.Ref.VD)
      return B;
    // A reference to an integer: the callee reads the caller's value (a
    // write through a non-const one makes the caller's local Top already,
    // see EscapeScanner).
    QualType Pointee = T.getNonReferenceType();
    B.Val = Pointee->isIntegralOrEnumerationType() ? normalize(eval(Arg), Pointee)
                                                    : SymVal::top();
    return B;
  }
  SymVal V = evalAny(Arg);
  B.Val = T->isIntegralOrEnumerationType() ? normalize(V, T) : SymVal::top();
  return B;
}

void Interp::bind(const ArgBinding &B) {
  noteAccess(B.Param);
  RefLocs.erase(B.Param);
  QualType T = B.Param->getType();
  if (T->isPointerType())
    ptrSlot(B.Param) = B.Ptr;
  else if (T->isReferenceType() && B.Ref.VD) {
    noteUnreplayable();
    RefLocs[B.Param] = B.Ref;
  }
  else
    envSlot(B.Param) = B.Val;
}

void Interp::noteReturn(const Expr *Value) {
  // By index, not by reference: the value may call another inlined
  // function, whose frame can move the frames (cuda-samples' scan.cu
  // returned through a freed frame until 2026-12-02).
  const size_t Index = Frames.size() - 1;
  bool First = !Frames[Index].Returned;
  Frames[Index].Returned = true;
  if (!Value) {
    Frames[Index].Ret = SymVal::top();
    return;
  }
  if (Value->getType()->isPointerType()) {
    PtrVal P = evalPtr(Value);
    CallFrame &Fr = Frames[Index];
    bool Same = P.VD == Fr.RetPtr.VD && P.Off == Fr.RetPtr.Off &&
                P.Carve == Fr.RetPtr.Carve;
    Fr.RetPtr = First || Same ? P : PtrVal();
    Fr.Ret = SymVal::top();
    return;
  }
  SymVal V = evalAny(Value);
  if (Value->getType()->isIntegralOrEnumerationType())
    V = normalize(V, Value->getType());
  CallFrame &Fr = Frames[Index];
  Fr.Ret = First || V == Fr.Ret ? V : SymVal::top();
}

SymVal Interp::inlineCall(const CallExpr *C, const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  F->hasBody(Def);
  scanEscapes(Def);
  // Every argument is evaluated before any parameter is bound: in
  // `f(a, f(b, c))` the inner call binds f's parameters too.
  std::vector<ArgBinding> Binds;
  for (unsigned I = 0; I < C->getNumArgs(); ++I)
    Binds.push_back(evalArgument(Def->getParamDecl(I), C->getArg(I)));
  for (const ArgBinding &B : Binds)
    bind(B);
  bool SavedGuarded = Guarded, SavedShape = PathShapeDep;
  Frames.push_back(CallFrame{Def, C, false, SymVal::top(), PtrVal()});
  exec(Def->getBody());
  CallFrame Fr = std::move(Frames.back());
  Frames.pop_back();
  Guarded = SavedGuarded;
  PathShapeDep = SavedShape;
  LastReturnPtr = Fr.RetPtr;
  if (!Fr.Returned)
    return SymVal::top();
  return Fr.Ret;
}

} // namespace cgt::smem::detail
