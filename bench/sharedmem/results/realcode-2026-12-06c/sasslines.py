import re, sys, collections
# usage: sasslines.py FILE.sass FUNC_REGEX FILE_SUBSTR  -> shared ld/st SASS per function per source line
fn = None; loc = '?'; cnt = collections.OrderedDict()
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r'\s*\.text\.(\S+):', line) or re.match(r'\s*(?:\.global|\.weak)?\s*\.type\s+(\S+),\s*@function', line)
    if m:
        fn = m.group(1); loc = '?'; continue
    m = re.search(r'File "([^"]+)", line (\d+)', line)
    if m:
        loc = m.group(1).split('/')[-1] + ':' + m.group(2); continue
    m = re.search(r'/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)', line)
    if m and fn and re.search(sys.argv[2], fn):
        op = m.group(1)
        if op.split('.')[0] in ('LDS', 'STS', 'LDSM', 'ATOMS', 'STSM'):
            if len(sys.argv) < 4 or sys.argv[3] in loc:
                d = cnt.setdefault(fn, collections.OrderedDict())
                d[op + ' @' + loc] = d.get(op + ' @' + loc, 0) + 1
for f, d in cnt.items():
    print(f)
    for k, v in d.items():
        print('   %-55s %d' % (k, v))
