//===- Ownership.h - resources kept in members, across functions -*- C++ -*-===//
//
// Private to lib/Lifetime. The per-function dataflow sees a member
// (`exec_`, `ctx->buf`) as owned by an object that outlives the call, so it
// never reports it leaked. This index looks at the whole translation unit
// instead: for every member that some function acquires a resource into,
// who acquires into it, who releases it and whether its value is ever handed
// out. From that it draws conclusions the dataflow cannot:
//
//   member leak       acquired into, released nowhere in the file and never
//                     handed out (returned, copied elsewhere, given to a call
//                     the model does not know), where the owner is closed:
//                     a class whose every method is defined here, or a C
//                     struct with an init/free pair (some function releases
//                     another member of it through a pointer parameter)
//                     -> Leak at each acquisition, a note at the member
//   wrong family     every acquisition into the member is of one kind, and
//                     another function releases it with a function of
//                     another family -> MismatchedRelease at that release
//   copied owner      a class whose destructor releases a member and whose
//                     copy constructor is implicit (or defaulted), copied
//                     somewhere in the file: both copies release the handle
//                     -> DoubleRelease at the destructor's release, a note
//                     at the copy (a user move that leaves the source
//                     holding it: MovedOwners.cpp)
//   reset, then       a public method releases a member without clearing
//   destroyed         it, the destructor calls it (or releases the member),
//                     and a local object is not named after a call of it
//                     -> DoubleRelease at the method's release
//                     (ResetThenDestroy.cpp)
//   short release     the only release of a member container's elements is
//   loop              a counted loop that skips the first or the last index
//                     -> Leak at the loop (ShortReleaseLoops.cpp)
//   live on entry     (used by the dataflow, Members.cpp) which methods may
//                     leave a member holding a live resource when they
//                     return, so that another method, or a second call of
//                     the same one, that acquires into it without releasing
//                     or testing it first overwrites a live resource; and
//                     which members of an object a free function given it
//                     by pointer may find as its own earlier call on that
//                     object left them (ParamMembers.cpp)
//
// Ownership.cpp builds the index, OwnershipFindings.cpp (with the files
// named above) reports the findings, OwnershipEntry.cpp answers the third (with the flags
// CompanionFlags.cpp ties to members, and the mode flags of ModeFlags.cpp).
//
// The index is syntactic (every mention of a member is classified once);
// only "which methods leave a member live" runs the dataflow on the methods
// that acquire into members. Everything here errs towards silence: a member
// mentioned in a way the index cannot classify counts as handed out.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_OWNERSHIP_H
#define CUDAGRAPH_TIDY_LIFETIME_OWNERSHIP_H

#include "Lifetime/Analysis.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace cgt {
namespace lifetime {

class AncestorChain;

/// One acquisition into a member: `cudaGraphInstantiate(&exec_, ...)`,
/// `ctx->stream = make_stream()`, or `cudaStreamCreate(&s); s_ = s;`.
struct MemberAcquisition {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *In = nullptr;
  const clang::Expr *Member = nullptr; ///< the member as written
  std::string Kind;
  std::string By;                      ///< the acquiring function
  bool ThroughThis = false;            ///< a member of `this` (else of a parameter)
};

struct MemberRelease {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *In = nullptr;
  std::string By;
  std::vector<std::string> Kinds; ///< what the call may legally release
  const clang::Expr *Member = nullptr;
};

struct OwnedMember {
  const clang::FieldDecl *Field = nullptr;
  std::vector<MemberAcquisition> Acquisitions;
  std::vector<MemberRelease> Releases;
  /// Where its value first leaves the owner's control; null if never.
  const clang::Stmt *HandedOut = nullptr;
  /// Functions that mention it other than to read it (for `touches`).
  std::set<const clang::FunctionDecl *> WrittenIn;
  /// Assigned what a call the model does not describe returned: memory of
  /// any family, so no acquisition says what every value of it is.
  bool AssignedUnknownResult = false;
};


/// `Runner`, or for `typedef struct { ... } solver_t;` the typedef's name.
std::string ownerName(const clang::RecordDecl *RD);
/// `ctx->buf`, `s->halo`, `c.buf` through a reference parameter: a member
/// of a struct the function does not own as a local value.
bool reachedThroughPointer(const clang::MemberExpr *ME);
/// `reset()` or `this->reset()`: a call of a method on this object.
bool isThisCall(const clang::CallExpr *Call);

/// Whether `Child`, a child of `If`, is one of its arms. The init statement
/// and the condition variable (`if (auto e = cudaStreamCreate(&s); e != 0)`)
/// run before the test, on every path through the `if`, as the condition does.
bool isArmOf(const clang::IfStmt *If, const clang::Stmt *Child);

/// The conditions that decide whether `S` runs in `FD`: those of the
/// branches it sits in, and of the early exits before it.
std::vector<const clang::Expr *> guardingConditions(const clang::FunctionDecl *FD,
                                                    const clang::Stmt *S);

class OwnershipIndex {
public:
  explicit OwnershipIndex(LifetimeAnalyzer::Impl &A);

  /// Member leaks and copied owners whose report sits in `FD`.
  std::vector<LifetimeFinding> findingsIn(const clang::FunctionDecl *FD);

  const std::map<const clang::FieldDecl *, OwnedMember> &members() const { return Members; }
  const OwnedMember *member(const clang::FieldDecl *F) const {
    auto It = Members.find(F);
    return It == Members.end() ? nullptr : &It->second;
  }
  /// Members of `this` that a call of `Method` may release, reassign or
  /// hand out (false only when the index is sure it does not).
  bool mayChange(const clang::FunctionDecl *Method, const clang::FieldDecl *F) const;
  /// Whether a call of `Method` on `this` may reach `F` at all: it or a
  /// method it calls on `this` names it (false only when the index is sure
  /// none does). What a method does to a container's elements is not
  /// classified, so only a method that never names the container leaves
  /// them as they were.
  bool mayTouch(const clang::FunctionDecl *Method, const clang::FieldDecl *F) const;
  /// Whether the file shows `M` can run on an object whose `F` the method
  /// `Leaver` left live: `Leaver` then `M` on one object with no call
  /// between that may release it, `M` in a loop that releases nothing, or
  /// a method of the class that calls `M` without releasing `F` first.
  /// `Param` >= 0: `M` is a function given the object by pointer as that
  /// argument (ParamMembers.cpp), -1: a method of the object.
  bool reachedWithMemberLive(const clang::FieldDecl *F, const clang::FunctionDecl *Leaver,
                             const clang::FunctionDecl *M, int Param = -1) const;
  /// The members of the object `FD` is given by pointer as `P` that `FD`
  /// should assume an earlier call of itself left live (ParamMembers.cpp).
  std::map<const clang::FieldDecl *, LiveOnReturn>
  liveOnEntryThrough(const clang::FunctionDecl *FD, const clang::ParmVarDecl *P);
  /// `step(&c, ...)`: the arguments that hand a free function an object by
  /// pointer, with their index, as the object (`c`).
  static std::vector<std::pair<unsigned, const clang::Expr *>>
  objectsPassedTo(const clang::CallExpr *Call);
  /// Methods may be called again on a live object: false for constructors
  /// and for methods only constructors call.
  bool runsOnFreshObject(const clang::CXXMethodDecl *M) const;
  /// `~Step() { reset(); }`: the destructor calls `M` on `this` as one of
  /// its statements, so `M`'s returns are the destructor's.
  bool runsForDestructor(const clang::CXXMethodDecl *M) const;
  /// The members `M` should assume may hold a live resource on entry, with
  /// the method (and acquisition) that leaves each so.
  std::map<const clang::FieldDecl *, LiveOnReturn>
  liveOnEntry(const clang::CXXMethodDecl *M);
  /// Members the method `Leaver`, which may leave `F` live, sets with the
  /// acquisition (flags such as `captured_ = true`) or tests before it: a
  /// test of one of them may say whether `F` is live (CompanionFlags.cpp).
  bool isCompanionFlag(const clang::FieldDecl *F, const clang::FunctionDecl *Leaver,
                       const clang::Expr *Cond) const;
  /// Whether `M`'s acquisitions or releases of `F` are decided by a flag
  /// that `Leaver` sets with the value it leaves in `F`.
  bool flagDecides(const clang::FieldDecl *F, const clang::CXXMethodDecl *M,
                   const clang::FunctionDecl *Leaver) const;
  /// The value the member `G` holds in every object where `Leaver` left a
  /// member live: its default, when only constructors of another way of
  /// building the object write it (ModeFlags.cpp).
  std::optional<int64_t> modeFlagValue(const clang::FieldDecl *G,
                                       const clang::CXXMethodDecl *Leaver) const;

private:
  /// Indexes `FD`'s body; returns the declarations in it (local classes and
  /// variables) for the collector.
  std::vector<const clang::Decl *> scanFunction(const clang::FunctionDecl *FD);
  void scanConstructorInits(const clang::CXXConstructorDecl *Ctor);
  void classify(const clang::MemberExpr *ME, const clang::FunctionDecl *FD,
                const AncestorChain &PM);
  void noteCallArgument(const clang::CallExpr *Call, unsigned I, bool ByAddress,
                        const clang::MemberExpr *ME, const clang::FunctionDecl *FD);
  void noteAssignment(const clang::BinaryOperator *BO, const clang::MemberExpr *ME,
                      const clang::FunctionDecl *FD, const AncestorChain &PM);
  void addAcquisition(const clang::CallExpr *Call, const FunctionModel &M,
                      const AcquireEffect &Eff, const clang::MemberExpr *ME,
                      const clang::FunctionDecl *FD);
  struct LocalAcquisition {
    const clang::CallExpr *Call;
    const AcquireEffect *Eff;
    const FunctionModel *Model;
  };
  using LocalAcquisitionList = llvm::SmallVector<LocalAcquisition, 1>;
  void indexLocalAcquisitions(const clang::FunctionDecl *FD,
                              llvm::DenseMap<const clang::VarDecl *, LocalAcquisitionList> &Out);
  /// Every acquisition into the local by address in `FD` (`cudaMalloc(&p)`
  /// on one arm, `cudaMallocHost(&p)` on the other).
  llvm::ArrayRef<LocalAcquisition> acquisitionsOfLocal(const clang::VarDecl *VD,
                                                      const clang::FunctionDecl *FD);
  void handOut(const clang::MemberExpr *ME, const clang::Stmt *At,
               const clang::FunctionDecl *FD);
  bool ownerIsClosed(const clang::FieldDecl *F, const MemberAcquisition &Acq) const;
  bool hasFreeFunction(const clang::RecordDecl *RD) const;
  LifetimeFinding memberFinding(FindingKind Kind, const clang::CallExpr *At,
                                const std::string &ResourceKind,
                                const clang::FieldDecl *F) const;
  void memberLeaks(const clang::FunctionDecl *FD, std::vector<LifetimeFinding> &Out);
  void copiedOwners(const clang::FunctionDecl *FD, std::vector<LifetimeFinding> &Out);
  void crossFunctionMismatches(const clang::FunctionDecl *FD,
                               std::vector<LifetimeFinding> &Out);
  /// A move assignment that assigns an owned member over what this object
  /// holds, releasing nothing first (MovedOwners.cpp).
  void moveAssignOverwrites(const clang::FunctionDecl *FD, std::vector<LifetimeFinding> &Out);
  /// Move operations that copy a released member without nulling the
  /// source (MovedOwners.cpp).
  void movedOwners(const clang::FunctionDecl *FD, std::vector<LifetimeFinding> &Out);
  /// A loop that releases a member container's elements from index 1, or
  /// up to the one before the last (ShortReleaseLoops.cpp).
  void shortReleaseLoops(const clang::FunctionDecl *FD, std::vector<LifetimeFinding> &Out);
  /// A public method that releases a member without clearing it, called on
  /// a local object whose destructor releases it again (ResetThenDestroy.cpp).
  void resetThenDestroy(const clang::FunctionDecl *FD, std::vector<LifetimeFinding> &Out);
  const clang::Expr *copySite(const clang::CXXRecordDecl *RD) const;
  void computeLeavers(const clang::CXXRecordDecl *RD);
  void addGuardingMembers(const clang::FieldDecl *F, const clang::FunctionDecl *FD,
                          const clang::Expr *Acquisition);
  /// Whether `FD` writes the flag `G` with `Acquisition` rather than about
  /// something else (CompanionFlags.cpp).
  bool flagSetWith(const clang::FieldDecl *G, const clang::FunctionDecl *FD,
                   const clang::Stmt *Acquisition) const;
  /// Whether a method of the class stores into the flag `G` what the
  /// acquiring helper `FD` returns (`alive_ = create();`): its status.
  static bool flagTakesResultOf(const clang::FieldDecl *G, const clang::FunctionDecl *FD);
  /// Whether every call of the acquiring method `FD` in the file is a
  /// call on `this` in a method that sets `G` with it (`allocDevice();
  /// allocated = 1;`), where FD itself does not write `G`.
  bool flagSetByEveryCaller(const clang::FieldDecl *G, const clang::FunctionDecl *FD) const;
  /// Whether a condition guarding one of `FD`'s acquisitions reads `G`.
  bool decidesAnAcquisition(const clang::FieldDecl *G, const clang::FunctionDecl *FD) const;
  /// Whether `FD` acquires into the handle member `G` wherever it makes
  /// `Acquisition` (a constructor creating `d2h_` and `drained_` together):
  /// `if (!d2h_) return;` then says the object holds neither.
  bool acquiredWith(const OwnedMember &G, const clang::FunctionDecl *FD,
                    const clang::Stmt *Acquisition) const;
  bool calledRepeatedly(const clang::CXXMethodDecl *M) const;
  static bool constructedBy(const clang::VarDecl *VD, const clang::FunctionDecl *Ctor);
  void noteRepeatedCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                        const clang::FunctionDecl *In, const AncestorChain &PM);
  bool releasedByProtocol(const clang::FunctionDecl *Releaser,
                          const clang::CXXMethodDecl *M) const;
  clang::SourceLocation loc(const clang::Stmt *S) const;
  std::string text(const clang::Expr *E) const;

  LifetimeAnalyzer::Impl &A;
  std::map<const clang::FieldDecl *, OwnedMember> Members;
  /// Every `this`-call in a method: callee -> callers.
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> ThisCallers;
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> ThisCallees;
  /// The fields each function (canonical) names.
  std::map<const clang::FunctionDecl *, llvm::SmallPtrSet<const clang::FieldDecl *, 8>> Named;
  bool visitThisCallees(const clang::FunctionDecl *Method,
                        llvm::function_ref<bool(const clang::FunctionDecl *Def)> Reaches) const;
  /// Every call of a method: callee (canonical) -> where it is called.
  struct MethodCall {
    const clang::FunctionDecl *In;
    const clang::CallExpr *Call;
    bool ThroughThis;
  };
  std::map<const clang::FunctionDecl *, std::vector<MethodCall>> MethodCalls;
  /// A release that every run of it precedes an acquisition into the
  /// member: in the acquiring function, or in a method only that function
  /// calls, before its acquisition.
  bool releaseOnlyMakesRoom(const OwnedMember &O, const MemberRelease &Rel) const;
  bool releasedOnlyBeforeReacquiring(const OwnedMember &O) const;
  /// Methods some function calls again on one object, and the count of
  /// calls per (method, caller, object as written).
  std::set<const clang::FunctionDecl *> CalledAgain;
  /// Calls of methods on one object as written (`g.capture_end()`; `this`
  /// inside the class), in the order of the file: the evidence that a
  /// sequence of calls can find a member live (reachedWithMemberLive).
  struct ObjectCall {
    const clang::FunctionDecl *Callee; ///< canonical
    const clang::FunctionDecl *In;
    std::string Object;
    const clang::Stmt *Loop;           ///< innermost loop around the call
    clang::SourceLocation At;
    int Param = -1; ///< the argument that is the object; -1 for a method call
    /// The object is this local variable (automatic storage, not a reference).
    const clang::VarDecl *Local = nullptr;
  };
  const ObjectCall *callLeavingLocal(const clang::FunctionDecl *M) const;
  std::vector<ObjectCall> ObjectCalls;
  std::map<std::tuple<const clang::FunctionDecl *, const clang::FunctionDecl *, std::string>,
           unsigned>
      CallsOnObject;
  /// Copies of classes: record -> first copy site in user code.
  std::map<const clang::CXXRecordDecl *, const clang::Expr *> Copies;
  /// Functions releasing a member of a struct through a pointer parameter.
  std::set<const clang::RecordDecl *> StructsWithFree;
  /// Classes with an instance of static storage (singletons, globals).
  std::set<const clang::CXXRecordDecl *> StaticInstances;
  std::set<const clang::CXXRecordDecl *> LeaversDone;
  std::map<const clang::FieldDecl *, std::vector<LiveOnReturn>> Leavers;
  /// Per function: the members of its pointer parameters it may return
  /// holding what it acquired (ParamMembers.cpp).
  std::map<const clang::FunctionDecl *,
           std::map<std::pair<unsigned, const clang::FieldDecl *>, LiveOnReturn>>
      ParamLeavers;
  /// Per function: the locals acquired into by address (acquisitionsOfLocal).
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseMap<const clang::VarDecl *, LocalAcquisitionList>>
      LocalAcquisitions;
  /// Per member, per method that may leave it live: the flags that method
  /// sets with it or tests before acquiring it.
  std::map<const clang::FieldDecl *,
           std::map<const clang::FunctionDecl *, std::set<const clang::FieldDecl *>>>
      Companions;
};

} // namespace lifetime
} // namespace cgt

#endif
