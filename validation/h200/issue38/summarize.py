# One line per kernel from compute-sanitizer's racecheck (hazard report) and
# synccheck outputs: hazards by severity and kind, the source lines of the two
# accesses, and synccheck's error kinds with their lines.
import re, sys, glob, os, collections
outdir = sys.argv[1]
for log in sorted(glob.glob(os.path.join(outdir, 'raw', '*.racecheck'))):
    base = log[:-len('.racecheck')]
    name = os.path.basename(base)
    sev = collections.Counter(); pairs = collections.Counter()
    lines = open(log, errors='replace').read().split('\n')
    for i, l in enumerate(lines):
        m = re.match(r'=+ (Error|Warning|Info): Potential (\w+) hazard', l)
        if not m:
            continue
        sev[m.group(1) + ' ' + m.group(2)] += 1
        acc = []
        for j in (i + 1, i + 2):
            if j < len(lines):
                a = re.search(r'(Write|Read) Thread \(([0-9,]+)\).* in [^ ]*?([\w.-]+\.cu):(\d+)', lines[j])
                if a:
                    acc.append('%s:%s' % (a.group(1)[0], a.group(4)))
        pairs['/'.join(sorted(acc))] += 1
    sync = collections.Counter()
    sl = open(base + '.synccheck', errors='replace').read().split('\n')
    for i, l in enumerate(sl):
        m = re.search(r'(Barrier error detected\. .*|Invalid .*)$', l)
        if m and '=====' in l:
            at = re.search(r':(\d+)\s*$', sl[i + 1]) if i + 1 < len(sl) else None
            sync[m.group(1).strip() + (' @' + at.group(1) if at else '')] += 1
    summary = re.findall(r'ERROR SUMMARY: (\d+)', open(log, errors='replace').read())
    plain = open(base + '.plain', errors='replace').read().strip().replace('\n', ' ')
    print('%s | racecheck %s: %s | lines %s | synccheck: %s | run: %s' % (
        name, summary[-1] if summary else '?', dict(sev), dict(pairs.most_common(6)),
        dict(sync) if sync else 'clean', plain))
