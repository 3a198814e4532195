#!/usr/bin/env python3
"""Generate a labelled blind corpus for cudagraph-shared-index-overflow.

Each generated kernel writes a __shared__ array through one index pattern
and is launched through one launch form with a random block shape (and, for
dynamic arrays, a random dynamic size in bytes). The label follows from
arithmetic alone: the access overflows iff the largest index some thread
reaches is >= the array's extent. The analyser is never consulted, so the
corpus tests launch forms, shapes and sizes nobody tuned on.

  python3 bench/sharedmem/gen_blind.py --seed 7 --files 12 --out /tmp/blind
  python3 bench/corpora/score.py --build build /tmp/blind --checks cudagraph-shared-index-overflow

Index patterns (max index reached, from arithmetic):
  linear      s[tx + ty*bx]                    bx*by - 1
  strided     s[(tx + ty*bx) * k]              (bx*by - 1) * k
  neighbour   s[tx + ty*bx + 1]                bx*by
  mask        s[data[i] & M]                   M            (data arbitrary)
  modulo      s[data[i] % M] (unsigned data)   M - 1
  byte        s[(unsigned char)data[i]]        never labelled: a type bound proves
                                               bounds but is only a "possible" overflow
  loop        for (i = 0; i < L; ++i) s[i]     L - 1        (thread 0 only)
  guarded     if (gx < n) s[tx + ty*bx]        bx*by - 1    (interior blocks)
Launch forms: <<<>>> named, function-pointer variable, wrapper template with
kernel and shape parameters, template launcher with the shape as template
argument, cudaLaunchKernel, cudaLaunchKernelEx, cuLaunchKernel through
cudaGetFuncBySymbol, a kernel node, a launch-config struct whose block size
is an array field written by element (GROMACS's launchGpuKernel), a kernel
pointer returned by a selector function, a class keeping the kernel and the
launch-config struct in private members set by its constructor. The last
three were added on 2026-12-06: a seed gives a different corpus since.
"""
import argparse
import os
import random

CHECK = "cudagraph-shared-index-overflow"
SHAPES = [(32, 1), (64, 1), (96, 1), (128, 1), (160, 1), (192, 1), (256, 1),
          (384, 1), (512, 1), (1024, 1), (16, 4), (16, 8), (16, 16), (32, 2),
          (32, 4), (32, 8), (32, 16), (8, 8), (64, 4), (24, 5), (48, 3)]
FORMS = ["named", "pointer", "wrapper", "template", "runtime", "ex", "driver", "node",
         "config", "selector", "member"]
PATTERNS = ["linear", "strided", "neighbour", "mask", "modulo", "byte", "loop",
            "guarded", "dynamic"]


def kernel(name, pattern, extent, rng):
    """Returns (source lines, index of the access line, max index, dyn elems)."""
    L = []
    t = "unsigned t = threadIdx.x + threadIdx.y * blockDim.x;"
    if pattern == "dynamic":
        L += [f"__global__ void {name}(const unsigned *data, float *g, int n) {{",
              "  extern __shared__ float s[];", f"  {t}"]
        L.append("  s[t] = g[t];")
        return L, len(L) - 1
    L += [f"__global__ void {name}(const unsigned *data, float *g, int n) {{",
          f"  __shared__ float s[{extent}];", f"  {t}"]
    if pattern == "linear":
        L.append("  s[t] = g[t];")
    elif pattern == "strided":
        L.append(f"  s[t * {rng.choice([2, 3, 4])}] = g[t];")
    elif pattern == "neighbour":
        L.append("  s[t + 1] = g[t];")
    elif pattern == "mask":
        L.append(f"  s[data[t] & {rng.choice([15, 31, 63, 127, 255])}] = g[t];")
    elif pattern == "modulo":
        L.append(f"  s[data[t] % {rng.choice([16, 32, 50, 64, 100, 128, 300])}] = g[t];")
    elif pattern == "byte":
        L.append("  s[(unsigned char)data[t]] = g[t];")
    elif pattern == "loop":
        L.append("  if (t == 0)")
        L.append(f"    for (int i = 0; i < {rng.choice([70, 100, 150, 200, 300, 600])}; ++i)")
        L.append("      s[i] = g[i];")
    elif pattern == "guarded":
        L.append("  unsigned gx = blockIdx.x * blockDim.x * blockDim.y + t;")
        L.append("  if (gx < n)")
        L.append("    s[t] = g[gx];")
    return L, len(L) - 1


def max_index(line, pattern, shape):
    bx, by = shape
    n = bx * by
    if pattern in ("linear", "guarded", "dynamic"):
        return n - 1
    if pattern == "strided":
        k = int(line.split("* ")[1].split("]")[0])
        return (n - 1) * k
    if pattern == "neighbour":
        return n
    if pattern == "mask":
        return int(line.split("& ")[1].split("]")[0])
    if pattern == "modulo":
        return int(line.split("% ")[1].split("]")[0]) - 1
    if pattern == "byte":
        return 255
    if pattern == "loop":
        return None  # from the loop line


def launch(name, form, shape, dyn_bytes, idx):
    bx, by = shape
    blk = f"dim3({bx}, {by})"
    smem = str(dyn_bytes) if dyn_bytes is not None else "0"
    args = "data, g, n"
    if form == "named":
        return [f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                f"  {name}<<<8, {blk}, {smem}>>>({args});", "}"]
    if form == "pointer":
        return [f"void run_{idx}(const unsigned *data, float *g, int n, int which) {{",
                "  void (*k)(const unsigned *, float *, int) = nullptr;",
                f"  if (which > 0) k = &{name};",
                f"  dim3 threads({bx}, {by});",
                f"  k<<<8, threads, {smem}>>>({args});", "}"]
    if form == "wrapper":
        return [f"template <typename K> static void wrap_{idx}(K k, dim3 b, size_t sm, const unsigned *data, float *g, int n) {{",
                f"  k<<<8, b, sm>>>({args});", "}",
                f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                f"  wrap_{idx}({name}, {blk}, {smem}, {args});", "}"]
    if form == "template":
        return [f"template <int BX, int BY> static void tl_{idx}(const unsigned *data, float *g, int n) {{",
                f"  constexpr int bx = BX;", f"  {name}<<<8, dim3(bx, BY), {smem}>>>({args});", "}",
                f"void run_{idx}(const unsigned *data, float *g, int n) {{ tl_{idx}<{bx}, {by}>({args}); }}"]
    if form == "runtime":
        return [f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                "  void *a[] = {&data, &g, &n};",
                f"  cudaLaunchKernel((const void *){name}, dim3(8), {blk}, a, {smem}, 0);", "}"]
    if form == "ex":
        return [f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                "  cudaLaunchConfig_t c = {};", "  c.gridDim = dim3(8);",
                f"  c.blockDim = {blk};", f"  c.dynamicSmemBytes = {smem};",
                f"  cudaLaunchKernelEx(&c, {name}, {args});", "}"]
    if form == "driver":
        return [f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                "  void *a[] = {&data, &g, &n};", "  CUfunction f;",
                f"  cudaGetFuncBySymbol(&f, (const void *){name});",
                f"  cuLaunchKernel(f, 8, 1, 1, {bx}, {by}, 1, {smem}, 0, a, nullptr);", "}"]
    if form == "node":
        return [f"void run_{idx}(cudaGraph_t gr, const unsigned *data, float *g, int n) {{",
                "  void *a[] = {&data, &g, &n};", "  cudaGraphNode_t nd;",
                "  cudaKernelNodeParams p = {};", f"  p.func = (void *){name};",
                "  p.gridDim = dim3(8);", f"  p.blockDim = {blk};",
                f"  p.sharedMemBytes = {smem};", "  p.kernelParams = a;",
                "  cudaGraphAddKernelNode(&nd, gr, nullptr, 0, &p);", "}"]
    if form == "config":
        dims = [f"  c.blockSize[0] = {bx};"] + ([f"  c.blockSize[1] = {by};"] if by != 1 else [])
        return [f"struct Cfg_{idx} {{", "  size_t gridSize[3] = {1, 1, 1};",
                "  size_t blockSize[3] = {1, 1, 1};", "  size_t sharedMemorySize = 0;", "};",
                "template <typename... Args>",
                f"static void launch_{idx}(void (*k)(Args...), const Cfg_{idx} &c, Args... args) {{",
                "  void *a[] = {&args...};",
                "  dim3 b(c.blockSize[0], c.blockSize[1], c.blockSize[2]);",
                "  cudaLaunchKernel((const void *)k, dim3(c.gridSize[0]), b, a, c.sharedMemorySize, 0);", "}",
                f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                f"  Cfg_{idx} c;", "  c.gridSize[0] = 8;"] + dims + [
                f"  c.sharedMemorySize = {smem};",
                f"  launch_{idx}({name}, c, {args});", "}"]
    if form == "member":
        dims = [f"    cfg_.blockSize[0] = {bx};"] + ([f"    cfg_.blockSize[1] = {by};"] if by != 1 else [])
        return [f"struct MCfg_{idx} {{", "  size_t blockSize[3] = {1, 1, 1};",
                "  size_t sharedMemorySize = 0;", "};",
                f"class Launcher_{idx} {{", "public:",
                f"  Launcher_{idx}() : kernel_({name}) {{"] + dims + [
                f"    cfg_.sharedMemorySize = {smem};", "  }",
                "  void run(const unsigned *data, float *g, int n) {",
                "    void *a[] = {&data, &g, &n};",
                "    dim3 b(cfg_.blockSize[0], cfg_.blockSize[1], cfg_.blockSize[2]);",
                "    cudaLaunchKernel((const void *)kernel_, dim3(8), b, a, cfg_.sharedMemorySize, 0);",
                "  }", "private:",
                "  void (*kernel_)(const unsigned *, float *, int);",
                f"  MCfg_{idx} cfg_;", "};",
                f"void run_{idx}(const unsigned *data, float *g, int n) {{ Launcher_{idx}().run({args}); }}"]
    if form == "selector":
        return [f"using Fn_{idx} = void (*)(const unsigned *, float *, int);",
                f"static Fn_{idx} select_{idx}(bool fast) {{",
                f"  Fn_{idx} k = &{name};", f"  if (fast) k = {name};", "  return k;", "}",
                f"void run_{idx}(const unsigned *data, float *g, int n) {{",
                f"  auto k = select_{idx}(n > 0);",
                f"  k<<<8, {blk}, {smem}>>>({args});", "}"]
    raise ValueError(form)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--kernels", type=int, default=8, help="kernels per file")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    total = pos = 0
    for f in range(a.files):
        out = ["// Generated by bench/sharedmem/gen_blind.py --seed %d; labels from arithmetic." % a.seed,
               "#include <cuda.h>", "#include <cuda_runtime.h>", ""]
        for k in range(a.kernels):
            name = f"k{f}_{k}"
            shape = rng.choice(SHAPES)
            form = rng.choice(FORMS)
            pattern = rng.choice(PATTERNS)
            extent = rng.choice([32, 64, 100, 128, 200, 256, 300, 512, 1024, 2048])
            dyn = None
            if pattern == "dynamic":
                dyn = 4 * rng.choice([32, 64, 100, 128, 256, 512, 1024, 2048])
                extent = dyn // 4
            lines, acc = kernel(name, pattern, extent, rng)
            if pattern == "loop":
                mx = int(lines[acc - 1].split("< ")[1].split(";")[0]) - 1
            else:
                mx = max_index(lines[acc], pattern, shape)
            bad = mx >= extent and pattern != "byte"
            if bad:
                lines[acc] += f"  // EXPECT: {CHECK}"
                pos += 1
            total += 1
            lines.append("}")
            out += lines + launch(name, form, shape, dyn, f"{f}_{k}") + [""]
        with open(os.path.join(a.out, f"blind_{a.seed}_{f:02d}.cu"), "w") as fh:
            fh.write("\n".join(out) + "\n")
    with open(os.path.join(a.out, "README.md"), "w") as fh:
        fh.write(f"Generated: seed {a.seed}, {total} kernels, {pos} labelled overflows.\n")
    print(f"{total} kernels, {pos} labelled overflows in {a.out}")


if __name__ == "__main__":
    main()
