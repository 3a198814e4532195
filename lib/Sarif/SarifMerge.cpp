//===- SarifMerge.cpp - one SARIF run from the logs of several shards -----===//
//
// Works on the JSON of the logs, not on findings read back: a log does not
// carry what the finding records had (byte offsets), and re-deriving it would
// make the merge depend on the source tree being present. Every object is
// compared by its serialized form, which the writer makes canonical (key
// order fixed by nlohmann::ordered_json insertion order).
//
//===----------------------------------------------------------------------===//
#include "Sarif/SarifMerge.h"
#include "Report/Rules.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cgt {
namespace {

using OJson = nlohmann::ordered_json;

const char UnanalysedId[] = "cudagraph-tidy/unanalysed-translation-unit";

std::string dump(const OJson &J) { return J.dump(); }

/// A run-level value all logs must agree on (tool, version, category,
/// commit). Logs that lack it are neutral; two different values are an error.
class Agreed {
public:
  explicit Agreed(std::string What) : What(std::move(What)) {}
  bool add(const OJson *Value, const std::string &Name, std::string &Error) {
    if (!Value)
      return true;
    if (!Has) {
      Has = true;
      First = *Value;
      FirstName = Name;
      return true;
    }
    if (dump(First) == dump(*Value))
      return true;
    Error = "cannot merge: " + FirstName + " and " + Name + " differ in " +
            What + " (" + dump(First) + " vs " + dump(*Value) + ")";
    return false;
  }
  bool has() const { return Has; }
  const OJson &value() const { return First; }

private:
  std::string What;
  bool Has = false;
  OJson First;
  std::string FirstName;
};

const OJson *member(const OJson &Obj, const char *Key) {
  return Obj.is_object() && Obj.contains(Key) ? &Obj[Key] : nullptr;
}

/// Sort key of a result: where it is, then what it is; the serialized
/// result breaks the remaining ties so that the order is total.
using ResultKey = std::tuple<std::string, long, long, std::string, std::string,
                             std::string>;

ResultKey resultKey(const OJson &R) {
  std::string Uri;
  long Line = 0, Column = 0;
  if (const OJson *Locs = member(R, "locations"); Locs && Locs->is_array() &&
                                                  !Locs->empty()) {
    const OJson &L = (*Locs)[0];
    if (const OJson *PL = member(L, "physicalLocation")) {
      if (const OJson *A = member(*PL, "artifactLocation"))
        if (const OJson *U = member(*A, "uri"); U && U->is_string())
          Uri = U->get<std::string>();
      if (const OJson *Reg = member(*PL, "region")) {
        if (const OJson *V = member(*Reg, "startLine"); V && V->is_number())
          Line = V->get<long>();
        if (const OJson *V = member(*Reg, "startColumn"); V && V->is_number())
          Column = V->get<long>();
      }
    }
  }
  std::string Rule, Message;
  if (const OJson *V = member(R, "ruleId"); V && V->is_string())
    Rule = V->get<std::string>();
  if (const OJson *M = member(R, "message"))
    if (const OJson *T = member(*M, "text"); T && T->is_string())
      Message = T->get<std::string>();
  return {Uri, Line, Column, Rule, Message, dump(R)};
}

/// Notifications of units that did not parse come first, as the writer puts
/// them, then the others by descriptor; each group by message.
std::tuple<int, std::string, std::string, std::string>
notificationKey(const OJson &N) {
  std::string Id, Message;
  if (const OJson *D = member(N, "descriptor"))
    if (const OJson *V = member(*D, "id"); V && V->is_string())
      Id = V->get<std::string>();
  if (const OJson *M = member(N, "message"))
    if (const OJson *T = member(*M, "text"); T && T->is_string())
      Message = T->get<std::string>();
  return {Id == UnanalysedId ? 0 : 1, Id, Message, dump(N)};
}

/// Rule ids of the table in its order, then any other id sorted.
std::vector<std::string> ruleOrder(const std::map<std::string, OJson> &Rules) {
  std::vector<std::string> Order;
  std::set<std::string> Done;
  for (const RuleInfo &R : allRules())
    if (Rules.count(R.Id) && Done.insert(R.Id).second)
      Order.push_back(R.Id);
  for (const auto &KV : Rules)
    if (Done.insert(KV.first).second)
      Order.push_back(KV.first);
  return Order;
}

struct Merger {
  Agreed ToolName{"tool name"}, ToolVersion{"tool version"},
      Category{"automationDetails (category)"},
      Provenance{"versionControlProvenance (analysed commit)"},
      ColumnKind{"columnKind"}, Schema{"$schema"};
  OJson DriverTemplate;     ///< tool.driver of the first log, without rules
  bool HaveDriver = false;
  std::map<std::string, OJson> Rules;
  std::map<std::string, std::string> RuleSource; ///< id -> log, for messages
  std::set<std::string> RootUris;
  std::map<std::string, OJson> ResultsByText;
  std::map<std::string, OJson> NotesByText;
  bool Successful = true;

  bool addRun(const OJson &Run, const std::string &Name, std::string &Error);
  bool addLog(const OJson &Log, const std::string &Name, std::string &Error);
  std::string build() const;
};

bool Merger::addLog(const OJson &Log, const std::string &Name,
                    std::string &Error) {
  if (!Log.is_object() || !Log.contains("version") || Log["version"] != "2.1.0") {
    Error = Name + ": not a SARIF 2.1.0 log (no \"version\": \"2.1.0\")";
    return false;
  }
  if (!Schema.add(member(Log, "$schema"), Name, Error))
    return false;
  const OJson *Runs = member(Log, "runs");
  if (!Runs || !Runs->is_array()) {
    Error = Name + ": no \"runs\" array";
    return false;
  }
  for (const OJson &Run : *Runs)
    if (!addRun(Run, Name, Error))
      return false;
  return true;
}

bool Merger::addRun(const OJson &Run, const std::string &Name,
                    std::string &Error) {
  const OJson *Driver = Run.is_object() && Run.contains("tool")
                            ? member(Run["tool"], "driver")
                            : nullptr;
  if (!Driver || !Driver->is_object()) {
    Error = Name + ": a run has no tool.driver";
    return false;
  }
  if (!ToolName.add(member(*Driver, "name"), Name, Error) ||
      !ToolVersion.add(member(*Driver, "version"), Name, Error) ||
      !Category.add(member(Run, "automationDetails"), Name, Error) ||
      !Provenance.add(member(Run, "versionControlProvenance"), Name, Error) ||
      !ColumnKind.add(member(Run, "columnKind"), Name, Error))
    return false;
  if (!HaveDriver) {
    HaveDriver = true;
    DriverTemplate = *Driver;
    DriverTemplate.erase("rules");
  }
  std::vector<std::string> Ids;
  if (const OJson *Rs = member(*Driver, "rules"); Rs && Rs->is_array())
    for (const OJson &R : *Rs) {
      std::string Id = R.value("id", "");
      Ids.push_back(Id);
      auto [It, New] = Rules.emplace(Id, R);
      if (New) {
        RuleSource[Id] = Name;
      } else if (dump(It->second) != dump(R)) {
        Error = "cannot merge: " + RuleSource[Id] + " and " + Name +
                " describe rule '" + Id + "' differently";
        return false;
      }
    }
  if (const OJson *Bases = member(Run, "originalUriBaseIds"))
    RootUris.insert(dump(*Bases));
  if (const OJson *Invs = member(Run, "invocations"); Invs && Invs->is_array())
    for (const OJson &Inv : *Invs) {
      if (const OJson *OK = member(Inv, "executionSuccessful");
          OK && OK->is_boolean() && !OK->get<bool>())
        Successful = false;
      if (const OJson *Ns = member(Inv, "toolExecutionNotifications");
          Ns && Ns->is_array())
        for (const OJson &N : *Ns)
          NotesByText.emplace(dump(N), N);
    }
  if (const OJson *Rs = member(Run, "results"); Rs && Rs->is_array())
    for (OJson R : *Rs) {
      // ruleIndex points into this log's table; the merged table has its
      // own, so it is set again when the log is built.
      if (R.contains("ruleIndex")) {
        long I = R["ruleIndex"].is_number() ? R["ruleIndex"].get<long>() : -1;
        if (I >= 0 && I < static_cast<long>(Ids.size()) && !R.contains("ruleId"))
          R["ruleId"] = Ids[I];
        R.erase("ruleIndex");
      }
      ResultsByText.emplace(dump(R), R);
    }
  return true;
}

std::string Merger::build() const {
  std::vector<std::string> Order = ruleOrder(Rules);
  std::map<std::string, size_t> Index;
  OJson RuleArray = OJson::array();
  for (const std::string &Id : Order) {
    Index[Id] = RuleArray.size();
    RuleArray.push_back(Rules.at(Id));
  }
  OJson Driver = DriverTemplate;
  Driver["rules"] = RuleArray;

  std::vector<std::pair<ResultKey, const OJson *>> Sorted;
  for (const auto &KV : ResultsByText)
    Sorted.push_back({resultKey(KV.second), &KV.second});
  std::sort(Sorted.begin(), Sorted.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  OJson Results = OJson::array();
  for (const auto &[Key, R] : Sorted) {
    // Rebuilt so that ruleIndex sits right after ruleId, where the writer
    // puts it.
    OJson Out = OJson::object();
    for (const auto &KV : R->items()) {
      Out[KV.key()] = KV.value();
      if (KV.key() == "ruleId" && Index.count(KV.value().get<std::string>()))
        Out["ruleIndex"] = Index[KV.value().get<std::string>()];
    }
    Results.push_back(Out);
  }

  std::vector<std::pair<decltype(notificationKey(OJson())), const OJson *>> Notes;
  for (const auto &KV : NotesByText)
    Notes.push_back({notificationKey(KV.second), &KV.second});
  std::sort(Notes.begin(), Notes.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  OJson Inv = OJson::object();
  Inv["executionSuccessful"] = Successful && Notes.empty();
  if (!Notes.empty()) {
    OJson Arr = OJson::array();
    for (const auto &N : Notes)
      Arr.push_back(*N.second);
    Inv["toolExecutionNotifications"] = Arr;
  }

  OJson Run = OJson::object();
  Run["tool"] = {{"driver", Driver}};
  if (Category.has())
    Run["automationDetails"] = Category.value();
  Run["invocations"] = OJson::array({Inv});
  // Shards checked out in different directories still name their files
  // relative to %SRCROOT%; one of the roots is kept, the same one whatever
  // the order.
  if (!RootUris.empty())
    Run["originalUriBaseIds"] = OJson::parse(*RootUris.begin());
  if (Provenance.has())
    Run["versionControlProvenance"] = Provenance.value();
  Run["columnKind"] = ColumnKind.has() ? ColumnKind.value() : OJson("unicodeCodePoints");
  Run["results"] = Results;

  OJson Log = OJson::object();
  Log["$schema"] = Schema.has() ? Schema.value()
                                : OJson("https://json.schemastore.org/sarif-2.1.0.json");
  Log["version"] = "2.1.0";
  Log["runs"] = OJson::array({Run});
  return Log.dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

} // namespace

bool mergeSarifLogs(const std::vector<std::string> &Texts,
                    const std::vector<std::string> &Names, std::string &Out,
                    std::string &Error) {
  // Read in a content order too, so that which log's spelling of a shared
  // value wins (the driver template, error messages) is order-independent.
  std::vector<size_t> Order(Texts.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Texts[A], Names[A]) < std::tie(Texts[B], Names[B]);
  });
  Merger M;
  for (size_t I : Order) {
    OJson Log = OJson::parse(Texts[I], nullptr, /*allow_exceptions=*/false);
    if (Log.is_discarded()) {
      Error = Names[I] + ": not valid JSON";
      return false;
    }
    if (!M.addLog(Log, Names[I], Error))
      return false;
  }
  if (!M.HaveDriver) {
    Error = "no run to merge";
    return false;
  }
  Out = M.build();
  return true;
}

} // namespace cgt
