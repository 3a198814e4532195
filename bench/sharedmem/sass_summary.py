#!/usr/bin/env python3
"""Counts shared-memory SASS instructions (LDS*, STS*) per kernel in
`cuobjdump -sass` output, so access widths can be checked against the
element sizes the analyser assumed."""
import collections
import re
import sys

fn = None
counts = collections.OrderedDict()
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Function : (\S+)", line)
    if m:
        fn = m.group(1)
        counts.setdefault(fn, collections.Counter())
        continue
    if fn:
        for op in re.findall(r"\b((?:LDS|STS)(?:\.[A-Z0-9]+)*)\b", line):
            counts[fn][op] += 1
for fn, c in counts.items():
    print(fn, " ".join("%s:%d" % kv for kv in sorted(c.items())))
