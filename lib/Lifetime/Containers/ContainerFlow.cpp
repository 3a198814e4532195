//===- ContainerFlow.cpp - handles kept in standard containers -------------===//
//
// Graph caches keyed by shape (`std::unordered_map<int, cudaGraphExec_t>`),
// pools of streams and events (`std::vector<cudaStream_t>`): the handle goes
// into a container and comes out of it. The model, in the manner of the
// engine's C arrays (all elements of `execs[i]` are one place):
//
//   * the elements of a container are ONE place, `c[]` (Place::Element on
//     the container's declaration). What the place holds is a summary: "some
//     element may hold this live resource";
//   * an insertion (`c[k] = e`, `c.emplace(k, e)`, `c.push_back(s)`,
//     `cudaStreamCreate(&v[i])`) binds the handle's resource to `c[]` too,
//     so the local `e` may die without a leak; into a member container the
//     object owns it (Escaped), as for any member;
//   * a release of an element (`destroy(it->second)`, `destroy(c[k])`,
//     `destroy(c.at(k))`, `for (auto e : v) destroy(e)`, `for (auto &[k, e]
//     : cache) destroy(e)`) releases "the elements";
//   * a read of an element into anything else (`auto old = it->second`, an
//     unknown call) hands the elements on (Escaped): silence;
//   * a drop (`clear()`, `erase(...)`, `pop_back()`, the end of life of a
//     local container) while the elements may hold a live resource that no
//     other variable holds is a leak, reported at the drop, with a note at
//     the insertion. As for arrays, a drop after the first code that
//     releases the container's elements is not a leak (the loop that
//     destroys them ran, or the container was empty);
//   * passing the container on, copying, moving, returning it, or any method
//     ContainerOps.def does not list hands the elements on.
//
//       insert            release of an element        clear/erase/pop/death
//   e ---------> c[] Live ----------------------> Released ----------> (silent)
//                   |  read out, passed on, unknown method
//                   +------------------------------> Escaped --------> (silent)
//                   |  clear/erase/pop/death before any release
//                   +------------------------------> Leak at the drop
//
// Precision over recall: erase(key) on a local container reports only when
// the key is spelled as at the insertion; an erase through an iterator we
// cannot tie to a key is silent.
//
// Member containers follow the ownership rules (docs/ownership.md): which
// class owns the elements of a member container, and the inherited
// resource a method starts with, are Ownership/MemberContainers.cpp's.
//
// Part of the Analysis class declared in Analysis.h; which expressions are
// containers and elements is ContainerView.cpp's.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

// --- the dataflow: Analysis methods ---

const ContainerView &Analysis::containers() {
  if (!ContainerScan)
    ContainerScan = std::make_unique<ContainerView>(FD->getBody());
  return *ContainerScan;
}

Key Analysis::containerElementPlace(const Expr *E) {
  const ValueDecl *C = containers().elementOf(E);
  return C ? placeOf(C, nullptr, /*Element=*/true) : nullptr;
}

const ValueDecl *Analysis::containerAliasedBy(const Decl *D) {
  return containers().aliasedContainer(D);
}

/// `__range1`, the implicit reference a range loop binds to its container:
/// the loop reads the elements, it does not hand the container on.
bool Analysis::isContainerLoopRange(const VarDecl *VD) {
  return VD->isImplicit() && VD->getType()->isReferenceType() &&
         containers().aliasedContainer(VD) && !containers().isLoopVariable(VD);
}

namespace {

/// `std::make_pair(k, e)`, `std::move(e)`: the handle passes through.
bool passesArgumentsThrough(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier())
    return false;
  StringRef N = Callee->getName();
  return N == "make_pair" || N == "make_tuple" || N == "move" || N == "forward";
}

} // namespace

void collectInsertionParts(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = strip(E);
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : ILE->inits())
      collectInsertionParts(Init, Out);
    return;
  }
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *Arg : Cons->arguments())
      collectInsertionParts(Arg, Out);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && passesArgumentsThrough(Call)) {
    for (const Expr *Arg : Call->arguments())
      collectInsertionParts(Arg, Out);
    return;
  }
  Out.push_back(E);
}

namespace {

/// An iterator argument (`erase(it)`, `insert(hint, v)`), not a key.
bool isIteratorArgument(const Expr *E) {
  const auto *RD = strip(E)->getType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName().contains_insensitive("iterator");
}

} // namespace

/// The pieces of an insertion's arguments, built into a pair, are the
/// insertion's: they do not hand the handle on before it reaches the
/// container.
bool Analysis::isContainerInsertPart(const Stmt *S) {
  if (!isa<InitListExpr, CXXConstructExpr, CallExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !passesArgumentsThrough(Call))
    return false;
  for (const Stmt *Up = PM->getParent(S); Up; Up = PM->getParent(Up)) {
    if (const auto *Call = dyn_cast<CallExpr>(Up)) {
      if (passesArgumentsThrough(Call))
        continue;
      return containers().opOf(Call).first == ContainerOp::Insert;
    }
    if (!isa<InitListExpr, CXXConstructExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             ImplicitCastExpr, ParenExpr, CXXFunctionalCastExpr, ExprWithCleanups>(Up))
      return false;
  }
  return false;
}

/// The handles `Value` carries (a variable, a factory's result) move into
/// the container's elements `Elem`; anything else it holds escapes.
void Analysis::insertIntoContainer(Key Elem, const Expr *Value, const Expr *KeyArg,
                                   const Stmt *At, PathState &P) {
  llvm::SmallVector<const Expr *, 4> Parts;
  collectInsertionParts(Value, Parts);
  for (const Expr *Part : Parts) {
    IdSet Moved;
    // `for (auto e : used_) free_.push_back(e)`, `free_.push_back(b.done)`:
    // the elements of one container go into another, which holds them too.
    if (Key Source = containerElementPlace(Part); Source && Source != Elem) {
      if (auto It = P.Bind.find(Source); It != P.Bind.end())
        Moved = It->second;
    } else if (Key From = storageOf(Part)) {
      if (auto It = P.Bind.find(From); It != P.Bind.end())
        Moved = It->second;
      // `m.emplace(k, sl)` of a local struct: the handles in its members go
      // into the element (a struct-valued container, elementHandleMember).
      if (From->whole())
        for (const auto &B : P.Bind)
          if (B.first->Decl == From->Decl && B.first->Member && !B.first->shadow())
            for (unsigned R : B.second)
              Moved.insert(R);
    } else if (auto Made = ReturnedResource.find(Part); Made != ReturnedResource.end()) {
      Moved = {Made->second};
    } else {
      escapeValueRefs(Part, P);
      continue;
    }
    for (unsigned R : Moved) {
      auto RS = P.Res.find(R);
      if (RS == P.Res.end() || !(RS->second.Bits & Live))
        continue;
      P.Bind[Elem].insert(R);
      noteElementKind(Elem, R);
      // A member container belongs to the object; an escaped container
      // to whoever got it.
      if (isField(Elem) || addressEscaped(Elem))
        RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
      ContainerInsertions.try_emplace(R, ContainerInsertion{At, KeyArg});
    }
  }
}

/// The key an insertion files its handle under: `c[k] = e`, `c.emplace(k,
/// e)`, `c.insert({k, e})`; null for sequences.
static const Expr *insertionKey(const CallExpr *Call, bool Map, unsigned &FirstValue) {
  unsigned N = Call->getNumArgs();
  FirstValue = N > 0 && isIteratorArgument(Call->getArg(0)) ? 1 : 0; // a position hint
  if (!Map || FirstValue >= N)
    return nullptr;
  if (N >= FirstValue + 2) // emplace(k, e), try_emplace(k, e), insert_or_assign(k, e)
    return Call->getArg(FirstValue++);
  llvm::SmallVector<const Expr *, 4> Parts; // insert({k, e}), insert(make_pair(k, e))
  collectInsertionParts(Call->getArg(FirstValue), Parts);
  return Parts.size() == 2 ? Parts[0] : nullptr;
}

bool Analysis::onContainerCall(const CallExpr *Call, PathState &P) {
  auto [Op, C] = containers().opOf(Call);
  if (Op == ContainerOp::None)
    return false;
  Key Elem = placeOf(C, nullptr, /*Element=*/true);
  switch (Op) {
  case ContainerOp::Insert: {
    unsigned FirstValue = 0;
    const Expr *KeyArg = insertionKey(Call, isMapContainerType(C->getType()), FirstValue);
    for (unsigned I = FirstValue; I < Call->getNumArgs(); ++I)
      insertIntoContainer(Elem, Call->getArg(I), KeyArg, Call, P);
    return true;
  }
  case ContainerOp::Access:
    if (elementReadOut(Call))
      handOnBound(Elem, P);
    return true;
  case ContainerOp::Erase:
  case ContainerOp::Clear:
    dropContainerElements(Elem, Call, Op, P);
    return true;
  case ContainerOp::Iterate:
    if (iteratorCopiesElementsOut(Call))
      handOnBound(Elem, P);
    return true;
  case ContainerOp::Query:
  case ContainerOp::None:
    return true;
  }
  return true;
}

/// `free_.insert(free_.end(), used_.begin(), used_.end())`,
/// `std::vector<cudaEvent_t> tmp(v.begin(), v.end())`, `std::copy(v.begin(),
/// ...)`: an iterator given to what copies the range into another owner,
/// which now holds the elements too.
bool Analysis::iteratorCopiesElementsOut(const CallExpr *Iter) {
  const Stmt *Cur = Iter;
  const Stmt *Up = PM->getParent(Cur);
  while (Up && isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr,
                   ExprWithCleanups>(Up)) {
    Cur = Up;
    Up = PM->getParent(Up);
  }
  // An iterator passed by value is copied first.
  if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Up);
      Copy && Copy->getNumArgs() == 1 && Copy->getConstructor()->isCopyOrMoveConstructor())
    Up = PM->getParentIgnoreParenImpCasts(Copy);
  if (const auto *Cons = dyn_cast_or_null<CXXConstructExpr>(Up))
    return isHandleContainerType(Cons->getType());
  const auto *Call = dyn_cast_or_null<CallExpr>(Up);
  if (!Call || Call == Iter)
    return false;
  if (containers().opOf(Call).first == ContainerOp::Insert)
    return true;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  StringRef N = Callee->getName();
  if (isa<CXXMethodDecl>(Callee))
    return N == "assign";
  return Callee->isInStdNamespace() &&
         llvm::is_contained({"copy", "copy_n", "copy_if", "move", "move_backward",
                             "uninitialized_copy", "uninitialized_move", "transform"},
                            N);
}

/// `cache[k] = e`, `*it = e`, `v.back() = s`: an insertion at that key.
bool Analysis::assignIntoContainer(const Expr *LHS, const Expr *RHS, const Stmt *At,
                                   PathState &P) {
  Key Elem = containerElementPlace(LHS);
  if (!Elem)
    return false;
  const Expr *KeyArg = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(strip(LHS));
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    KeyArg = OC->getArg(1);
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(strip(LHS)); MC && MC->getNumArgs() == 1)
    KeyArg = MC->getArg(0);
  overwriteElementAtKey(Elem, KeyArg, At, P);
  insertIntoContainer(Elem, RHS, KeyArg, At, P);
  return true;
}

/// `cache[0] = e2` while `cache[0]` holds the live exec `e1` put there on
/// this path: only a constant key says it is the same element (a variable
/// key spelled alike may hold another value by now, as in a loop).
void Analysis::overwriteElementAtKey(Key Elem, const Expr *KeyArg, const Stmt *At,
                                     PathState &P) {
  std::optional<int64_t> Key = KeyArg ? constantValue(strip(KeyArg)) : std::nullopt;
  auto It = P.Bind.find(Elem);
  if (!Key || It == P.Bind.end())
    return;
  IdSet Ids = It->second;
  for (unsigned R : Ids) {
    auto RS = P.Res.find(R);
    auto Ins = ContainerInsertions.find(R);
    if (RS == P.Res.end() || Ins == ContainerInsertions.end() || !Ins->second.Key ||
        !(RS->second.Bits & Live) || P.boundElsewhere(R, Elem) || Resources[R].IntoField ||
        constantValue(strip(Ins->second.Key)) != Key || !isLeakedAtEnd(Elem, RS->second))
      continue;
    reportDroppedElement(R, RS->second, Elem, At,
                         "this assignment overwrites the element at key " + std::to_string(*Key));
    P.Bind[Elem].erase(R);
    P.Res.erase(R);
  }
}

/// Whether the model entry of `Call` says what it does with argument `I`
/// (a CUDA call borrows a handle; only a summary's unlisted argument may be
/// kept).
static bool modelBorrows(const FunctionModel &M, int I) {
  if (M.Origin != "summary" && M.Origin != "attributes" && !M.UnlistedArgsEscape)
    return true;
  return llvm::any_of(M.Uses, [&](const UseEffect &U) { return U.Arg == I; }) ||
         llvm::any_of(M.Releases, [&](const ReleaseEffect &R) { return R.Arg == I; });
}

/// Whether an element access hands the element's value on: copied into a
/// variable, passed to a call that may keep it, returned. Tests,
/// comparisons, the left of an assignment, a CUDA call's argument and a
/// range loop's variable only look at it (a release is the release's).
bool Analysis::elementReadOut(const Expr *Access) {
  const Stmt *Cur = Access;
  while (const Stmt *Up = PM->getParent(Cur)) {
    if (isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr, ExprWithCleanups,
            CXXBindTemporaryExpr>(Up)) {
      Cur = Up;
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(Up)) {
      if (isPairMember(ME, "first"))
        return false; // the key
      Cur = Up;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Up)) {
      if (UO->getOpcode() == UO_LNot)
        return false;
      if (UO->getOpcode() != UO_AddrOf)
        return true;
      const auto *CE = dyn_cast_or_null<CallExpr>(PM->getParentIgnoreParenImpCasts(UO));
      return !(CE && A.modelFor(CE)); // `cudaStreamCreate(&v[i])`: an acquisition
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Up)) {
      if (BO->isAssignmentOp())
        return BO->getRHS() == Cur;
      return !(BO->isComparisonOp() || BO->isLogicalOp());
    }
    if (const auto *CE = dyn_cast<CallExpr>(Up)) {
      if (isa<CUDAKernelCallExpr>(CE))
        return false;
      // The launch configuration `<<<g, b, 0, streams[i]>>>`.
      if (const auto *Kernel = dyn_cast_or_null<CUDAKernelCallExpr>(PM->getParent(CE));
          Kernel && Kernel->getConfig() == CE)
        return false;
      const FunctionModel *M = A.modelFor(CE);
      if (!M)
        return true;
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (CE->getArg(I) == Cur)
          return !modelBorrows(*M, static_cast<int>(I));
      return true;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Up))
      return !llvm::any_of(DS->decls(),
                           [&](const Decl *D) { return containers().isLoopVariable(D); });
    if (isa<IfStmt, WhileStmt, ForStmt, DoStmt, SwitchStmt>(Up))
      return false;
    if (const auto *CO = dyn_cast<ConditionalOperator>(Up))
      return CO->getCond() != Cur;
    return true;
  }
  return true;
}

/// `destroy(it->second)`, `destroy(c[k])`, `for (auto e : v) destroy(e)`:
/// "the elements" are released. A resource some other variable still holds
/// may be another element's: it is let go rather than released, so that a
/// later release through that variable is not a double release.
bool Analysis::releaseContainerElement(const Expr *Arg, const Expr *Call,
                                       const FunctionModel &M, const ReleaseEffect &Eff,
                                       PathState &P) {
  Key Elem = containerElementPlace(Arg);
  if (!Elem)
    return false;
  auto It = P.Bind.find(Elem);
  if (It == P.Bind.end())
    return true;
  reportElementsOfWrongFamily(Elem, It->second, Call, Arg, M, Eff, P);
  for (unsigned R : It->second) {
    auto RSIt = P.Res.find(R);
    if (RSIt == P.Res.end())
      continue;
    ResState &RS = RSIt->second;
    if (P.boundElsewhere(R, Elem)) {
      if (RS.Bits & Live)
        RS.Bits = (RS.Bits & ~Live) | Escaped;
      continue;
    }
    if (!(RS.Bits & Live))
      continue;
    RS.markReleased(Call, &M, &Eff);
  }
  return true;
}

/// `cudaFree(peers[r])` over elements an IPC open put there. The elements
/// are one place, and which of them a path holds is not which the release
/// reaches: the release is the wrong one only when no element put there on
/// any path is of its family (a vector of device and pinned buffers, each
/// released by a test of which it is, is not), which dropMixedElementMismatches
/// decides once every insertion is seen.
void Analysis::reportElementsOfWrongFamily(Key Elem, const IdSet &Ids, const Expr *Call,
                                           const Expr *Arg, const FunctionModel &M,
                                           const ReleaseEffect &Eff, const PathState &P) {
  for (unsigned R : Ids) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || !(RS->second.Bits & Live) || P.boundElsewhere(R, Elem))
      continue;
    if (!isWrongFamily(Eff, R, RS->second))
      return;
  }
  for (unsigned R : Ids) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || !(RS->second.Bits & Live) || P.boundElsewhere(R, Elem))
      continue;
    reportWrongFamily(R, Elem, Call, M, {}, text(strip(Arg)));
    ElementReleases.push_back({Call, Elem, &Eff});
    return;
  }
}

void Analysis::noteElementKind(Key Elem, unsigned R) {
  const Resource &Res = Resources[R];
  std::set<std::string> &Kinds = ElementKinds[Elem];
  if (!Res.Kind.empty())
    Kinds.insert(Res.Kind);
  Kinds.insert(Res.OrKinds.begin(), Res.OrKinds.end());
}

void Analysis::dropMixedElementMismatches() {
  for (const ElementRelease &Rel : ElementReleases) {
    auto Kinds = ElementKinds.find(Rel.Elem);
    if (Kinds == ElementKinds.end())
      continue;
    if (llvm::any_of(Kinds->second, [&](const std::string &K) {
          return llvm::is_contained(Rel.Eff->Kinds, K);
        }))
      Findings.erase({static_cast<int>(FindingKind::MismatchedRelease), Rel.Site});
  }
}

/// The key an erase names: `erase(k)`, `erase(it)` after `it = find(k)`.
const Expr *Analysis::erasedKey(const CallExpr *Call) {
  if (Call->getNumArgs() != 1)
    return nullptr;
  const Expr *Arg = Call->getArg(0);
  if (!isIteratorArgument(Arg))
    return Arg;
  return containers().keyOfIterator(Arg);
}

bool Analysis::sameKey(const Expr *L, const Expr *R) {
  if (!L || !R)
    return false;
  std::string TL = text(strip(L)), TR = text(strip(R));
  return !TL.empty() && TL == TR;
}

/// clear(), erase(), pop_back() over elements that may hold a live
/// resource nothing else holds.
void Analysis::dropContainerElements(Key Elem, const CallExpr *Call, ContainerOp Op,
                                     PathState &P) {
  auto It = P.Bind.find(Elem);
  if (It == P.Bind.end())
    return;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  StringRef Method = MC && MC->getMethodDecl()->getIdentifier() ? MC->getMethodDecl()->getName() : "";
  bool Pop = Method.starts_with("pop_");
  const Expr *Erased = Op == ContainerOp::Erase && !Pop ? erasedKey(Call) : nullptr;
  IdSet Ids = It->second;
  for (unsigned R : Ids) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end())
      continue;
    const Resource &Res = Resources[R];
    auto Ins = ContainerInsertions.find(R);
    // What leaves: everything, the last element, or the element filed under
    // the erased key (an inherited element: any erase may be one).
    bool Leaves = Op == ContainerOp::Clear || Pop || Res.LeftLiveBy ||
                  (Ins != ContainerInsertions.end() && sameKey(Ins->second.Key, Erased));
    if (!Leaves)
      continue;
    bool Lost = (RS->second.Bits & Live) && !P.boundElsewhere(R, Elem) &&
                (!Res.IntoField || Res.LeftLiveBy) && isLeakedAtEnd(Elem, RS->second);
    if (Lost)
      reportDroppedElement(R, RS->second, Elem, Call,
                           "'" + Elem->Decl->getNameAsString() + "." + Method.str() +
                               "' drops an element");
    // The element leaves; a variable that still holds the handle keeps it.
    if (Lost || Op == ContainerOp::Clear || P.boundElsewhere(R, Elem)) {
      P.Bind[Elem].erase(R);
      if (!P.boundElsewhere(R, Elem))
        P.Res.erase(R);
    }
  }
  if (auto After = P.Bind.find(Elem); After != P.Bind.end() && After->second.empty())
    P.Bind.erase(After);
}

void Analysis::reportDroppedElement(unsigned R, const ResState &RS, Key Elem,
                                    const Stmt *Call, const std::string &How) {
  if (SummaryMode || !Leaked.insert(R).second)
    return;
  const Resource &Res = Resources[R];
  const ResourceKind *RK = A.Model.kind(Res.Kind);
  std::string Noun = RK ? RK->Noun : "resource";
  std::string Container = Elem->Decl->getNameAsString();
  std::vector<PathNote> Notes = trailNotes(RS);
  if (Res.LeftLiveBy)
    Notes.push_back({loc(Res.Site), "'" + Res.LeftLiveBy->getNameAsString() + "' puts the " +
                                        Noun + " created here into '" + Container +
                                        "', whose elements this class releases"});
  else
    addInsertionNote(R, Notes);
  Notes.push_back({loc(Call), How + " that may still hold the " + Noun + "; release it first"});
  const auto *At = cast<Expr>(Call);
  report(FindingKind::Leak, R, At, std::move(Notes));
  // Worded as a leak at the drop, not as a member the destructor forgets.
  if (auto F = Findings.find({static_cast<int>(FindingKind::Leak), At}); F != Findings.end())
    F->second.Owner.clear();
}

/// The note at the insertion that put a leaked resource into a container.
void Analysis::addInsertionNote(unsigned R, std::vector<PathNote> &Notes) const {
  auto Ins = ContainerInsertions.find(R);
  if (Ins == ContainerInsertions.end())
    return;
  const Resource &Res = Resources[R];
  const ResourceKind *RK = A.Model.kind(Res.Kind);
  std::string Noun = RK ? RK->Noun : "resource";
  Notes.push_back({loc(Ins->second.At), "the " + Noun + " '" + Res.VarName +
                                            "' moves into a container here"});
}

} // namespace lifetime
} // namespace cgt
