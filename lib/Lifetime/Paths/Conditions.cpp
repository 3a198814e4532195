//===- Conditions.cpp - what a condition means, kept past joins ------------===//
//
// The branch facts of Branches.cpp are about the leaves clang's CFG tests:
// `if (a || b)` is two branches, one on `a` and one on `b`, and the join
// after them keeps neither fact (a is true on one way in, false on the
// other). The meaning the program states, "a || b holds here", was lost, so
// a resource acquired under `if (a || b)` and released under the same test
// looked leaked on the way where a and b are both false. Two mechanisms
// keep it:
//
//   * logical chains: an edge that decides a leaf also decides the `&&`,
//     `||` and `!` around it where the leaf settles them (a true leaf of
//     `||`, any value of the right operand), and records a fact on each
//     whole expression the function tests again (in any operand order).
//     Facts are keyed by the expression's shape (Branches.cpp factKey), so
//     the second `if (a || b)` finds the fact of the first one and its
//     impossible edge is dropped; a later `if (b || a)` is decided by unit
//     propagation from the whole fact to its operands;
//   * conditions bound to locals: `const bool build = enabled && exec ==
//     nullptr;` binds `build` to its expression while none of the variables
//     it reads (nor `build`) is written. Branching on `build` then assumes
//     the expression: its conjuncts on the taken side of an `&&`, a null test
//     of a handle where it says so (so a live exec cannot take the
//     `build` edge that means "exec is null"), and a disjunct where the
//     path knows the other one failed.
//
// How it relates to the Clang Static Analyzer: CSA's SymExpr/SymbolManager
// give every value a symbol and a condition a SymIntExpr or SymSymExpr over
// them, and its constraint manager decides each against the path's ranges.
// Here the "symbols" are the places of the lifetime engine (a variable, a
// member path) and a condition's symbol is the hash of its shape; a binding
// is a fact whose variables are those of its expression, so the ordinary
// invalidation (Branches.cpp invalidateFactsIf) ends it when any of them is
// written, as CSA's store would give the variable a new symbol. Unlike CSA
// nothing is solved: a disjunction is kept only as the fact on the whole
// expression, and decomposed only where one side is already known.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "llvm/ADT/Hashing.h"

namespace cgt {
namespace lifetime {

namespace {

const Expr *bare(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

bool isLogical(const Expr *E) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(bare(E));
  return BO && BO->isLogicalOp();
}

bool isNot(const Expr *E) {
  const auto *UO = dyn_cast_or_null<UnaryOperator>(bare(E));
  return UO && UO->getOpcode() == UO_LNot;
}

/// An expression whose value is a truth the program tests: a comparison, a
/// logical operator, a negation. A plain copy (`b = a`) is a copy of a
/// value, which ValueFacts.cpp follows.
bool isConditionExpr(const Expr *E) {
  E = bare(E);
  if (isLogical(E) || isNot(E))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  return BO && BO->isComparisonOp();
}

/// The operands of a chain of one logical operator (`a || b || c`), in
/// any nesting.
void flattenOperands(const Expr *E, BinaryOperatorKind Op, llvm::SmallVectorImpl<const Expr *> &Out) {
  const auto *BO = dyn_cast<BinaryOperator>(bare(E));
  if (BO && BO->getOpcode() == Op) {
    flattenOperands(BO->getLHS(), Op, Out);
    flattenOperands(BO->getRHS(), Op, Out);
    return;
  }
  Out.push_back(bare(E));
}

} // namespace

/// The shape of a `&&`/`||`, whatever the order of its operands.
uint64_t Analysis::unorderedShape(const BinaryOperator *BO) const {
  llvm::SmallVector<const Expr *, 4> Operands;
  flattenOperands(BO, BO->getOpcode(), Operands);
  llvm::SmallVector<uint64_t, 4> Hashes;
  for (const Expr *E : Operands) {
    llvm::FoldingSetNodeID ID;
    E->Profile(ID, Ctx, /*Canonical=*/true);
    Hashes.push_back(ID.ComputeHash());
  }
  llvm::sort(Hashes);
  return llvm::hash_combine(static_cast<unsigned>(BO->getOpcode()),
                            llvm::hash_combine_range(Hashes.begin(), Hashes.end()));
}

/// Whether the function tests this `&&`/`||` again somewhere (in any
/// operand order): only then can a fact on the whole of it decide a later
/// branch, and only then is it worth its fact key (whose pure-helper test
/// may summarise the helpers it calls). A negated one is tested again right
/// away: in `if (!(e == cudaSuccess || e == cudaErrorCudartUnloading))`
/// (TVM's CUDA_CALL) the CFG branches on the leaves to compute the value,
/// then branches on the `!` of that value.
bool Analysis::isRestated(const BinaryOperator *BO) {
  auto [Answer, New] = RestatedOps.try_emplace(BO, false);
  if (!New)
    return Answer->second;
  if (isNot(dyn_cast_or_null<Expr>(PM->getParentIgnoreParenImpCasts(BO))))
    return Answer->second = true;
  if (!LogicalShapesCounted) {
    LogicalShapesCounted = true;
    llvm::SmallVector<const Stmt *, 32> Stack{FD->getBody()};
    while (!Stack.empty()) {
      const Stmt *S = Stack.pop_back_val();
      if (!S || isa<LambdaExpr>(S))
        continue;
      if (const auto *L = dyn_cast<BinaryOperator>(S); L && L->isLogicalOp()) {
        const auto *Up = dyn_cast_or_null<BinaryOperator>(PM->getParentIgnoreParenImpCasts(L));
        if (!Up || Up->getOpcode() != L->getOpcode()) // the whole chain once
          ++LogicalShapes[unorderedShape(L)];
      }
      for (const Stmt *Child : S->children())
        Stack.push_back(Child);
    }
  }
  auto It = LogicalShapes.find(unorderedShape(BO));
  return RestatedOps[BO] = It != LogicalShapes.end() && It->second > 1;
}

/// The `&&`, `||` and `!` around a branch's leaf, from the inside out, as
/// far as a value of the leaf can decide them.
const std::vector<Analysis::ChainStep> &Analysis::logicalChain(const Expr *Leaf) {
  auto [It, New] = LogicalChains.try_emplace(Leaf);
  if (!New)
    return It->second;
  const Stmt *Cur = Leaf;
  while (Cur) {
    const Stmt *Up = PM->getParent(Cur);
    while (Up && (isa<ParenExpr>(Up) || isa<ImplicitCastExpr>(Up))) {
      Cur = Up;
      Up = PM->getParent(Up);
    }
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Up); UO && UO->getOpcode() == UO_LNot) {
      It->second.push_back({UO, /*Negates=*/true, /*FromRight=*/false});
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Up); BO && BO->isLogicalOp()) {
      It->second.push_back({BO, false, BO->getRHS() == Cur});
    } else {
      break;
    }
    Cur = Up;
  }
  return It->second;
}

/// The fact "`E` is `Value`" on this path; false when the path knows the
/// opposite.
bool Analysis::assumeWholeCondition(const Expr *E, bool Value, PathState &P) {
  const EdgeTest &T = edgeTest(E);
  if (!T.Valid || !T.Fact)
    return true;
  bool NonZero = Value == T.TrueMeansNonZero;
  auto F = P.Facts.find(*T.Fact);
  if (F != P.Facts.end())
    return F->second == NonZero;
  P.Facts[*T.Fact] = NonZero;
  if (isLogical(E))
    CompoundFacts.try_emplace(*T.Fact, bare(E), T.TrueMeansNonZero);
  return true;
}

/// Unit propagation over the path's facts on whole `&&`/`||` expressions:
/// `a || b` known true and `a` now known false leaves `b` true, whatever
/// order a later test names them in (`if (b || a)`); both false is a
/// contradiction and the edge is dropped.
void Analysis::propagateCompoundFacts(const Expr *Cond, PathState &P, bool &Infeasible) {
  if (CompoundFacts.empty() || !Cond)
    return;
  // Only a fact that shares a variable with what this edge learned can
  // learn something from it.
  const EdgeTest &T = edgeTest(Cond);
  auto EdgeVars = T.Fact ? FactVars.find(*T.Fact) : FactVars.end();
  if (EdgeVars == FactVars.end())
    return;
  llvm::SmallVector<std::pair<const Expr *, bool>, 4> Known;
  for (const auto &F : P.Facts)
    if (F.first & 1)
      if (auto C = CompoundFacts.find(F.first); C != CompoundFacts.end()) {
        auto Vars = FactVars.find(F.first);
        if (Vars == FactVars.end() ||
            llvm::none_of(Vars->second, [&](Key K) { return EdgeVars->second.count(K); }))
          continue;
        Known.push_back({C->second.first, F.second == C->second.second});
      }
  for (auto [E, Value] : Known) {
    assumeCondition(E, Value, P, Infeasible, /*Depth=*/1);
    if (Infeasible)
      return;
  }
}

void Analysis::recordLogicalParents(const Expr *Leaf, bool Value, PathState &P,
                                    bool &Infeasible) {
  bool V = Value;
  for (const ChainStep &Step : logicalChain(Leaf)) {
    if (Step.Negates) {
      V = !V;
      continue;
    }
    const auto *BO = cast<BinaryOperator>(Step.Op);
    // The left operand settles `||` when true and `&&` when false; the right
    // one is reached only when the left did not settle it.
    if (!Step.FromRight && V != (BO->getOpcode() == BO_LOr))
      return;
    if (isRestated(BO) && !assumeWholeCondition(BO, V, P)) {
      Infeasible = true;
      return;
    }
  }
}

/// The fact that binds `Target` to the condition with fact key `ExprFact`.
uintptr_t Analysis::bindingFactKey(Key Target, uintptr_t ExprFact) {
  uintptr_t K = static_cast<uintptr_t>(llvm::hash_combine(Target, ExprFact, 0xB1D)) | 1;
  if (K == ~uintptr_t(0)) // DenseMap's empty key
    K -= 2;
  if (!FactVars.count(K)) {
    llvm::SmallSetVector<Key, 2> Vars;
    if (auto It = FactVars.find(ExprFact); It != FactVars.end())
      Vars = It->second;
    Vars.insert(Target);
    FactVars[K] = std::move(Vars);
  }
  return K;
}

void Analysis::bindCondition(Key Target, const Expr *Src, PathState &P) {
  if (!Target || !Target->whole() || isField(Target) || !isConditionExpr(Src))
    return;
  const auto *VD = dyn_cast<VarDecl>(Target->Decl);
  if (!VD || !VD->hasLocalStorage() || !VD->getType()->isIntegralOrEnumerationType() ||
      addressEscaped(Target))
    return;
  const EdgeTest &T = edgeTest(Src);
  if (!T.Valid || !T.Fact)
    return;
  // `b = !b` reads the value it replaces: no binding describes it.
  auto Vars = FactVars.find(*T.Fact);
  if (Vars == FactVars.end() ||
      llvm::any_of(Vars->second, [&](Key K) { return K->Decl == Target->Decl; }))
    return;
  uintptr_t K = bindingFactKey(Target, *T.Fact);
  auto &Bound = CondBindings[Target];
  if (!llvm::is_contained(Bound, std::make_pair(bare(Src), K)))
    Bound.push_back({bare(Src), K});
  P.Facts[K] = true;
  // What the path already knows of the expression is the local's value.
  if (std::optional<bool> Known = knownCondition(Src, P))
    P.Facts[reinterpret_cast<uintptr_t>(Target)] = *Known;
}

void Analysis::assumeBoundCondition(const Expr *Cond, bool Taken, PathState &P,
                                    bool &Infeasible, unsigned Depth) {
  const Expr *E = bare(Cond);
  while (isNot(E)) {
    Taken = !Taken;
    E = bare(cast<UnaryOperator>(E)->getSubExpr());
  }
  if (CondBindings.empty() || !(isa<DeclRefExpr>(E) || isa<MemberExpr>(E)))
    return;
  auto It = CondBindings.find(storageOf(E));
  if (It == CondBindings.end())
    return;
  // Copied: assuming a bound condition may bind nothing new, but the vector
  // is the map's and the map may grow under a nested assumption.
  auto Bound = It->second;
  for (auto [Expression, BindKey] : Bound) {
    auto F = P.Facts.find(BindKey);
    if (F == P.Facts.end() || !F->second)
      continue;
    assumeCondition(Expression, Taken, P, Infeasible, Depth + 1);
    if (Infeasible)
      return;
  }
}

void Analysis::assumeCondition(const Expr *E, bool Taken, PathState &P, bool &Infeasible,
                               unsigned Depth) {
  if (Depth > MaxConditionDepth || Infeasible)
    return;
  E = bare(E);
  if (isNot(E))
    return assumeCondition(cast<UnaryOperator>(E)->getSubExpr(), !Taken, P, Infeasible, Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || !BO->isLogicalOp()) {
    refineOnBranch(E, Taken, P, Infeasible, /*TwoWay=*/false);
    if (!Infeasible)
      assumeBoundCondition(E, Taken, P, Infeasible, Depth + 1);
    return;
  }
  if (!assumeWholeCondition(BO, Taken, P)) {
    Infeasible = true;
    return;
  }
  // `a && b` true, `a || b` false: both operands have that value.
  if (Taken == (BO->getOpcode() == BO_LAnd)) {
    assumeCondition(BO->getLHS(), Taken, P, Infeasible, Depth + 1);
    assumeCondition(BO->getRHS(), Taken, P, Infeasible, Depth + 1);
    return;
  }
  // Otherwise one operand has it: the other, where the path knows this one
  // has not.
  std::optional<bool> L = knownCondition(BO->getLHS(), P);
  std::optional<bool> R = knownCondition(BO->getRHS(), P);
  if (L && *L != Taken)
    assumeCondition(BO->getRHS(), Taken, P, Infeasible, Depth + 1);
  else if (R && *R != Taken)
    assumeCondition(BO->getLHS(), Taken, P, Infeasible, Depth + 1);
}

} // namespace lifetime
} // namespace cgt
