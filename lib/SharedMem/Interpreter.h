//===- Interpreter.h - runs a kernel body for every thread of a block -*- C++ -*-===//
//
// Internal to lib/SharedMem. Executes the body of a __global__ function once
// per thread of one LaunchConfig over SymVal values and records, for every
// __shared__ access, one Instance per (thread, loop iteration): its byte
// offset in the array, its per-dimension indices, and whether an undecided
// guard sits on its path. SharedMemAnalysis.cpp turns the instances into
// overflow and bank-conflict findings.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETER_H
#define CUDAGRAPH_TIDY_SHAREDMEM_INTERPRETER_H

#include "SharedMem/SharedMemAnalysis.h"
#include "SharedMem/SymVal.h"
#include "llvm/ADT/DenseMap.h"

namespace cgt::smem {

struct Instance {
  unsigned Tid = 0;     ///< linear thread id
  unsigned IterKey = 0; ///< interned iteration numbers of the enclosing loops
  SymVal Off;           ///< byte offset from the array's start
  std::vector<SymVal> Dims; ///< per-dimension indices (direct subscripts only)
  bool Guarded = false; ///< an undecided condition is on the path
};

struct AccessRecord {
  const clang::Expr *E = nullptr;
  const clang::VarDecl *Array = nullptr;
  unsigned Bytes = 0;     ///< size of the accessed object
  bool Direct = true;     ///< always `a[i][j]` on the array itself
  bool Load = false, Store = false, InLoop = false;
  std::vector<Instance> Inst;
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

/// Runs the kernel; false when the step budget ran out.
bool interpretKernel(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
                     const LaunchConfig &Cfg, unsigned MaxUnroll,
                     const std::map<const clang::VarDecl *, uint64_t> &Pad,
                     std::vector<AccessRecord> &Out);

} // namespace cgt::smem

#endif
