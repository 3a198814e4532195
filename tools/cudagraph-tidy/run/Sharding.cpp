//===- Sharding.cpp - a deterministic slice of the translation units ------===//
#include "run/Sharding.h"

#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <numeric>

namespace cgt {

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

std::vector<std::string> filesOfShard(const std::vector<std::string> &Files,
                                      const Shard &S) {
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Files[A] < Files[B]; });
  std::vector<bool> Mine(Files.size(), false);
  for (size_t Rank = 0; Rank < Order.size(); ++Rank)
    Mine[Order[Rank]] = Rank % S.Count == S.Index - 1;
  std::vector<std::string> Out;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Mine[I])
      Out.push_back(Files[I]);
  return Out;
}

} // namespace cgt
