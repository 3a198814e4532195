#!/usr/bin/env python3
"""Compare two saved sets of raw clang-tidy outputs, finding by finding.

Each input is a folder as written by `score.py --raw-dir DIR`: one text file per
analysed source (DIR/<suite>/<file>.cu.txt) holding a `# status: ...` line and
the clang-tidy diagnostics (warnings, errors and their notes) as printed, with
paths relative to the checkout. Files are paired by their path under the folder.

A finding is a warning (or error) line, keyed by file:line:col, check and
message. For the files present on both sides, the script prints the findings
found only in A and only in B and the files whose status (ok / failed / crashed)
differs; then the files present on one side only (a difference too, unless
--only-common). With --notes, the notes under a finding present on both sides
are compared as well (a changed path explanation).

Usage:
  python3 bench/corpora/diff_findings.py /tmp/baseline/corpora /tmp/after/corpora
  python3 bench/corpora/diff_findings.py --check cudagraph-unpaired-instantiate --notes A B

Exit status: 0 when nothing differs, 1 when something does, 2 on a usage error.
"""
import argparse
import collections
import difflib
import os
import re
import sys

DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<sev>warning|error|fatal error|note): (?P<msg>.*?)"
                     r"(?: \[(?P<name>[^\]]+)\])?$")


def parse(path):
    """Returns (status, [(finding_key, [notes])]) or None when the file holds
    no status line and no diagnostic (not a raw output, e.g. summary.txt)."""
    status, findings = None, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# status:"):
                status = line[len("# status:"):].strip()
                continue
            m = DIAG_RE.match(line)
            if not m:
                continue
            if m.group("sev") == "note":
                if findings:
                    findings[-1][1].append(line)
                continue
            check = m.group("name") or ("clang-" + m.group("sev").replace(" ", "-"))
            key = ("%s:%s:%s" % (m.group("file"), m.group("line"), m.group("col")),
                   check, m.group("msg"))
            findings.append((key, []))
    if status is None and not findings:
        return None
    return status, findings


def order(key):
    """Sort key of a finding: file, then line and column as numbers."""
    loc, check, msg = key
    parts = loc.rsplit(":", 2)
    return (parts[0], int(parts[1]), int(parts[2]), check, msg)


def load(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            if not name.endswith(".txt"):
                continue
            path = os.path.join(root, name)
            parsed = parse(path)
            if parsed is not None:
                out[os.path.relpath(path, folder)] = parsed
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="folder of raw outputs (e.g. the baseline)")
    ap.add_argument("b", help="folder of raw outputs to compare with A")
    ap.add_argument("--check", action="append", default=[],
                    help="compare only findings of this check (repeatable)")
    ap.add_argument("--notes", action="store_true",
                    help="also compare the notes of findings present on both sides")
    ap.add_argument("--only-common", action="store_true",
                    help="do not count files present on one side only as a difference")
    args = ap.parse_args()
    for d in (args.a, args.b):
        if not os.path.isdir(d):
            print("error: not a folder: " + d, file=sys.stderr)
            return 2
    A, B = load(args.a), load(args.b)
    if not A and not B:
        print("error: no raw outputs in either folder", file=sys.stderr)
        return 2

    common = sorted(set(A) & set(B))
    missing_a = sorted(set(B) - set(A))   # files only in B
    missing_b = sorted(set(A) - set(B))   # files only in A
    only_a, only_b, status_diff, notes_diff = [], [], [], []

    def keep(findings):
        return [x for x in findings if not args.check or x[0][1] in args.check]

    n_a = n_b = 0
    for name in common:
        (sa, fa), (sb, fb) = A[name], B[name]
        if sa != sb:
            status_diff.append((name, sa, sb))
        fa, fb = keep(fa), keep(fb)
        n_a, n_b = n_a + len(fa), n_b + len(fb)
        ca = collections.Counter(k for k, _ in fa)
        cb = collections.Counter(k for k, _ in fb)
        for k, n in (ca - cb).items():
            only_a += [k] * n
        for k, n in (cb - ca).items():
            only_b += [k] * n
        if args.notes:
            na, nb = dict(fa), dict(fb)   # the last occurrence of each key
            for k in sorted(set(na) & set(nb), key=order):
                if na[k] != nb[k]:
                    notes_diff.append((k, na[k], nb[k]))
    only_a.sort(key=order)
    only_b.sort(key=order)

    def show(k):
        return "%s %s %s" % k

    print("A: %s\nB: %s\n%d files on both sides: %d findings in A, %d in B"
          % (args.a, args.b, len(common), n_a, n_b))
    if only_a:
        print("\nOnly in A (%d):" % len(only_a))
        for k in only_a:
            print("  " + show(k))
    if only_b:
        print("\nOnly in B (%d):" % len(only_b))
        for k in only_b:
            print("  " + show(k))
    if status_diff:
        print("\nStatus differs (%d):" % len(status_diff))
        for name, sa, sb in status_diff:
            print("  %s: %s -> %s" % (name, sa, sb))
    if notes_diff:
        print("\nNotes differ (%d):" % len(notes_diff))
        for k, na, nb in notes_diff:
            print("  " + show(k))
            for line in difflib.unified_diff(na, nb, "A", "B", lineterm="", n=0):
                if not line.startswith(("---", "+++", "@@")):
                    print("    " + line)
    if not args.only_common and (missing_a or missing_b):
        print("\nFiles on one side only (their findings are not compared):")
        for side, names, D in (("A", missing_b, A), ("B", missing_a, B)):
            for n in names:
                print("  only in %s: %s (%d findings)" % (side, n, len(keep(D[n][1]))))
    differ = bool(only_a or only_b or status_diff or notes_diff or
                  (not args.only_common and (missing_a or missing_b)))
    print("\n%s" % ("DIFFERENT" if differ else "same findings"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
