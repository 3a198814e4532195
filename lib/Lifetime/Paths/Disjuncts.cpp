//===- Disjuncts.cpp - ESP disjuncts: split, relevance, retirement --------===//
//
// The lifetime dataflow follows each resource on its own (PathState.h): a
// block's state is a sorted set of disjuncts, one base disjunct for all paths
// plus, per resource, one disjunct per distinct state it is in. This file
// keeps that set sparse, so that cost grows with the function and not with
// functions x resources:
//
//   * splitting: resources acquired in a block are born in the base disjunct
//     and split off at the block's end, each with the facts of the base;
//   * relevance: a block that names none of the places holding a disjunct's
//     resource or its status, and writes none of the variables of its facts
//     (reading `o.f[i]` cannot change a fact about `o.f[k]`), cannot change
//     it, so the disjunct is carried past the block untouched;
//   * retirement: a resource that is no longer live, whose variables no
//     block reachable from here mentions (a backward "may be named later"
//     analysis over the CFG, one bit per variable), can no longer be
//     observed and leaves the state.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace cgt {
namespace lifetime {

namespace {

/// Calls whose effect reaches every disjunct, not only those whose
/// variables they name.
bool affectsEveryResource(const FunctionModel *M) {
  return M && (M->ReturnsLastStatus || M->ReleasesAll);
}

/// Variables and members whose type can carry a handle or a device pointer
/// (`CUdeviceptr` is an integer): only they get a bit in the "named later"
/// sets; status codes, flags and floats do not.
bool mayHoldResource(const Decl *D) {
  const auto *VD = dyn_cast<ValueDecl>(D);
  if (!VD || !(isa<VarDecl>(VD) || isa<FieldDecl>(VD)))
    return false;
  QualType T = VD->getType().getNonReferenceType();
  return !T->isEnumeralType() && !T->isBooleanType() && !T->isRealFloatingType();
}

} // namespace

void Analysis::computeKeptStates() {
  unsigned N = Cfg->getNumBlockIDs();
  KeepIn.assign(N, 0);
  for (const CFGBlock *B : *Cfg) {
    if (!B)
      continue;
    // Blocks the walk from the entry does not reach (a try's handlers, which
    // only diverted paths reach) keep their state too.
    if (Order[B->getBlockID()] == N)
      KeepIn[B->getBlockID()] = 1;
    else
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        if (const CFGBlock *To = Succ.getReachableBlock();
            To && Order[To->getBlockID()] <= Order[B->getBlockID()])
          KeepIn[To->getBlockID()] = 1; // a loop header: its state ends the loop
  }
}

/// `NamedFrom[B]`: the variables B or some block after it may name, over
/// the CFG's edges (one bit per variable; the blocks' own names are the
/// starting point). A handler names its variables "later" for every block,
/// since the throws that reach it are not edges.
void Analysis::computeLaterMentions() {
  unsigned N = Cfg->getNumBlockIDs();
  llvm::BitVector InHandlers(DeclIndex.size());
  std::vector<const CFGBlock *> PostOrder(N, nullptr);
  for (const CFGBlock *B : *Cfg)
    if (B && Order[B->getBlockID()] < N)
      PostOrder[N - 1 - Order[B->getBlockID()]] = B;
    else if (B)
      InHandlers |= NamedFrom[B->getBlockID()];
  for (const CFGBlock *B : PostOrder)
    if (B)
      NamedFrom[B->getBlockID()] |= InHandlers;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : PostOrder) {
      if (!B)
        continue;
      llvm::BitVector &Mine = NamedFrom[B->getBlockID()];
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        if (const CFGBlock *To = Succ.getReachableBlock();
            To && NamedFrom[To->getBlockID()].test(Mine)) {
          Mine |= NamedFrom[To->getBlockID()];
          Changed = true;
        }
    }
  }
}

void Analysis::scanMentions() {
  unsigned N = Cfg->getNumBlockIDs();
  Mentions.assign(N, {});
  std::vector<std::vector<unsigned>> Indices(N);
  // Each declaration's bit in the "named later" sets, or NoBit for those
  // that cannot hold a resource; decided once per declaration.
  constexpr unsigned NoBit = ~0u;
  llvm::DenseMap<const Decl *, unsigned> BitOf;
  for (const CFGBlock *B : *Cfg) {
    if (!B)
      continue;
    BlockMentions &M = Mentions[B->getBlockID()];
    std::vector<unsigned> &Named = Indices[B->getBlockID()];
    auto MentionOne = [&](const Decl *D, const Expr *By) {
      M.Decls.push_back(D);
      if (!By || !onlyReads(By))
        M.Written.push_back(D);
      auto [Bit, New] = BitOf.try_emplace(D, NoBit);
      if (New && mayHoldResource(D))
        Bit->second = DeclIndex.try_emplace(D, DeclIndex.size()).first->second;
      if (Bit->second != NoBit)
        Named.push_back(Bit->second);
    };
    // A range loop's variable or an iterator names its container's
    // elements (ContainerFlow.cpp).
    auto Mention = [&](const Decl *D, const Expr *By) {
      MentionOne(D, By);
      if (const ValueDecl *Container = containerAliasedBy(D))
        MentionOne(Container, nullptr);
    };
    auto noteCopy = [&](const Expr *Src) {
      Src = Src ? Src->IgnoreParenImpCasts() : nullptr;
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Src))
        M.Copied.push_back(DRE->getDecl());
      else if (const auto *ME = dyn_cast_or_null<MemberExpr>(Src))
        M.Copied.push_back(ME->getMemberDecl());
    };
    // Every subexpression is an element of its own (setAllAlwaysAdd), and
    // an element's subtree holds the elements before it: what an earlier
    // element of this block named is not walked again.
    llvm::SmallPtrSet<const Stmt *, 16> Walked;
    auto Walk = [&](const Stmt *Root, auto &Self) -> void {
      llvm::SmallVector<const Stmt *, 16> Stack{Root};
      while (!Stack.empty()) {
        const Stmt *S = Stack.pop_back_val();
        if (!S || Walked.count(S))
          continue;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
          Mention(DRE->getDecl(), DRE);
        else if (const auto *ME = dyn_cast<MemberExpr>(S))
          Mention(ME->getMemberDecl(), ME);
        else if (const auto *DS = dyn_cast<DeclStmt>(S))
          for (const Decl *D : DS->decls()) {
            Mention(D, nullptr);
            if (const auto *VD = dyn_cast<VarDecl>(D))
              noteCopy(VD->getInit());
          }
        if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
          noteCopy(BO->getRHS());
        if (const auto *Call = dyn_cast<CallExpr>(S)) {
          // A local lambda acts where it is called, on what its body names.
          if (const LambdaExpr *L = invokedLocalLambda(Call)) {
            M.Global = true;
            Self(L->getBody(), Self);
          }
          const FunctionModel *FM = A.modelFor(Call);
          for (const Decl *Allocated : memoryAllocatedByLaunch(Call, FM))
            MentionOne(Allocated, nullptr);
          // A checking helper may throw: every live resource leaks there.
          bool ThrowsWhenNonZero;
          if (callMayChangeMembers(Call) || affectsEveryResource(FM) ||
              statusThrowArgument(Call, ThrowsWhenNonZero))
            M.Global = true;
          if (FM && !FM->LegalDuringCapture)
            M.CaptureIllegal = true; // matters to every open capture (Capture.cpp)
          M.NeedsCaptureContext |= needsCaptureContext(FM);
        }
        // Children go on in reverse, so that they come off in source order.
        size_t First = Stack.size();
        for (const Stmt *Child : S->children())
          Stack.push_back(Child);
        std::reverse(Stack.begin() + First, Stack.end());
      }
    };
    for (const CFGElement &E : *B) {
      if (E.getAs<CFGScopeEnd>())
        M.HasDeaths = true; // a death is not a later use: see isRelevant
      else if (auto CS = E.getAs<CFGStmt>()) {
        M.KeepFactsApart |= isa<AbstractConditionalOperator>(CS->getStmt());
        Walk(CS->getStmt(), Walk);
        Walked.insert(CS->getStmt());
      }
    }
    for (auto *Set : {&M.Decls, &M.Written, &M.Copied}) {
      llvm::sort(*Set);
      Set->erase(std::unique(Set->begin(), Set->end()), Set->end());
    }
  }
  NamedFrom.assign(N, llvm::BitVector(DeclIndex.size()));
  for (unsigned Id = 0; Id < N; ++Id)
    for (unsigned I : Indices[Id])
      NamedFrom[Id].set(I);
  // A value copied into another variable somewhere (`cached = bs`) matters
  // to every disjunct that knows values: one that skipped the block binding
  // it would copy an unknown.
  llvm::DenseSet<const Decl *> CopiedAnywhere;
  for (const BlockMentions &M : Mentions)
    CopiedAnywhere.insert(M.Copied.begin(), M.Copied.end());
  for (BlockMentions &M : Mentions)
    M.BindsCopiedValue = llvm::any_of(
        M.Written, [&](const Decl *D) { return CopiedAnywhere.count(D) != 0; });
}

/// Whether a variable of `P` dies in `B`: the scopes a block leaves are
/// few, and so are the variables a disjunct holds its resource in.
bool Analysis::holdsDyingVariable(const CFGBlock *B, const PathState &P) const {
  for (const CFGElement &E : *B)
    if (auto SE = E.getAs<CFGScopeEnd>()) {
      auto Scope = ScopeOwner.find(SE->getVarDecl());
      if (Scope == ScopeOwner.end())
        continue;
      for (const auto &Bd : P.Bind) {
        auto Owner = ScopeOwner.find(dyn_cast<VarDecl>(Bd.first->Decl));
        if (Owner != ScopeOwner.end() && Owner->second == Scope->second)
          return true;
      }
    }
  return false;
}

bool Analysis::isRelevant(const CFGBlock *Blk, const PathState &P) const {
  const BlockMentions &M = Mentions[Blk->getBlockID()];
  if (M.Global || P.Tracked == 0 || P.Bind.empty())
    return true; // the base, or a returned resource not stored yet
  if (M.CaptureIllegal && isCapture(P.Tracked))
    return true;
  auto Named = [&](const Decl *D) {
    return D && std::binary_search(M.Decls.begin(), M.Decls.end(), D);
  };
  for (const auto &B : P.Bind)
    if (Named(B.first->Decl))
      return true;
  for (const auto &R : P.Res) {
    const ResState &RS = R.second;
    if (Named(RS.StatusVar) || Named(RS.StatusDerefOf) ||
        (RS.StatusCopy && Named(RS.StatusCopy->Decl)) ||
        (RS.StatusOut && Named(RS.StatusOut->Decl)))
      return true;
  }
  for (const auto &F : P.Facts)
    if (auto V = FactVars.find(F.first); V != FactVars.end())
      for (Key K : V->second)
        if (K->Decl && std::binary_search(M.Written.begin(), M.Written.end(), K->Decl))
          return true;
  if (valuesWrittenBy(M, P) || ((M.BindsCopiedValue || M.StartsCounter) && !P.Values.empty()))
    return true;
  return M.HasDeaths && holdsDyingVariable(Blk, P);
}

/// Whether a mention of a variable or member only reads it, so that the
/// block cannot change a fact about it: its value (or an element or field
/// of it) reaches an lvalue-to-rvalue conversion, or a pointer read from it
/// is only compared or tested. Anything else (an assignment, `&x`, a call
/// argument, a reference or `this` argument, `p[i] = 0`) may write it.
bool Analysis::onlyReads(const Expr *Mention) const {
  const Stmt *Cur = Mention;
  bool PointerValue = false; // Cur is a pointer read from, or decayed from, it
  while (const Stmt *Up = PM->getParent(Cur)) {
    const auto *Cast = dyn_cast<ImplicitCastExpr>(Up);
    CastKind Kind = Cast ? Cast->getCastKind() : CK_NoOp;
    if (isa<ParenExpr>(Up) || (Cast && Kind == CK_NoOp)) {
      // the same value or lvalue
    } else if (!PointerValue) {
      const auto *ME = dyn_cast<MemberExpr>(Up);
      if (Cast && Kind == CK_LValueToRValue && !Cast->getType()->isPointerType())
        return true;
      if (Cast && (Kind == CK_LValueToRValue || Kind == CK_ArrayToPointerDecay))
        PointerValue = true;
      else if (!ME || ME->isArrow() || ME->getBase() != Cur)
        return false;
    } else {
      const auto *AS = dyn_cast<ArraySubscriptExpr>(Up);
      const auto *UO = dyn_cast<UnaryOperator>(Up);
      const auto *ME = dyn_cast<MemberExpr>(Up);
      const auto *BO = dyn_cast<BinaryOperator>(Up);
      if ((AS && AS->getBase() == Cur) || (UO && UO->getOpcode() == UO_Deref) ||
          (ME && ME->isArrow() && ME->getBase() == Cur))
        PointerValue = false; // an element or field through the pointer
      else
        return (Cast && Kind == CK_PointerToBoolean) || (BO && BO->isComparisonOp()) ||
               (UO && UO->getOpcode() == UO_LNot);
    }
    Cur = Up;
  }
  return false;
}

bool Analysis::isRetired(const PathState &P, const CFGBlock *B) const {
  auto RS = P.Res.find(P.Tracked);
  if (RS == P.Res.end())
    return true;
  const Resource &Res = Resources[P.Tracked];
  if ((RS->second.Bits & Live) || Res.ParamIndex >= 0 || Res.ReleasedParamMember)
    return false;
  for (const auto &Bd : P.Bind) {
    auto It = DeclIndex.find(Bd.first->Decl);
    if (It == DeclIndex.end())
      return false; // not followed: assume it may be named
    for (const CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const CFGBlock *To = Succ.getReachableBlock();
          To && NamedFrom[To->getBlockID()].test(It->second))
        return false;
  }
  return true;
}

/// The disjunct of resource `R` as seen by the paths `P` stands for.
static PathState projectOnto(const PathState &P, unsigned R) {
  PathState D;
  D.Tracked = R;
  D.Facts = P.Facts;
  D.Values = P.Values;
  if (auto It = P.Res.find(R); It != P.Res.end())
    D.Res[R] = It->second;
  for (const auto &Bd : P.Bind)
    if (Bd.second.count(R))
      D.Bind[Bd.first] = {R};
  return D;
}

void Analysis::splitDisjuncts(StateSet &S, const CFGBlock *B) {
  StateSet Out;
  size_t Need = 0;
  for (const PathState &P : S)
    Need += P.Tracked != 0 ? 1 : P.Res.size() + 1;
  Out.reserve(Need);
  for (PathState &P : S) {
    if (P.Tracked != 0) {
      // Whatever else it acquired is born in the base as well.
      if (P.Res.count(P.Tracked))
        P = projectOnto(P, P.Tracked);
      if (!isRetired(P, B))
        Out.push_back(std::move(P));
      continue;
    }
    for (const auto &R : P.Res) {
      PathState D = projectOnto(P, R.first);
      if (!isRetired(D, B))
        Out.push_back(std::move(D));
    }
    P.Res = {};
    P.Bind = {};
    Out.push_back(std::move(P));
  }
  MostDisjuncts = std::max(MostDisjuncts, Out.size());
  auto ByTracked = [](const PathState &L, const PathState &R) { return L.Tracked < R.Tracked; };
  if (!std::is_sorted(Out.begin(), Out.end(), ByTracked)) // usually is: skip the buffer
    std::stable_sort(Out.begin(), Out.end(), ByTracked);
  S = std::move(Out);
}

void Analysis::recordStats(LifetimeStats &S) const {
  ++S.Functions;
  S.WidenedFunctions += !WidenedRes.empty();
  S.BudgetFunctions += HitVisitBudget;
  unsigned Most = S.MostDisjuncts;
  while (MostDisjuncts > Most && !S.MostDisjuncts.compare_exchange_weak(Most, MostDisjuncts))
    ;
}

} // namespace lifetime
} // namespace cgt
