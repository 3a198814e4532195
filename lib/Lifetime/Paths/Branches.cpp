//===- Branches.cpp - branch facts and refinement -------------------------===//
//
// What a path learns from a branch: conditions normalised to "subject is
// (non-)zero", branch facts that make contradicting paths infeasible, the
// success or failure edge of a status test, and null tests of handles.
// Also where facts are recorded and forgotten.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "llvm/ADT/Hashing.h"

#include "llvm/ADT/FoldingSet.h"
#include <functional>

namespace cgt {
namespace lifetime {

namespace {

/// Whether the constants real code compares and assigns most (`0`,
/// `cudaSuccess`, `true`) are non-zero, without clang's evaluator, which
/// costs a few thousand instructions each time; nullopt when it takes
/// evaluating.
std::optional<bool> literalIsNonZero(const Expr *E) {
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return !IL->getValue().isZero();
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return BL->getValue();
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return CL->getValue() != 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return !EC->getInitVal().isZero();
  return std::nullopt;
}

} // namespace

bool Analysis::isZero(const Expr *E) const {
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (E->isValueDependent() || E->isTypeDependent() || E->getType().isNull())
    return false;
  if (std::optional<bool> NonZero = literalIsNonZero(E))
    return !*NonZero;
  // Asked again on every path through the expression: evaluate it once.
  auto [It, New] = ZeroExprs.try_emplace(E, false);
  if (New && !isNeverConstant(E)) {
    Expr::EvalResult R;
    It->second = E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
  }
  return It->second;
}

std::optional<CondTest> Analysis::condTest(const Expr *C) const {
  if (!C)
    return std::nullopt;
  C = C->IgnoreParenImpCasts();
  if (const CallExpr *Expect = asBuiltinExpect(C))
    return condTest(Expect->getArg(0));
  if (const auto *UO = dyn_cast<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot) {
    auto T = condTest(UO->getSubExpr());
    if (T)
      T->TrueMeansNonZero = !T->TrueMeansNonZero;
    return T;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
    const Expr *Other = nullptr;
    if (isZero(BO->getRHS()))
      Other = BO->getLHS();
    else if (isZero(BO->getLHS()))
      Other = BO->getRHS();
    if (Other) {
      auto T = condTest(Other);
      if (!T)
        return std::nullopt;
      if (BO->getOpcode() == BO_EQ)
        T->TrueMeansNonZero = !T->TrueMeansNonZero;
      return T;
    }
    if (std::optional<CondTest> T = comparisonWithNonZero(BO))
      return T;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
      OC && OC->getOperator() == OO_ExclaimEqual && OC->getNumArgs() == 2 &&
      isZero(OC->getArg(1)))
    return condTest(OC->getArg(0));
  CondTest T;
  T.Subject = strip(C);
  return T;
}

/// `err == cudaErrorMemoryAllocation` (or `!=`) on a status: where it
/// equals a non-zero code it is a failure; elsewhere nothing is known. Other
/// comparisons (`mode == kGraph`) stay whole conditions, facts of their own.
std::optional<CondTest> Analysis::comparisonWithNonZero(const BinaryOperator *BO) const {
  auto NonZeroConstant = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    Expr::EvalResult R;
    return !E->isValueDependent() && !E->getType().isNull() &&
           E->getType()->isIntegralOrEnumerationType() &&
           E->EvaluateAsInt(R, Ctx) && R.Val.getInt() != 0;
  };
  const Expr *Subject = NonZeroConstant(BO->getRHS())   ? BO->getLHS()
                        : NonZeroConstant(BO->getLHS()) ? BO->getRHS()
                                                        : nullptr;
  if (!Subject || NonZeroConstant(Subject) || !isStatusTypeName(strip(Subject)->getType()))
    return std::nullopt;
  CondTest T;
  T.Subject = strip(Subject);
  T.TrueMeansNonZero = BO->getOpcode() == BO_EQ;
  T.OneSided = true;
  return T;
}

/// Conditions over variables and fields, without side effects, are facts
/// that later branches on the same condition can be checked against.
std::optional<uintptr_t> Analysis::factKey(const Expr *Subject) {
  if (!Subject || dependsOnTemplateArguments(Subject) ||
      (Subject->HasSideEffects(Ctx) && !onlyPureCalls(Subject)))
    return std::nullopt;
  if (Key K = storageOf(Subject); K && !K->Element) {
    FactVars[reinterpret_cast<uintptr_t>(K)].insert(K);
    return reinterpret_cast<uintptr_t>(K);
  }
  std::set<Key> Vars;
  bool HasCall = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && !A.isPureHelper(Call->getDirectCallee()))
      HasCall = true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl>(DRE->getDecl()))
        Vars.insert(placeOf(DRE->getDecl()));
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      Key K = storageOf(ME);
      Vars.insert(K ? K : placeOf(ME->getMemberDecl()));
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Subject);
  if (HasCall || Vars.empty())
    return std::nullopt;
  llvm::FoldingSetNodeID ID;
  Subject->Profile(ID, Ctx, /*Canonical=*/true);
  uintptr_t K = ID.ComputeHash() | 1; // odd: never equal to a pointer key
  FactVars[K].insert(Vars.begin(), Vars.end());
  return K;
}

/// The only side effects of `E` are calls of pure helpers (`timing_on(o)`):
/// it reads the same whenever its variables did not change.
bool Analysis::onlyPureCalls(const Expr *E) {
  llvm::SmallVector<const Stmt *, 8> Stack{E};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (!A.isPureHelper(Call->getDirectCallee()))
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
      return false;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp()) {
      return false;
    } else if (isa<CXXConstructExpr>(S) || isa<CXXNewExpr>(S) || isa<CXXThrowExpr>(S) ||
               isa<LambdaExpr>(S)) {
      return false;
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
  return true;
}

void Analysis::invalidateFacts(Key K, PathState &P) {
  invalidateFactsIf([&](Key F) { return F == K || (K->whole() && F->Decl == K->Decl); }, P);
}

void Analysis::forgetFactsKeepingValue(Key K, PathState &P) {
  P.Facts.eraseIf([&](const std::pair<uintptr_t, bool> &F) {
    auto V = FactVars.find(F.first);
    return V != FactVars.end() && llvm::is_contained(V->second, K);
  });
}

void Analysis::invalidateFactsIf(llvm::function_ref<bool(Key)> Touched, PathState &P) {
  forgetValues(Touched, P);
  P.Facts.eraseIf([&](const std::pair<uintptr_t, bool> &F) {
    auto V = FactVars.find(F.first);
    return V != FactVars.end() && llvm::any_of(V->second, Touched);
  });
}

void Analysis::invalidateFieldFacts(PathState &P) {
  forgetValues([](Key K) { return isField(K); }, P);
  P.Facts.eraseIf([&](const std::pair<uintptr_t, bool> &F) {
    auto V = FactVars.find(F.first);
    return V != FactVars.end() && llvm::any_of(V->second, [](Key K) { return isField(K); });
  });
}

/// What a write through `&K` can change: the member alone when it is a
/// scalar or a handle (`cudaStreamCreate(&p.stream)` leaves `p.owns` as it
/// was), else the whole object.
Key Analysis::writableThrough(Key K) {
  if (K->Member && !K->Element && !K->shadow()) {
    QualType T = K->Member->getType();
    if (!T->isRecordType() && !T->isArrayType())
      return K;
  }
  return placeOf(K->Decl);
}

/// `int inf = 0; cudaMemcpy(&inf, flag, ...); if (inf)`: whatever a call can
/// write through an argument's address is no longer known.
void Analysis::forgetFactsWrittenThrough(const CallExpr *Call, PathState &P) {
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *E = strip(Call->getArg(I));
    const auto *AddrOf = dyn_cast<UnaryOperator>(E);
    if (AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      E = AddrOf->getSubExpr();
    else if (!E->getType()->isArrayType())
      continue;
    // `const T*`: the callee cannot write through it (CSA's const rule).
    bool Variadic = false;
    QualType Param = paramTypeOf(Call->getDirectCallee(), I, &Variadic);
    if (Variadic || (!Param.isNull() && Param->isPointerType() &&
                     Param->getPointeeType().isConstQualified()))
      continue;
    if (Key K = storageOf(E))
      invalidateFacts(writableThrough(K), P);
  }
}

/// The value of a condition on this path, when its facts decide it.
std::optional<bool> Analysis::knownCondition(const Expr *Cond, const PathState &P) {
  const EdgeTest &E = edgeTest(Cond);
  if (!E.Valid || !E.Fact)
    return knownValue(Cond, P);
  auto F = P.Facts.find(*E.Fact);
  if (F == P.Facts.end())
    return knownValue(Cond, P);
  if (E.OneSided && F->second)
    return std::nullopt; // non-zero, but maybe not the code compared with
  return F->second == E.TrueMeansNonZero;
}

/// `ok = false;` or `exec = nullptr;` lets later `if (ok)` be decided.
void Analysis::recordConstantFact(Key Target, const Expr *Src, PathState &P) {
  uintptr_t K = reinterpret_cast<uintptr_t>(Target);
  FactVars[K].insert(Target);
  auto [Truth, New] = ConstantTruth.try_emplace(Src);
  if (New) {
    Expr::EvalResult R;
    const Expr *Bare = Src->IgnoreParenCasts();
    // Dependence first: an expression clang recovered from (a mutated or
    // half-written line) can have no type at all.
    bool Integral = !Src->isValueDependent() && !Src->isTypeDependent() &&
                    !Src->getType().isNull() &&
                    (Src->getType()->isIntegerType() || Src->getType()->isBooleanType());
    if (isZero(Src))
      Truth->second = false;
    else if (!Integral || isNeverConstant(Bare))
      Truth->second = std::nullopt;
    else if (std::optional<bool> NonZero = literalIsNonZero(Bare))
      Truth->second = *NonZero;
    else if (Src->EvaluateAsInt(R, Ctx))
      Truth->second = R.Val.getInt() != 0;
  }
  if (Truth->second)
    P.Facts[K] = *Truth->second;
}

/// `p` for `*p`.
const ValueDecl *Analysis::derefOf(const Expr *E) const {
  const auto *UO = dyn_cast<UnaryOperator>(strip(E));
  if (!UO || UO->getOpcode() != UO_Deref)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(UO->getSubExpr()));
  return DRE ? DRE->getDecl() : nullptr;
}

/// The normalised form of a branch condition, computed once per condition.
const Analysis::EdgeTest &Analysis::edgeTest(const Expr *Cond) {
  auto It = EdgeTests.find(Cond);
  if (It != EdgeTests.end())
    return It->second;
  EdgeTest E;
  if (std::optional<CondTest> T = condTest(Cond); T && T->Subject) {
    E.Valid = true;
    E.TrueMeansNonZero = T->TrueMeansNonZero;
    E.OneSided = T->OneSided;
    E.Subject = T->Subject;
    if (const auto *BO = dyn_cast<BinaryOperator>(E.Subject);
        BO && BO->getOpcode() == BO_Assign)
      E.Subject = strip(BO->getLHS()); // if ((st = call()) != cudaSuccess)
    E.Fact = factKey(E.Subject);
    E.SubjectVar = storageOf(E.Subject);
    E.SubjectDerefOf = derefOf(E.Subject);
  }
  return EdgeTests[Cond] = E;
}

void Analysis::refineOnBranch(const Expr *Cond, bool Taken, PathState &P,
                              bool &Infeasible, bool TwoWay) {
  if (!assumeValues(Cond, Taken, P)) {
    Infeasible = true;
    return;
  }
  const EdgeTest &E = edgeTest(Cond);
  if (!E.Valid)
    return;
  bool NonZero = Taken == E.TrueMeansNonZero;
  IdSet StatusTested;
  if (NonZero || !E.OneSided)
    StatusTested = refineSubject(E, NonZero, P, Infeasible);
  if (!TwoWay || Infeasible)
    return;
  for (auto &Entry : P.Res)
    if ((Entry.second.Bits & Live) && !StatusTested.count(Entry.first) &&
        Entry.second.TrailSize < Entry.second.Trail.size())
      Entry.second.Trail[Entry.second.TrailSize++] = {Cond, Taken};
}

/// `switch (cudaGraphInstantiate(...)) { case cudaSuccess: ...; default: ... }`:
/// a case of 0 is the success edge, other constant cases fail, and `default`
/// fails when a success case exists.
void Analysis::refineOnSwitch(const SwitchStmt *Switch, const CFGBlock *To, PathState &P,
                              bool &Infeasible) {
  if (!assumeCaseValue(Switch, To, P)) {
    Infeasible = true;
    return;
  }
  const EdgeTest &E = edgeTest(Switch->getCond());
  if (!E.Valid)
    return;
  std::optional<bool> NonZero;
  const Stmt *Label = To->getLabel();
  if (const auto *Case = dyn_cast_or_null<CaseStmt>(Label)) {
    if (std::optional<int64_t> V = caseValue(Case))
      NonZero = *V != 0;
  } else if (hasZeroCase(Switch)) {
    NonZero = true; // default, or past the switch with no case taken
  }
  if (NonZero)
    refineSubject(E, *NonZero, P, Infeasible);
  if (!Infeasible)
    refineOnCaseValues(Switch, E, To, P, Infeasible);
}

namespace {

/// `(Mode)n`, `static_cast<Mode>(n)`: an enum made from an integer, which
/// may hold a value that no enumerator names.
bool isEnumFromInteger(const Expr *E) {
  const auto *Cast = dyn_cast<ExplicitCastExpr>(E->IgnoreParens());
  if (!Cast || !Cast->getType()->isEnumeralType())
    return false;
  QualType From = Cast->getSubExpr()->IgnoreParenImpCasts()->getType();
  return From->isIntegerType() && !From->isEnumeralType();
}

/// The switch's value may be outside its enum: converted from an integer in
/// the condition, or in the initializer of the local the condition reads.
bool mayHoldNonEnumerator(const SwitchStmt *Switch) {
  const Expr *Cond = Switch->getCond()->IgnoreParenImpCasts();
  if (isEnumFromInteger(Cond))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(Cond);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && VD->getInit() && isEnumFromInteger(VD->getInit());
}

} // namespace

/// Clang's CFG drops the `default:` edge (or the edge past the switch) when
/// every enumerator has a case. A value converted from an integer can still
/// take it, and the paths through it are where the cases' releases are
/// skipped: give those edges back.
void Analysis::restorePrunedSwitchDefaults() {
  for (CFGBlock *B : *Cfg) {
    const auto *Switch = B ? dyn_cast_or_null<SwitchStmt>(B->getTerminatorStmt()) : nullptr;
    if (!Switch || B->succ_empty() || !mayHoldNonEnumerator(Switch))
      continue;
    CFGBlock::AdjacentBlock &Default = *(B->succ_end() - 1);
    CFGBlock *Pruned = Default.getPossiblyUnreachableBlock();
    if (Default.isReachable() || !Pruned)
      continue;
    Default = CFGBlock::AdjacentBlock(Pruned, /*IsReachable=*/true);
    for (CFGBlock::AdjacentBlock &Pred : Pruned->preds())
      if (Pred.getPossiblyUnreachableBlock() == B && !Pred.isReachable())
        Pred = CFGBlock::AdjacentBlock(B, /*IsReachable=*/true);
  }
}

/// The constant of a `case` label; none for `default`, GNU ranges and
/// values wider than 64 bits.
std::optional<int64_t> Analysis::caseValue(const SwitchCase *C) {
  const auto *Case = dyn_cast_or_null<CaseStmt>(C);
  if (!Case)
    return std::nullopt;
  auto [It, New] = CaseValues.try_emplace(Case);
  Expr::EvalResult V;
  if (New && !Case->getRHS() && !Case->getLHS()->isValueDependent() &&
      Case->getLHS()->EvaluateAsInt(V, Ctx) && V.Val.getInt().getSignificantBits() <= 64)
    It->second = V.Val.getInt().getExtValue();
  return It->second;
}

/// The constants of the switch's case labels, in case-list order.
const std::vector<int64_t> &Analysis::caseValues(const SwitchStmt *Switch) {
  auto [It, New] = SwitchCaseValues.try_emplace(Switch);
  if (New)
    for (const SwitchCase *C = Switch->getSwitchCaseList(); C; C = C->getNextSwitchCase())
      if (std::optional<int64_t> V = caseValue(C))
        It->second.push_back(*V);
  return It->second;
}

/// The fact "the subject of fact `Subject` equals `Value`".
uintptr_t Analysis::caseFactKey(uintptr_t Subject, int64_t Value) {
  uintptr_t K = static_cast<uintptr_t>(llvm::hash_combine(Subject, Value)) | 1;
  if (K == ~uintptr_t(0)) // DenseMap's empty key
    K -= 2;
  if (!FactVars.count(K)) {
    auto Vars = FactVars.find(Subject);
    llvm::SmallSetVector<Key, 2> Copy;
    if (Vars != FactVars.end())
      Copy = Vars->second;
    FactVars[K] = std::move(Copy);
  }
  return K;
}

/// `switch (mode)` that acquires and a later `switch (mode)` that releases:
/// each edge records which case values the subject has and has not, so the
/// second switch only takes the cases the first one did.
void Analysis::refineOnCaseValues(const SwitchStmt *Switch, const EdgeTest &E,
                                  const CFGBlock *To, PathState &P, bool &Infeasible) {
  if (!E.Fact)
    return;
  const auto *Label = dyn_cast_or_null<SwitchCase>(To->getLabel());
  std::optional<int64_t> Taken = caseValue(Label);
  if (isa_and_nonnull<CaseStmt>(Label) && !Taken)
    return; // a case we cannot evaluate: nothing is known
  const std::vector<int64_t> &Values = caseValues(Switch);
  auto [Keys, New] = CaseFactKeys.try_emplace({*E.Fact, Switch});
  if (New) {
    for (size_t I = 0; I < Values.size(); ++I)
      Keys->second.push_back({caseFactKey(*E.Fact, Values[I]), I});
    llvm::sort(Keys->second);
  }
  // Each case's fact, in key order; a key the path (or an earlier case of
  // the same key) already has with the other truth makes the edge
  // infeasible.
  llvm::SmallVector<std::pair<uintptr_t, bool>, 16> Set;
  for (auto [K, I] : Keys->second) {
    bool Holds = Taken && Values[I] == *Taken;
    if (!Set.empty() && Set.back().first == K) {
      if (Set.back().second != Holds) {
        Infeasible = true;
        return;
      }
      continue;
    }
    auto F = P.Facts.find(K);
    if (F != P.Facts.end() && F->second != Holds) {
      Infeasible = true;
      return;
    }
    Set.push_back({K, Holds});
  }
  P.Facts.assignSorted(Set);
}

/// `switch (space)` where the path knows the value of `space` (a helper
/// summarised for a constant argument, a variable assigned a constant): a
/// case edge assumes the subject equals its value, `default` (or the edge
/// past the switch) that it equals none. False when the values contradict.
bool Analysis::assumeCaseValue(const SwitchStmt *Switch, const CFGBlock *To, PathState &P) {
  std::optional<ValueTerm> T = valueTerm(Switch->getCond());
  if (T)
    T = resolveOnPath(*T, P);
  if (!T || !T->Sym)
    return true;
  values::Symbol S = reinterpret_cast<values::Symbol>(T->Sym);
  const auto *Label = dyn_cast_or_null<SwitchCase>(To->getLabel());
  if (const auto *Case = dyn_cast_or_null<CaseStmt>(Label)) {
    std::optional<int64_t> V = caseValue(Case);
    return !V || P.Values.assume(S, values::Relation::EQ, *V);
  }
  if (Label && !isa<DefaultStmt>(Label))
    return true;
  for (int64_t V : caseValues(Switch))
    if (!P.Values.assume(S, values::Relation::NE, V))
      return false;
  return true;
}

bool Analysis::hasZeroCase(const SwitchStmt *Switch) {
  return llvm::is_contained(caseValues(Switch), 0);
}

/// What the path learns when `E.Subject` is (or is not) zero: a fact, the
/// success or failure of the acquisitions whose status it is, and whether
/// a handle is null. Returns the resources whose status it tested.
IdSet Analysis::refineSubject(const EdgeTest &E, bool NonZero, PathState &P,
                              bool &Infeasible) {
  IdSet StatusTested;
  const Expr *Subject = E.Subject;
  if (E.Fact) {
    auto F = P.Facts.find(*E.Fact);
    if (F != P.Facts.end() && F->second != NonZero) {
      Infeasible = true;
      return StatusTested;
    }
    P.Facts[*E.Fact] = NonZero;
    if (SummaryMode)
      noteEntryNullTest(*E.Fact, NonZero, P);
  }

  Key SubjectVar = E.SubjectVar;
  const VarDecl *Tested = plainVar(SubjectVar);
  auto TestsStatusOf = [&](const ResState &RS, bool TestsCopy) {
    return (RS.StatusExpr && strip(RS.StatusExpr) == Subject) ||
           (RS.StatusVar && Tested == RS.StatusVar) || TestsCopy ||
           (RS.StatusDerefOf && E.SubjectDerefOf == RS.StatusDerefOf);
  };
  for (auto &Entry : P.Res) {
    ResState &RS = Entry.second;
    bool TestsCopy = RS.StatusCopy && SubjectVar == RS.StatusCopy;
    if (RS.Bits == Released) {
      // The status of the release (bindReleaseStatus): where it failed,
      // nothing was released, and what the handle holds is not known.
      if (!TestsStatusOf(RS, TestsCopy))
        continue;
      bool SuccessIsZero = RS.SuccessIsZero != (TestsCopy && RS.CopyInverted);
      if (SuccessIsZero ? NonZero : !NonZero)
        RS.Bits = Escaped;
      RS.forgetStatus();
      continue;
    }
    if (!(RS.Bits & Live))
      continue;
    bool TestsStatus = TestsStatusOf(RS, TestsCopy);
    bool TestsStatusOut = RS.StatusOut && SubjectVar == RS.StatusOut;
    if (!TestsStatus && !TestsStatusOut)
      continue;
    StatusTested.insert(Entry.first);
    bool SuccessIsZero = RS.SuccessIsZero != (TestsCopy && RS.CopyInverted);
    bool Failed = TestsStatusOut || SuccessIsZero ? NonZero : !NonZero;
    if (Failed) {
      RS.Bits = RS.OlderLive ? Live : Absent; // the call failed: nothing was acquired
    } else if (TestsStatusOut) {
      RS.StatusOut = nullptr;
    } else {
      RS.forgetStatus();
    }
  }

  // A handle that tests null on this edge holds no live resource.
  if (SubjectVar && !SubjectVar->Element && !NonZero)
    if (auto It = P.Bind.find(SubjectVar); It != P.Bind.end())
      for (unsigned R : It->second)
        if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live)) {
          RS->second.Bits &= ~Live;
          if (!RS->second.Bits)
            RS->second.Bits = Absent;
        }

  return StatusTested;
}

} // namespace lifetime
} // namespace cgt
