"""Writes DIR/build/compile_commands.json for every .cu file under DIR/src,
each compiled with the clang flags given after DIR."""
import glob
import json
import os
import sys

root, flags = os.path.abspath(sys.argv[1]), sys.argv[2:]
os.makedirs(os.path.join(root, "build"), exist_ok=True)
db = [{"directory": root, "file": f,
       "arguments": ["clang++"] + flags + ["-c", f, "-o", f + ".o"]}
      for f in sorted(glob.glob(os.path.join(root, "src", "*.cu")))]
with open(os.path.join(root, "build", "compile_commands.json"), "w") as out:
    json.dump(db, out, indent=1)
