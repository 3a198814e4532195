"""Rewrites a summaries artifact's unit costs: set_costs.py IN OUT
[name=seconds ...]. Each unit whose name ends in /name gets those seconds;
with no pair the costs are removed, as in a file --export-model writes."""
import json
import sys

src, dst, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
doc = json.load(open(src))
costs = doc.pop("unitSeconds", {})
if pairs:
    given = dict(p.split("=") for p in pairs)
    doc["unitSeconds"] = {
        unit: float(given[unit.rsplit("/", 1)[-1]]) for unit in costs
    }
json.dump(doc, open(dst, "w"), indent=1, sort_keys=True)
