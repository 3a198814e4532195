//===- LaunchConfig.cpp - block shapes a kernel is launched with ----------===//
//
// Takes every launch of the translation unit (LaunchIndex.h) -- `k<<<grid, block, bytes>>>`
// (the kernel named, a function-pointer variable or parameter, an element of
// a table of kernels), cudaLaunchKernel / cudaLaunchCooperativeKernel,
// cudaLaunchKernelEx(C) with a cudaLaunchConfig_t, cuLaunchKernel(Ex) with a
// CUfunction from cudaGetFuncBySymbol / cuModuleGetFunction("name"), kernel
// node parameters given to cudaGraphAddKernelNode and its setters -- and
// folds which kernel, which block shape and how many bytes of dynamic shared
// memory reach it (LaunchResolver.h: locals, struct fields, wrappers'
// parameters through their call sites). A launch whose block size does not
// fold contributes nothing. cudaFuncSetAttribute(k,
// cudaFuncAttributeMaxDynamicSharedMemorySize, n) caps the dynamic size of a
// launch whose size did not fold. Kernels without any folded launch take the
// BlockShapes option, then __launch_bounds__, then the hardware limit, and
// say so.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/SharedMemAnalysis.h"
#include "SharedMem/CrossFileLaunches.h"
#include "SharedMem/Launch/LaunchIndex.h"
#include "SharedMem/Launch/LaunchResolver.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include <set>
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cgt::smem {

namespace {

/// The truth values a condition may take on a call path; {false, true}
/// when it does not fold.
std::set<bool> mayBe(const Expr *E, const CallPath &P, LaunchResolver &R,
                     int Depth = 0) {
  std::set<bool> Any{false, true};
  E = E->IgnoreParenImpCasts();
  if (Depth > 6)
    return Any;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot) {
    std::set<bool> In = mayBe(U->getSubExpr(), P, R, Depth + 1), Out;
    for (bool B : In)
      Out.insert(!B);
    return Out;
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return Any;
  if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
    std::set<bool> L = mayBe(B->getLHS(), P, R, Depth + 1),
                   Rt = mayBe(B->getRHS(), P, R, Depth + 1), Out;
    for (bool X : L)
      for (bool Y : Rt)
        Out.insert(B->getOpcode() == BO_LAnd ? (X && Y) : (X || Y));
    return Out;
  }
  if (!B->isComparisonOp() || !B->getLHS()->getType()->isIntegralOrEnumerationType())
    return Any;
  R.Incomplete = false;
  std::vector<int64_t> L = R.ints(B->getLHS(), P), Rt = R.ints(B->getRHS(), P);
  if (R.Incomplete || L.empty() || Rt.empty())
    return Any;
  std::set<bool> Out;
  for (int64_t X : L)
    for (int64_t Y : Rt)
      switch (B->getOpcode()) {
      case BO_LT: Out.insert(X < Y); break;
      case BO_GT: Out.insert(X > Y); break;
      case BO_LE: Out.insert(X <= Y); break;
      case BO_GE: Out.insert(X >= Y); break;
      case BO_EQ: Out.insert(X == Y); break;
      case BO_NE: Out.insert(X != Y); break;
      default: return Any;
      }
  return Out;
}

/// False when an `if` around the launch in its function cannot take the
/// branch the launch is on (matrixMul's `if (block_size == 16)
/// MatrixMulCUDA<16><<<grid, threads>>>` with block_size 32). `PM` holds
/// the parents of the body the launch is in.
bool feasible(const ParentMap &PM, const Stmt *Site, const CallPath &P, LaunchResolver &R) {
  const Stmt *Child = Site;
  for (int Up = 0; Up < 32; ++Up) {
    const Stmt *Pa = PM.getParent(Child);
    if (!Pa || isa<LambdaExpr>(Pa))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(Pa)) {
      bool InThen = Child == If->getThen();
      bool InElse = Child == If->getElse();
      if ((InThen || InElse) && If->getCond() && !If->isConsteval()) {
        std::set<bool> V = mayBe(If->getCond(), P, R);
        if (!V.count(InThen))
          return false;
      }
    }
    Child = Pa;
  }
  return true;
}

/// Where a value expression of a local sits: the block of its statement
/// and the `case` segment of it, so that `case 0: k = &a; threads = X;
/// break;` pairs a with X only. An initialiser sits everywhere ({nullptr,
/// -2}). `PM` holds the parents of the body of the local's function.
std::pair<const Stmt *, int> segmentOf(const ParentMap &PM, const Expr *E) {
  const Stmt *Child = E;
  for (int Up = 0; Up < 16; ++Up) {
    const Stmt *P = PM.getParent(Child);
    if (!P || isa<DeclStmt>(P))
      break;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      int Idx = -1, I = 0, Seg = -1;
      for (const Stmt *S : CS->body()) {
        if (isa<SwitchCase>(S))
          Seg = I;
        if (S == Child) {
          Idx = I;
          break;
        }
        ++I;
      }
      return {CS, Idx >= 0 ? Seg : -1};
    }
    Child = P;
  }
  return {nullptr, -2};
}

const FunctionDecl *functionOf(const VarDecl *Local) {
  return dyn_cast_or_null<FunctionDecl>(Local->getParentFunctionOrMethod());
}

/// (kernel, shape) pairs of a launch whose kernel and block are both local
/// variables assigned in several places: paired by the segment of their
/// assignments when any two share one, otherwise every combination.
std::vector<std::pair<const FunctionDecl *, BlockShape>>
pairedChoices(LaunchResolver &R, const Expr *KernelE,
              const Expr *BlockE, const CallPath &P) {
  std::vector<std::pair<const FunctionDecl *, BlockShape>> Out;
  auto localVar = [](const Expr *E) -> const VarDecl * {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
      E = C->getArg(0)->IgnoreImplicit()->IgnoreParenImpCasts(); // dim3 copy
    const auto *D = dyn_cast<DeclRefExpr>(E);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) ? V : nullptr;
  };
  const VarDecl *KV = localVar(KernelE), *SV = localVar(BlockE);
  std::vector<const Expr *> KVals, SVals;
  bool Paired = KV && SV && R.valuesOf(KV, KVals) && R.valuesOf(SV, SVals) &&
                KVals.size() > 1 && SVals.size() > 1;
  std::vector<std::pair<std::set<const FunctionDecl *>, std::pair<const Stmt *, int>>> Ks;
  std::vector<std::pair<std::vector<BlockShape>, std::pair<const Stmt *, int>>> Ss;
  bool AnyShared = false;
  if (Paired) {
    for (const Expr *X : KVals)
      Ks.push_back({R.kernels(X, P), segmentOf(R.parentsIn(functionOf(KV)), X)});
    for (const Expr *X : SVals) {
      std::vector<BlockShape> Sh = R.shapes(X, P);
      if (Sh.empty())
        return Out; // one value that does not fold: no shape
      Ss.push_back({Sh, segmentOf(R.parentsIn(functionOf(SV)), X)});
    }
    for (auto &K : Ks)
      for (auto &S : Ss)
        AnyShared |= K.second.first && K.second == S.second;
  }
  if (!AnyShared) {
    for (const FunctionDecl *K : R.kernels(KernelE, P))
      for (const BlockShape &S : R.shapes(BlockE, P))
        Out.push_back({K, S});
    return Out;
  }
  for (auto &K : Ks)
    for (auto &S : Ss) {
      bool Init = !K.second.first || !S.second.first;
      if (!Init && K.second != S.second)
        continue;
      for (const FunctionDecl *F : K.first)
        for (const BlockShape &B : S.first)
          Out.push_back({F, B});
    }
  return Out;
}

/// A kernel's launches in other files (a project's summaries, by
/// kernelKey), after those of this file; at most 16 in all, as there.
void addOtherFileLaunches(const FunctionDecl *Kernel,
                          const std::map<std::string, std::vector<LaunchConfig>> &Other,
                          std::vector<LaunchConfig> &Out) {
  if (Other.empty())
    return;
  auto It = Other.find(kernelKey(Kernel));
  if (It == Other.end())
    return;
  for (LaunchConfig C : It->second) {
    bool Seen = llvm::any_of(Out, [&](const LaunchConfig &O) {
      return O.Block == C.Block && O.DynSharedBytes == C.DynSharedBytes;
    });
    if (Seen || Out.size() >= 16)
      continue;
    C.Loc = Kernel->getLocation();
    Out.push_back(std::move(C));
  }
}

bool isMaxDynSmemAttr(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return D && D->getDecl()->getName() == "cudaFuncAttributeMaxDynamicSharedMemorySize";
}

} // namespace

std::string LaunchConfig::describe() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  switch (Origin) {
  case ShapeOrigin::Launch:
  case ShapeOrigin::Option:
    OS << "block (" << Block.X << "," << Block.Y << "," << Block.Z << ")";
    if (DynSharedBytes && *DynSharedBytes)
      OS << " with " << (DynFromAttribute ? "at most " : "") << *DynSharedBytes
         << " bytes of dynamic shared memory"
         << (DynFromAttribute ? " (cudaFuncSetAttribute)" : "");
    OS << (Origin == ShapeOrigin::Launch ? " from this launch"
                                         : " from the BlockShapes option");
    break;
  case ShapeOrigin::OtherFile:
    OS << "block (" << Block.X << "," << Block.Y << "," << Block.Z << ")";
    if (DynSharedBytes && *DynSharedBytes)
      OS << " with " << *DynSharedBytes << " bytes of dynamic shared memory";
    OS << " from its launch at " << (From.empty() ? "another file" : From);
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

UnitCoverage &unitCoverage() {
  static thread_local UnitCoverage C;
  return C;
}

std::string LaunchConfig::shapeText() const {
  std::string S = "block (" + std::to_string(Block.X) + "," +
                  std::to_string(Block.Y) + "," + std::to_string(Block.Z) + ")";
  if (DynSharedBytes && *DynSharedBytes)
    S += " with " + std::to_string(*DynSharedBytes) + " bytes";
  return S;
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

void SharedMemAnalyzer::indexLaunches() {
  if (Indexed)
    return;
  Indexed = true;
  LaunchResolver R(Ctx, Model.get());
  std::vector<LaunchSite> Sites = collectLaunchSites(Ctx, R);

  using Form = LaunchForm;
  auto add = [&](const FunctionDecl *K, const BlockShape &S,
                 std::optional<uint64_t> Bytes, SourceLocation Loc, const CallPath &P) {
    if (S.count() == 0 || S.count() > 1024)
      return;
    LaunchConfig C;
    C.Block = S;
    C.Origin = ShapeOrigin::Launch;
    C.Loc = Loc;
    C.Caller = P.Frames.empty() ? Loc : P.Frames.back().Site->getBeginLoc();
    C.DynSharedBytes = Bytes;
    auto &V = Launches[K->getCanonicalDecl()];
    for (const LaunchConfig &O : V)
      if (O.Block == C.Block && O.DynSharedBytes == C.DynSharedBytes)
        return;
    if (V.size() < 16)
      V.push_back(C);
  };
  // The dynamic size must fold completely: a size with an alternative that
  // did not fold is unknown (`smem = 0; if (big) smem = n * 4;`).
  auto bytesOf = [&](const Expr *E, const CallPath &P) {
    std::vector<std::optional<uint64_t>> Out;
    R.Incomplete = false;
    std::vector<int64_t> V = E ? R.ints(E, P) : std::vector<int64_t>{0};
    if (R.Incomplete || V.empty())
      return std::vector<std::optional<uint64_t>>{std::nullopt};
    // Several sizes (`smem = threads <= 32 ? 2 * threads * sizeof(T) : ...`
    // over the values `threads` may take) are not paired with the block
    // shapes the same variable chose: an access is out of bounds only if it
    // is for the largest of them.
    if (V.size() > 1) {
      int64_t Largest = *std::max_element(V.begin(), V.end());
      return std::vector<std::optional<uint64_t>>{
          Largest >= 0 ? std::optional<uint64_t>(Largest) : std::nullopt};
    }
    for (int64_t B : V)
      Out.push_back(B >= 0 ? std::optional<uint64_t>(B) : std::nullopt);
    return Out;
  };
  auto fieldBytes = [&](const Expr *Obj, StringRef Field, const CallPath &P) {
    auto FV = R.fieldValues(Obj, Field, P);
    if (FV.size() != 1)
      return std::vector<std::optional<uint64_t>>{std::nullopt};
    return bytesOf(FV[0].first, FV[0].second);
  };
  auto fieldShapes = [&](const Expr *Obj, StringRef Field, const CallPath &P) {
    std::vector<BlockShape> Out;
    for (auto &[X, XP] : R.fieldValues(Obj, Field, P))
      for (const BlockShape &S : R.shapes(X, XP))
        if (std::find(Out.begin(), Out.end(), S) == Out.end())
          Out.push_back(S);
    return Out;
  };
  auto driverShapes = [&](llvm::ArrayRef<std::vector<int64_t>> D) {
    std::vector<BlockShape> Out;
    for (int64_t X : D[0])
      for (int64_t Y : D[1])
        for (int64_t Z : D[2])
          if (X > 0 && Y > 0 && Z > 0 && X * Y * Z <= 1024)
            Out.push_back(BlockShape{unsigned(X), unsigned(Y), unsigned(Z)});
    return Out;
  };

  for (const LaunchSite &S : Sites) {
    const auto *Call = dyn_cast<CallExpr>(S.E);
    if (!Call)
      continue;
    SourceLocation Loc = S.E->getBeginLoc();
    bool AnyShape = false;
    std::set<const FunctionDecl *> AllKernels;
    for (const CallPath &P : R.pathsFor(S.Fn)) {
      R.pinCaseArmsAround(S.E, S.Fn, &P);
      if (!feasible(R.parentsIn(S.Fn), S.E, P, R))
        continue;
      std::set<const FunctionDecl *> Ks;
      std::vector<BlockShape> Shapes;
      std::vector<std::optional<uint64_t>> Bytes{std::nullopt};
      unsigned N = Call->getNumArgs();
      switch (S.F) {
      case Form::Chevron: {
        const auto *KC = cast<CUDAKernelCallExpr>(Call);
        const CallExpr *Cfg = KC->getConfig();
        Bytes = bytesOf(Cfg->getNumArgs() >= 3 ? Cfg->getArg(2) : nullptr, P);
        if (const FunctionDecl *K = KC->getDirectCallee()) {
          Ks.insert(K);
          if (Cfg->getNumArgs() >= 2)
            Shapes = R.shapes(Cfg->getArg(1), P);
          break;
        }
        if (Cfg->getNumArgs() >= 2)
          for (auto &[K, Sh] : pairedChoices(R, KC->getCallee(), Cfg->getArg(1), P)) {
            AllKernels.insert(K);
            for (const auto &B : Bytes) {
              add(K, Sh, B, Loc, P);
              AnyShape = true;
            }
          }
        continue;
      }
      case Form::RuntimeCall:
        if (N < 3)
          break;
        Ks = R.kernels(Call->getArg(0), P);
        Shapes = R.shapes(Call->getArg(2), P);
        Bytes = bytesOf(N >= 5 ? Call->getArg(4) : nullptr, P);
        break;
      case Form::RuntimeEx:
        if (N < 2)
          break;
        Ks = R.kernels(Call->getArg(1), P);
        Shapes = fieldShapes(Call->getArg(0), "blockDim", P);
        Bytes = fieldBytes(Call->getArg(0), "dynamicSmemBytes", P);
        break;
      case Form::Driver: {
        if (N < 8)
          break;
        Ks = R.driverFunctions(Call->getArg(0), P);
        std::vector<int64_t> D[3] = {R.ints(Call->getArg(4), P),
                                     R.ints(Call->getArg(5), P),
                                     R.ints(Call->getArg(6), P)};
        Shapes = driverShapes(D);
        Bytes = bytesOf(Call->getArg(7), P);
        break;
      }
      case Form::DriverEx: {
        if (N < 2)
          break;
        Ks = R.driverFunctions(Call->getArg(1), P);
        std::vector<int64_t> D[3];
        const char *Names[3] = {"blockDimX", "blockDimY", "blockDimZ"};
        for (int I = 0; I < 3; ++I)
          for (auto &[X, XP] : R.fieldValues(Call->getArg(0), Names[I], P))
            for (int64_t V : R.ints(X, XP))
              D[I].push_back(V);
        Shapes = driverShapes(D);
        Bytes = fieldBytes(Call->getArg(0), "sharedMemBytes", P);
        break;
      }
      case Form::KernelNode: {
        const Expr *Params = Call->getArg(N - 1);
        for (auto &[X, XP] : R.fieldValues(Params, "func", P))
          for (const FunctionDecl *K : R.kernels(X, XP))
            Ks.insert(K);
        Shapes = fieldShapes(Params, "blockDim", P);
        Bytes = fieldBytes(Params, "sharedMemBytes", P);
        break;
      }
      case Form::MaxDynSmem:
        if (N == 3 && isMaxDynSmemAttr(Call->getArg(1)))
          for (const FunctionDecl *K : R.kernels(Call->getArg(0), P))
            for (int64_t V : R.ints(Call->getArg(2), P))
              if (V > 0) {
                uint64_t &M = this->MaxDyn[K->getCanonicalDecl()];
                M = std::max<uint64_t>(M, V);
              }
        continue;
      }
      AllKernels.insert(Ks.begin(), Ks.end());
      for (const FunctionDecl *K : Ks)
        for (const BlockShape &Sh : Shapes)
          for (const auto &B : Bytes) {
            add(K, Sh, B, Loc, P);
            AnyShape = true;
          }
    }
    R.pinCaseArmsAround(nullptr, nullptr);
    if (!AnyShape)
      for (const FunctionDecl *K : AllKernels)
        ++UnknownLaunches[K->getCanonicalDecl()];
  }
}

std::vector<LaunchConfig>
SharedMemAnalyzer::configsFor(const FunctionDecl *Kernel) {
  std::vector<LaunchConfig> Cfgs = shapesFor(Kernel);
  // A size that did not fold gets at most what
  // cudaFuncSetAttribute(MaxDynamicSharedMemorySize) allows.
  auto It = MaxDyn.find(Kernel->getCanonicalDecl());
  if (It != MaxDyn.end())
    for (LaunchConfig &C : Cfgs)
      if (!C.DynSharedBytes && C.known()) {
        C.DynSharedBytes = It->second;
        C.DynFromAttribute = true;
      }
  return Cfgs;
}

std::vector<LaunchConfig>
SharedMemAnalyzer::shapesFor(const FunctionDecl *Kernel) {
  indexLaunches();
  std::vector<LaunchConfig> Found;
  auto It = Launches.find(Kernel->getCanonicalDecl());
  if (It != Launches.end())
    Found = It->second;
  addOtherFileLaunches(Kernel, OtherFileLaunches, Found);
  if (!Found.empty())
    return Found;
  std::vector<LaunchConfig> Opt;
  for (const std::string &Name :
       {Kernel->getQualifiedNameAsString(), Kernel->getNameAsString()}) {
    auto O = OptionShapes.find(Name);
    if (O == OptionShapes.end())
      continue;
    for (const BlockShape &S : O->second) {
      LaunchConfig C;
      C.Loc = Kernel->getLocation();
      C.Block = S;
      C.Origin = ShapeOrigin::Option;
      Opt.push_back(C);
    }
    return Opt;
  }
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

bool parseShapeOption(StringRef Text,
                      std::map<std::string, std::vector<BlockShape>> &Out,
                      std::string &Bad) {
  llvm::SmallVector<StringRef, 8> Entries;
  Text.split(Entries, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Entry : Entries) {
    Entry = Entry.trim();
    if (Entry.empty())
      continue;
    auto [Name, Shapes] = Entry.split('=');
    Name = Name.trim();
    llvm::SmallVector<StringRef, 4> List;
    Shapes.split(List, ',', -1, false);
    if (Name.empty() || List.empty()) {
      Bad = Entry.str();
      return false;
    }
    for (StringRef One : List) {
      llvm::SmallVector<StringRef, 3> Dims;
      One.trim().split(Dims, 'x');
      BlockShape S;
      unsigned *Slot[3] = {&S.X, &S.Y, &S.Z};
      bool Ok = !Dims.empty() && Dims.size() <= 3;
      for (size_t I = 0; Ok && I < Dims.size(); ++I)
        Ok = !Dims[I].trim().getAsInteger(10, *Slot[I]) && *Slot[I] > 0;
      if (!Ok || S.count() > 1024) {
        Bad = Entry.str();
        return false;
      }
      Out[Name.str()].push_back(S);
    }
  }
  return true;
}

} // namespace cgt::smem
