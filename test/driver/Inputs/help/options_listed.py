#!/usr/bin/env python3
"""Checks that `cudagraph-tidy --help` lists every option the driver accepts.

The options are read from the driver's sources (every cl::opt, cl::list and
cl::alias declaration in the folders under tools/cudagraph-tidy), so that an option added
later without a place in --help fails this check; the options the driver
takes from libraries (CommonOptionsParser's -p and --extra-arg, LLVM's
--stats) are named on the command line with --also.

usage: options_listed.py SRCDIR HELPFILE [--also NAME]...
Prints each option it found listed; exits 1 naming those that are not.
"""
import os
import re
import sys

DECL = re.compile(r'cl::(?:opt|list|alias)\s*(?:<[^;{]*?>)?\s*\w+\s*\(\s*"([^"]+)"', re.S)


def declared_options(srcdir):
    names = set()
    tool = os.path.join(srcdir, "tools", "cudagraph-tidy")
    for folder, _, files in sorted(os.walk(tool)):
        for name in sorted(files):
            if name.endswith(".cpp"):
                with open(os.path.join(folder, name)) as f:
                    names.update(DECL.findall(f.read()))
    return names


def listed(help_text, name):
    # --help prints "  --name" (or "-name" for one letter, "--name=<value>")
    # at the start of an option's line.
    dashes = "-" if len(name) == 1 else "--"
    return re.search(r"^\s+" + re.escape(dashes + name) + r"(?![\w-])", help_text, re.M)


def main(argv):
    srcdir, help_file = argv[1], argv[2]
    also = [argv[i + 1] for i in range(3, len(argv) - 1) if argv[i] == "--also"]
    with open(help_file) as f:
        help_text = f.read()
    names = declared_options(srcdir) | set(also)
    if len(names) < 10:
        print("found only %d option declarations; the pattern is out of date" % len(names))
        return 1
    missing = [n for n in sorted(names) if not listed(help_text, n)]
    for n in sorted(names):
        if n not in missing:
            print("listed: " + n)
    for n in missing:
        print("not listed: " + n)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
