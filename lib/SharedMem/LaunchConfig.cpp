//===- LaunchConfig.cpp - block shapes a kernel is launched with ----------===//
//
// Collects every `k<<<grid, block, shmem, stream>>>` of the translation unit
// and folds its block and dynamic shared-memory arguments to constants:
// integer and dim3 literals, constexpr values, template arguments, and locals
// whose constant initialiser is never overwritten. A launch whose block size
// does not fold contributes nothing; kernels without any folded launch fall
// back to __launch_bounds__ and then to the hardware limit, and say so.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/SharedMemAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cgt::smem {

namespace {

/// Variables a function assigns, increments, or takes the address of: their
/// initialisers cannot be trusted as their value at a launch.
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  llvm::DenseSet<const VarDecl *> Vars;
  void mark(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase()->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        Vars.insert(V);
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      mark(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      mark(U->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      mark(C->getArg(0));
    return true;
  }
};

class LaunchIndexer : public RecursiveASTVisitor<LaunchIndexer> {
public:
  LaunchIndexer(ASTContext &Ctx,
                std::map<const FunctionDecl *, std::vector<LaunchConfig>> &L,
                std::map<const FunctionDecl *, unsigned> &U)
      : Ctx(Ctx), Launches(L), Unknown(U) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  // Launches inside generic lambdas live in the closure's implicit operator()
  // specialisations (ggml's `auto launch = [&](auto NC) { k<...><<<...>>>(); }`).
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(FD);
    Current = Saved;
    return R;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (E->isValueDependent() || E->isTypeDependent())
      return true;
    const FunctionDecl *K = E->getDirectCallee();
    const CallExpr *Cfg = E->getConfig();
    if (!K || !Cfg || Cfg->getNumArgs() < 3)
      return true;
    K = K->getCanonicalDecl();
    std::optional<BlockShape> Shape = dim3Of(Cfg->getArg(1));
    if (!Shape || Shape->count() == 0 || Shape->count() > 1024) {
      ++Unknown[K];
      return true;
    }
    LaunchConfig C;
    C.Block = *Shape;
    C.Origin = ShapeOrigin::Launch;
    C.Loc = E->getBeginLoc();
    if (auto Bytes = intOf(Cfg->getArg(2)); Bytes && *Bytes >= 0)
      C.DynSharedBytes = static_cast<uint64_t>(*Bytes);
    auto &V = Launches[K];
    for (const LaunchConfig &O : V)
      if (O.Block == C.Block && O.DynSharedBytes == C.DynSharedBytes)
        return true;
    V.push_back(C);
    return true;
  }

private:
  bool modified(const VarDecl *V) {
    if (!Current || !Current->hasBody())
      return true;
    auto It = Modified.find(Current);
    if (It == Modified.end()) {
      ModifiedVars MV;
      MV.TraverseStmt(Current->getBody());
      It = Modified.emplace(Current, std::move(MV.Vars)).first;
    }
    return It->second.count(V);
  }

  /// The initialiser of a local that is never written after it, or of a
  /// const (constexpr) variable with static storage: a namespace-scope
  /// `constexpr dim3 kBlock(32, 8);`, a `static const dim3` local or a
  /// `static constexpr dim3` class member.
  const Expr *stableInit(const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || isa<ParmVarDecl>(V))
      return nullptr;
    if (V->hasLocalStorage())
      return V->getInit() && !modified(V) ? V->getInit() : nullptr;
    if (V->hasGlobalStorage() && V->getType().isConstQualified() &&
        !V->getType()->isReferenceType())
      return V->getAnyInitializer();
    return nullptr;
  }

  std::optional<int64_t> intOf(const Expr *E, int Depth = 0) {
    if (!E || Depth > 4)
      return std::nullopt;
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      E = D->getExpr();
    if (E->isValueDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    if (const Expr *Init = stableInit(E))
      return intOf(Init, Depth + 1);
    return std::nullopt;
  }

  std::optional<BlockShape> dim3Of(const Expr *E, int Depth = 0) {
    if (!E || Depth > 4)
      return std::nullopt;
    E = E->IgnoreImplicit()->IgnoreParens();
    // Error recovery can leave an expression without a type (the
    // initializer of `dim3 b(T, T)` when T's declaration did not parse).
    if (E->getType().isNull())
      return std::nullopt;
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return dim3Of(M->getSubExpr(), Depth + 1);
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      return dim3Of(F->getSubExpr(), Depth + 1);
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 1) {
        const Expr *A = C->getArg(0);
        if (!A->getType().isNull() && A->getType()->isRecordType())
          return dim3Of(A, Depth + 1);
      }
      BlockShape S;
      unsigned *Dims[3] = {&S.X, &S.Y, &S.Z};
      for (unsigned I = 0; I < C->getNumArgs() && I < 3; ++I) {
        auto V = intOf(C->getArg(I));
        if (!V || *V <= 0)
          return std::nullopt;
        *Dims[I] = static_cast<unsigned>(*V);
      }
      return S;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      BlockShape S;
      unsigned *Dims[3] = {&S.X, &S.Y, &S.Z};
      for (unsigned I = 0; I < IL->getNumInits() && I < 3; ++I) {
        auto V = intOf(IL->getInit(I));
        if (!V || *V <= 0)
          return std::nullopt;
        *Dims[I] = static_cast<unsigned>(*V);
      }
      return S;
    }
    if (const Expr *Init = stableInit(E))
      return dim3Of(Init, Depth + 1);
    if (E->getType()->isIntegerType())
      if (auto V = intOf(E); V && *V > 0)
        return BlockShape{static_cast<unsigned>(*V), 1, 1};
    return std::nullopt;
  }

  ASTContext &Ctx;
  std::map<const FunctionDecl *, std::vector<LaunchConfig>> &Launches;
  std::map<const FunctionDecl *, unsigned> &Unknown;
  const FunctionDecl *Current = nullptr;
  std::map<const FunctionDecl *, llvm::DenseSet<const VarDecl *>> Modified;
};

} // namespace

std::string LaunchConfig::describe() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  switch (Origin) {
  case ShapeOrigin::Launch:
    OS << "block (" << Block.X << "," << Block.Y << "," << Block.Z << ")";
    if (DynSharedBytes && *DynSharedBytes)
      OS << " with " << *DynSharedBytes << " bytes of dynamic shared memory";
    OS << " from this launch";
    break;
  case ShapeOrigin::LaunchBounds:
    OS << "a 1-D block of " << Block.count()
       << " threads from __launch_bounds__(" << Block.count() << ")";
    break;
  case ShapeOrigin::HardwareLimit:
    OS << "a 1-D block of up to " << Block.count()
       << " threads (hardware limit)";
    break;
  }
  return OS.str();
}

std::string describeThreads(unsigned First, unsigned Last, unsigned Count) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (Count == 1)
    OS << "thread " << First;
  else if (Last >= First && Last - First + 1 == Count)
    OS << "threads " << First << "-" << Last << " (" << Count << " threads)";
  else // not a contiguous range, e.g. lane 0 of every warp
    OS << Count << " threads between " << First << " and " << Last;
  return OS.str();
}

SharedMemAnalyzer::SharedMemAnalyzer(ASTContext &Ctx) : Ctx(Ctx) {}
SharedMemAnalyzer::~SharedMemAnalyzer() = default;

void SharedMemAnalyzer::indexLaunches() {
  if (Indexed)
    return;
  Indexed = true;
  LaunchIndexer(Ctx, Launches, UnknownLaunches)
      .TraverseDecl(Ctx.getTranslationUnitDecl());
}

std::vector<LaunchConfig>
SharedMemAnalyzer::configsFor(const FunctionDecl *Kernel) {
  indexLaunches();
  auto It = Launches.find(Kernel->getCanonicalDecl());
  if (It != Launches.end() && !It->second.empty())
    return It->second;
  LaunchConfig C;
  C.Loc = Kernel->getLocation();
  C.Block = {1024, 1, 1};
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult R;
    const Expr *M = LB->getMaxThreads();
    if (M && !M->isValueDependent() && M->EvaluateAsInt(R, Ctx)) {
      int64_t V = R.Val.getInt().getExtValue();
      if (V > 0 && V <= 1024) {
        C.Block = {static_cast<unsigned>(V), 1, 1};
        C.Origin = ShapeOrigin::LaunchBounds;
        return {C};
      }
    }
  }
  C.Origin = ShapeOrigin::HardwareLimit;
  return {C};
}

} // namespace cgt::smem
