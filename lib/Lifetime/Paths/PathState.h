//===- PathState.h - the lattice of the lifetime dataflow -------*- C++ -*-===//
//
// What the lifetime analysis knows at a program point: a set of disjuncts
// (ESP's property simulation; the join and why it is built so are in
// Join.h). A disjunct is the projection of some paths onto ONE resource (or
// onto none: the base disjunct): the resource's state bits (Live, Released,
// Escaped, Absent), what its success depends on, the places that hold it,
// the branch decisions taken while it was live (for notes), the branch
// facts common to the paths it stands for, and what those paths know of
// program values (lib/Values: ranges, equalities; ValueFacts.cpp binds them
// to places).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_PATHSTATE_H
#define CUDAGRAPH_TIDY_LIFETIME_PATHSTATE_H

#include "ApiModel/ApiModel.h"
#include "Lifetime/Paths/FlatContainers.h"
#include "Values/Constraints.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

namespace cgt {
namespace lifetime {

enum StateBit : uint8_t {
  Live = 1,
  Released = 2,
  Escaped = 4,
  Absent = 8,
};

/// Static facts about one acquisition (one per site and per summary param).
struct Resource {
  const clang::Expr *Site = nullptr;     ///< acquiring call; null for parameters
  std::string Kind;               ///< model kind; empty for parameters
  std::vector<std::string> OrKinds; ///< kinds it may be instead (AcquireEffect)
  std::string AcquiredBy;
  std::string VarName;
  bool IntoField = false;         ///< lives in a field: never leaks at exit
  bool IntoElement = false;       ///< filled into array elements (Calls.cpp)
  bool Untracked = false;         ///< a handle released here, not acquired here
  /// A helper's parameter member released here (SummaryMode): kept to its
  /// exits, where the summary asks whether the member still names it.
  bool ReleasedParamMember = false;
  bool Borrowed = false;          ///< lent by a getter ("owned": false, Borrowed.cpp)
  int ParamIndex = -1;            ///< >= 0: summary resource of a parameter
  /// A member of `this` that another method (or an earlier call of this
  /// one) may leave live: Site is that method's acquisition (Members.cpp).
  const clang::FunctionDecl *LeftLiveBy = nullptr;
  /// A member of a pointer parameter tested non-null before this function
  /// acquires into it: Site is the test (Members.cpp).
  bool TestedOnEntry = false;
};

/// What one path knows about one resource.
struct Place;

struct ResState {
  uint8_t Bits = 0;
  const clang::Expr *StatusExpr = nullptr;   ///< the call whose result says success
  const clang::VarDecl *StatusVar = nullptr; ///< or the variable that holds it
  /// Or a copy (`status_ = (st)` in a macro, `ok = (st == cudaSuccess)`),
  /// inverted when the copy is true on success.
  const Place *StatusCopy = nullptr;
  bool CopyInverted = false;
  /// Or what a pointer points to (`*err = cudaGraphInstantiate(...)`).
  const clang::ValueDecl *StatusDerefOf = nullptr;
  bool SuccessIsZero = true;          ///< cudaSuccess == 0; false for bool helpers
  /// A second status the call writes through an argument, zero on success
  /// (cudaGraphInstantiateWithParams's `params.result_out`).
  const Place *StatusOut = nullptr;
  bool OlderLive = false;             ///< array element from an earlier iteration
  uint64_t ReleasedElements = 0;      ///< array: constant indices released so far
                                      ///< (all ones: released through a variable index)
  uint64_t AcquiredElements = 0;      ///< array: constant indices filled so far
  bool ElementsKnown = true;          ///< every fill used a constant index
  /// An element of arrays or containers (or a capture on one of several
  /// streams): the places (a declaration, or a capture place) whose
  /// release code has run on this path, or a loop around it was left
  /// (ElementReleases.cpp). Sorted, null-padded; a fourth place makes
  /// AllReleaseRan (every place counts as released: silence, never a
  /// false leak). Fixed size, so that copying a state never allocates.
  std::array<const void *, 3> ReleaseRanFor{};
  bool AllReleaseRan = false;
  bool releaseRanFor(const void *Of) const {
    return AllReleaseRan || std::find(ReleaseRanFor.begin(), ReleaseRanFor.end(), Of) !=
                                ReleaseRanFor.end();
  }
  void noteReleaseRan(const void *Of) {
    if (releaseRanFor(Of))
      return;
    auto Free = std::find(ReleaseRanFor.begin(), ReleaseRanFor.end(), nullptr);
    if (Free == ReleaseRanFor.end()) {
      AllReleaseRan = true;
      return;
    }
    *Free = Of;
    std::sort(ReleaseRanFor.begin(), Free + 1, std::greater<const void *>());
  }
  const clang::Expr *ReleaseSite = nullptr;
  const FunctionModel *ReleasedBy = nullptr;
  const ReleaseEffect *ReleasedAs = nullptr;
  /// Branch decisions taken while the resource was live (for notes); kept
  /// as AST pointers so that copying a path state never allocates.
  struct Step {
    const clang::Expr *Cond;
    bool Taken;
  };
  std::array<Step, 4> Trail{};
  unsigned TrailSize = 0;

  /// Nothing holds the status of the call that made it any more: it
  /// succeeded, or what held the status was overwritten.
  void forgetStatus() {
    StatusExpr = nullptr;
    StatusVar = nullptr;
    StatusCopy = nullptr;
    StatusDerefOf = nullptr;
  }
  /// Released by `At` (the model entry `By`, its effect `As`).
  void markReleased(const clang::Expr *At, const FunctionModel *By, const ReleaseEffect *As) {
    Bits = Released;
    ReleaseSite = At;
    ReleasedBy = By;
    ReleasedAs = As;
    forgetStatus();
  }

  bool operator==(const ResState &O) const {
    return Bits == O.Bits && StatusExpr == O.StatusExpr &&
           StatusVar == O.StatusVar && StatusCopy == O.StatusCopy &&
           CopyInverted == O.CopyInverted && StatusDerefOf == O.StatusDerefOf &&
           StatusOut == O.StatusOut && ReleaseRanFor == O.ReleaseRanFor &&
           AllReleaseRan == O.AllReleaseRan &&
           ReleaseSite == O.ReleaseSite;
  }
};

/// `res.array.array` for the innermost field of `rd.res.array.array` of a
/// local `cudaResourceDesc` (Places.cpp nestedPlainAggregate); the field's
/// own name for a member of `Decl`'s type itself.
std::string memberPath(const clang::ValueDecl *Decl, const clang::FieldDecl *Member);

/// Where a handle lives: a local variable or parameter, a member of `this`,
/// a member of a local plain struct (`h.exec`), or any element of a local
/// array (`execs[i]`, all elements as one place). Two shadow places are
/// bound and die with the variable Decl.Member but are not the handle
/// itself: a capture place is the stream capture open on the stream held
/// there (Capture.cpp); an exec-references place holds the freed memory
/// that the graph exec held there still references (CapturedMemory.cpp).
struct Place {
  const clang::ValueDecl *Decl = nullptr;   ///< VarDecl, or FieldDecl of `this`
  const clang::FieldDecl *Member = nullptr; ///< Decl.Member
  bool Element = false;              ///< Decl[i]
  bool Capture = false;              ///< the capture open on the stream here
  bool ExecRefs = false;             ///< memory the exec here references
  bool shadow() const { return Capture || ExecRefs; }
  bool whole() const { return !Member && !Element && !shadow(); }
  std::string name() const {
    std::string N = Decl->getNameAsString();
    if (Member)
      N += (Decl->getType()->isPointerType() ? "->" : ".") + memberPath(Decl, Member);
    if (Element)
      N += "[]";
    return N;
  }
};
using Key = const Place *;

/// One disjunct: the projection of some paths onto the resource `Tracked`
/// (0: onto no resource, the base). Inside a block's transfer a disjunct may
/// briefly hold more resources (those it acquires); the block's end splits
/// them off.
struct PathState {
  FlatMap<Key, IdSet> Bind;            ///< variable -> resources it may hold
  FlatMap<unsigned, ResState, 1> Res;
  FlatMap<uintptr_t, bool> Facts;      ///< condition key -> truth
  values::Constraints Values;          ///< place key -> range, (dis)equalities
  unsigned Tracked = 0;

  bool operator==(const PathState &O) const {
    return Bind == O.Bind && Res == O.Res && Facts == O.Facts && Values == O.Values;
  }
  bool boundElsewhere(unsigned R, Key Except) const {
    for (const auto &B : Bind)
      if (B.first != Except && B.second.count(R))
        return true;
    return false;
  }
};

using StateSet = std::vector<PathState>;

/// The resource part of two state sets is the same: what happened between
/// them changed no resource (values and facts may differ). With `Only`,
/// the disjuncts of that resource alone are compared.
inline bool sameResources(const StateSet &A, const StateSet &B, unsigned Only = 0) {
  auto Counted = [&](const PathState &P) { return !Only || P.Tracked == Only; };
  auto Same = [](const PathState &X, const PathState &Y) {
    return X.Tracked == Y.Tracked && X.Bind == Y.Bind && X.Res == Y.Res;
  };
  auto IA = A.begin(), IB = B.begin();
  while (true) {
    IA = std::find_if(IA, A.end(), Counted);
    IB = std::find_if(IB, B.end(), Counted);
    if (IA == A.end() || IB == B.end())
      return IA == A.end() && IB == B.end();
    if (!Same(*IA++, *IB++))
      return false;
  }
}

} // namespace lifetime
} // namespace cgt

#endif
