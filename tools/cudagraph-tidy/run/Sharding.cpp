//===- Sharding.cpp - a deterministic slice of the translation units ------===//
#include "run/Sharding.h"

#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <numeric>

namespace cgt {
namespace {

/// Indices of `Files` by name: the order the deal walks, whatever order
/// the database lists them in.
std::vector<size_t> byName(const std::vector<std::string> &Files) {
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Files[A] < Files[B]; });
  return Order;
}

/// The shard (0-based) of each file, dealt round-robin by name.
std::vector<unsigned> roundRobin(const std::vector<std::string> &Files, unsigned Count) {
  std::vector<unsigned> ShardOf(Files.size());
  std::vector<size_t> Order = byName(Files);
  for (size_t Rank = 0; Rank < Order.size(); ++Rank)
    ShardOf[Order[Rank]] = Rank % Count;
  return ShardOf;
}

/// The shard of each file, largest cost first to the least loaded shard.
std::vector<unsigned> byCost(const std::vector<std::string> &Files,
                             const std::vector<double> &Cost, unsigned Count) {
  std::vector<size_t> Order = byName(Files);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Cost[A] > Cost[B]; });
  std::vector<double> Load(Count, 0);
  std::vector<unsigned> ShardOf(Files.size());
  for (size_t I : Order) {
    unsigned Least = std::min_element(Load.begin(), Load.end()) - Load.begin();
    ShardOf[I] = Least;
    Load[Least] += Cost[I];
  }
  return ShardOf;
}

/// Known costs as given, unknown ones as the median of the known; empty
/// when none is known.
std::vector<double> completed(const std::vector<std::optional<double>> &Costs) {
  std::vector<double> Known;
  for (const auto &C : Costs)
    if (C)
      Known.push_back(*C);
  if (Known.empty())
    return {};
  std::sort(Known.begin(), Known.end());
  double Median = Known[Known.size() / 2];
  std::vector<double> Out;
  for (const auto &C : Costs)
    Out.push_back(C ? *C : Median);
  return Out;
}

} // namespace

bool parseShard(const std::string &Text, Shard &Out, std::string &Error) {
  auto [I, N] = llvm::StringRef(Text).split('/');
  unsigned Index = 0, Count = 0;
  if (I.getAsInteger(10, Index) || N.getAsInteger(10, Count) || Count == 0 ||
      Index == 0 || Index > Count) {
    Error = "--shard '" + Text + "': expected I/N with 1 <= I <= N (e.g. 2/4)";
    return false;
  }
  Out.Index = Index;
  Out.Count = Count;
  return true;
}

std::vector<std::string> filesOfShard(const std::vector<std::string> &Files, const Shard &S,
                                      const std::vector<std::optional<double>> &Costs) {
  std::vector<double> Cost =
      Costs.size() == Files.size() ? completed(Costs) : std::vector<double>();
  std::vector<unsigned> ShardOf =
      Cost.empty() ? roundRobin(Files, S.Count) : byCost(Files, Cost, S.Count);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Files.size(); ++I)
    if (ShardOf[I] == S.Index - 1)
      Out.push_back(Files[I]);
  return Out;
}

} // namespace cgt
