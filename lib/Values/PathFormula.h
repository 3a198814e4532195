//===- PathFormula.h - one program path as an SMT formula -------*- C++ -*-===//
//
// The branch conditions and assignments of ONE path through a function, as
// a formula an SMT solver (Z3, through LLVM's SMTAPI) decides. The lifetime
// engine walks a candidate witness path of a finding block by block; this
// class takes each statement's effect on program values (`apply`) and each
// branch decision (`assume`), and says when the decisions so far cannot all
// hold. The engine then drops a finding whose every path is refuted.
//
// How it relates to the Clang Static Analyzer:
//   * A value is a term over symbols, as CSA's SymExpr over SymbolData: a
//     symbol stands for what the path does not know (a parameter, a value an
//     opaque call returned or wrote), and `x = a + 1` binds x to the term
//     `a + 1` rather than to a fresh symbol (SymbolManager's SymIntExpr).
//     Terms are built directly in the solver's language (bit-vectors of the
//     C type's width, booleans), which is what CSA's SMTConv does when
//     `crosscheck-with-z3` re-checks a report's constraints.
//   * Where CSA keeps a store of regions, this keeps an environment from
//     places (a variable, or a variable's member path, `cfg.log`,
//     `opts->stop`, `this->exec`) to terms, with an undo log so a depth-first
//     search backs up to a branch point in constant time per change, and
//     the solver's push/pop scopes follow the same points.
//   * Invalidation is by kind of place, as CSA invalidates regions at calls:
//     a local whose address never leaves the function changes only where it
//     is written; a place whose address the code hands out, a member of
//     `this` or of a non-const pointee, a global: also at every opaque call
//     and every write through a pointer. Members of const pointees and
//     const references are assumed unchanged (CSA assumes the same of const
//     regions). A term the encoding cannot express (floats, array elements,
//     calls) is a fresh symbol: an unknown value never refutes a path. So
//     is non-linear arithmetic of two unknowns (`nx * ny`), which costs Z3
//     far more than it ever decides of a lifetime report's path.
//
// Refuting is therefore sound in one direction only: `assume` returns false
// only when the decisions contradict each other under these rules; a
// timeout or an unknown answer counts as satisfiable.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_VALUES_PATHFORMULA_H
#define CUDAGRAPH_TIDY_VALUES_PATHFORMULA_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/SMTAPI.h"
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace cgt {
namespace values {

class PathFormula {
public:
  /// Calls that write nothing the function can see but what their
  /// arguments point to (the CUDA API): they do not invalidate members,
  /// globals or escaped locals.
  using ArgumentsOnly = std::function<bool(const clang::CallExpr *)>;

  PathFormula(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
              ArgumentsOnly WritesOnlyArguments);
  ~PathFormula();

  /// Whether this build has a solver (LLVM built with Z3).
  static bool available();

  /// The effect of one evaluated statement (a CFG element) on the values
  /// of places: assignments, declarations, increments, calls.
  void apply(const clang::Stmt *S);
  /// Adds "`Cond` evaluated to `Value`" in a new scope; false when the path
  /// is then infeasible. A query clears `*Unchecked` (it checked every
  /// decision added before it); a constant condition asks none.
  bool assume(const clang::Expr *Cond, bool Value, bool *Unchecked = nullptr);
  /// Adds the decision without asking the solver (a way the search follows
  /// only into a sink, whose report `feasible` then confirms); false when
  /// the condition cannot be encoded (nothing was added).
  bool assumeUnchecked(const clang::Expr *Cond, bool Value);
  /// Whether the decisions so far can all hold.
  bool feasible();
  /// Gives the applied call `Later` the value the path gave the applied
  /// call `Earlier`: a search that holds two calls of one unmodelled
  /// function with the same arguments to one result (the stream engine's
  /// gap search, GapConditions.cpp). Undone by backTo.
  void sameValue(const clang::CallExpr *Later, const clang::CallExpr *Earlier);

  /// A point to come back to: the environment and the solver's scopes.
  struct Mark {
    size_t Undo;
    unsigned Scopes;
  };
  Mark mark() const { return {Undo.size(), Scopes}; }
  void backTo(Mark M);

  unsigned queries() const { return Queries; }

  /// What one acceleration let the unit-step counter of its loop skip
  /// (PathFormulaLoops.cpp): the counter's value after the skip, and the
  /// values the loop tests the counter against ("pivots"), none of which
  /// the skipped iterations started on.
  struct Skip {
    llvm::SMTExprRef After = nullptr;
    std::vector<llvm::SMTExprRef> Pivots;
  };
  /// Lets the path skip any number of further iterations like the one
  /// since `Since` (PathFormulaLoops.cpp): what it wrote becomes unknown,
  /// monotone counters keep their direction, and the unit-step counter of
  /// `Loop` (a `for` whose head this is; may be null) does not step over a
  /// value it is tested against (recorded in `*Out`). Returns the last
  /// element of each place it changed (a variable, or the member a path
  /// ends in).
  std::vector<const void *> accelerate(Mark Since, const clang::Stmt *Loop = nullptr,
                                       Skip *Out = nullptr);
  /// The path passes a region of the function as one step, without
  /// following its ways one by one (a witness search merges ways that
  /// change no resource: MergedRegions.cpp): every place a statement of
  /// `Region` may write becomes unknown, monotone locals keep their
  /// direction. Returns what `accelerate` returns.
  std::vector<const void *> forgetWritesOf(llvm::ArrayRef<const clang::Stmt *> Region);
  /// A path ran one more iteration after the skip `S`: whether it may have
  /// started that iteration on a pivot (the path then assumes it did). When
  /// not, the skip already stood for the path (it could have skipped that
  /// iteration too).
  bool startedOnPivot(const Skip &S);
  /// The places the path wrote since `Since`, each once (ids of this
  /// formula, comparable only with each other); with `LiveAtHeadOf` (a
  /// loop), not the locals its body declares, dead at its head.
  std::vector<unsigned> placesWrittenSince(Mark Since,
                                           const clang::Stmt *LiveAtHeadOf = nullptr) const;

private:
  struct Val {
    llvm::SMTExprRef E;
    unsigned Width = 0; ///< 0: a boolean
    bool Signed = false;
  };
  using PlaceId = unsigned;

  std::optional<Val> encode(const clang::Expr *E);
  std::optional<Val> encodeBinary(const clang::BinaryOperator *BO);
  bool nonLinear(const clang::BinaryOperator *BO) const;
  std::optional<Val> encodeCast(const clang::CastExpr *CE);
  std::optional<Val> arithmetic(clang::BinaryOperatorKind Op, const Val &A, const Val &B);
  std::optional<Val> read(const clang::Expr *LValue);
  std::optional<Val> fresh(clang::QualType T);
  std::optional<Val> constant(const llvm::APSInt &V, clang::QualType T);
  llvm::SMTExprRef asBool(const Val &V);
  Val asBits(const Val &V, unsigned Width, bool Signed);
  bool scalarShape(clang::QualType T, unsigned &Width, bool &Signed) const;

  std::optional<PlaceId> placeOf(const clang::Expr *LValue);
  void write(PlaceId P, std::optional<Val> V, bool FirstRead = false);
  PlaceId internPlace(std::vector<const void *> Path, bool Stable);
  void invalidateUnder(PlaceId P, bool AndItself);
  void invalidateVolatile();
  void applyCall(const clang::Expr *Call, const clang::FunctionDecl *Callee,
                 llvm::ArrayRef<const clang::Expr *> Args, const clang::Expr *Object);
  void scanEscapes();
  bool declaredInBody(PlaceId P, const clang::Stmt *Loop) const;
  bool isQueryOutArgument(const clang::UnaryOperator *AddrOf, const clang::Stmt *Parent) const;
  void scanMonotoneLocals();
  const clang::VarDecl *unitCounterOf(const clang::Stmt *Loop, int &Step);
  bool writtenOnlyBy(const clang::VarDecl *VD, const clang::ForStmt *For);
  std::vector<const void *> makeUnknown(const std::vector<unsigned> &Written,
                                       const clang::VarDecl *Counter, int UnitStep,
                                       const std::vector<llvm::SMTExprRef> &Pivots, Skip *Out);
  bool readsLocalOf(const clang::Expr *E, const clang::Stmt *Body) const;
  std::vector<llvm::SMTExprRef> pivotsOf(const clang::ForStmt *For, const clang::VarDecl *Counter,
                                         const Val &Now);

  clang::ASTContext &Ctx;
  const clang::FunctionDecl *FD;
  ArgumentsOnly WritesOnlyArguments;
  llvm::SMTSolverRef Solver;

  /// A place: its root (a variable, or null for `this`), the path of
  /// members from it, and whether only direct writes change it.
  struct PlaceInfo {
    std::vector<const void *> Path;
    bool Stable;
  };
  std::vector<PlaceInfo> Places;
  std::map<std::vector<const void *>, PlaceId> PlaceIds;
  llvm::DenseMap<PlaceId, Val> Env;
  llvm::DenseMap<const clang::Expr *, Val> CallValues;
  /// (place or call, value before) for backTo; calls are stored with
  /// their id offset past the places.
  struct UndoEntry {
    bool IsCall;
    const void *Key;
    std::optional<Val> Before;
    /// A place bound on its first read, not written: a loop that only
    /// reads it leaves it as it is (placesWrittenSince skips it).
    bool FirstRead = false;
  };
  std::vector<UndoEntry> Undo;
  unsigned Scopes = 0;
  unsigned Queries = 0;
  unsigned Fresh = 0;
  /// Locals and by-value parameters some use hands out by reference.
  llvm::DenseSet<const clang::VarDecl *> Escaped;
  /// +1 / -1: every write of the local steps up / down; 0: any other.
  llvm::DenseMap<const clang::VarDecl *, int> Monotone;
  bool MonotoneScanned = false;
};

} // namespace values
} // namespace cgt

#endif
