#!/usr/bin/env python3
"""Validates SARIF logs written by cudagraph-tidy.

  validate_sarif.py --schema <sarif-schema-2.1.0.json> LOG...

1. JSON-schema validation against the official OASIS 2.1.0 schema, with the
   same leniency as GitHub's upload-sarif action (uri/uri-reference "format"
   complaints are not errors).
2. What GitHub code scanning needs and the schema cannot say: rule
   shortDescription/fullDescription/help, one primary location with a full
   region, relative URIs with uriBaseId, partialFingerprints, no absolute
   path of the analysing machine in results, columnKind, ruleIndex pointing
   at the rule named by ruleId.

Exits 1 and lists every problem if any log fails; a missing schema is an
error (exit 2), never a skip.
"""
import argparse
import json
import os
import sys

import jsonschema


def schema_errors(log, schema):
    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema, format_checker=validator_cls.FORMAT_CHECKER)
    out = []
    for e in validator.iter_errors(log):
        if e.validator == "format" and e.validator_value in ("uri", "uri-reference"):
            continue
        out.append("schema: %s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message))
    return out


def region_problems(where, region):
    out = []
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        if not isinstance(region.get(key), int) or region[key] < 1:
            out.append("%s: region.%s missing or < 1" % (where, key))
    if not out and (region["endLine"], region["endColumn"]) < (region["startLine"], region["startColumn"]):
        out.append("%s: region ends before it starts" % where)
    return out


def location_problems(where, loc, machine_root):
    out = []
    pl = loc.get("physicalLocation")
    if pl is None:
        return ["%s: no physicalLocation" % where]
    art = pl.get("artifactLocation", {})
    uri = art.get("uri", "")
    if not uri:
        out.append("%s: empty uri" % where)
    if uri.startswith("/") or (machine_root and machine_root in uri):
        out.append("%s: absolute path of the analysing machine: %s" % (where, uri))
    if not uri.startswith("file:") and art.get("uriBaseId") != "%SRCROOT%":
        out.append("%s: relative uri without uriBaseId %%SRCROOT%%" % where)
    out += region_problems(where, pl.get("region", {}))
    return out


def github_problems(log):
    out = []
    if log.get("version") != "2.1.0":
        out.append("version is not 2.1.0")
    for ri, run in enumerate(log.get("runs", [])):
        driver = run["tool"]["driver"]
        for key in ("name", "version", "semanticVersion", "informationUri"):
            if not driver.get(key):
                out.append("run %d: tool.driver.%s missing" % (ri, key))
        rules = driver.get("rules", [])
        for r in rules:
            for key in ("shortDescription", "fullDescription"):
                if not r.get(key, {}).get("text"):
                    out.append("rule %s: %s.text missing" % (r.get("id"), key))
            if not r.get("help", {}).get("text") or not r.get("help", {}).get("markdown"):
                out.append("rule %s: help text/markdown missing" % r.get("id"))
            if r.get("name") == r.get("id"):
                out.append("rule %s: name equals id" % r.get("id"))
            props = r.get("properties", {})
            if not props.get("tags") or not props.get("precision") or not props.get("problem.severity"):
                out.append("rule %s: properties tags/precision/problem.severity missing" % r.get("id"))
            if not r.get("defaultConfiguration", {}).get("level"):
                out.append("rule %s: defaultConfiguration.level missing" % r.get("id"))
        invocations = run.get("invocations", [])
        if len(invocations) != 1 or "executionSuccessful" not in invocations[0]:
            out.append("run %d: needs exactly one invocation with executionSuccessful" % ri)
        base = run.get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri", "")
        machine_root = base[len("file://"):].rstrip("/") if base.startswith("file://") else ""
        if machine_root == "":
            machine_root = None
        results = run.get("results", [])
        if results and run.get("columnKind") != "unicodeCodePoints":
            out.append("run %d: columnKind must be unicodeCodePoints" % ri)
        for i, res in enumerate(results):
            where = "run %d result %d" % (ri, i)
            if not res.get("message", {}).get("text"):
                out.append("%s: empty message" % where)
            idx = res.get("ruleIndex")
            if idx is None or idx >= len(rules) or rules[idx]["id"] != res.get("ruleId"):
                out.append("%s: ruleIndex does not point at ruleId %s" % (where, res.get("ruleId")))
            locs = res.get("locations", [])
            if len(locs) != 1:
                out.append("%s: %d locations, expected exactly 1" % (where, len(locs)))
            for loc in locs:
                out += location_problems(where, loc, machine_root)
            for j, rel in enumerate(res.get("relatedLocations", [])):
                if "physicalLocation" in rel:
                    out += location_problems("%s related %d" % (where, j), rel, machine_root)
            fp = res.get("partialFingerprints", {}).get("cudagraph/v1")
            if not fp:
                out.append("%s: no partialFingerprints cudagraph/v1" % where)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()
    if not os.path.isfile(args.schema):
        print("error: SARIF schema not found at %s (it belongs in ../shared/sarif/ "
              "next to the source tree)" % args.schema)
        return 2
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    bad = 0
    for path in args.logs:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        problems = schema_errors(log, schema) + github_problems(log)
        print("%s: %s" % (path, "INVALID" if problems else "valid"))
        for p in problems:
            print("  - " + p)
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
