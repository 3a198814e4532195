//===- InterpreterInert.cpp - loops that cannot matter to shared memory ----===//
//
// Most of the time the interpreter spends on large kernels goes to loops over
// global memory and registers (ggml's stream-k fixup walks earlier blocks in
// a `while (true)`; dot products accumulate in registers), run for every
// thread and unrolled up to MaxUnroll times although they touch no
// __shared__ storage and meet no barrier. Such a loop is "inert": it is not
// run; what it writes is havocked (unknown), as after a loop run
// symbolically.
//
// A loop is inert when its condition, increment and body (and the bodies of
// the user functions they call, a few calls deep) name no __shared__
// variable, call nothing that synchronises or copies asynchronously, hold no
// asm, no return, goto or call that does not return, and no lambda; and, for
// the running thread, none of the local pointers or references it names
// points into shared memory (a pointer carved out of an array, a callee's
// parameter bound to one). Every access it could make is then an access the
// interpreter would not record, and every event it could log is one it
// would not log; the only loss is the values it computes, which become
// unknown. An index built from them is data-dependent (no verdict), a
// condition on them undecided (guarded): recall, never precision.
//
// The same holds for an if's arm in the kernel's own frame that ends in a
// `return` and may return earlier, such as ggml's stream-k fixup
// `if (!ids_dst) { ...; for (...) { if (j > j_max) return; dst[..] += ..; }
// return; }`: the thread leaves the kernel in it whichever way it runs, so
// running it is one step, the `return`, and the variables it writes become
// unknown for the join with the other arm (as a run would make most of them).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cgt::smem::detail {

namespace {

class SharedNames : public RecursiveASTVisitor<SharedNames> {
public:
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    Found |= V && V->hasAttr<CUDASharedAttr>();
    return !Found;
  }
};

bool namesShared(const Stmt *S) {
  SharedNames N;
  N.TraverseStmt(const_cast<Stmt *>(S));
  return N.Found;
}

class InertScan : public RecursiveASTVisitor<InertScan> {
public:
  /// `Barriers`: also refuse calls the interpreter would not run and that
  /// may synchronise (undefined or indirect callees, opaque ones holding a
  /// barrier), which mark the thread's phases lost and the unit's stats:
  /// what is skipped whole must leave even those untouched.
  InertScan(Interp &I, llvm::DenseMap<const Decl *, bool> &Callees, unsigned Depth,
            bool Exits = false, llvm::DenseMap<const Decl *, unsigned> *Barriers = nullptr)
      : I(I), Callees(Callees), Depth(Depth), Exits(Exits), Barriers(Barriers) {}
  bool Inert = true;
  std::vector<const VarDecl *> Pointers; ///< locals that may point into shared memory

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V)
      return true;
    if (V->hasAttr<CUDASharedAttr>())
      return Inert = false;
    QualType T = V->getType();
    if ((T->isPointerType() || T->isReferenceType()) && !V->hasGlobalStorage())
      Pointers.push_back(V);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (I.syncKindOf(C, F) != SyncKind::None || (F && F->isNoReturn()))
      return Inert = false;
    if (Barriers && I.callBarrierBits(C, *Barriers, 0))
      return Inert = false;
    if (F && (F->getName() == "__trap" || F->getName() == "__assert_fail"))
      return Inert = false;
    const FunctionDecl *Def = nullptr;
    if (!F || !F->hasBody(Def) || !Def)
      return true; // undefined functions: their arguments are scanned
    if (F->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation())) {
      // Intrinsics: their arguments are scanned. An accessor returning a
      // __shared__ array is run as one wherever it is defined.
      if (Barriers && namesShared(Def->getBody()))
        return Inert = false;
      return true;
    }
    return Inert = calleeInert(Def);
  }
  bool VisitAsmStmt(AsmStmt *) { return Inert = false; }
  // A callee's return ends the call, not the thread; in an exiting arm the
  // thread's end is the point.
  bool VisitReturnStmt(ReturnStmt *) { return Depth > 0 || Exits || (Inert = false); }
  bool VisitGotoStmt(GotoStmt *) { return Inert = false; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return Inert = false; }
  bool VisitLambdaExpr(LambdaExpr *) { return Inert = false; }

private:
  /// A callee's body: inert on its own terms; its pointer parameters are
  /// bound from arguments this scan sees in the caller.
  bool calleeInert(const FunctionDecl *Def) {
    auto It = Callees.find(Def);
    if (It != Callees.end())
      return It->second;
    if (Depth >= 3)
      return false;
    Callees[Def] = false; // recursion: not inert
    InertScan S(I, Callees, Depth + 1, false, Barriers);
    S.TraverseStmt(Def->getBody());
    bool Ok = S.Inert;
    // The callee's own pointer locals start from its parameters and its own
    // expressions, which the scan saw: none names shared memory.
    return Callees[Def] = Ok;
  }
  Interp &I;
  llvm::DenseMap<const Decl *, bool> &Callees;
  unsigned Depth;
  bool Exits;
  llvm::DenseMap<const Decl *, unsigned> *Barriers;
};

/// A break or continue that would leave `S` for a loop around it.
bool escapesLoop(const Stmt *S) {
  for (const Stmt *C : S->children()) {
    if (!C || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(C))
      continue;
    if (isa<BreakStmt, ContinueStmt>(C) || escapesLoop(C))
      return true;
  }
  return false;
}

/// `{ ...; return; }`: every run of it that ends ends in a return.
bool endsInReturn(const Stmt *S) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
  return CS && CS->size() > 1 && isa<ReturnStmt>(CS->body_back()) && !escapesLoop(CS);
}

} // namespace

const Interp::InertInfo &Interp::inertInfo(const Stmt *Loop, bool Exits) {
  auto [It, New] = (Exits ? ExitArms : InertLoops).try_emplace(Loop);
  if (New) {
    // Loops keep the scan they were introduced with; exits are skipped whole.
    InertScan S(*this, Exits ? ExitCallees : InertCallees, 0, Exits,
                Exits ? &ExitBarriers : nullptr);
    S.TraverseStmt(const_cast<Stmt *>(Loop));
    It->second.Static = S.Inert;
    llvm::sort(S.Pointers);
    S.Pointers.erase(std::unique(S.Pointers.begin(), S.Pointers.end()), S.Pointers.end());
    It->second.Pointers = std::move(S.Pointers);
  }
  return It->second;
}

bool Interp::inertForThread(const Stmt *Loop, bool Exits) {
  const InertInfo &Info = inertInfo(Loop, Exits);
  if (!Info.Static)
    return false;
  for (const VarDecl *V : Info.Pointers) {
    if (RefLocs.count(V))
      return false;
    if (V->getType()->isPointerType() && lookupPtr(V).VD)
      return false;
  }
  return true;
}

bool Interp::kernelInert() {
  return inertInfo(Kernel->getBody(), /*Exits=*/true).Static;
}

bool Interp::exitsInertly(const Stmt *Arm) {
  if (!Frames.empty() || !endsInReturn(Arm) || !inertForThread(Arm, /*Exits=*/true))
    return false;
  step();
  havoc(Arm, Arm, nullptr, nullptr, /*Induction=*/false);
  return true;
}

} // namespace cgt::smem::detail
