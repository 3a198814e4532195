#!/usr/bin/env python3
"""Validates SARIF logs written by cudagraph-tidy.

  validate_sarif.py --multitool <Sarif.Multitool> [--schema <sarif-2.1.0.json>] LOG...

1. Microsoft's SARIF Multitool, `validate --rule-kind "Gh;Sarif"`: the SARIF
   spec's rules, GitHub's ingestion rules and its own schema check. Any error
   or warning fails the log; notes are counted and named.
2. JSON-schema validation with python3-jsonschema against the 2.1.0 schema
   the Multitool package ships (default: sarif-2.1.0.json beside the binary),
   with the same leniency as GitHub's upload-sarif action (uri/uri-reference
   "format" complaints are not errors).
3. What GitHub code scanning needs and the schema cannot say: rule
   shortDescription/fullDescription/help, one primary location with a full
   region, relative URIs with uriBaseId, partialFingerprints, columnKind,
   ruleIndex pointing at the rule named by ruleId.
4. No path of the analysing machine anywhere in the log (docs/reliability.md):
   no file: URI, and no string holding an absolute path whose first two
   directories exist here (the source root, a directory outside it, /tmp).

Exits 1 and lists every problem if any log fails; a missing Multitool or
schema is an error (exit 2), never a skip.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import re
import urllib.parse

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
    if uri.startswith(("/", "file:")) or (machine_root and machine_root in uri):
        out.append("%s: absolute path of the analysing machine: %s" % (where, uri))
    if art.get("uriBaseId") not in ("%SRCROOT%", "%OUTSIDE_SRCROOT%"):
        out.append("%s: relative uri without uriBaseId %%SRCROOT%%" % where)
    if art.get("uriBaseId") == "%OUTSIDE_SRCROOT%" and "/" in uri:
        out.append("%s: a file outside the root keeps a directory: %s" % (where, uri))
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


ABSOLUTE = re.compile(r"(?:^|(?<=[\s'\"`(\[{=:,]))(/[\w.+~-]+/[\w.+~-]+)")


def path_leaks(value, where="log"):
    """Strings of the log that name a path of this machine: a file: URI, or
    an absolute path whose first two components exist here."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            # Snippets and fix-its quote the user's source, not our paths.
            if k not in ("snippet", "insertedContent"):
                out += path_leaks(v, "%s.%s" % (where, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += path_leaks(v, "%s[%d]" % (where, i))
    elif isinstance(value, str):
        if value.startswith("file:"):
            out.append("%s: file URI %s" % (where, value))
        for m in ABSOLUTE.finditer(value):
            if os.path.isdir(m.group(1)):
                out.append("%s: path of this machine %s in %r" % (where, m.group(1), value[:200]))
    return out


def message_text(result, rules):
    """A Multitool result's message: text, or its rule's template filled in."""
    msg = result["message"]
    if "text" in msg:
        return msg["text"]
    rule = rules[result["ruleIndex"]] if "ruleIndex" in result else {}
    text = rule.get("messageStrings", {}).get(msg.get("id"), {}).get("text", msg.get("id", ""))
    for i, arg in enumerate(msg.get("arguments", [])):
        text = text.replace("{%d}" % i, arg)
    return text


def multitool_findings(multitool, paths):
    """Runs the Multitool once over all logs. Returns
    ({path: [(level, rule, line)]}, [problems of the run itself])."""
    by_path = {os.path.realpath(p): p for p in paths}
    found = {p: [] for p in paths}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "validation.sarif")
        proc = subprocess.run([multitool, "validate", "--rule-kind", "Gh;Sarif",
                               "--level", "Error;Warning;Note",
                               "--output", out] + list(paths),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0 or not os.path.isfile(out):
            return found, ["Multitool exited %d: %s" % (proc.returncode, proc.stdout.strip())]
        with open(out, encoding="utf-8") as f:
            run = json.load(f)["runs"][0]
    run_problems = []
    for inv in run.get("invocations", []):
        if not inv.get("executionSuccessful", False):
            run_problems.append("Multitool: execution not successful")
        for n in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
            if n.get("level", "warning") in ("error", "warning"):
                run_problems.append("Multitool %s %s: %s" % (
                    n.get("level", "warning"), n.get("descriptor", {}).get("id", ""),
                    n["message"]["text"]))
    rules = run["tool"]["driver"].get("rules", [])
    for r in run.get("results", []):
        pl = (r.get("locations") or [{}])[0].get("physicalLocation", {})
        uri = pl.get("artifactLocation", {}).get("uri", "")
        path = urllib.parse.unquote(urllib.parse.urlparse(uri).path)
        line = "%s:%d: %s %s" % (os.path.basename(path), pl.get("region", {}).get("startLine", 0),
                                 r["ruleId"], message_text(r, rules))
        found[by_path.get(os.path.realpath(path), paths[0])].append(
            (r.get("level", "warning"), r["ruleId"], line))
    return found, run_problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--multitool", required=True)
    ap.add_argument("--schema")
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()
    schema_path = args.schema or os.path.join(os.path.dirname(args.multitool), "sarif-2.1.0.json")
    for what, path in (("SARIF Multitool", args.multitool), ("SARIF schema", schema_path)):
        if not os.path.isfile(path):
            print("error: %s not found at %s (scripts/setup.sh installs it into the "
                  "build tree)" % (what, path))
            return 2
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    multitool, run_problems = multitool_findings(args.multitool, args.logs)
    for p in run_problems:
        print("error: " + p)
    bad = bool(run_problems)
    for path in args.logs:
        levels = collections.Counter(level for level, _, _ in multitool[path])
        problems = ["Multitool %s: %s" % (level, line) for level, _, line in multitool[path]
                    if level in ("error", "warning")]
        try:
            with open(path, encoding="utf-8") as f:
                log = json.load(f)
            problems += schema_errors(log, schema) + github_problems(log) + path_leaks(log)
        except ValueError as e:
            problems.append("not JSON: %s" % e)
        notes = collections.Counter(rule for level, rule, _ in multitool[path] if level == "note")
        print("%s: %s (Multitool: %d errors, %d warnings, %d notes%s)" % (
            path, "INVALID" if problems else "valid", levels["error"], levels["warning"],
            levels["note"], ": " + ", ".join("%s x%d" % kv for kv in sorted(notes.items()))
            if notes else ""))
        for p in problems:
            print("  - " + p)
        bad |= bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
