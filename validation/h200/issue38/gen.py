# Writes a harness per lit test: main(argv[1]) launches that one kernel as the
# test's launchAll does (or an extra launch listed below), so a sanitizer error
# in one kernel cannot hide the others.
import re, sys
def gen(test, out, decls, extra):
    src = open(test).read()
    body = src[src.index('void launchAll('):]
    launches = re.findall(r'^\s*((\w+)<<<[^;]*;)', body, re.M)
    launches += [(l, re.match(r'(\w+)<<<', l).group(1) + '@' + str(i)) for i, l in enumerate(extra)]
    lines = ['#include "%s"' % test, '#include <cstdio>', '#include <cstring>', decls,
             'int main(int argc, char **argv) {', '  const char *k = argv[1];',
             '  float *in, *out, *d; int *iout, *idx; int n = N_VALUE;',
             '  cudaMalloc(&in, 1 << 22); cudaMalloc(&out, 1 << 22); cudaMalloc(&iout, 1 << 22);',
             '  cudaMalloc(&idx, 1 << 22); d = out; cudaMemset(in, 0, 1 << 22);',
             '  static int h[4096]; for (int i = 0; i < 4096; ++i) h[i] = i % 256;',
             '  cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice);']
    names = []
    for launch, name in launches:
        names.append(name)
        lines.append('  if (!strcmp(k, "%s")) { %s }' % (name, launch))
    lines += ['  cudaError_t e = cudaDeviceSynchronize();',
              '  printf("%s: %s\\n", k, cudaGetErrorString(e));', '  return 0;', '}']
    open(out, 'w').write('\n'.join(lines) + '\n')
    open(out + '.names', 'w').write('\n'.join(names) + '\n')
gen('../../../test/checkers/cudagraph-shared-race.cu', 'race_main.cu',
    '__device__ __noinline__ void fillSomehow(float *s, int i) { s[i] = 1.0f; }\n#define N_VALUE 3',
    ['unlaunchedNeighbour<<<1, 64>>>(in, out);', 'unlaunchedNeighbour<<<1, 256>>>(in, out);',
     'unlaunchedShapeDependent<<<1, 64>>>(in, out);', 'unlaunchedShapeDependent<<<1, 1024>>>(in, out);'])
gen('../../../test/checkers/cudagraph-barrier-divergence.cu', 'div_main.cu', '#define N_VALUE 1000',
    ['unlaunchedFirstWarp<<<1, 64>>>(d);', 'unlaunchedFirstWarp<<<1, 256>>>(d);',
     'unlaunchedHalfBlock<<<1, 64>>>(d);', 'undecided<<<1, N>>>(d, 100);'])
gen('../../../test/checkers/cudagraph-barrier-divergence-aligned.cu', 'aligned_main.cu',
    '#define N_VALUE 1000', [])
