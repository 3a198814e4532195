#!/usr/bin/env python3
"""Assertions about cudagraph-tidy Code Climate (GitLab Code Quality) reports
for the lit tests.

  codeclimate_tool.py validate SCHEMA REPORT...   valid against GitLab's
                                                  fields; fingerprints unique
  codeclimate_tool.py match-sarif REPORT LOG      one issue per SARIF result:
                                                  same check, path, line,
                                                  message and fingerprint
  codeclimate_tool.py stable REPORT_A REPORT_B N  same fingerprints; B's lines
                                                  are A's + N
  codeclimate_tool.py summary REPORT              one line per issue, for
                                                  FileCheck

Each assertion prints what differs and exits 1 when it fails.
"""
import json
import sys

import jsonschema


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def validate(schema_path, reports):
    schema = load(schema_path)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    ok = True
    for path in reports:
        report = load(path)
        for err in validator.iter_errors(report):
            print("FAIL: %s: %s at %s" % (path, err.message, list(err.absolute_path)))
            ok = False
        prints = [i.get("fingerprint") for i in report if isinstance(i, dict)]
        dupes = sorted({p for p in prints if prints.count(p) > 1})
        if dupes:
            # GitLab shows only the first issue of a fingerprint.
            print("FAIL: %s: fingerprints not unique: %s" % (path, dupes))
            ok = False
    return ok


def sarif_results(log):
    out = []
    for r in log["runs"][0].get("results", []):
        loc = r["locations"][0]["physicalLocation"]
        out.append({"check_name": r["ruleId"],
                    "path": loc["artifactLocation"]["uri"],
                    "line": loc["region"]["startLine"],
                    "description": r["message"]["text"],
                    "fingerprint": r["partialFingerprints"]["cudagraph/v1"]})
    return out


def issue_key(i):
    return {"check_name": i["check_name"], "path": i["location"]["path"],
            "line": i["location"]["lines"]["begin"],
            "description": i["description"], "fingerprint": i["fingerprint"]}


def match_sarif(report_path, log_path):
    issues = [issue_key(i) for i in load(report_path)]
    results = sarif_results(load(log_path))
    if not results:
        print("FAIL: the SARIF log has no results to compare with")
        return False
    if issues != results:
        print("FAIL: issues differ from the SARIF results")
        for a, b in zip(issues + [None] * len(results), results + [None] * len(issues)):
            if a != b:
                print("  codeclimate:", a)
                print("  sarif:      ", b)
        return False
    return True


def stable(a_path, b_path, shift):
    a, b = load(a_path), load(b_path)
    if not a or len(a) != len(b):
        print("FAIL: %d issues before, %d after" % (len(a), len(b)))
        return False
    ok = True
    for x, y in zip(a, b):
        if x["fingerprint"] != y["fingerprint"]:
            print("FAIL: fingerprint changed: %s -> %s" % (x["fingerprint"], y["fingerprint"]))
            ok = False
        if y["location"]["lines"]["begin"] != x["location"]["lines"]["begin"] + shift:
            print("FAIL: line %d is not %d + %d" % (y["location"]["lines"]["begin"],
                                                    x["location"]["lines"]["begin"], shift))
            ok = False
    return ok


def summary(path):
    for i in load(path):
        loc = i["location"]
        print("%s %s:%d-%d %s %s" % (i["severity"], loc["path"], loc["lines"]["begin"],
                                     loc["lines"]["end"], i["check_name"],
                                     ",".join(i.get("categories", []))))
    return True


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "validate":
        ok = validate(args[0], args[1:])
    elif cmd == "match-sarif":
        ok = match_sarif(args[0], args[1])
    elif cmd == "stable":
        ok = stable(args[0], args[1], int(args[2]))
    elif cmd == "summary":
        ok = summary(args[0])
    else:
        print("unknown command " + cmd)
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
