//===- ConsumedChanges.cpp - which summary changes a unit can see --------===//
//
// Positions are compared effect by effect with sameEntry, the comparison
// the passes use to tell that an entry changed at all.
//
//===----------------------------------------------------------------------===//
#include "summaries/ConsumedChanges.h"
#include "ApiModel/ApiModelWriter.h"

#include <set>

namespace cgt {
namespace {

/// The entry without its per-argument effects.
FunctionModel wholeCall(const FunctionModel &M) {
  FunctionModel Out = M;
  Out.Uses.clear();
  Out.Releases.clear();
  return Out;
}

/// The entry's uses and releases of argument `Arg`, alone.
FunctionModel effectsOn(const FunctionModel &M, int Arg) {
  FunctionModel Out;
  Out.Name = M.Name;
  Out.NumParams = M.NumParams;
  for (const UseEffect &U : M.Uses)
    if (U.Arg == Arg)
      Out.Uses.push_back(U);
  for (const ReleaseEffect &R : M.Releases)
    if (R.Arg == Arg)
      Out.Releases.push_back(R);
  return Out;
}

std::set<int> argumentsNamed(const FunctionModel &M) {
  std::set<int> Out;
  for (const UseEffect &U : M.Uses)
    Out.insert(U.Arg);
  for (const ReleaseEffect &R : M.Releases)
    Out.insert(R.Arg);
  return Out;
}

bool passesNonConstant(const CalleeUse &Use, int Arg) {
  return Arg < 0 || Arg >= 64 || (Use.Args >> Arg) & 1;
}

} // namespace

std::string whyEntryChangeMatters(const FunctionModel *Before, const FunctionModel *After,
                                  const CalleeUse &Use) {
  if (!Before && !After)
    return "";
  if (Before && After && sameEntry(*Before, *After))
    return "";
  if (Use.Opaque)
    return "changed; reached otherwise than by plain calls";
  static const std::vector<long long> NoValues;
  if ((Before ? Before->ReturnValues : NoValues) != (After ? After->ReturnValues : NoValues))
    return "changed the values it returns";
  if (!Before || !After)
    return Use.Args != 0 ? (Before ? "went away" : "appeared") : "";
  if (!sameEntry(wholeCall(*Before), wholeCall(*After)))
    return "changed for the call as a whole";
  std::set<int> Args = argumentsNamed(*Before);
  for (int A : argumentsNamed(*After))
    Args.insert(A);
  for (int A : Args)
    if (passesNonConstant(Use, A) && !sameEntry(effectsOn(*Before, A), effectsOn(*After, A)))
      return "changed its uses or releases of argument " + std::to_string(A);
  return "";
}

bool entryChangeMatters(const FunctionModel *Before, const FunctionModel *After,
                        const CalleeUse &Use) {
  return !whyEntryChangeMatters(Before, After, Use).empty();
}

std::vector<std::string>
consumedChanges(const UnitExport &Unit, const std::map<EntryKey, FunctionModel> &Before,
                const std::map<EntryKey, FunctionModel> &After, bool FirstOnly) {
  static const CalleeUse Unknown{~uint64_t(0), true};
  std::vector<std::string> Out;
  auto Check = [&](const EntryKey &Key) {
    if (!Unit.ExternalCallees.count(Key.Name))
      return;
    auto B = Before.find(Key), A = After.find(Key);
    auto U = Unit.CalleeUses.find(Key.Name);
    std::string Why = whyEntryChangeMatters(B == Before.end() ? nullptr : &B->second,
                                            A == After.end() ? nullptr : &A->second,
                                            U == Unit.CalleeUses.end() ? Unknown : U->second);
    if (!Why.empty())
      Out.push_back(Key.describe() + " " + Why);
  };
  for (const auto &[Key, M] : After)
    if (!(FirstOnly && !Out.empty()))
      Check(Key);
  for (const auto &[Key, M] : Before)
    if (!After.count(Key) && !(FirstOnly && !Out.empty()))
      Check(Key);
  return Out;
}

bool consumedChangeMatters(const UnitExport &Unit,
                           const std::map<EntryKey, FunctionModel> &Before,
                           const std::map<EntryKey, FunctionModel> &After) {
  return !consumedChanges(Unit, Before, After, /*FirstOnly=*/true).empty();
}

} // namespace cgt
