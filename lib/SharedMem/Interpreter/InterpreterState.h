//===- InterpreterState.h - state of one kernel run -*- C++ -*- -------------===//
//
// Internal to lib/SharedMem. The per-thread interpreter of Interpreter.h as
// one class, Interp, whose members are defined by concern:
//   Interpreter.cpp          the statement walk (branches, joins, declarations)
//   InterpreterLoops.cpp     loop unrolling and symbolic iterations
//   InterpreterExpr.cpp      values of expressions, assignments, calls
//   InterpreterRanges.cpp    ranges of unknown values, condition narrowing
//   InterpreterMemory.cpp    __shared__ locations, pointers, carves, recording
//   InterpreterCalls.cpp     __device__ callees run in place of their calls
//   InterpreterGeometry.cpp  threadIdx/blockDim/blockIdx/gridDim, step budget
//   InterpreterSyncKinds.cpp which calls synchronise, barriers in a statement
//   InterpreterSync.cpp      barriers, warp syncs, phase labels (SyncModel.h)
//   InterpreterGrid.cpp      grid barriers across blocks (SyncModel.h)
// State is per run (one LaunchConfig): Env/Ptrs/SymRanges/Guarded are reset
// for every thread; Out, Index, Carves and the symbol classes accumulate.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETERSTATE_H
#define CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETERSTATE_H

#include "SharedMem/Interpreter/Interpreter.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include <map>
#include <optional>
#include <vector>

namespace cgt::smem::detail {

using namespace clang;

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
  DimList Dims;
  bool Direct = false; ///< reached only through subscripts of the array
  bool Member = false;
};

/// What a loop writes; counters with a constant-free step become
/// `current + step*K` when the loop cannot be unrolled further.
struct LoopInfo {
  std::vector<const VarDecl *> Written;
  bool Exits = false; ///< a break, return or goto may leave it early
  llvm::DenseMap<const VarDecl *, std::pair<const Expr *, int>> Step;
  /// Counters stepped once in every iteration (in the increment, or a
  /// statement of the body's top level with no `continue` in the loop):
  /// they share the loop's iteration count, so the condition on one bounds
  /// the others (`for (t = 0; t < n; ++t, w += 32)`).
  llvm::DenseSet<const VarDecl *> EveryIteration;
};

/// What a call does to the order of threads (InterpreterSync.cpp).
enum class SyncKind {
  None,        ///< nothing: an ordinary call
  Block,       ///< a barrier of the whole block
  Grid,        ///< a barrier of every thread of every block (grid_group::sync)
  Warp,        ///< __syncwarp or a 32-thread tile's sync
  WarpPartial, ///< a smaller tile's or a coalesced group's sync
  Named,       ///< a named or split barrier: orders an unknown set of warps
  Async,       ///< an asynchronous copy or its completion
  MaySync      ///< a library collective that may hold barriers (CUB)
};

class Interp {
  using RangeMap = llvm::DenseMap<uint64_t, Bound>;

public:
  Interp(ASTContext &Ctx, const FunctionDecl *K, const LaunchConfig &Cfg,
         unsigned MaxUnroll, const std::map<const VarDecl *, uint64_t> &Pad,
         std::vector<AccessRecord> &Out, uint64_t Budget)
      : Ctx(Ctx), Kernel(K), Cfg(Cfg), MaxUnroll(MaxUnroll), Pad(Pad), Out(Out),
        Budget(Budget) {}
  void setSyncLog(SyncLog *L) { Sync = L ? L : &OwnSync; }
  uint64_t stepsTaken() const { return Steps; }

  bool run();
  /// The whole body is inert (InterpreterInert.cpp): no thread of any shape
  /// could record an access or a barrier in it.
  bool kernelInert();

private:
  // ---- values ------------------------------------------------------------
  static uint64_t key(const void *P, unsigned Salt = 0) {
    return static_cast<uint64_t>(llvm::hash_combine(P, Salt, 0x5eedu));
  }
  /// The key of a binary operation's result, by what it computes (the
  /// operator and its operand type), not by where: `(k0 / T) & 1` written
  /// twice is one value (a double buffer's index and its "other" buffer).
  uint64_t opKey(BinaryOperatorKind Op, const void *Site) const;

  bool step();
  /// Charges a copy of per-thread maps of `Entries` entries (the ranges of
  /// symbols before a branch or a `?:`, the variables before a join): the
  /// ranges grow with every unknown value masked into a range (`rng() &
  /// 1023`) and are copied at every test, so a long loop over them is
  /// quadratic in time while its steps stay linear (issue 38). Small
  /// copies are free, as they always were.
  void chargeCopy(size_t Entries);

  std::optional<int64_t> constantOf(const Expr *E) const;

  /// What eval needs to know of an expression that is the same for every
  /// thread, worked out once per run instead of once per thread: the
  /// expression under its parentheses, its constant value, and which
  /// builtin coordinate it reads.
  enum class Builtin : int8_t { None, ThreadIdx, BlockDim, BlockIdx, GridDim };
  struct ExprFacts {
    const Expr *Bare = nullptr;
    std::optional<int64_t> Const;
    Builtin Var = Builtin::None;
    int8_t Dim = 0;
  };
  ExprFacts factsOf(const Expr *E);

  /// An integer type as normalize and integral casts see it, by type.
  struct IntType {
    bool Integral = false; ///< integral or enumeration
    bool Bool = false;
    bool Unsigned = false;
    unsigned Width = 0;
  };
  const IntType &intType(QualType T);

  SymVal normalize(SymVal V, QualType T);

  /// threadIdx/blockDim/blockIdx/gridDim .x/.y/.z, parsed from the property
  /// access clang builds for them (MSPropertyRefExpr on the builtin variable).
  static std::pair<Builtin, int8_t> builtinOf(const Expr *E);
  /// The value of builtin `Var` along `Dim` for this thread.
  SymVal builtinValue(Builtin Var, int8_t Dim);

  Tri truth(const SymVal &V);

  /// Decides a condition; LastCondDep then says whether an undecided one can
  /// differ between threads (only those make a path "guarded").
  Tri cond(const Expr *E) { return truth(evalAny(E)); }

  // ---- symbol classes, ranges and interior blocks -------------------------
  /// An opaque result; one computed from kernel parameters only is a
  /// parameter value itself (a bound it reaches depends on the parameter).
  SymVal opq(uint64_t Key, const SymVal &A, const SymVal &B);
  void classify(const SymVal &R, const SymVal &A, const SymVal &B);
  /// A symbol computed from a lane symbol (below) is one too.
  void inheritLane(const SymVal &R, const SymVal &A, const SymVal &B);
  /// SymDepth of a new single-symbol value R: that of its operands, or the
  /// current loop depth for one that may change between iterations.
  void noteDepth(const SymVal &R, const SymVal &A, const SymVal &B);
  void noteDepthHere(const SymVal &R);
  unsigned symDepth(const SymVal &V) const;
  bool hasLaneTerm(const SymVal &V) const;

  static int64_t satAdd(int64_t A, int64_t B);
  /// Range of a linear form from the ranges of its symbols.
  Bound boundOf(const SymVal &V);
  /// A fresh symbol in [Lo, Hi]. Derived from a known operand it is keyed
  /// by that operand (uniform stays uniform); from an unknown one it differs
  /// per evaluation (lane-dependent unknown).
  SymVal rangedSym(uint64_t Key, const SymVal &From, Bound R);
  /// Masks, modulo, shifts and divisions by constants of a value that is not
  /// a constant: `data & 63` lies in [0, 63] whatever the data.
  std::optional<SymVal> rangedOp(BinaryOperatorKind Op, const SymVal &A,
                                 const SymVal &B, const void *Site);
  /// The residue of a value whose symbols' coefficients are all multiples of
  /// the modulus: its constant part's.
  std::optional<int64_t> residue(BinaryOperatorKind Op, const SymVal &X, const Bound &XB,
                                 int64_t K, bool Unsigned);
  /// A non-negative combination of blockIdx symbols plus a non-negative constant.
  bool globalCoordinate(const SymVal &X) const;
  /// A value of a narrow integer type that is otherwise unknown lies in the
  /// type's range (`unsigned char c = data[i]`). The bound proves accesses
  /// in bounds; it is not taken as reached (a byte often holds a small code
  /// the program knows the range of), so past it is only "possible".
  bool rangeOfBits(BinaryOperatorKind Op, const Bound &XB, bool XAtt, int64_t K,
                   Bound &R);
  SymVal typeBounded(SymVal V, QualType T, const void *Site);

  /// Interior blocks of a large enough problem: a comparison of a global
  /// coordinate (a blockIdx term) with a kernel parameter (a problem size)
  /// holds as `coordinate < size`; one with a constant as `coordinate >
  /// constant`. -1 when the difference has other unknowns.
  int8_t interiorTruth(BinaryOperatorKind Op, const SymVal &D);

  /// Narrows the range of the one symbol of `L - R` when `L op R` is known
  /// to be `Holds` (inside a branch or a loop body).
  void narrow(const Expr *Cond, bool Holds);

  SymVal evalAny(const Expr *E);

  /// A variable's storage, asked for at every read and declaration by every
  /// thread (an attribute lookup is a hash lookup in the ASTContext).
  enum class VarClass : int8_t { Local, Param, Global, Shared };
  VarClass varClass(const VarDecl *V);
  bool isStatic(const VarDecl *V) {
    VarClass C = varClass(V);
    return C == VarClass::Global || C == VarClass::Shared;
  }

  SymVal loadVar(const VarDecl *V);

  SymVal eval(const Expr *E);

  SymVal evalCast(const CastExpr *CE);

  SymVal load(const Expr *Sub);

  SymVal evalUnary(const UnaryOperator *U);

  SymVal arith(BinaryOperatorKind Op, const SymVal &A, const SymVal &B,
               const void *Site);

  SymVal compare(BinaryOperatorKind Op, const SymVal &A, const SymVal &B,
                 const void *Site);

  SymVal evalBinary(const BinaryOperator *B);

  /// `c ? a : b`; Glvalue: both arms are lvalues and the whole is read
  /// (`t > 0 ? s[t - 1] : carry`), so each arm is a load.
  SymVal evalConditional(const Expr *C, const Expr *T, const Expr *F, bool Glvalue = false);

  /// An operand only some threads evaluate -- an arm of `?:`, the right side
  /// of `&&`/`||` -- entered as execBranch enters an arm of `if`: guarded
  /// unless its condition (`Holds` or not) is decided in every interior
  /// block, with the condition's ranges narrowed (InterpreterExpr.cpp).
  struct OperandArm {
    bool Guarded;
    std::optional<RangeMap> Ranges; ///< before narrowing, when it narrowed
  };
  OperandArm enterOperand(const Expr *Cond, bool Holds, bool Dep, int Interior);
  void leaveOperand(OperandArm &Saved);

  /// A class-type glvalue read as a whole (copy constructor / assignment
  /// source): `float4 v = tile[i];`.
  void recordRead(const Expr *E);

  SymVal evalCall(const CallExpr *C);

  // ---- integer intrinsics (InterpreterIntrinsics.cpp) ----------------------
  /// The value of a call of a modelled intrinsic (min/max, bit counts,
  /// __umul24, __umulhi, shuffles); nullopt for any other call.
  std::optional<SymVal> intrinsicValue(const CallExpr *C, llvm::ArrayRef<SymVal> Args);
  /// Cooperative groups' ranks and sizes (InterpreterGeometry.cpp).
  std::optional<SymVal> groupRankValue(const CallExpr *C);
  std::optional<SymVal> minMax(const CallExpr *C, bool Min, const SymVal &A,
                               const SymVal &B);
  std::optional<SymVal> bitCount(const CallExpr *C, int Which, unsigned Width,
                                 const SymVal &X);
  std::optional<SymVal> mulHigh(const CallExpr *C, unsigned Width, const SymVal &A,
                                const SymVal &B);
  std::optional<SymVal> laneValue(const CallExpr *C, const SymVal &V);
  /// cooperative_groups::reduce and the scans: their value operands read,
  /// their result unknown; nullopt for any other call.
  std::optional<SymVal> collectiveValue(const CallExpr *C);

  PtrVal lookupPtr(const VarDecl *V) {
    noteAccess(V);
    return Escaped.count(V) ? PtrVal() : Ptrs.lookup(V);
  }
  /// A variable's slot for a write (InterpreterMemo.cpp notes the access).
  SymVal &envSlot(const VarDecl *V) {
    noteAccess(V);
    return Env[V];
  }
  PtrVal &ptrSlot(const VarDecl *V) {
    noteAccess(V);
    return Ptrs[V];
  }

  const VarDecl *localVar(const Expr *E);

  int64_t pointeeBytes(QualType PtrT);

  SymVal assign(const BinaryOperator *B);

  // ---- locations and pointers -------------------------------------------
  ArrayLayout &layout(const VarDecl *VD);

  int64_t bytesOf(QualType T);

  Loc resolve(const Expr *E);

  PtrVal evalPtr(const Expr *E);

  /// The one-line accessor idiom `extern __shared__ int s[]; return (T *)s;`
  /// (cuda-samples' SharedMemory<T>::operator T*, many hand-written
  /// helpers): the call yields a pointer to that array.
  const VarDecl *returnedSharedArray(const FunctionDecl *F);

  // ---- __device__ callees (InterpreterCalls.cpp) ---------------------------
  /// A callee whose body runs in place of the call: see InterpreterCalls.cpp.
  bool inlinable(const CallExpr *C, const FunctionDecl *F);
  /// Runs the callee for this thread; its return value (Top when the
  /// returns disagree), the pointer it returns in LastReturnPtr.
  SymVal inlineCall(const CallExpr *C, const FunctionDecl *F);
  /// What a parameter is bound to: a value, a pointer, or (references to
  /// shared storage) a location.
  struct ArgBinding {
    const ParmVarDecl *Param = nullptr;
    SymVal Val;
    PtrVal Ptr;
    Loc Ref;
  };
  ArgBinding evalArgument(const ParmVarDecl *P, const Expr *Arg);
  void bind(const ArgBinding &B);
  /// A `return` inside an inlined callee: joins its value into the frame.
  void noteReturn(const Expr *Value);
  void scanEscapes(const FunctionDecl *F);

  // ---- recording ---------------------------------------------------------
  unsigned iterKey();
  /// The iterations of the outermost Depth loops only.
  unsigned iterKey(size_t Depth);

  void record(const Loc &L, const Expr *E, bool Load, bool Store);

  // ---- barriers and phases (InterpreterSync.cpp, SyncModel.h) -------------
public:
  SyncKind syncKindOf(const CallExpr *C, const FunctionDecl *F);
  /// Barrier bits (1 block, 2 warp, 4 unknown) of a call, its callee's body
  /// scanned a few calls deep.
  unsigned callBarrierBits(const CallExpr *C, llvm::DenseMap<const Decl *, unsigned> &Cache,
                           unsigned Depth);
  static bool asmSynchronises(const AsmStmt *A);
  static std::string asmText(const AsmStmt *A);

private:
  /// Where the thread is in its barrier intervals; saved and restored around
  /// the arms of a block-uniform undecided branch.
  struct SyncCursor {
    uint32_t Phase = 0;
    uint64_t WarpSig = 0;
    bool WarpLost = false;
  };
  using ArmList = llvm::SmallVector<std::pair<uint64_t, int8_t>, 2>;
  /// Handles a barrier, warp sync, async copy or collective; false for any
  /// other call.
  bool syncCall(const CallExpr *C);
  /// A call not run in place: it may synchronise or touch what it is given.
  void opaqueCall(const CallExpr *C);
  /// A statement clang could not build: it may have been a barrier.
  void unbuiltStatement();
  void noteAsm(const AsmStmt *A);
  /// An asynchronous copy (its shared operand gets no verdict) or a wait or
  /// barrier operation of one (the thread's phases are lost).
  void asyncCall(const CallExpr *C);
  /// Marks the __shared__ arrays the operands name as without verdict;
  /// false when none names one.
  bool skipArraysNamedBy(llvm::ArrayRef<const Expr *> Operands, SkipReason R,
                         bool ScalarsToo = false);
  void blockBarrier(const Expr *Site, bool Grid = false);
  void warpSync(const CallExpr *C, bool FullTile);
  void pushEvent(const void *Site, bool Barrier, bool Grid = false);
  void loseThread();
  const VarDecl *sharedNamedBy(const Expr *E);
  unsigned barrierBits(const Stmt *S);
  uint64_t iterHash(size_t Depth) const;
  void enterArm(const Stmt *Branch, int8_t Arm);
  void leaveArm();
  void addStickyArm(uint64_t Key, int8_t Arm);
  uint32_t extendArms(uint32_t Id, uint64_t Key, int8_t Arm);
  unsigned barriersMet() const;
  const Expr *firstBarrierSince(size_t From) const;
  void resetSyncThread();
  uint8_t syncBits(const SymVal &Off) const;
  /// A decided branch or loop test whose code holds a block barrier: logs
  /// the arm this thread took (Interpreter.cpp, InterpreterLoops.cpp).
  void logDecision(const Stmt *Branch, uint64_t Iter, int8_t Arm, size_t TraceBefore,
                   Flow F, bool ShapeDep);
  /// After the two arms of a block-uniform undecided branch: where the
  /// thread's phase continues (SyncModel.h).
  void joinArms(const Stmt *Site, const SyncCursor &Then, Flow FT, Flow FE);
  /// The key of a plain store's value for the same-value rule.
  uint64_t valueKey(const SymVal &V, const Expr *RHS) const;

  // ---- grid barriers across blocks (InterpreterGrid.cpp) -------------------
  /// Where the thread's path stands with grid barriers: how many it met,
  /// how many times that count went vague (code that meets grid barriers
  /// a number of times not known, arms that disagree: from there on only
  /// differences of counts with no vagueness between them are exact), and
  /// the block-dependent test at which the blocks on its other side left
  /// the kernel, and the first one whose arms met different counts.
  struct GridCursor {
    uint32_t Met = 0;
    uint32_t Vague = 0;
    const Stmt *BlocksLeft = nullptr;
    const Stmt *Unbalanced = nullptr;
    bool operator==(const GridCursor &O) const {
      return Met == O.Met && Vague == O.Vague && BlocksLeft == O.BlocksLeft &&
             Unbalanced == O.Unbalanced;
    }
  };
  void gridBarrier(const CallExpr *C);
  /// Can the test just decided (undecided, block-uniform) split the grid?
  bool splitsBlocks(bool Uniform, bool OuterGuard) const;
  /// After the arms of a block-uniform undecided branch (the trace of the
  /// then arm from ThenFrom, of the else arm from ElseFrom; GT the cursor
  /// after the then arm, the current one after the else arm): blocks split
  /// by a block-dependent test, and the cursor where the thread goes on.
  void joinGrid(const Stmt *Site, bool Splits, const GridCursor &G0, const GridCursor &GT,
                Flow FT, Flow FE, size_t ThenFrom, size_t ElseFrom);
  /// After code that may run a number of times, or in some threads only:
  /// the count goes vague if it moved; a block exit found in it is dropped.
  void forgetGrid(const GridCursor &G0);
  const Expr *firstGridIn(size_t From, size_t To) const;
  GridCursor Grid;

  SyncLog OwnSync;
  SyncLog *Sync = &OwnSync;
  ThreadSync *TS = nullptr;
  SyncCursor Cur;
  /// The arm list before each open arm, and how many sticky arms there were.
  std::vector<std::pair<uint32_t, size_t>> ArmFrames;
  /// Arms a leaving branch left behind: what follows excludes the other arm.
  ArmList StickyArms;
  uint32_t ArmId = 0;
  std::map<std::vector<std::pair<uint64_t, int8_t>>, uint32_t> ArmIds;
  std::map<std::tuple<uint32_t, uint64_t, int8_t>, uint32_t> ArmExt;
  llvm::DenseMap<const Stmt *, unsigned> BarrierIn;
  /// Per call site, asked by every thread: what it synchronises, and the
  /// barrier bits of a call not run in place (names are printed to decide).
  llvm::DenseMap<const CallExpr *, SyncKind> SyncKinds;
  llvm::DenseMap<const CallExpr *, unsigned> OpaqueBits;
  SyncKind syncKindCached(const CallExpr *C);
  llvm::DenseMap<const Decl *, unsigned> CalleeBarriers;
  uint64_t PendingValue = 0; ///< the value of the plain store being recorded

  // ---- statements --------------------------------------------------------
  using EnvT = llvm::DenseMap<const VarDecl *, SymVal>;
  using PtrEnvT = llvm::DenseMap<const VarDecl *, PtrVal>;

  void join(EnvT &&A, PtrEnvT &&PA, const EnvT &B, const PtrEnvT &PB);

  Flow exec(const Stmt *S);

  void declare(const VarDecl *V);

  Flow execIf(const IfStmt *I);

  /// A call that does not return to the thread (noreturn, or CUDA's __trap).
  static bool isNoReturnCall(const Expr *E);

  Flow execBranch(const Expr *Cond, const Stmt *Then, const Stmt *Else, bool Consteval);
  bool keepsVariables(const Stmt *S);
  llvm::DenseMap<const ReturnStmt *, bool> PureReturns; ///< keepsVariables' answers

  /// Runs a region whose control flow is not modelled (switch, range-for):
  /// once, guarded, with everything it writes havocked.
  Flow opaqueRegion(const Stmt *Body, const Stmt *Key);

  LoopInfo &loopInfo(const Stmt *Loop, const Stmt *Body, const Expr *Cond,
                     const Expr *Inc);

  /// The counter's step per iteration (signed, in its own units).
  SymVal stepOf(const std::pair<const Expr *, int> &Step);
  /// The iteration-count symbol a counter advances with, >= 0.
  SymVal iterationCount(const Stmt *Loop, const VarDecl *V, const LoopInfo &LI);
  void havoc(const Stmt *Loop, const Stmt *Body, const Expr *Cond,
             const Expr *Inc, bool Induction);

  Flow execLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                const Expr *Inc, const Stmt *Body, bool IsDo,
                const DeclStmt *CondVar);

  /// Loops that touch no shared memory and meet no barrier are not run
  /// (InterpreterInert.cpp): the syntactic part, once per loop, and the
  /// local pointers whose values the running thread decides.
  struct InertInfo {
    bool Static = false;
    std::vector<const VarDecl *> Pointers;
  };
  const InertInfo &inertInfo(const Stmt *Loop, bool Exits = false);
  bool inertForThread(const Stmt *Loop, bool Exits = false);
  llvm::DenseMap<const Stmt *, InertInfo> InertLoops, ExitArms;
  llvm::DenseMap<const Decl *, bool> ExitCallees;
  llvm::DenseMap<const Decl *, unsigned> ExitBarriers;
  /// An if's arm in the kernel's frame that ends in a return and is inert
  /// but for its returns is not run: the variables it writes are havocked
  /// and the thread has left (InterpreterInert.cpp).
  bool exitsInertly(const Stmt *Arm);
  llvm::DenseMap<const Decl *, bool> InertCallees;

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

  /// One inlined call: what its returns gave so far.
  struct CallFrame {
    const FunctionDecl *Callee = nullptr;
    const CallExpr *Site = nullptr;
    bool Returned = false;
    SymVal Ret;
    PtrVal RetPtr;
  };
  /// Callees deeper than this run as opaque calls: the depth budget (the
  /// step budget bounds the work below it).
  static constexpr unsigned MaxCallDepth = 3;
  std::vector<CallFrame> Frames;
  PtrVal LastReturnPtr;
  /// Reference parameters of inlined callees bound to a __shared__ location.
  llvm::DenseMap<const VarDecl *, Loc> RefLocs;
  llvm::DenseSet<const FunctionDecl *> EscapesScanned;
  bool LastCondDep = true;
  bool LastCondBlock = false; ///< the last undecided condition is derived from blockIdx
  bool LastCondShape = true;
  int LastInterior = -1; ///< interior value of the last undecided condition
  bool PathShapeDep = false; ///< a condition on the path depends on blockDim/threadIdx.y/z

  unsigned Tx = 0, Ty = 0, Tz = 0, Tid = 0;
  RangeMap SymRanges; ///< per thread: ranges of symbols (masks, counters)
  llvm::DenseSet<uint64_t> BlockSyms, ParamSyms, IterSyms;
  /// Symbols that name one thread's unknown (data it loaded, and what is
  /// computed from it): another thread's is another symbol, so two threads'
  /// offsets over them cannot be compared. Every other symbol is keyed by
  /// its operands' values and means the same value in every thread.
  llvm::DenseSet<uint64_t> LaneSyms;
  /// How many enclosing loop iterations a symbol's value depends on: a
  /// symbol made again in another iteration of those loops (a loop's
  /// iteration count, a value loaded from shared memory) may be another
  /// value under the same name. Parameters and blockIdx are absent (0).
  llvm::DenseMap<uint64_t, unsigned> SymDepth;
  uint64_t Fresh = 0;
  EnvT Env;
  PtrEnvT Ptrs;
  llvm::DenseSet<const VarDecl *> Escaped; // see EscapeScanner
  bool Guarded = false;
  std::vector<int> Iters;
  unsigned LoopDepth = 0;

  llvm::DenseMap<const Expr *, ExprFacts> Facts;
  llvm::DenseMap<const Type *, IntType> IntTypes;
  llvm::DenseMap<const VarDecl *, VarClass> VarClasses;
  /// The record of an access expression per array it reaches: a helper
  /// called with a row of `sh[2][128]` and then with a 1-D array `shs[128]`
  /// indexes each with its own layout (expdist's fill_shared_mem_tiled_1D).
  llvm::DenseMap<std::pair<const Expr *, const VarDecl *>, unsigned> Index;
  std::map<std::vector<int>, unsigned> IterKeys;
  std::map<const VarDecl *, ArrayLayout> Layouts;
  std::map<const Stmt *, LoopInfo> Loops;
  std::map<const VarDecl *, std::vector<SymVal>> Carves; ///< starts, per array
  // ---- statements every thread runs alike (InterpreterMemo.cpp) ----------
public:
  /// Every read or write of a local's value or pointer goes through here:
  /// while thread 0 runs a top-level statement, the variables it touches.
  void noteAccess(const VarDecl *V) {
    if (Rec)
      touch(V);
  }
  /// A read of threadIdx: what follows is the thread's own.
  void noteIdentity() { ++IdentityReads; }
  /// Something a memo could not replay (a reference bound to shared storage).
  void noteUnreplayable() {
    if (Rec)
      Rec->Dirty = true;
  }

private:
  /// The per-thread state outside Env and Ptrs that a statement reads or
  /// leaves behind.
  struct MemoScalars {
    bool Guarded = false, PathShapeDep = false, LastCondDep = true, LastCondShape = true;
    bool LastCondBlock = false;
    int LastInterior = -1;
    PtrVal LastReturnPtr;
    SyncCursor Cur;
    GridCursor Grid;
    std::vector<std::pair<uint32_t, size_t>> ArmFrames;
    ArmList StickyArms;
    uint32_t ArmId = 0;
    uint64_t PendingValue = 0;
    bool NoRecord = false, AtomicSite = false;
    RangeMap Ranges;
  };
  /// One top-level statement as thread 0 ran it: the values of the variables
  /// it touched before (nullopt: absent) and after, the state around it.
  struct StmtMemo {
    bool Valid = false, Dirty = false;
    llvm::SmallVector<std::pair<const VarDecl *, std::optional<SymVal>>, 8> EnvIn, EnvOut;
    llvm::SmallVector<std::pair<const VarDecl *, std::optional<PtrVal>>, 4> PtrIn, PtrOut;
    llvm::DenseSet<const VarDecl *> Touched;
    MemoScalars In, Out;
    uint64_t Steps = 0;
  };
  /// The kernel body's top-level statements for this thread: thread 0 runs
  /// and records each; the others replay a record whose inputs they share.
  Flow execKernelBody();
  Flow recordStmt(StmtMemo &M, const Stmt *S);
  bool replayStmt(const StmtMemo &M);
  void touch(const VarDecl *V);
  MemoScalars scalars() const;
  bool sameScalarsAs(const MemoScalars &B) const;
  void setScalars(const MemoScalars &S);
  /// What thread 0's run of a statement changed that no replay re-creates.
  struct Marks {
    uint64_t Identity, Fresh, Records, Instances, Trace, Decisions, Masks, Sets;
    uint32_t LostAt;
    bool operator==(const Marks &O) const;
  };
  Marks marks() const;
  std::vector<StmtMemo> Memos;
  StmtMemo *Rec = nullptr; ///< the statement thread 0 is recording
  uint64_t IdentityReads = 0;

};

/// Cooperative groups' classes (InterpreterSyncKinds.cpp): a name without
/// inline namespaces, the group a `sync`/rank call acts on, a tile's size.
std::string qualifiedName(const NamedDecl *D);
const CXXRecordDecl *groupClass(const CallExpr *C);
unsigned tileSize(const CXXRecordDecl *R);

} // namespace cgt::smem::detail

#endif
