"""Writes compile_commands.json for the .cu files named, in the directory
given first, with the clang flags given after `--`."""
import json
import os
import sys

out_dir = sys.argv[1]
split = sys.argv.index("--")
files, flags = sys.argv[2:split], sys.argv[split + 1:]
entries = [{"directory": out_dir, "file": f,
            "arguments": ["clang++"] + flags + ["-c", f]} for f in files]
with open(os.path.join(out_dir, "compile_commands.json"), "w") as db:
    json.dump(entries, db, indent=1)
