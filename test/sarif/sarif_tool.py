#!/usr/bin/env python3
"""Assertions about cudagraph-tidy SARIF logs for the lit tests.

  sarif_tool.py match-text LOG TEXT     results == text findings, one for one,
                                        and every snippet == its region's text
  sarif_tool.py stable LOG_A LOG_B N    same fingerprints; B's lines are A's + N
  sarif_tool.py states LOG new=N unchanged=M
  sarif_tool.py summary LOG             one line per result, for FileCheck
  sarif_tool.py provenance LOG          the run's versionControlProvenance
  sarif_tool.py insert FILE LINE TEXT   inserts TEXT (\\n-separated) before LINE

Each assertion prints what differs and exits 1 when it fails.
"""
import json
import os
import re
import sys

FINDING = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>warning|error|note): (?P<msg>.*)$")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def results(log):
    return log["runs"][0].get("results", [])


def code_point_column(path, line, byte_col):
    with open(path, "rb") as f:
        text = f.read().split(b"\n")[line - 1]
    return len(text[:byte_col - 1].decode("utf-8")) + 1


def text_findings(path):
    """[(file, line, col, level, message, check, [(file, line, col, msg)])]"""
    out = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            m = FINDING.match(raw.rstrip("\n"))
            if not m:
                continue
            if m.group("kind") == "note":
                out[-1][6].append((m.group("file"), int(m.group("line")),
                                   int(m.group("col")), m.group("msg")))
                continue
            msg, check = re.match(r"^(.*) \[([^\]]+)\]$", m.group("msg")).groups()
            out.append((m.group("file"), int(m.group("line")), int(m.group("col")),
                        m.group("kind"), msg, check, []))
    return out


def region_text(path, region):
    """The source text a region covers (code-point columns, end exclusive)."""
    with open(path, encoding="utf-8", newline="") as f:
        lines = [l.rstrip("\r") for l in f.read().split("\n")]
    first, last = region["startLine"], region["endLine"]
    parts = []
    for n in range(first, last + 1):
        text = lines[n - 1] if n <= len(lines) else ""
        start = region["startColumn"] - 1 if n == first else 0
        end = region["endColumn"] - 1 if n == last else len(text)
        parts.append(text[start:end])
    return "\n".join(parts)


def snippet_problems(where, path, region):
    got = region.get("snippet", {}).get("text")
    want = region_text(path, region)
    return [] if got == want else ["%s: snippet %r, region text %r" % (where, got, want)]


def phys(loc):
    pl = loc["physicalLocation"]
    return pl["artifactLocation"]["uri"], pl["region"]


def match_text(log_path, text_path):
    res = results(load(log_path))
    found = text_findings(text_path)
    problems = []
    if len(res) != len(found):
        problems.append("%d SARIF results, %d text findings" % (len(res), len(found)))
    for r, t in zip(res, found):
        file, line, col, level, msg, check, notes = t
        uri, region = phys(r["locations"][0])
        want_col = code_point_column(file, line, col)
        got = (uri, region["startLine"], region["startColumn"], r["level"],
               r["message"]["text"], r["ruleId"])
        want = (os.path.relpath(os.path.realpath(file), SRCROOT) if SRCROOT else uri,
                line, want_col, level, msg, check)
        if got != want:
            problems.append("result %s != text %s" % (got, want))
        problems += snippet_problems(msg, file, region)
        related = r.get("relatedLocations", [])
        flow = r.get("codeFlows", [{}])[0].get("threadFlows", [{}])[0].get("locations", [])
        if len(related) != len(notes):
            problems.append("%s: %d relatedLocations, %d notes" % (msg, len(related), len(notes)))
        for i, (rel, note) in enumerate(zip(related, notes)):
            ruri, rregion = phys(rel)
            if (rel["id"], rregion["startLine"], rel["message"]["text"]) != (i + 1, note[1], note[3]):
                problems.append("related %d %s != note %s" % (i, rel, note))
            problems += snippet_problems("note %r" % note[3], note[0], rregion)
            if not flow or flow[i]["location"]["message"]["text"] != note[3]:
                problems.append("codeFlow step %d does not walk note %r" % (i, note[3]))
        if notes and flow[-1]["location"]["message"]["text"] != msg:
            problems.append("codeFlow does not end at the finding")
    return problems


def stable(a_path, b_path, shift):
    a, b = results(load(a_path)), results(load(b_path))
    problems = []
    if len(a) != len(b):
        return ["%d results before, %d after" % (len(a), len(b))]
    for ra, rb in zip(a, b):
        fa = ra["partialFingerprints"]["cudagraph/v1"]
        fb = rb["partialFingerprints"]["cudagraph/v1"]
        la = phys(ra["locations"][0])[1]["startLine"]
        lb = phys(rb["locations"][0])[1]["startLine"]
        if fa != fb:
            problems.append("fingerprint changed: %s -> %s (line %d -> %d)" % (fa, fb, la, lb))
        if lb != la + shift:
            problems.append("line %d -> %d, expected a shift of %d" % (la, lb, shift))
    prints = [r["partialFingerprints"]["cudagraph/v1"] for r in a]
    if len(set(prints)) != len(prints):
        problems.append("fingerprints are not unique: %s" % prints)
    return problems


def states(log_path, expected):
    got = {}
    for r in results(load(log_path)):
        got[r.get("baselineState", "<none>")] = got.get(r.get("baselineState", "<none>"), 0) + 1
    want = {}
    for e in expected:
        k, v = e.split("=")
        if int(v):
            want[k] = int(v)
    return [] if got == want else ["baselineState counts %s, expected %s" % (got, want)]


def summary(log_path):
    log = load(log_path)
    run = log["runs"][0]
    inv = run["invocations"][0]
    print("executionSuccessful=%s" % str(inv["executionSuccessful"]).lower())
    for n in inv.get("toolExecutionNotifications", []):
        uri = n.get("locations", [{}])[0].get("physicalLocation", {}).get(
            "artifactLocation", {}).get("uri", "")
        print("notification %s %s %s: %s" % (n["level"], n["descriptor"]["id"], uri,
                                             n["message"]["text"]))
    rules = run["tool"]["driver"]["rules"]
    print("rules=%s" % ",".join(r["id"] for r in rules))
    for r in run.get("results", []):
        uri, region = phys(r["locations"][0])
        print("result %s %s %s:%d:%d-%d:%d %s fixes=%d related=%d state=%s snippet=%s" % (
            r["ruleId"], r["level"], uri, region["startLine"], region["startColumn"],
            region["endLine"], region["endColumn"], r["message"]["text"],
            len(r.get("fixes", [])), len(r.get("relatedLocations", [])),
            r.get("baselineState", "-"), json.dumps(region.get("snippet", {}).get("text"),
                                                    ensure_ascii=False)))
    return []


def provenance(log_path):
    for v in load(log_path)["runs"][0].get("versionControlProvenance", []):
        print("provenance uri=%s revision=%s branch=%s mappedTo=%s" % (
            v["repositoryUri"], v["revisionId"], v.get("branch", "-"),
            v.get("mappedTo", {}).get("uriBaseId", "-")))
    return []


def insert(path, line, text):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    lines[line - 1:line - 1] = text.split("\\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return []


SRCROOT = os.environ.get("SARIF_ROOT")


def main(argv):
    cmd = argv[1]
    if cmd == "match-text":
        problems = match_text(argv[2], argv[3])
    elif cmd == "stable":
        problems = stable(argv[2], argv[3], int(argv[4]))
    elif cmd == "states":
        problems = states(argv[2], argv[3:])
    elif cmd == "summary":
        problems = summary(argv[2])
    elif cmd == "provenance":
        problems = provenance(argv[2])
    elif cmd == "insert":
        problems = insert(argv[2], int(argv[3]), argv[4])
    else:
        print("unknown command " + cmd)
        return 2
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
