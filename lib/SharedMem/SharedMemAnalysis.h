//===- SharedMemAnalysis.h - __shared__ access analyser ---------*- C++ -*-===//
//
// Finds, for every __global__ function of a translation unit, the __shared__
// accesses whose index can leave the array and those whose addresses across
// a warp collide in the 32 banks. Knows clang's AST, nothing of clang-tidy.
//
// Model.
//  * Block shapes (LaunchConfig): the union of constant block sizes of the
//    `<<<grid, block, shmem, stream>>>` launches of the kernel in this TU
//    (integer / dim3 literals, constexpr values, locals with constant
//    initialisers that are never assigned, template arguments); otherwise
//    __launch_bounds__(M) (a 1-D block of M threads is assumed); otherwise
//    the hardware limit (1024 threads). Every finding names its source.
//  * The kernel body is interpreted once per thread of the block
//    (SymVal.h): threadIdx/blockDim are concrete, so guards such as
//    `if (tid < s)`, `for (s = blockDim.x/2; s > 0; s >>= 1)` and early
//    returns are decided exactly per thread -- the relational facts a plain
//    interval domain would lose. Guards it cannot decide make the rest of the
//    path "guarded" (not definite). Loops are unrolled up to a cap; the rest
//    runs once with the counter as `current + step*K` (K uniform).
//  * Warps are cut from the linear id x + y*Dx + z*Dx*Dy; lanes that take
//    the same access in the same iteration of every enclosing loop form one
//    warp-level access, evaluated with BankModel.h.
//  * Only accesses through expressions that provably point into __shared__
//    storage are analysed (`use_smem ? smem : dst` is not one).
//  * __device__ functions of the file run in place of their calls, three
//    deep (InterpreterCalls.cpp): indices they return and accesses they make
//    to a shared array passed in are the caller's.
//  * A launch inside `case K:` of `switch (v)`, or reached from a call
//    inside one, folds v to K (LaunchResolver.h): per-arm block sizes of
//    template launchers.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_SHAREDMEMANALYSIS_H
#define CUDAGRAPH_TIDY_SHAREDMEM_SHAREDMEMANALYSIS_H

#include "SharedMem/BankModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cgt {
class ApiModel;
}

namespace cgt::smem {

enum class ShapeOrigin {
  Launch,       ///< a launch of the kernel in this TU with constant sizes
  Option,       ///< the BlockShapes option (launches in other files)
  OtherFile,    ///< a launch in another file of the project (its summaries)
  LaunchBounds, ///< __launch_bounds__(M): a 1-D block of M threads assumed
  HardwareLimit ///< nothing known: blocks of up to 1024 threads
};

struct BlockShape {
  unsigned X = 1, Y = 1, Z = 1;
  unsigned count() const { return X * Y * Z; }
  bool operator<(const BlockShape &O) const {
    return std::tie(X, Y, Z) < std::tie(O.X, O.Y, O.Z);
  }
  bool operator==(const BlockShape &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
};

struct LaunchConfig {
  BlockShape Block;
  std::optional<uint64_t> DynSharedBytes; ///< 3rd launch argument if constant
  /// DynSharedBytes is the cap of cudaFuncSetAttribute(MaxDynamicSharedMemorySize)
  bool DynFromAttribute = false;
  ShapeOrigin Origin = ShapeOrigin::HardwareLimit;
  /// The shape is the one the kernel runs with (a launch or the option), not
  /// an assumption.
  bool known() const {
    return Origin == ShapeOrigin::Launch || Origin == ShapeOrigin::Option ||
           Origin == ShapeOrigin::OtherFile;
  }
  clang::SourceLocation Loc; ///< the launch, or the kernel for other origins
  /// Launch: the outermost call on the launch's call path (the call of the
  /// launch wrapper), the launch itself when it is in no wrapper.
  clang::SourceLocation Caller;
  /// OtherFile: where that launch is ("src/launch.cu:42"), for the note.
  std::string From;
  /// "block (32,8,1) and 1024 bytes of dynamic shared memory from this launch"
  std::string describe() const;
  /// "block (32,8,1)" (with ", 1024 bytes" of dynamic shared memory)
  std::string shapeText() const;
};

struct OverflowFinding {
  const clang::Expr *Access = nullptr; ///< the subscript / dereference
  const clang::VarDecl *Array = nullptr;
  /// The access is in a __device__ callee reached from the kernel's call.
  const clang::CallExpr *Via = nullptr;
  bool Definite = false; ///< launch shape known and path not guarded
  int Dim = -1;          ///< dimension (0 = leftmost), -1 = byte range via a
                         ///< pointer, -3 = elements of a carved region
  /// Dim == -3: the pointer carved out of the array whose region the access
  /// leaves (`float *b = smem + 64;`); Extent and WorstIndex count elements
  /// of the access's type from the carve's start.
  const clang::VarDecl *Carve = nullptr;
  unsigned Rank = 1;     ///< dimensions of the array
  int64_t Extent = 0;    ///< elements of that dimension, bytes when Dim < 0
  int64_t WorstIndex = 0;
  /// Bytes of the accessed element: a byte-range finding (Dim == -1) also
  /// says the index in elements of that size (`(float *)raw` of a char buffer).
  unsigned AccessBytes = 0;
  unsigned FirstTid = 0, LastTid = 0, NumThreads = 0; ///< linear ids
  LaunchConfig Config;
  /// Other launch shapes under which this access also overflows.
  std::vector<std::string> Others;
};

struct PaddingFix {
  clang::SourceRange SizeExpr; ///< the last dimension's size in the declaration
  std::string Replacement;
  uint64_t OldCols = 0, NewCols = 0;
};

struct BankFinding {
  const clang::Expr *Access = nullptr;
  const clang::VarDecl *Array = nullptr;
  WarpCost Cost;
  unsigned AccessBytes = 0;
  bool IsLoad = false, IsStore = false;
  bool InLoop = false;
  unsigned Warp = 0;
  LaunchConfig Config;
  std::optional<PaddingFix> Fix; ///< padding the last dimension removes it
  /// Other launch shapes under which this access also conflicts ("block
  /// (16,16,1) (2-way)").
  std::vector<std::string> Others;
};

/// Two accesses of different threads to overlapping bytes of one __shared__
/// object in one barrier interval, at least one a store (RaceAnalysis.cpp).
struct RaceFinding {
  const clang::Expr *Store = nullptr; ///< the write, where it is reported
  const clang::Expr *Other = nullptr; ///< the other access
  const clang::VarDecl *Array = nullptr;
  const clang::CallExpr *StoreVia = nullptr, *OtherVia = nullptr;
  bool OtherIsStore = false; ///< write-write (else read-write)
  bool IntraWarp = false;    ///< both lanes of one warp, no __syncwarp between
  bool LoopCarried = false;  ///< the end of one iteration against the next one's start
  unsigned StoreTid = 0, OtherTid = 0;
  int64_t Offset = 0; ///< a byte both touch, from the object's start (its concrete part)
  /// Offset counts from a start both threads share that is not known (a
  /// buffer the loop's iteration selects, an index read from memory).
  bool FromSharedStart = false;
  LaunchConfig Config;
};

/// A block barrier that live threads do not all meet, barriers at different
/// sites met by different threads, or a __syncwarp mask without the caller.
struct DivergenceFinding {
  /// GridSplit: a grid barrier that blocks on one side of a test on blockIdx
  /// meet and blocks on the other side do not.
  enum Kind { Skipped, Misaligned, MaskOmitsCaller, GridSplit } K = Skipped;
  const clang::Expr *Barrier = nullptr;      ///< reported here
  const clang::Expr *OtherBarrier = nullptr; ///< Misaligned: the other thread's
  const clang::Stmt *Branch = nullptr;       ///< Skipped, GridSplit: the test that splits them
  unsigned TidIn = 0, TidOut = 0;            ///< Skipped: meets it / does not
  /// Skipped: TidOut only exits after skipping (AlignedBarriers reports
  /// it, at a block or a grid barrier). GridSplit: the other blocks left the kernel
  /// at the test.
  bool SkipperExits = false;
  uint64_t Mask = 0;
  LaunchConfig Config;
};

struct AnalysisOptions {
  bool Overflow = true;
  bool BankConflicts = true;
  bool Races = false;      ///< cudagraph-shared-race
  bool Divergence = false; ///< cudagraph-barrier-divergence
  /// Also report write-write races whose values are equal or unknown (by
  /// default two stores race only when their values are known to differ).
  bool SameValueStores = false;
  /// Also report a barrier that some threads skip and then exit: PTX's
  /// `.aligned` rule, which sm_70+ relaxes for exited threads (so by default
  /// only a skipping thread that waits at a later barrier is divergence).
  bool AlignedBarriers = false;
  bool PossibleOverflows = false; ///< also report under assumed shapes / guards
  bool PaddingFixes = true;
  unsigned MaxUnroll = 64; ///< concrete iterations of one loop before going symbolic
  /// Evaluation steps, over all threads and shapes, before the analysis of
  /// one kernel gives up (KernelReport::GaveUp); about a second of work.
  /// Copies of large per-thread maps are charged by size, and a run that
  /// gave up is not run again for the next check (SharedMemAnalysis.cpp).
  uint64_t StepBudget = 30000000;
};

struct KernelReport {
  std::vector<LaunchConfig> Configs;
  std::vector<OverflowFinding> Overflows;
  std::vector<BankFinding> Conflicts;
  std::vector<RaceFinding> Races;
  std::vector<DivergenceFinding> Divergences;
  /// Why some accesses got no race verdict ("async copy", "named barrier",
  /// "inline asm", "opaque callee", "may synchronise", "data-dependent index").
  std::set<std::string> RaceSkips;
  bool GaveUp = false; ///< the step budget ran out; nothing is reported
};

struct AccessRecord;
struct SyncLog;

/// One per translation unit: it indexes the launches of the TU on first use.
class SharedMemAnalyzer {
public:
  explicit SharedMemAnalyzer(clang::ASTContext &Ctx);
  ~SharedMemAnalyzer();

  /// Block shapes the kernel is analysed under, strongest source first.
  std::vector<LaunchConfig> configsFor(const clang::FunctionDecl *Kernel);
  /// Shapes for kernels whose launches are elsewhere, by (qualified) name:
  /// the BlockShapes option.
  void setShapeOption(std::map<std::string, std::vector<BlockShape>> Shapes) {
    OptionShapes = std::move(Shapes);
  }
  /// Launches of kernels in other files of the project, by kernelKey
  /// (CrossFileLaunches.h): added to the launches of this file.
  void setOtherFileLaunches(std::map<std::string, std::vector<LaunchConfig>> L) {
    OtherFileLaunches = std::move(L);
  }
  /// The API model whose data the host folds read: "constantFields"
  /// (`prop.warpSize`) and the "returnValues" of functions defined in
  /// other files (a project's summaries). Null: neither.
  void setApiModel(std::shared_ptr<const ApiModel> M) { Model = std::move(M); }
  KernelReport analyze(const clang::FunctionDecl *Kernel,
                       const AnalysisOptions &Opts);
  /// The constant launch shapes this file gives each kernel (canonical
  /// declarations), from its own launches only.
  const std::map<const clang::FunctionDecl *, std::vector<LaunchConfig>> &launchesInFile() {
    indexLaunches();
    return Launches;
  }

private:
  void indexLaunches();
  std::vector<LaunchConfig> shapesFor(const clang::FunctionDecl *Kernel);
  /// interpretKernel without padding, each (kernel, shape) run once: both
  /// checks analyse the same kernel under the same shapes, one after the
  /// other, and the overflow and bank passes of one analysis do too. A
  /// replay charges the budget the steps the run took, so that what gives
  /// up is what would have given up without the replay. The records are the
  /// run's own (valid until the next kernel's run), null when it gave up.
  const std::vector<AccessRecord> *interpretOnce(const clang::FunctionDecl *Kernel,
                                                 const LaunchConfig &Cfg, unsigned MaxUnroll,
                                                 uint64_t &Budget,
                                                 const SyncLog **Sync = nullptr);
  /// Races and barrier divergence: the known launch shapes, or a block of two
  /// warps with nothing shape-dependent judged (RaceAnalysis.cpp).
  void syncFindings(const clang::FunctionDecl *Kernel, const AnalysisOptions &Opts,
                    KernelReport &Rep, uint64_t &Budget);
  std::optional<bool> paddingRemovesConflicts(const clang::FunctionDecl *Kernel,
                                              const BankFinding &F, uint64_t NewCols,
                                              unsigned MaxUnroll, uint64_t &Budget);
  struct InterpretRuns; ///< SharedMemAnalysis.cpp
  std::unique_ptr<InterpretRuns> Runs;
  clang::ASTContext &Ctx;
  bool Indexed = false;
  std::map<const clang::FunctionDecl *, std::vector<LaunchConfig>> Launches;
  std::map<const clang::FunctionDecl *, unsigned> UnknownLaunches;
  std::map<std::string, std::vector<BlockShape>> OptionShapes;
  std::map<std::string, std::vector<LaunchConfig>> OtherFileLaunches;
  std::shared_ptr<const ApiModel> Model;
  std::map<const clang::FunctionDecl *, uint64_t> MaxDyn;
  std::map<const clang::FunctionDecl *, bool> InertKernels; ///< kernelIsInert's answers
};

/// Parses a BlockShapes option, `'kernel=32x8;other=256,128x2'`; returns
/// false (and the text of the first bad entry) when it does not parse.
bool parseShapeOption(llvm::StringRef Text,
                      std::map<std::string, std::vector<BlockShape>> &Out,
                      std::string &Bad);

/// Kernels with __shared__ accesses seen in the translation unit being
/// analysed on this thread, and which of them got no verdict: no block shape
/// (no launch folded, no BlockShapes entry) or an analysis over its step
/// budget. The checks fill it; `cudagraph-tidy --stats` and SARIF report it.
struct UnitCoverage {
  /// key -> (no block shape, gave up)
  std::map<std::string, std::pair<bool, bool>> Kernels;
  void add(const std::string &Key, bool NoShape, bool GaveUp) {
    auto &E = Kernels[Key];
    E.first = NoShape;
    E.second |= GaveUp;
  }
  unsigned count(bool Shape, bool Budget) const {
    unsigned N = 0;
    for (const auto &KV : Kernels)
      N += (Shape && KV.second.first) || (Budget && KV.second.second);
    return N;
  }
  /// Kernels (keys) with accesses the race check gave no verdict, per reason.
  std::map<std::string, std::set<std::string>> RaceSkips;
  void addRaceSkips(const std::string &Key, const std::set<std::string> &Reasons) {
    for (const std::string &R : Reasons)
      RaceSkips[R].insert(Key);
  }
  unsigned kernels() const { return static_cast<unsigned>(Kernels.size()); }
  unsigned noShape() const { return count(true, false); }
  unsigned gaveUp() const { return count(false, true); }
  /// The kernels over the step budget, by name (a key is "location:name").
  std::vector<std::string> gaveUpNames() const {
    std::vector<std::string> Names;
    for (const auto &KV : Kernels)
      if (KV.second.second)
        Names.push_back(KV.first.substr(KV.first.find(':') + 1));
    return Names;
  }
};
/// Thread-local: a driver clears it before a translation unit and reads it
/// after.
UnitCoverage &unitCoverage();

/// The shape a race or divergence finding holds for: "block (256,1,1) from
/// this launch", or "any block of two or more warps" without a launch shape.
std::string describeSyncShape(const LaunchConfig &C);

/// Text of a thread id range: "threads 128-255 (128 threads)".
std::string describeThreads(unsigned First, unsigned Last, unsigned Count);

} // namespace cgt::smem

#endif
