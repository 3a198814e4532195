//===- Interpreter.h - runs a kernel body for every thread of a block -*- C++ -*-===//
//
// Internal to lib/SharedMem. Executes the body of a __global__ function once
// per thread of one LaunchConfig over SymVal values and records, for every
// __shared__ access, one Instance per (thread, loop iteration): its byte
// offset in the array, its per-dimension indices, and whether an undecided
// guard sits on its path, and its barrier phase (SyncModel.h).
// SharedMemAnalysis.cpp turns the instances into overflow and bank-conflict
// findings, RaceAnalysis.cpp into races and barrier divergence.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETER_H
#define CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETER_H

#include "SharedMem/SharedMemAnalysis.h"
#include "SharedMem/SymVal.h"
#include "SharedMem/SyncModel.h"
#include "llvm/ADT/DenseMap.h"
#include <type_traits>

namespace cgt::smem {

/// What is known of a value that is not a constant: it lies in [Lo, Hi]
/// (INT64_MIN / INT64_MAX: unbounded on that side); Attainable when the
/// bound is reached by some input (masked data, a loop counter running to
/// its bound) rather than only by some value of a kernel parameter.
struct Bound {
  int64_t Lo = INT64_MIN, Hi = INT64_MAX;
  bool Attainable = false;
  bool finiteHi() const { return Hi != INT64_MAX; }
  bool finiteLo() const { return Lo != INT64_MIN; }
};

/// Per-dimension indices of a subscripted access. Inline: most shared
/// arrays have one or two dimensions, and every access of every thread
/// builds one.
using DimList = llvm::SmallVector<SymVal, 2>;

struct Instance {
  unsigned Tid = 0;     ///< linear thread id
  unsigned IterKey = 0; ///< interned iteration numbers of the enclosing loops
  /// The same for the loops the offset's symbols depend on (SymDepth): two
  /// instances with equal SymIterKey and symbols name the same values.
  unsigned SymIterKey = 0;
  SymVal Off;           ///< byte offset from the array's start
  DimList Dims; ///< per-dimension indices (direct subscripts only)
  llvm::SmallVector<Bound, 2> DimBounds; ///< ranges of the non-constant Dims
  Bound OffBound;
  /// Reached through a pointer carved out of the array (see InterpreterMemory.cpp):
  /// the carve, its start, and the offset from it.
  const clang::VarDecl *Carve = nullptr;
  SymVal CarveStart, CarveRel;
  Bound CarveRelBound;
  bool Guarded = false; ///< an undecided condition is on the path
  // Barrier phases (SyncModel.h); only the race and divergence checks read them.
  uint8_t Sync = 0;      ///< SyncBits
  uint32_t Phase = 0;    ///< barrier-interval label
  uint32_t TraceLen = 0; ///< events in the thread's trace when it ran
  uint32_t Arm = 0;      ///< interned uniform-branch arms on its path
  uint64_t WarpSig = 0;  ///< the __syncwarp()s met in this interval
  uint64_t Value = 0;    ///< a plain store's value, 0 when unknown

  // Moves are declared noexcept so that a growing std::vector<Instance>
  // moves its elements: SmallVector's move is not noexcept, and without
  // this every reallocation of a record's instances deep-copied them (a
  // tenth of the time of ggml's mmvf.cu, 1024 threads of 352 kernels).
  Instance() = default;
  Instance(const Instance &) = default;
  Instance(Instance &&) noexcept = default;
  Instance &operator=(const Instance &) = default;
  Instance &operator=(Instance &&) noexcept = default;
};
static_assert(std::is_nothrow_move_constructible_v<Instance>);

/// The instances of one access expression on one array (a helper's access
/// has a record for each array its calls pass).
struct AccessRecord {
  const clang::Expr *E = nullptr;
  const clang::VarDecl *Array = nullptr;
  /// The access is in a __device__ callee: the kernel's call that led to it.
  const clang::CallExpr *Via = nullptr;
  unsigned Bytes = 0;     ///< size of the accessed object
  bool Direct = true;     ///< always `a[i][j]` on the array itself
  bool Load = false, Store = false, InLoop = false;
  bool Atomic = false; ///< through atomic*(): not a plain bank access
  std::vector<Instance> Inst;
  /// Start offsets of every carve of the array: a carve's region ends where
  /// the next one (at a constant distance) begins, or at the array's end.
  std::vector<SymVal> Carves;
};

/// Extents and byte strides of a __shared__ array; the leftmost extent of an
/// `extern __shared__ T a[]` comes from the launch's dynamic size.
struct ArrayLayout {
  std::vector<int64_t> Extents; ///< -1 when unknown
  std::vector<int64_t> Strides; ///< bytes per step of each dimension
  int64_t TotalBytes = -1;
};

ArrayLayout layoutOf(clang::ASTContext &Ctx, const clang::VarDecl *VD,
                     const LaunchConfig &Cfg,
                     const std::map<const clang::VarDecl *, uint64_t> &Pad);

/// The kernel and the callees it would run name no __shared__ storage and
/// meet no barrier, asm or call that may synchronise (InterpreterInert.cpp):
/// running it under any shape records nothing, so no check can find
/// anything in it.
bool kernelIsInert(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel);

/// Runs the kernel; false when the step budget ran out. `Budget` is the
/// number of evaluation steps (over all threads) left to the caller; the
/// steps taken are subtracted from it.
bool interpretKernel(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
                     const LaunchConfig &Cfg, unsigned MaxUnroll,
                     const std::map<const clang::VarDecl *, uint64_t> &Pad,
                     std::vector<AccessRecord> &Out, uint64_t &Budget,
                     SyncLog *Sync = nullptr);

} // namespace cgt::smem

#endif
