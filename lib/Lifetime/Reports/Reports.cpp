//===- Reports.cpp - leaks and reports ------------------------------------===//
//
// Where a live resource is lost (a variable's lifetime ends, the function
// exits) and how findings are built, with their path notes, and
// deduplicated.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Lifetime/Containers/Containers.h"
#include "Report/BranchNotes.h"

#include <functional>

namespace cgt {
namespace lifetime {

/// Several acquisitions into one variable that leak at the same place are one
/// bug: keep the first acquisition in source order.
std::vector<LifetimeFinding> Analysis::takeFindings() {
  dropMixedElementMismatches(); // ContainerFlow.cpp
  refuteFindings(); // Witness.cpp
  std::vector<LifetimeFinding> Out;
  std::map<std::pair<std::string, unsigned>, size_t> LeakAt;
  std::vector<LifetimeFinding> All;
  // A widened resource's states were merged past the bound: the facts that
  // decided its findings may be gone, so it reports nothing.
  // So is one a template's dependent branch may decide (Templates.cpp).
  for (auto &F : Findings)
    if (!llvm::is_contained(WidenedRes, FindingResource[F.first]) &&
        !DependentlyDecided.count(FindingResource[F.first]))
      All.push_back(std::move(F.second));
  llvm::sort(All, [&](const LifetimeFinding &L, const LifetimeFinding &R) {
    return SM.isBeforeInTranslationUnit(L.Loc, R.Loc);
  });
  for (LifetimeFinding &F : All) {
    if (F.Kind == FindingKind::Leak && !F.VarName.empty() && !F.Notes.empty()) {
      auto Id = std::make_pair(F.VarName, F.Notes.back().Loc.getRawEncoding());
      if (!LeakAt.emplace(Id, Out.size()).second)
        continue;
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

std::vector<PathNote> Analysis::trailNotes(const ResState &RS) const {
  std::vector<PathNote> Notes;
  for (unsigned I = 0; I < RS.TrailSize; ++I) {
    std::string T = branchAssumption(RS.Trail[I].Cond, RS.Trail[I].Taken, Ctx);
    if (!T.empty())
      Notes.push_back({loc(RS.Trail[I].Cond), std::move(T)});
  }
  return Notes;
}

void Analysis::reportLeak(unsigned R, const ResState &RS, SourceLocation Where,
                          const std::string &Why) {
  const Resource &Res = Resources[R];
  if (SummaryMode || Res.ParamIndex >= 0 || !Res.Site || !Leaked.insert(R).second)
    return;
  if (isCapture(R)) // a capture left open, not a handle
    return reportCaptureOpen(R, RS, Where);
  std::vector<PathNote> Notes = trailNotes(RS);
  addInsertionNote(R, Notes);
  Notes.push_back({Where, Why});
  report(FindingKind::Leak, R, Res.Site, std::move(Notes));
}

/// Host heap memory is followed only for its mismatches with CUDA families;
/// its leaks and double frees are clang-analyzer's (unix.Malloc), which
/// sees the allocator's whole contract, where we would see half of it.
bool Analysis::isOthersToReport(FindingKind Kind, const Resource &Res) const {
  if (Kind != FindingKind::Leak && Kind != FindingKind::Overwrite &&
      Kind != FindingKind::UseAfterRelease && Kind != FindingKind::DoubleRelease)
    return false;
  const ResourceKind *RK = A.Model.kind(Res.Kind);
  return RK && RK->MismatchOnly;
}

/// A release whose every kind is host heap memory (`free`, or a helper
/// summarised from one): what it releases is not a CUDA resource, even
/// where this function did not see it allocated.
bool Analysis::releasesOnlyOthersMemory(const ReleaseEffect *E) const {
  return E && !E->Kinds.empty() && llvm::all_of(E->Kinds, [&](const std::string &K) {
           const ResourceKind *RK = A.Model.kind(K);
           return RK && RK->MismatchOnly;
         });
}

/// `delete` of `new[]` memory, `free` of `new` memory: both families are
/// host heap, whose mismatches are clang-analyzer's
/// (unix.MismatchedDeallocator, cplusplus.NewDelete); only a CUDA family
/// on one side makes the mismatch ours.
bool Analysis::bothOthersMemory(const ReleaseEffect &E, const Resource &Res) const {
  const ResourceKind *RK = A.Model.kind(Res.Kind);
  return RK && RK->MismatchOnly && releasesOnlyOthersMemory(&E);
}

void Analysis::report(FindingKind Kind, unsigned R, const Expr *At,
                      std::vector<PathNote> Notes, const std::string &Called) {
  if (SummaryMode || CollectMembers)
    return;
  auto Id = std::make_pair(static_cast<int>(Kind), At);
  if (Replay) {
    if (Id == Replay->Target && !Replay->Hit) {
      Replay->Hit = true;
      Replay->Notes = std::move(Notes);
    }
    return;
  }
  if (Findings.count(Id))
    return;
  const Resource &Res = Resources[R];
  if (isOthersToReport(Kind, Res))
    return;
  LifetimeFinding F;
  F.Kind = Kind;
  F.ResourceKind = Res.Kind;
  F.Loc = loc(At);
  F.Range = SourceRange(F.Loc, endLoc(At));
  F.AcquiredBy = Res.AcquiredBy;
  F.VarName = Res.VarName;
  F.CalledFunction = Called;
  F.Notes = std::move(Notes);
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Res.LeftLiveBy))
    F.Owner = MD->getParent()->getNameAsString();
  Findings.emplace(Id, std::move(F));
  FindingResource[Id] = R;
  if (InWalk)
    ReportedInWalk.insert(Id);
}

/// Where the resource is lost when `VD`'s lifetime ends at `Trigger`.
std::pair<SourceLocation, std::string> Analysis::scopeExit(const Stmt *Trigger) const {
  if (isa_and_nonnull<ReturnStmt>(Trigger))
    return {loc(Trigger), "is not released when the function returns here"};
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Trigger))
    return {SM.getExpansionLoc(CS->getRBracLoc()), "goes out of scope here"};
  if (Trigger)
    return {loc(Trigger), "goes out of scope here"};
  return {SM.getExpansionLoc(FD->getBody()->getEndLoc()), "goes out of scope here"};
}

/// Live resources only the dying variable (or its members and elements)
/// holds are leaked.
/// The statement whose scope a local variable belongs to: the compound
/// statement, or the `for`/`if`/`while`/`switch` that declares it.
void Analysis::scanScopes() {
  for (const DeclStmt *DS : BodyDecls)
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        ScopeOwner[VD] = PM->getParent(DS);
}

/// Leaving a scope (clang's CFG names it by its first variable) ends the
/// lifetime of all its variables, latest declared first, as C++ destroys
/// them. Only the variables this path binds can matter, so the cost follows
/// the state, not the size of the scope: a function with n variables and n
/// early returns stays linear.
void Analysis::onScopeEnd(const VarDecl *ScopeVar, const Stmt *Trigger, PathState &P) {
  auto Owner = ScopeOwner.find(ScopeVar);
  if (Owner == ScopeOwner.end())
    return;
  auto InScope = [&](const Decl *D) {
    auto It = ScopeOwner.find(dyn_cast<VarDecl>(D));
    return It != ScopeOwner.end() && It->second == Owner->second;
  };
  // The next instance of a variable (a loop's next iteration) starts
  // unknown, and facts about a dead variable only cost space.
  forgetValues([&](Key K) { return InScope(K->Decl); }, P);
  P.Facts.eraseIf([&](const std::pair<uintptr_t, bool> &F) {
    auto V = FactVars.find(F.first);
    return V != FactVars.end() &&
           llvm::any_of(V->second, [&](Key K) { return InScope(K->Decl); });
  });
  llvm::SmallVector<const VarDecl *, 4> Dying;
  for (const auto &B : P.Bind)
    if (InScope(B.first->Decl) && !llvm::is_contained(Dying, B.first->Decl))
      Dying.push_back(cast<VarDecl>(B.first->Decl));
  llvm::sort(Dying, [&](const VarDecl *L, const VarDecl *R) {
    return SM.isBeforeInTranslationUnit(R->getLocation(), L->getLocation());
  });
  for (const VarDecl *VD : Dying)
    onLifetimeEnd(VD, Trigger, P);
}

void Analysis::onLifetimeEnd(const VarDecl *VD, const Stmt *Trigger, PathState &P) {
  llvm::SmallVector<Key, 4> Dying;
  for (const auto &B : P.Bind)
    if (B.first->Decl == VD)
      Dying.push_back(B.first);
  if (Dying.empty())
    return;
  auto [Where, How] = scopeExit(Trigger);
  for (Key K : Dying) {
    auto It = P.Bind.find(K);
    for (unsigned R : It->second) {
      auto RS = P.Res.find(R);
      if (RS == P.Res.end() ||
          llvm::any_of(P.Bind, [&](const auto &B) { return B.first->Decl != VD && B.second.count(R); }))
        continue;
      if (isLeakedAtEnd(K, RS->second) && !Resources[R].IntoField &&
          Resources[R].ParamIndex < 0) {
        const ResourceKind *RK = A.Model.kind(Resources[R].Kind);
        std::string Noun = RK ? RK->Noun : "resource";
        reportLeak(R, RS->second, Where,
                   isa_and_nonnull<ReturnStmt>(Trigger)
                       ? "'" + K->name() + "' " + How
                       : "'" + K->name() + "' " + How + " without releasing the " + Noun);
      }
      if (Resources[R].ParamIndex < 0)
        P.Res.erase(RS);
    }
  }
  if (!isa<ParmVarDecl>(VD))
    for (Key K : Dying)
      P.Bind.erase(K);
}

} // namespace lifetime
} // namespace cgt
