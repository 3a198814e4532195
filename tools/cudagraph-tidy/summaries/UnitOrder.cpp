//===- UnitOrder.cpp - callees' units first in the first pass -------------===//
//
// The call graph between units, from what their text says (UnitText.h):
// its cycles cut, the order the first pass starts the units in, and the
// workers that start each unit once those it waits for are done.
//
//===----------------------------------------------------------------------===//
#include "summaries/UnitOrder.h"
#include "summaries/UnitText.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>

namespace cgt {
namespace {

/// Edges unit -> the units it calls into, weighted by the names.
using Graph = std::vector<std::map<size_t, unsigned>>;
constexpr unsigned SpelledWeight = 1u << 16;

/// Tarjan's strongly connected components: the component of each unit.
class Components {
public:
  explicit Components(const Graph &G)
      : Comp(G.size(), -1), G(G), Index(G.size(), -1), Low(G.size()), OnStack(G.size()) {
    for (size_t V = 0; V < G.size(); ++V)
      if (Index[V] < 0)
        visit(V);
  }
  std::vector<int> Comp;
  std::vector<size_t> Sizes;

private:
  void visit(size_t V) {
    Index[V] = Low[V] = Next++;
    Stack.push_back(V);
    OnStack[V] = true;
    for (const auto &[W, Weight] : G[V]) {
      if (Index[W] < 0) {
        visit(W);
        Low[V] = std::min(Low[V], Low[W]);
      } else if (OnStack[W]) {
        Low[V] = std::min(Low[V], Index[W]);
      }
    }
    if (Low[V] != Index[V])
      return;
    Sizes.push_back(0);
    size_t W;
    do {
      W = Stack.back();
      Stack.pop_back();
      OnStack[W] = false;
      Comp[W] = Sizes.size() - 1;
      ++Sizes.back();
    } while (W != V);
  }
  const Graph &G;
  std::vector<int> Index, Low;
  std::vector<bool> OnStack;
  std::vector<size_t> Stack;
  int Next = 0;
};

/// Removes the lightest edge of every cycle until none is left: the fewest
/// names; among those, the edge into the unit the fewest units wait for
/// (lmdeploy's core/check.cc, which every unit reaches through check.h,
/// reaches some of them back through its own headers: it goes first, and
/// its entries reach every unit); then the first. Deep recursion is no
/// concern: a project's units.
void breakCycles(Graph &G) {
  while (true) {
    Components C(G);
    std::vector<unsigned> WaitedFor(G.size(), 0);
    for (const auto &Edges : G)
      for (const auto &[W, Weight] : Edges)
        ++WaitedFor[W];
    bool Cut = false;
    for (size_t S = 0; S < C.Sizes.size(); ++S) {
      if (C.Sizes[S] < 2)
        continue;
      std::tuple<unsigned, unsigned, size_t, size_t> Lightest{~0u, 0, 0, 0};
      for (size_t V = 0; V < G.size(); ++V)
        for (const auto &[W, Weight] : G[V])
          if (C.Comp[V] == int(S) && C.Comp[W] == int(S))
            Lightest = std::min(Lightest, {Weight, WaitedFor[W], V, W});
      G[std::get<2>(Lightest)].erase(std::get<3>(Lightest));
      Cut = true;
    }
    if (!Cut)
      return;
  }
}

/// How many units wait, one after another, for unit V (0: none).
unsigned waitedOn(size_t V, const std::vector<std::vector<size_t>> &WaitedBy,
                  std::vector<int> &Memo) {
  if (Memo[V] >= 0)
    return Memo[V];
  unsigned Depth = 0;
  for (size_t U : WaitedBy[V])
    Depth = std::max(Depth, 1 + waitedOn(U, WaitedBy, Memo));
  return Memo[V] = Depth;
}

} // namespace

UnitOrder orderUnits(const std::vector<std::string> &Files, const std::vector<bool> &Skip) {
  size_t N = Files.size();
  UnitOrder Out;
  Out.Calls.resize(N);
  Out.Waits.resize(N);
  std::vector<MainFileNames> Names(N);
  std::vector<uint64_t> Sizes(N, 0);
  std::map<std::string, std::vector<size_t>> DefinedBy;
  std::vector<std::set<std::string>> Indirect(N); // from headers and macros
  UnitTextScanner Scanner;
  for (size_t I = 0; I < N; ++I) {
    if (Skip[I])
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Files[I]);
    if (!Buf)
      continue;
    Sizes[I] = (*Buf)->getBufferSize();
    UnitCalls Calls = Scanner.scan(Files[I], (*Buf)->getBuffer());
    Names[I] = std::move(Calls.Main);
    Indirect[I] = std::move(Calls.Indirect);
    Out.Calls[I] = Names[I].Calls;
    Out.Calls[I].insert(Indirect[I].begin(), Indirect[I].end());
    for (const std::string &D : Names[I].Defines)
      DefinedBy[D].push_back(I);
  }
  // A name the main file spells weighs more than any number of names its
  // headers and macros add: those are what a cycle loses first (ggml's
  // CUDA_CHECK reaches ggml-cuda.cu's ggml_cuda_error from every unit that
  // ggml-cuda.cu dispatches to).
  Graph G(N);
  for (size_t I = 0; I < N; ++I)
    for (const std::string &C : Out.Calls[I])
      if (!Names[I].Defines.count(C))
        if (auto It = DefinedBy.find(C); It != DefinedBy.end())
          for (size_t J : It->second)
            if (J != I)
              G[I][J] += Indirect[I].count(C) ? 1 : SpelledWeight;
  breakCycles(G);
  std::vector<std::vector<size_t>> WaitedBy(N);
  for (size_t I = 0; I < N; ++I)
    for (const auto &[J, Weight] : G[I]) {
      Out.Waits[I].push_back(J);
      WaitedBy[J].push_back(I);
    }
  std::vector<int> Memo(N, -1);
  std::vector<std::tuple<unsigned, uint64_t, size_t>> Keys;
  for (size_t I = 0; I < N; ++I)
    if (!Skip[I])
      Keys.push_back({waitedOn(I, WaitedBy, Memo), Sizes[I], I});
  std::sort(Keys.begin(), Keys.end(), [](const auto &A, const auto &B) {
    if (std::get<0>(A) != std::get<0>(B))
      return std::get<0>(A) > std::get<0>(B);
    if (std::get<1>(A) != std::get<1>(B))
      return std::get<1>(A) > std::get<1>(B);
    return std::get<2>(A) < std::get<2>(B);
  });
  for (const auto &K : Keys)
    Out.Order.push_back(std::get<2>(K));
  return Out;
}

void runOrdered(const std::vector<size_t> &Order,
                const std::vector<std::vector<size_t>> &Waits, unsigned Threads,
                const std::function<void(size_t)> &Run) {
  // A unit waits only for units of this run: 0 not in it, 1 pending, 2 done.
  size_t N = 0;
  for (size_t I : Order)
    N = std::max(N, I + 1);
  std::vector<int> State(N, 0);
  for (size_t I : Order)
    State[I] = 1;
  std::vector<bool> Started(N, false);
  std::mutex M;
  std::condition_variable Done;
  size_t Left = Order.size();
  auto Ready = [&](size_t I) {
    if (Started[I])
      return false;
    if (I < Waits.size())
      for (size_t J : Waits[I])
        if (J < N && State[J] == 1)
          return false;
    return true;
  };
  auto Worker = [&] {
    std::unique_lock<std::mutex> Lock(M);
    while (true) {
      auto It = std::find_if(Order.begin(), Order.end(), Ready);
      if (It == Order.end()) {
        if (Left == 0 || std::none_of(Order.begin(), Order.end(),
                                      [&](size_t I) { return Started[I] && State[I] == 1; }))
          return; // nothing left, or nothing running that could free a unit
        Done.wait(Lock);
        continue;
      }
      size_t I = *It;
      Started[I] = true;
      Lock.unlock();
      Run(I);
      Lock.lock();
      State[I] = 2;
      --Left;
      Done.notify_all();
    }
  };
  Threads = std::max(1u, std::min<unsigned>(Threads, Order.size()));
  if (Threads == 1) {
    Worker();
    return;
  }
  // The pool's threads, as the passes had (their stack size is LLVM's).
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (unsigned T = 0; T < Threads; ++T)
    Pool.async(Worker);
  Pool.wait();
}

} // namespace cgt
