//===- ReturnedStructs.cpp - structs a helper returns by value ------------===//
//
// `Blk get(size_t n, bool pinned, cudaStream_t s)` fills a local `Blk b`
// (`cudaMallocHost(&b.p, n)`) and returns it. Its summary acquires into the
// member "p" of the result (Summaries.cpp, noteReturnedMembers); at the
// call the analysis makes one resource per such member and binds it where
// the result goes:
//
//   Blk h = get(..);   h = get(..);   -> h.p   (assignTo, implicit operator=)
//   void *p = get(..).p;              -> p
//   sink(get(..)), v.push_back(get(..)), get(..).n, `return get(..)`
//                                     -> escapes, or stays unbound: a leak
//                                        when nothing takes the member
//
// A call with a constant for a parameter the helper branches on gets the
// summary of that constant, so `get(n, true, s)` is pinned memory only.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// `Blk h = get(n, true, s)` where get returns a struct whose member `p` it
/// filled: one resource per member, bound where the result is stored.
void Analysis::acquireReturnedMember(const CallExpr *Call, const std::string &By,
                                     const AcquireEffect &Eff, PathState &P) {
  const RecordDecl *RD = Call->getCallReturnType(FD->getASTContext())->getAsRecordDecl();
  const FieldDecl *Member = nullptr;
  if (RD)
    for (const FieldDecl *F : RD->fields())
      if (F->getName() == Eff.Field)
        Member = F;
  if (!Member)
    return;
  int Slot = FieldSlot * (1 + std::min(Member->getFieldIndex(), 254u));
  unsigned R = resourceFor(Call, -1, Eff.Kind, By, nullptr, Slot);
  Resources[R].OrKinds = Eff.OrKinds;
  ResState RS;
  RS.Bits = Live;
  P.Res[R] = RS;
  auto &Members = ReturnedMembers[Call];
  if (llvm::none_of(Members, [&](const auto &M) { return M.second == R; }))
    Members.push_back({Eff.Field, R});
}

/// `get(n, true, s).p`: the resource get acquired into that member of the
/// struct it returned.
std::optional<unsigned> Analysis::returnedMemberOf(const Expr *E) const {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || ME->isArrow())
    return std::nullopt;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Base))
    Base = MT->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(Base))
    Base = BT->getSubExpr()->IgnoreParenImpCasts();
  auto Filled = ReturnedMembers.find(Base);
  if (Filled == ReturnedMembers.end())
    return std::nullopt;
  for (const auto &[Field, R] : Filled->second)
    if (ME->getMemberDecl()->getName() == Field)
      return R;
  return std::nullopt;
}

/// `Blk h = get(n, true, s)`: h.p holds what get acquired into the member
/// of the struct it returned (acquireReturnedMember).
void Analysis::bindReturnedMembers(Key Target,
                                   const std::vector<std::pair<std::string, unsigned>> &Members,
                                   const Stmt *At, PathState &P) {
  for (const auto &[Field, R] : Members) {
    Key Member = memberPlace(Target, Field);
    if (!Member || !P.Res.count(R))
      continue;
    unbind(Member, P, At, "is overwritten here");
    if (Resources[R].VarName.empty())
      Resources[R].VarName = varName(Member);
    P.Bind[Member] = {R};
  }
}

/// `h = get(n, true, s);` with the struct's implicit assignment: as
/// `Blk h = get(...)`, h's members hold what get acquired into its result's.
bool Analysis::onAssignmentOfReturnedStruct(const CallExpr *Call, PathState &P) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  const auto *MD = Op ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()) : nullptr;
  if (!MD || Op->getOperator() != OO_Equal || MD->isUserProvided() || Op->getNumArgs() != 2 ||
      !(MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))
    return false;
  auto Filled = ReturnedMembers.find(strip(Op->getArg(1)));
  Key Target = storageOf(Op->getArg(0));
  if (Filled == ReturnedMembers.end() || !Target || !Target->whole())
    return false;
  bindReturnedMembers(Target, Filled->second, Call, P);
  return true;
}

} // namespace lifetime
} // namespace cgt
