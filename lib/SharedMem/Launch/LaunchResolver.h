//===- LaunchResolver.h - host-side values that reach a launch --*- C++ -*-===//
//
// Internal to lib/SharedMem. Folds the host expressions of a kernel launch
// (which kernel, which block shape, how many bytes of dynamic shared memory)
// to the sets of constants they may hold, through
//   * literals, constexpr values, template arguments, dim3 constructors,
//     aggregate and designated initialisers, +,-,*,/,%,<<,>>, min/max, ?:;
//   * locals: their initialiser and every plain assignment in the function
//     (`kernel = &transposeNaive` in a switch: the union), dim3 fields
//     assigned one by one, struct fields assigned one by one
//     (`cfg.blockDim = ...`) and their elements by literal subscript
//     (`config.blockSize[0] = 64`, the others keeping the struct's in-class
//     `= {1, 1, 1}`), constructors' member initialisers; a local
//     whose value may change behind our back (++, +=, passed as `T&`, its
//     address given to a non-const pointer parameter, an element written
//     through a computed subscript) folds to nothing;
//   * non-public members of `this` (`kernelLaunchConfig_.blockSize[0] = 64`
//     in the constructor, the launch in a method): like locals, over every
//     method of the class;
//   * kernels returned by a selector (`auto k = selectKernel(flags)`): every
//     kernel its return statements may give;
//   * integers returned by a call (`dim3 block(getWarpSizeCurrentDevice(),
//     kWarps)`): with the callee's body in this unit, every value its return
//     statements give with its parameters bound to the call's arguments;
//     without it, the "returnValues" of its API model entry, which a
//     project's summaries give for a body in another file (faiss's
//     DeviceUtils.cu); a field of an API struct the model says is the same
//     on every device ("constantFields": `prop.warpSize` is 32);
//   * parameters: through the call sites of the function in this TU, up to
//     four callers deep, one call path at a time, so a wrapper called as
//     `launch(k1, dim3(32,8)); launch(k2, 256);` gives k1 only (32,8) and k2
//     only 256 (context-sensitive: kernel and shape come from one path).
//     Each call of the function has its own budget of 64 paths (4096 in
//     all): one instantiation of a variadic launch wrapper serves every
//     kernel of a signature (ggml's ggml_cuda_kernel_launch, 100 calls in
//     mmvf.cu), and a shared budget ended before the callers that fix the
//     sizes;
//   * `switch` arms: at a launch inside `case 64:` of `switch (v)`, or at a
//     call on the launch's path inside one, v is 64 (llama.cpp's mmv
//     launcher picks a block size at run time and launches
//     `kernel<64><<<g, dim3(best), smem>>>` under `case 64:`; ggml's mmvf.cu
//     calls `launcher<64>(..., block_dims)` there, which calls the wrapper
//     that launches), and an
//     assignment that sits under other `case` labels of a switch on the same
//     variable does not reach it (`nwarps = 2` under `case 5:` of a first
//     `switch (ncols)` is not a value at `case 1:` of a second one).
// "May" semantics: an unresolvable alternative is dropped, the others stay.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_LAUNCHRESOLVER_H
#define CUDAGRAPH_TIDY_SHAREDMEM_LAUNCHRESOLVER_H

#include "SharedMem/SharedMemAnalysis.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace cgt::smem {

/// What one function body does to its locals (see the head comment).
struct FunctionFacts {
  /// Keyed by locals, and by members of `this` (a FieldDecl) in methods.
  llvm::DenseMap<const clang::ValueDecl *, std::vector<const clang::Expr *>> Assigned;
  std::map<std::pair<const clang::ValueDecl *, std::string>,
           std::vector<const clang::Expr *>>
      FieldAssigned;
  llvm::DenseSet<const clang::ValueDecl *> Tainted;
  /// `&v` given to a call as argument N: cuModuleGetFunction(&f, m, "k").
  llvm::DenseMap<const clang::ValueDecl *,
                 std::vector<std::pair<const clang::CallExpr *, unsigned>>>
      OutArgs;
};

/// One call path: the functions whose parameters are bound, innermost first.
struct CallFrame {
  const clang::FunctionDecl *Callee; ///< the function whose parameters are bound
  const clang::Expr *Site;           ///< a CallExpr or CXXConstructExpr of it
  const clang::FunctionDecl *Caller; ///< the function the site is in
};
struct CallPath {
  std::vector<CallFrame> Frames;
};

class LaunchResolver {
public:
  /// `Model` (may be null) gives the constant fields and the return values
  /// of functions this unit has no body of.
  LaunchResolver(clang::ASTContext &Ctx, const ApiModel *Model) : Ctx(Ctx), Model(Model) {}

  /// Call sites of every function of the TU (instantiations included).
  void addCallSite(const clang::FunctionDecl *Callee, const clang::Expr *Site,
                   const clang::FunctionDecl *Caller);

  /// Every call path under which `Fn` may run (up to 4 frames; from each
  /// call of `Fn` up to 64 paths; 4096 in all), starting with the empty one.
  std::vector<CallPath> pathsFor(const clang::FunctionDecl *Fn);

  std::vector<int64_t> ints(const clang::Expr *E, const CallPath &P, int Depth = 0);
  /// Every integer `F`'s return statements may give, each folded with
  /// `F`'s parameters bound on `P`; empty (and Incomplete) when one of
  /// them does not fold.
  std::vector<int64_t> returns(const clang::FunctionDecl *F, const CallPath &P,
                               int Depth = 0);
  std::vector<BlockShape> shapes(const clang::Expr *E, const CallPath &P,
                                 int Depth = 0);
  std::set<const clang::FunctionDecl *> kernels(const clang::Expr *E,
                                                const CallPath &P, int Depth = 0);
  /// The value expressions a struct field of the object `E` denotes may
  /// hold (`cfg.blockDim`, `params.block_dims`, `p->func`), each with the
  /// call path it must be folded under.
  std::vector<std::pair<const clang::Expr *, CallPath>>
  fieldValues(const clang::Expr *Object, llvm::StringRef Field,
              const CallPath &P, int Depth = 0);
  /// Kernels a CUfunction variable may hold (cudaGetFuncBySymbol,
  /// cuModuleGetFunction by name, cuLibraryGetKernel).
  std::set<const clang::FunctionDecl *> driverFunctions(const clang::Expr *E,
                                                       const CallPath &P);
  void addKernelName(const clang::FunctionDecl *K);

  FunctionFacts &factsOf(const clang::FunctionDecl *F);
  /// Pins the switch variables of the `case` arms around a launch site in
  /// the body of `Within`, and around each call site of `Path`, for the
  /// folds that follow, until the next call (nullptr: no pins).
  void pinCaseArmsAround(const clang::Stmt *Site, const clang::FunctionDecl *Within,
                         const CallPath *Path = nullptr);
  /// The parents of the statements of `F`'s body, built on first use.
  /// ASTContext::getParents would index the whole unit (every CUDA header)
  /// for the few launch sites and assignments asked about: a tenth of a
  /// plain parse of ggml-cuda.cu, measured by callgrind.
  const clang::ParentMap &parentsIn(const clang::FunctionDecl *F);
  /// Every value a variable may hold: its initialiser and assignments; false
  /// when it may change in ways not followed.
  bool valuesOf(const clang::VarDecl *V, std::vector<const clang::Expr *> &Out);

  /// What the methods of a non-public member's class do to it: the values
  /// it may hold as a whole (constructors' member initialisers, else its
  /// in-class initialiser; assignments in any method) in `Whole`, and those
  /// assigned to its part `Sub` ("blockSize[0]") one by one in `Parts`. False
  /// when a method may change it in ways not followed (one defined in
  /// another file among them), or when code outside the class may write it
  /// (a public member).
  bool memberValues(const clang::FieldDecl *FD, llvm::StringRef Sub,
                    std::vector<const clang::Expr *> &Whole,
                    std::vector<const clang::Expr *> &Parts);

private:
  /// What a call returns: its body's returns with the parameters bound to
  /// the call's arguments, else its API model entry's "returnValues".
  std::vector<int64_t> callResults(const clang::CallExpr *C, const CallPath &P, int Depth);
  /// The value of an API struct field that is the same on every device
  /// (the model's "constantFields": `prop.warpSize`).
  std::optional<int64_t> constantField(const clang::MemberExpr *M) const;
  /// Adds what one of the values a variable or element may hold folds to;
  /// false (and Incomplete) when it does not fold, which makes the whole
  /// unknown: `b = 64; if (n) b = n;` is no shape, not 64.
  bool addEveryFold(const clang::Expr *X, const CallPath &P, int Depth,
                    std::vector<int64_t> &Out);
  const clang::VarDecl *varOf(const clang::Expr *E) const;
  const clang::FunctionDecl *ownerOf(const clang::VarDecl *V) const;
  /// The argument a parameter is bound to on the path, and the path of the
  /// caller; nullptr when the path does not bind it.
  const clang::Expr *argumentFor(const clang::ParmVarDecl *P, const CallPath &Path,
                                 CallPath &CallerPath) const;
  /// Object expressions (initialisers, constructions, aggregates) a struct
  /// or pointer-to-struct expression may denote, with their call paths.
  void objectsOf(const clang::Expr *E, const CallPath &P, int Depth,
                 std::vector<std::pair<const clang::Expr *, CallPath>> &Out,
                 std::vector<std::pair<const clang::Expr *, CallPath>> *FieldOut,
                 llvm::StringRef Field);

public:
  /// Set when a value of `ints` had an alternative that did not fold (a
  /// size that must be complete, e.g. dynamic shared memory, is then unknown).
  bool Incomplete = false;

private:
  clang::ASTContext &Ctx;
  const ApiModel *Model;
  /// A call site and the function it is in.
  using CallerSite = std::pair<const clang::Expr *, const clang::FunctionDecl *>;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<CallerSite>> Callers;
  static constexpr unsigned MaxFrames = 4, PathsPerCall = 64, MaxPaths = 4096;
  std::map<const clang::FunctionDecl *, FunctionFacts> Facts;
  std::map<std::string, std::set<const clang::FunctionDecl *>> KernelsByName;
  /// Switch variable -> the case values of the arm the launch site is in.
  std::map<const clang::VarDecl *, std::vector<int64_t>> Pinned;
  std::map<const clang::FunctionDecl *, std::unique_ptr<clang::ParentMap>> Parents;
  /// False when an assignment (in the body of `Within`) sits in a `case`
  /// arm of a switch on a pinned variable whose labels are not among the
  /// pinned values.
  bool reachesPinnedArm(const clang::Expr *Assigned, const clang::FunctionDecl *Within);
};

} // namespace cgt::smem

#endif
