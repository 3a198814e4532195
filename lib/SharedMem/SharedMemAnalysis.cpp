//===- SharedMemAnalysis.cpp - findings from the per-thread instances -----===//
//
// Overflow: an instance whose concrete index leaves its dimension (or whose
// byte range leaves the array when reached through a pointer, or the region
// of the carve it was reached through: up to the next carve, and down to the
// previous one's end only when there is one). It is definite when the block
// shape comes from a launch and no thread-dependent undecided guard is on
// the path; otherwise it is "possible".
//
// Bank conflicts: instances of one access by the lanes of one warp in the
// same iteration of every enclosing loop form a warp-level access. Its lanes
// must share the symbolic (uniform) part of their address -- that part only
// shifts every lane by the same amount, so the bank pattern is the concrete
// part's -- otherwise nothing is said. BankModel.h then counts wavefronts.
// Sub-word accesses with a symbolic offset take the worst of the four
// possible byte alignments.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/SharedMemAnalysis.h"
#include "SharedMem/Interpreter/Interpreter.h"

#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <set>

using namespace clang;

namespace cgt::smem {

namespace {

using PadMap = std::map<const VarDecl *, uint64_t>;

struct Offender {
  std::set<unsigned> Tids;
  int Dim = -2;
  int64_t Worst = 0;
  int64_t Extent = 0;
  const VarDecl *Carve = nullptr;
  void add(unsigned Tid, int D, int64_t Idx, int64_t Ext,
           const VarDecl *C = nullptr) {
    Tids.insert(Tid);
    bool Better = Dim == -2 || (D == Dim && (Idx < 0 ? Idx < Worst : Idx > Worst));
    if (Better) {
      Dim = D;
      Worst = Idx;
      Extent = Ext;
      Carve = C;
    }
  }
};

/// Bytes from a carve's start to the next carve (at a constant distance) or
/// to the array's end; -1 when unknown.
int64_t carveBytes(const AccessRecord &R, const SymVal &Start, int64_t Total) {
  int64_t Best = -1;
  for (const SymVal &C : R.Carves)
    if (C.sameTerms(Start) && C.C > Start.C && (Best < 0 || C.C - Start.C < Best))
      Best = C.C - Start.C;
  if (Best < 0 && Start.isConst() && Total >= 0)
    Best = Total - Start.C;
  return Best;
}

/// Whether another carve (at a constant distance) starts before this one:
/// only then do the bytes below the carve's start belong to someone else.
/// A lone pointer into the middle of an array (lfib4's `px = &cx[256]`
/// read at `px[i - 256]`) may look back over the whole array before it,
/// which the array's own bounds, checked first, judge.
bool carveBefore(const AccessRecord &R, const SymVal &Start) {
  for (const SymVal &C : R.Carves)
    if (C.sameTerms(Start) && C.C < Start.C)
      return true;
  return false;
}

/// Which of two findings at one access is reported: definite before
/// possible, then the index farther from the extent.
bool worse(const OverflowFinding &F, const OverflowFinding &G) {
  if (F.Definite != G.Definite)
    return F.Definite;
  return std::abs(F.WorstIndex - F.Extent) > std::abs(G.WorstIndex - G.Extent);
}

bool costlier(const BankFinding &F, const BankFinding &G) {
  return F.Cost.excess() > G.Cost.excess();
}

/// A helper's access has a record per array it reaches: within one
/// interpreter run, the worst finding of those records stands for the
/// access (in the order the accesses were first met).
template <typename Finding> struct WorstPerAccess {
  std::map<const Expr *, Finding> Worst;
  std::vector<const Expr *> Order;
  template <typename Worse> void add(const Expr *E, Finding F, Worse IsWorse) {
    auto It = Worst.find(E);
    if (It == Worst.end()) {
      Order.push_back(E);
      Worst.emplace(E, std::move(F));
    } else if (IsWorse(F, It->second)) {
      It->second = std::move(F);
    }
  }
};

std::optional<OverflowFinding> overflowOf(ASTContext &Ctx, const AccessRecord &R,
                                          const LaunchConfig &Cfg,
                                          bool Possible) {
  ArrayLayout L = layoutOf(Ctx, R.Array, Cfg, {});
  bool Dynamic = Ctx.getAsIncompleteArrayType(R.Array->getType()) != nullptr;
  Offender Hard, Soft; // unguarded / guarded
  for (const Instance &I : R.Inst) {
    if (R.Direct && !I.Dims.empty()) {
      for (size_t D = 0; D < I.Dims.size() && D < L.Extents.size(); ++D) {
        int64_t Ext = L.Extents[D];
        if (Ext < 0)
          continue;
        auto V = I.Dims[D].asConst();
        if (V && (*V < 0 || *V >= Ext)) {
          (I.Guarded ? Soft : Hard).add(I.Tid, static_cast<int>(D), *V, Ext);
          break;
        }
        // A value known only by its range (masked data, a loop counter):
        // its bound is out, definitely so when inputs reach it.
        if (!V && D < I.DimBounds.size()) {
          const Bound &B = I.DimBounds[D];
          std::optional<int64_t> Out;
          if (B.finiteHi() && B.Hi >= Ext)
            Out = B.Hi;
          else if (B.finiteLo() && B.Lo < 0)
            Out = B.Lo;
          if (Out) {
            (I.Guarded || !B.Attainable ? Soft : Hard)
                .add(I.Tid, static_cast<int>(D), *Out, Ext);
            break;
          }
        }
      }
      continue;
    }
    if (L.TotalBytes >= 0) {
      if (auto V = I.Off.asConst()) {
        if (*V < 0 || *V + R.Bytes > L.TotalBytes) {
          (I.Guarded ? Soft : Hard).add(I.Tid, -1, *V, L.TotalBytes);
          continue;
        }
      } else {
        const Bound &B = I.OffBound;
        std::optional<int64_t> Out;
        if (B.finiteHi() && B.Hi + R.Bytes > L.TotalBytes)
          Out = B.Hi;
        else if (B.finiteLo() && B.Lo < 0)
          Out = B.Lo;
        if (Out) {
          (I.Guarded || !B.Attainable ? Soft : Hard)
              .add(I.Tid, -1, *Out, L.TotalBytes);
          continue;
        }
      }
    }
    // Inside the buffer but outside the region carved for this pointer.
    // A carve of dynamic shared memory owns no region: layouts move one
    // back over space a warp never uses (llm.c's layernorm_backward_kernel10,
    // issue 35), so only the whole allocation, checked above, bounds it.
    if (!I.Carve || R.Bytes == 0 || Dynamic)
      continue;
    int64_t Region = carveBytes(R, I.CarveStart, L.TotalBytes);
    if (Region < 0)
      continue;
    int64_t Elems = Region / R.Bytes;
    if (auto V = I.CarveRel.asConst()) {
      if ((*V < 0 && carveBefore(R, I.CarveStart)) || *V + R.Bytes > Region)
        (I.Guarded ? Soft : Hard).add(I.Tid, -3, *V / int64_t(R.Bytes), Elems, I.Carve);
      continue;
    }
    const Bound &B = I.CarveRelBound;
    if (B.finiteHi() && B.Hi + R.Bytes > Region)
      (I.Guarded || !B.Attainable ? Soft : Hard)
          .add(I.Tid, -3, B.Hi / int64_t(R.Bytes), Elems, I.Carve);
  }
  bool Definite = Cfg.known() && !Hard.Tids.empty();
  const Offender *Use = nullptr;
  if (Definite)
    Use = &Hard;
  else if (Possible)
    Use = !Hard.Tids.empty() ? &Hard : !Soft.Tids.empty() ? &Soft : nullptr;
  if (!Use)
    return std::nullopt;
  OverflowFinding F;
  F.Access = R.E;
  F.Array = R.Array;
  F.Via = R.Via;
  F.Definite = Definite;
  F.Dim = Use->Dim;
  F.Rank = static_cast<unsigned>(std::max<size_t>(1, L.Extents.size()));
  F.Extent = Use->Extent;
  F.Carve = Use->Carve;
  F.WorstIndex = Use->Worst;
  F.AccessBytes = R.Bytes;
  F.FirstTid = *Use->Tids.begin();
  F.LastTid = *Use->Tids.rbegin();
  F.NumThreads = static_cast<unsigned>(Use->Tids.size());
  F.Config = Cfg;
  return F;
}

struct Group {
  LaneAddresses Addr;
  SymVal::TermList Terms;
  bool Any = false, Valid = true;
};

/// Worst warp-level cost of one access under one block shape; nullopt when
/// no warp-level instance could be evaluated.
std::optional<std::pair<WarpCost, unsigned>>
worstCost(const AccessRecord &R, const LaunchConfig &Cfg) {
  unsigned S = R.Bytes;
  // Shared-memory atomics are not modelled by the measured bank model.
  if (R.Atomic || (S != 1 && S != 2 && S != 4 && S != 8 && S != 16))
    return std::nullopt;
  std::map<std::pair<unsigned, unsigned>, Group> Groups;
  for (const Instance &I : R.Inst) {
    // Under an assumed 1-D shape, indices built from blockDim or
    // threadIdx.y/z mean nothing.
    if (I.Off.ShapeDep && !Cfg.known())
      return std::nullopt;
    Group &G = Groups[{I.IterKey, I.Tid / WarpSize}];
    if (I.Off.Top) {
      G.Valid = false;
      continue;
    }
    if (!G.Any) {
      G.Terms = I.Off.Terms;
      G.Any = true;
    } else if (G.Terms != I.Off.Terms) {
      G.Valid = false; // lane-dependent unknown: say nothing
    }
    G.Addr[I.Tid % WarpSize] = I.Off.C;
  }
  std::optional<std::pair<WarpCost, unsigned>> Worst;
  for (auto &KV : Groups) {
    Group &G = KV.second;
    if (!G.Valid || !G.Any)
      continue;
    WarpCost C;
    unsigned Shifts = (!G.Terms.empty() && S < 4) ? 4 : 1;
    for (unsigned Sh = 0; Sh < Shifts; ++Sh) {
      LaneAddresses A = G.Addr;
      for (auto &X : A)
        if (X)
          *X += Sh;
      WarpCost W = warpCost(A, S);
      if (W.excess() > C.excess() || C.Wavefronts == 0)
        C = W;
    }
    if (!Worst || C.excess() > Worst->first.excess() ||
        (C.excess() == Worst->first.excess() && C.Degree > Worst->first.Degree))
      Worst = {C, KV.first.second};
  }
  return Worst;
}

/// The declaration text change that pads the last dimension by one element.
std::optional<PaddingFix> paddingText(ASTContext &Ctx, const VarDecl *VD) {
  const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  TypeLoc TL = TSI->getTypeLoc();
  std::optional<ConstantArrayTypeLoc> Last;
  unsigned Rank = 0;
  while (auto ATL = TL.getAs<ConstantArrayTypeLoc>()) {
    Last = ATL;
    ++Rank;
    TL = ATL.getElementLoc();
  }
  if (!Last || Rank < 2 || !Last->getSizeExpr())
    return std::nullopt;
  const auto *CAT = dyn_cast<ConstantArrayType>(
      Ctx.getAsArrayType(Last->getType()));
  if (!CAT)
    return std::nullopt;
  const Expr *SE = Last->getSizeExpr();
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(SE->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid() || !SM.isWrittenInMainFile(R.getBegin()))
    return std::nullopt;
  PaddingFix F;
  F.OldCols = CAT->getSize().getZExtValue();
  F.NewCols = F.OldCols + 1;
  F.SizeExpr = R.getAsRange();
  if (isa<IntegerLiteral>(SE->IgnoreParenImpCasts()) && !SE->getBeginLoc().isMacroID())
    F.Replacement = std::to_string(F.NewCols);
  else
    F.Replacement =
        Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str() + " + 1";
  return F;
}

} // namespace

/// The runs of the kernel analysed last only: the checks of one kernel
/// come one after the other, and records are large.
struct SharedMemAnalyzer::InterpretRuns {
  using Key = std::tuple<unsigned, unsigned, unsigned, std::optional<uint64_t>, bool, int,
                         unsigned, unsigned>;
  static Key keyOf(const LaunchConfig &Cfg, unsigned MaxUnroll) {
    return Key{Cfg.Block.X,        Cfg.Block.Y,
               Cfg.Block.Z,        Cfg.DynSharedBytes,
               Cfg.DynFromAttribute, static_cast<int>(Cfg.Origin),
               Cfg.Loc.getRawEncoding(), MaxUnroll};
  }
  struct Run {
    std::vector<AccessRecord> Records;
    uint64_t Steps;
    SyncLog Sync;
  };
  const FunctionDecl *Kernel = nullptr;
  std::map<Key, Run> Runs;
  /// Runs that gave up, of every kernel (a few bytes each): the budget the
  /// run was given and the steps it took. The interpreter is deterministic:
  /// a run that ran out of steps runs out again under no larger budget, and
  /// one stopped by another limit (MaxInstances) before its budget was spent
  /// stops at the same step under any budget that reaches it. Such a run
  /// gives up at once, charged what it would have spent: each check asks
  /// for the same run (issue 38: the four checks re-ran an over-budget
  /// kernel to its end, one after the other).
  struct GaveUpRun {
    uint64_t Given, Spent;
  };
  std::map<std::pair<const FunctionDecl *, Key>, GaveUpRun> GaveUp;
};

SharedMemAnalyzer::SharedMemAnalyzer(ASTContext &Ctx) : Ctx(Ctx) {}
SharedMemAnalyzer::~SharedMemAnalyzer() = default;

const std::vector<AccessRecord> *
SharedMemAnalyzer::interpretOnce(const FunctionDecl *Kernel, const LaunchConfig &Cfg,
                                 unsigned MaxUnroll, uint64_t &Budget,
                                 const SyncLog **Sync) {
  if (!Runs)
    Runs = std::make_unique<InterpretRuns>();
  if (Kernel != Runs->Kernel) {
    Runs->Runs.clear();
    Runs->Kernel = Kernel;
  }
  InterpretRuns::Key Key = InterpretRuns::keyOf(Cfg, MaxUnroll);
  auto It = Runs->Runs.find(Key);
  if (It == Runs->Runs.end()) {
    auto Gave = Runs->GaveUp.find({Kernel, Key});
    if (Gave != Runs->GaveUp.end()) {
      const InterpretRuns::GaveUpRun &G = Gave->second;
      if (G.Spent < G.Given) { // stopped by a limit other than the steps
        Budget -= std::min(Budget, G.Spent);
        return nullptr;
      }
      if (Budget <= G.Given) { // out of steps again
        Budget = 0;
        return nullptr;
      }
    }
    uint64_t Left = Budget;
    std::vector<AccessRecord> Recs;
    SyncLog Log;
    if (!interpretKernel(Ctx, Kernel, Cfg, MaxUnroll, {}, Recs, Left, &Log)) {
      Runs->GaveUp[{Kernel, Key}] = {Budget, Budget - Left};
      Budget = Left;
      return nullptr;
    }
    It = Runs->Runs
             .emplace(Key, InterpretRuns::Run{std::move(Recs), Budget - Left, std::move(Log)})
             .first;
  }
  // What a fresh run would have done: the same steps, charged again.
  if (It->second.Steps > Budget) {
    Budget = 0;
    return nullptr;
  }
  Budget -= It->second.Steps;
  if (Sync)
    *Sync = &It->second.Sync;
  return &It->second.Records;
}

KernelReport SharedMemAnalyzer::analyze(const FunctionDecl *Kernel,
                                        const AnalysisOptions &Opts) {
  KernelReport Rep;
  if (!Kernel->hasBody() || Kernel->isDependentContext())
    return Rep;
  Rep.Configs = configsFor(Kernel);
  // Nothing to find where nothing could be recorded; asked once per kernel
  // (the checks call in turn).
  auto [Inert, New] = InertKernels.try_emplace(Kernel, false);
  if (New)
    Inert->second = kernelIsInert(Ctx, Kernel);
  if (Inert->second)
    return Rep;
  uint64_t Budget = Opts.StepBudget;
  bool Known = Rep.Configs.front().known();

  // Overflow: every known launch shape; without one, the assumed shapes
  // (1-D, and the same count along y and z) when possible overflows are wanted.
  if (Opts.Overflow) {
    std::vector<LaunchConfig> Shapes = Rep.Configs;
    if (!Known && Opts.PossibleOverflows) {
      LaunchConfig C = Rep.Configs.front();
      unsigned M = C.Block.X;
      C.Block = {1, M, 1};
      Shapes.push_back(C);
      C.Block = {1, 1, std::min(M, 64u)};
      Shapes.push_back(C);
    }
    if (Known || Opts.PossibleOverflows) {
      std::map<const Expr *, OverflowFinding> Best;
      std::vector<const Expr *> Order;
      for (const LaunchConfig &Cfg : Shapes) {
        const std::vector<AccessRecord> *Recs = interpretOnce(Kernel, Cfg, Opts.MaxUnroll, Budget);
        if (!Recs) {
          Rep.GaveUp = true;
          return Rep;
        }
        WorstPerAccess<OverflowFinding> Run;
        for (const AccessRecord &R : *Recs)
          if (auto F = overflowOf(Ctx, R, Cfg, Opts.PossibleOverflows))
            Run.add(R.E, std::move(*F), worse);
        for (const Expr *E : Run.Order) {
          OverflowFinding &F = Run.Worst.at(E);
          auto It = Best.find(E);
          if (It == Best.end()) {
            Order.push_back(E);
            Best.emplace(E, F);
          } else if (worse(F, It->second)) {
            F.Others = std::move(It->second.Others);
            F.Others.push_back(It->second.Config.shapeText());
            It->second = F;
          } else {
            It->second.Others.push_back(F.Config.shapeText());
          }
        }
      }
      for (const Expr *E : Order)
        Rep.Overflows.push_back(Best.at(E));
    }
  }

  if (Opts.BankConflicts) {
    std::map<const Expr *, BankFinding> Best;
    std::vector<const Expr *> Order;
    for (const LaunchConfig &Cfg : Rep.Configs) {
      const std::vector<AccessRecord> *Recs = interpretOnce(Kernel, Cfg, Opts.MaxUnroll, Budget);
      if (!Recs) {
        Rep.GaveUp = true;
        return Rep;
      }
      WorstPerAccess<BankFinding> Run;
      for (const AccessRecord &R : *Recs) {
        auto W = worstCost(R, Cfg);
        if (!W || W->first.excess() == 0)
          continue;
        BankFinding F;
        F.Access = R.E;
        F.Array = R.Array;
        F.Cost = W->first;
        F.Warp = W->second;
        F.AccessBytes = R.Bytes;
        F.IsLoad = R.Load;
        F.IsStore = R.Store;
        F.InLoop = R.InLoop;
        F.Config = Cfg;
        Run.add(R.E, std::move(F), costlier);
      }
      for (const Expr *E : Run.Order) {
        BankFinding &F = Run.Worst.at(E);
        auto It = Best.find(E);
        if (It == Best.end()) {
          Order.push_back(E);
          Best.emplace(E, F);
        } else if (F.Cost.excess() > It->second.Cost.excess()) {
          F.Others = std::move(It->second.Others);
          F.Others.push_back(It->second.Config.shapeText() + " (" +
                             std::to_string(It->second.Cost.Degree) + "-way)");
          It->second = F;
        } else {
          It->second.Others.push_back(F.Config.shapeText() + " (" +
                                      std::to_string(F.Cost.Degree) + "-way)");
        }
      }
    }
    for (const Expr *E : Order)
      Rep.Conflicts.push_back(Best.at(E));

    if (Opts.PaddingFixes) {
      // Several findings on one array under one shape ask the same question:
      // its answer is kept, and asking again charges the steps it took.
      std::map<std::pair<const VarDecl *, InterpretRuns::Key>, std::pair<bool, uint64_t>> Padded;
      for (BankFinding &F : Rep.Conflicts) {
        auto Text = paddingText(Ctx, F.Array);
        if (!Text)
          continue;
        auto Key = std::make_pair(F.Array, InterpretRuns::keyOf(F.Config, Opts.MaxUnroll));
        auto Known = Padded.find(Key);
        if (Known == Padded.end()) {
          uint64_t Left = Budget;
          std::optional<bool> Clean = paddingRemovesConflicts(Kernel, F, Text->NewCols,
                                                              Opts.MaxUnroll, Left);
          uint64_t Steps = Budget - Left;
          Budget = Left;
          if (!Clean)
            continue; // out of steps: nothing later runs either
          Known = Padded.emplace(Key, std::make_pair(*Clean, Steps)).first;
        } else if (Known->second.second > Budget) {
          Budget = 0;
          continue;
        } else {
          Budget -= Known->second.second;
        }
        if (Known->second.first)
          F.Fix = Text;
      }
    }
  }
  if (Opts.Races || Opts.Divergence)
    syncFindings(Kernel, Opts, Rep, Budget);
  return Rep;
}

namespace {

/// `R` as the padded layout `Now` places it: a direct access's offset is
/// the sum of its indices times the strides (plus a member's offset, which
/// padding does not move), so only the strides' change is added.
AccessRecord relaidOut(const AccessRecord &R, const ArrayLayout &Was, const ArrayLayout &Now) {
  AccessRecord Out = R;
  for (Instance &I : Out.Inst)
    for (size_t D = 0; D < I.Dims.size() && D < Was.Strides.size(); ++D)
      if (int64_t Delta = Now.Strides[D] - Was.Strides[D])
        I.Off = add(I.Off, scale(I.Dims[D], Delta));
  return Out;
}

} // namespace

/// Accept the padding only if, with it, no access of this array in the
/// kernel has excess wavefronts left; none when the run gave up. Padding
/// changes no value the kernel computes (the interpreter reads strides only
/// to place subscripts; `sizeof` is the declared type's), so the padded
/// run's accesses are the unpadded run's, placed anew; like a re-run, the
/// question costs the run's steps.
std::optional<bool> SharedMemAnalyzer::paddingRemovesConflicts(const FunctionDecl *Kernel,
                                                               const BankFinding &F,
                                                               uint64_t NewCols,
                                                               unsigned MaxUnroll,
                                                               uint64_t &Budget) {
  const std::vector<AccessRecord> *Recs = interpretOnce(Kernel, F.Config, MaxUnroll, Budget);
  if (!Recs)
    return std::nullopt;
  ArrayLayout Was = layoutOf(Ctx, F.Array, F.Config, {});
  ArrayLayout Now = layoutOf(Ctx, F.Array, F.Config, PadMap{{F.Array, NewCols}});
  for (const AccessRecord &R : *Recs) {
    if (R.Array != F.Array)
      continue;
    if (!R.Direct)
      return false;
    auto W = worstCost(relaidOut(R, Was, Now), F.Config);
    if (W && W->first.excess() > 0)
      return false;
  }
  return true;
}

} // namespace cgt::smem
