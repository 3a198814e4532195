#!/usr/bin/env python3
"""Joins the analyser's predictions (predict.cpp, JSON lines) with ncu's
per-launch metrics and compute-sanitizer's memcheck counts (run_gpu.sh) and
prints the markdown tables of docs/validation.md.

  compare.py predictions.jsonl RESULTS_DIR
"""
import csv
import json
import os
import re
import sys

WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"
BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum"


def ncu_metrics(path):
    per = {}
    hdr = None
    for row in csv.reader(open(path)):
        if "Metric Name" in row:
            hdr = row
            continue
        if not hdr or len(row) != len(hdr):
            continue
        d = dict(zip(hdr, row))
        name = d["Kernel Name"].split("(")[0]
        per.setdefault(name, {})[d["Metric Name"]] = int(d["Metric Value"].replace(",", ""))
    return per


def main():
    preds = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
    res = sys.argv[2]
    meas = ncu_metrics(os.path.join(res, "ncu.csv"))
    sass = {}
    for line in open(os.path.join(res, "sass.txt")):
        parts = line.split(None, 1)
        m = re.match(r"_Z\d+(\w+?)P", parts[0])
        if m:
            n = parts[0]
            k = re.sub(r"^_Z\d+", "", n)
            for p in preds:
                if k.startswith(p["kernel"]) and len(p["kernel"]) == int(re.match(r"_Z(\d+)", n).group(1)):
                    sass[p["kernel"]] = parts[1].strip() if len(parts) > 1 else ""
    print("| kernel | block | SASS | ld wavefronts pred / meas | st wavefronts pred / meas "
          "| ld conflicts pred / meas | st conflicts pred / meas | match |")
    print("|---|---|---|---|---|---|---|---|")
    ok = total = 0
    for p in preds:
        k = p["kernel"]
        if k not in meas:
            continue
        m = meas[k]
        cells = []
        good = True
        for key, metric in (("ld_wf", WF % "ld"), ("st_wf", WF % "st"),
                            ("ld_excess", BC % "ld"), ("st_excess", BC % "st")):
            cells.append("%d / %d" % (p[key], m.get(metric, -1)))
            good &= p[key] == m.get(metric, -1)
        total += 1
        ok += good
        print("| %s | %s | %s | %s | %s |" % (k, "x".join(map(str, p["block"])),
                                           sass.get(k, ""), " | ".join(cells),
                                           "yes" if good else "**no**"))
    print("\n%d of %d launches match on all four counters.\n" % (ok, total))

    print("| kernel | predicted overflow threads / thread-accesses | memcheck errors | plain run |")
    print("|---|---|---|---|")
    mc = {}
    for line in open(os.path.join(res, "memcheck.txt")):
        m = re.match(r"(o_\w+) errors=(\d+) plain=\[[^:]*: ([^\]]*)\]", line)
        if m:
            mc[m.group(1)] = (int(m.group(2)), m.group(3))
    for p in preds:
        k = p["kernel"]
        if k in mc:
            print("| %s | %d / %d | %d | %s |" % (k, p["oob_threads"], p["oob_accesses"],
                                               mc[k][0], mc[k][1]))


if __name__ == "__main__":
    main()
