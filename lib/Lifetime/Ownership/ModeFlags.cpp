//===- ModeFlags.cpp - flags a constructor of another mode sets -----------===//
//
// A class with two ways of being built often keeps a flag saying which one
// it was, and its destructor releases only what that way acquired:
//
//   bool with_mp_{false};
//   Core(int r, int n) { initialize(n); }      // creates the events
//   Core(Comm c)       { with_mp_ = true; ctx_ = create(c); }
//   ~Core() { if (with_mp_) destroy(ctx_); else { cudaEventDestroy(start_); } }
//
// The flag is no companion of the events (CompanionFlags.cpp): the method
// that creates them never writes it. It is a mode: its value in an object
// is decided by the constructor that built it, and the constructor that
// acquires the events is not one that sets it. So wherever the events are
// live on entry, the flag still holds its default member initialiser, and
// the destructor's `if (with_mp_)` arm cannot be taken with them live
// (TransformerEngine's CommOverlapCore and its subclasses: ten members
// reported as released "on other paths" only).
//
// The flag `G` holds its default `v` in every object where the method `L`
// left a member live when:
//
//   * `G` is an integer or bool member with a constant default member
//     initialiser `v`;
//   * `L` runs only while an object is built: a constructor, or a method
//     only constructors call (runsOnFreshObject);
//   * every function of the unit that writes `G`, takes its address or
//     hands it out is a constructor of `G`'s class or of a class derived
//     from it, and none of them runs in the building
//     of an object that runs `L`: it is not one of the constructors that
//     reach `L`, nor a base or delegated constructor they run, nor a
//     constructor that runs one of them as its base.
//
// The method judged with such members live on entry (Members.cpp) starts
// with `G` bound to `v` when every member seeded there agrees on it. An
// object built the other way holds none of those members, so its paths
// through the method report nothing about them either way.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Ownership/Ownership.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace cgt {
namespace lifetime {

namespace {

/// The constant default member initialiser of an integer or bool member.
std::optional<int64_t> defaultValueOf(const FieldDecl *G, const ASTContext &Ctx) {
  if (!G->getType()->isIntegralOrEnumerationType() || G->getType().isVolatileQualified() ||
      !G->hasInClassInitializer() || G->isMutable())
    return std::nullopt;
  const Expr *Init = G->getInClassInitializer();
  Expr::EvalResult R;
  if (!Init || Init->isValueDependent() || !Init->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.getSignificantBits() > 64)
    return std::nullopt;
  return V.getExtValue();
}

/// The constructors `Ctor` runs on its object before its body: its bases'
/// and the one it delegates to, transitively, and itself.
void constructorsRunBy(const CXXConstructorDecl *Ctor,
                       llvm::SmallPtrSetImpl<const FunctionDecl *> &Out) {
  if (!Ctor || !Out.insert(Ctor->getCanonicalDecl()).second)
    return;
  const auto *Def = dyn_cast_or_null<CXXConstructorDecl>(Ctor->getDefinition());
  if (!Def)
    return;
  for (const CXXCtorInitializer *Init : Def->inits())
    if (Init->isBaseInitializer() || Init->isDelegatingInitializer())
      if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Init->getInit()->IgnoreImplicit()))
        constructorsRunBy(CE->getConstructor(), Out);
}

/// Integer and bool members of `this` that `Body` reads.
class ThisMemberScan : public RecursiveASTVisitor<ThisMemberScan> {
public:
  llvm::SmallPtrSet<const FieldDecl *, 4> Fields;
  bool VisitMemberExpr(MemberExpr *ME) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (F && F->getType()->isIntegralOrEnumerationType() &&
        isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Fields.insert(F);
    return true;
  }
};

} // namespace

std::optional<int64_t> OwnershipIndex::modeFlagValue(const FieldDecl *G,
                                                     const CXXMethodDecl *Leaver) const {
  std::optional<int64_t> Default = defaultValueOf(G, A.Ctx);
  if (!Default || !runsOnFreshObject(Leaver))
    return std::nullopt;
  // The constructors that build an object running `Leaver`.
  std::vector<const CXXConstructorDecl *> Builders;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Leaver)) {
    Builders.push_back(Ctor);
  } else if (auto Callers = ThisCallers.find(Leaver->getCanonicalDecl());
             Callers != ThisCallers.end()) {
    for (const FunctionDecl *C : Callers->second)
      Builders.push_back(cast<CXXConstructorDecl>(C));
  }
  llvm::SmallPtrSet<const FunctionDecl *, 8> SameObject;
  for (const CXXConstructorDecl *B : Builders)
    constructorsRunBy(B, SameObject);
  const OwnedMember *O = member(G);
  if (!O)
    return Default; // nothing in the unit writes it
  const auto *Owner = dyn_cast<CXXRecordDecl>(G->getParent());
  for (const FunctionDecl *Writer : O->WrittenIn) {
    // A constructor of another class writes the flag of some other object.
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(Writer);
    if (!Ctor || !Owner || SameObject.count(Ctor->getCanonicalDecl()) ||
        (Ctor->getParent() != Owner && !Ctor->getParent()->isDerivedFrom(Owner)))
      return std::nullopt;
    // A constructor that runs a builder as its base builds the same object.
    llvm::SmallPtrSet<const FunctionDecl *, 8> RunByWriter;
    constructorsRunBy(Ctor, RunByWriter);
    if (llvm::any_of(Builders, [&](const CXXConstructorDecl *B) {
          return RunByWriter.count(B->getCanonicalDecl());
        }))
      return std::nullopt;
  }
  return Default;
}

/// Binds, on entry to this method, the mode flags every member seeded live there
/// agrees on (the head comment).
void Analysis::bindModeFlagsOnEntry(const std::set<const CXXMethodDecl *> &Leavers,
                                    PathState &Entry) {
  if (Leavers.empty() || !FD->hasBody())
    return;
  ThisMemberScan Scan;
  Scan.TraverseStmt(FD->getBody());
  for (const FieldDecl *G : Scan.Fields) {
    std::optional<int64_t> Agreed;
    bool Decided = true;
    for (const CXXMethodDecl *L : Leavers) {
      std::optional<int64_t> V = A.ownership().modeFlagValue(G, L);
      if (!V || (Agreed && *Agreed != *V)) {
        Decided = false;
        break;
      }
      Agreed = V;
    }
    Key K = placeOf(G);
    if (Decided && Agreed && isValueSymbol(K))
      Entry.Values.bindRange(reinterpret_cast<values::Symbol>(K),
                             values::RangeSet::point(*Agreed));
  }
}

} // namespace lifetime
} // namespace cgt
