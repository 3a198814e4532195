#!/usr/bin/env python3
"""Runs one cudagraph-* check on a test file the way clang-tidy's own
check_clang_tidy.py does, through BOTH the clang-tidy-22 plugin and the
standalone cudagraph-tidy driver.

  check_cudagraph_tidy.py [tool paths] <file> <check-name> <temp> [-- clang args]
        [-check-suffixes=A,B] [-config=YAML] [-driver-only|-plugin-only]

* CHECK-MESSAGES[-SUFFIX] lines are FileChecked against each tool's output,
  with -implicit-check-not='{{warning|error}}:' so any extra finding fails.
* CHECK-NOTES[-SUFFIX] lines also check the notes.
* CHECK-FIXES[-SUFFIX] lines are FileChecked against the file after the
  plugin applied its fix-its.
* With no CHECK lines the tools must report nothing.
* The warnings and notes of the two tools must be identical.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def run(cmd, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, cwd=cwd)
    return p.returncode, p.stdout


def filecheck(filecheck_bin, check_file, prefixes, text, extra=()):
    cmd = [filecheck_bin, check_file, "--check-prefixes=" + ",".join(prefixes),
           "--dump-input=fail"] + list(extra)
    p = subprocess.run(cmd, input=text, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return p.returncode, p.stdout


FINDING = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>warning|error|note): (?P<msg>.*)$")


def findings(text, path):
    """The warning/error/note lines about the analysed file, normalised."""
    out = []
    for line in text.splitlines():
        m = FINDING.match(line)
        if not m:
            continue
        name = os.path.basename(m.group("file"))
        out.append("%s:%s:%s: %s: %s" % (name, m.group("line"), m.group("col"),
                                         m.group("kind"), m.group("msg")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("--cuda-path", required=True)
    ap.add_argument("input")
    ap.add_argument("check")
    ap.add_argument("temp")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    args = ap.parse_args()

    tidy_extra, clang_extra = [], []
    rest = args.rest
    if "--" in rest:
        i = rest.index("--")
        tidy_extra, clang_extra = rest[:i], rest[i + 1:]
    else:
        tidy_extra = rest
    suffixes = [""]
    config = None
    tools = ["plugin", "driver"]
    passthrough = []
    for a in tidy_extra:
        if a.startswith("-check-suffixes=") or a.startswith("-check-suffix="):
            suffixes = ["-" + s if s else "" for s in a.split("=", 1)[1].split(",")]
        elif a.startswith("-config="):
            config = a.split("=", 1)[1]
        elif a == "-driver-only":
            tools = ["driver"]
        elif a == "-plugin-only":
            tools = ["plugin"]
        else:
            passthrough.append(a)

    src = open(args.input, encoding="utf-8").read()
    ext = os.path.splitext(args.input)[1] or ".cu"
    os.makedirs(os.path.dirname(os.path.abspath(args.temp)) or ".", exist_ok=True)
    tmp = args.temp + ext
    # Keep line numbers, drop the CHECK lines so fixes cannot touch them.
    cleaned = re.sub(r"//\s*CHECK-(MESSAGES|NOTES|FIXES)[\w-]*:.*", "//", src)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(cleaned)

    cuda_args = ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + args.cuda_path,
                 "-Wno-unknown-cuda-version", "-std=c++17"]
    clang_args = cuda_args + clang_extra
    checks = "--checks=-*," + args.check
    cfg = ["--config=" + (config if config is not None else "{}")]

    outputs = {}
    for tool in tools:
        if tool == "plugin":
            cmd = [args.clang_tidy, "-load=" + args.plugin, checks] + cfg + \
                passthrough + [tmp, "--"] + clang_args
        else:
            cmd = [args.driver, checks] + cfg + passthrough + [tmp, "--"] + clang_args
        rc, out = run(cmd)
        print("------------------------ %s (exit %d) ------------------------"
              % (tool, rc))
        print(" ".join(cmd))
        print(out)
        outputs[tool] = (rc, out)
        if re.search(r"error: .*\[clang-diagnostic-error\]|cudagraph-tidy: error", out):
            print("FAIL: %s could not analyse the test file" % tool)
            return 1

    ok = True
    for suffix in suffixes:
        msg_prefix = "CHECK-MESSAGES" + suffix
        note_prefix = "CHECK-NOTES" + suffix
        has_msgs = msg_prefix + ":" in src
        has_notes = note_prefix + ":" in src
        for tool, (rc, out) in outputs.items():
            if has_notes:
                text = "\n".join(findings(out, tmp)) + "\n"
                rc2, fc = filecheck(args.filecheck, args.input, [note_prefix], text,
                                    ["-implicit-check-not={{warning|error|note}}:"])
            elif has_msgs:
                text = "\n".join(l for l in findings(out, tmp)
                                 if ": note: " not in l) + "\n"
                rc2, fc = filecheck(args.filecheck, args.input, [msg_prefix], text,
                                    ["-implicit-check-not={{warning|error}}:"])
            else:
                found = [l for l in findings(out, tmp) if ": note: " not in l]
                rc2, fc = (1, "unexpected findings:\n" + "\n".join(found)) if found else (0, "")
            if rc2 != 0:
                print("FAIL: %s output does not match %s:\n%s" % (tool, msg_prefix, fc))
                ok = False

    if len(outputs) == 2:
        a = findings(outputs["plugin"][1], tmp)
        b = findings(outputs["driver"][1], tmp)
        if sorted(a) != sorted(b):
            print("FAIL: plugin and driver disagree")
            print("plugin only:\n  " + "\n  ".join(sorted(set(a) - set(b))))
            print("driver only:\n  " + "\n  ".join(sorted(set(b) - set(a))))
            ok = False
        drc = outputs["driver"][0]
        want = 1 if [l for l in b if ": note: " not in l] else 0
        if drc != want:
            print("FAIL: driver exit code %d, expected %d" % (drc, want))
            ok = False

    for suffix in suffixes:
        fix_prefix = "CHECK-FIXES" + suffix
        if fix_prefix + ":" not in src:
            continue
        fixed = args.temp + ".fixed" + ext
        shutil.copy(tmp, fixed)
        cmd = [args.clang_tidy, "-load=" + args.plugin, checks, "-fix"] + cfg + \
            passthrough + [fixed, "--"] + clang_args
        run(cmd)
        rc2, fc = filecheck(args.filecheck, args.input, [fix_prefix],
                            open(fixed, encoding="utf-8").read(),
                            ["--match-full-lines", "--strict-whitespace"])
        if rc2 != 0:
            print("FAIL: fixed file does not match %s:\n%s" % (fix_prefix, fc))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
