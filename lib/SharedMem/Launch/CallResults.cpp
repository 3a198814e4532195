//===- CallResults.cpp - integers a call returns, for the host folds ------===//
//
// See LaunchResolver.h ("integers returned by a call"). Block sizes are
// often asked of a function: faiss computes `dim3 block(getWarpSizeCurrentDevice(),
// kWarps)`, where getWarpSizeCurrentDevice (DeviceUtils.cu, another unit)
// returns `getDeviceProperties(dev).warpSize`. Three sources, strongest
// first:
//
//   body in this unit      every return statement folded, the callee's
//                          parameters bound to the call's arguments (one
//                          more frame on the call path)
//   API model entry        its "returnValues": a project's summary of the
//                          body in another file (the driver's passes export
//                          constantReturns() of each definition), or a
//                          user's entry
//   API struct field       "constantFields": `prop.warpSize` is 32 on every
//                          device CUDA supports
//
// All or nothing, as for a local: a function with one return that does not
// fold returns nothing known (`return n ? 64 : v;` with v unknown), so a
// shape is never drawn from some of its values. A virtual method may reach
// an override, and is not folded.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/CallResults.h"
#include "SharedMem/Launch/HostExprs.h"
#include "SharedMem/Launch/LaunchResolver.h"
#include "ApiModel/ApiModel.h"
#include "ApiModel/ParameterSignature.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cgt::smem {

std::vector<const Expr *> returnedValues(const FunctionDecl *F) {
  struct Returns : RecursiveASTVisitor<Returns> {
    std::vector<const Expr *> Values;
    bool VisitReturnStmt(ReturnStmt *R) {
      if (R->getRetValue())
        Values.push_back(R->getRetValue());
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } Scan;
  if (const FunctionDecl *Def = F->getDefinition(); Def && Def->hasBody())
    Scan.TraverseStmt(Def->getBody());
  return Scan.Values;
}

namespace {

bool mayReachOverride(const FunctionDecl *F) {
  const auto *MD = dyn_cast<CXXMethodDecl>(F);
  return MD && MD->isVirtual();
}

/// The entry of a function this unit has no body of, looked up as the
/// lifetime engine looks up a callee: by qualified name, then (outside a
/// class) by plain name.
const FunctionModel *entryOf(const ApiModel &Model, const FunctionDecl *F, unsigned NumArgs) {
  if (!F->getIdentifier())
    return nullptr;
  auto Signature = [F] { return parameterSignature(F); };
  if (const FunctionModel *M = Model.lookup(F->getQualifiedNameAsString(), NumArgs, Signature))
    return M;
  return F->isCXXClassMember() ? nullptr : Model.lookup(F->getName(), NumArgs, Signature);
}

} // namespace

std::vector<int64_t> LaunchResolver::returns(const FunctionDecl *F, const CallPath &P,
                                             int Depth) {
  std::vector<const Expr *> Values = returnedValues(F);
  if (Values.empty() || mayReachOverride(F)) {
    Incomplete = true;
    return {};
  }
  std::vector<int64_t> Out;
  for (const Expr *X : Values)
    if (!addEveryFold(X, P, Depth + 1, Out))
      return {};
  return Out;
}

std::vector<int64_t> LaunchResolver::callResults(const CallExpr *C, const CallPath &P,
                                                 int Depth) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getReturnType()->isIntegralOrEnumerationType()) {
    Incomplete = true;
    return {};
  }
  if (const FunctionDecl *Def = F->getDefinition(); Def && Def->hasBody()) {
    CallPath Inner;
    Inner.Frames.push_back({Def, C, nullptr});
    Inner.Frames.insert(Inner.Frames.end(), P.Frames.begin(), P.Frames.end());
    return returns(Def, Inner, Depth);
  }
  const FunctionModel *M = Model ? entryOf(*Model, F, C->getNumArgs()) : nullptr;
  if (!M || M->ReturnValues.empty()) {
    Incomplete = true;
    return {};
  }
  return std::vector<int64_t>(M->ReturnValues.begin(), M->ReturnValues.end());
}

std::optional<int64_t> LaunchResolver::constantField(const MemberExpr *M) const {
  const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!Model || !FD || Model->constantFields().empty())
    return std::nullopt;
  return Model->constantField(FD->getParent()->getQualifiedNameAsString() + "::" +
                              FD->getName().str());
}

std::vector<long long> constantReturns(ASTContext &Ctx, const FunctionDecl *F,
                                       const ApiModel *Model) {
  if (!F->getReturnType()->isIntegralOrEnumerationType() || F->isDependentContext())
    return {};
  LaunchResolver R(Ctx, Model);
  std::vector<int64_t> Values = R.returns(F, CallPath{});
  if (R.Incomplete || Values.empty())
    return {};
  std::vector<long long> Out(Values.begin(), Values.end());
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace cgt::smem
