"""Copies Inputs/nvcc to DEST and writes its compile_commands.json (nvcc
commands) into DEST/build, pointing nvcc at the CUDA of --cuda-path=."""
import os
import shutil
import sys

src, dest, cuda_args = sys.argv[1], sys.argv[2], sys.argv[3:]
cuda = next(a.split("=", 1)[1] for a in cuda_args if a.startswith("--cuda-path="))
shutil.copytree(src, dest)
os.makedirs(os.path.join(dest, "build"))
with open(os.path.join(src, "compile_commands.json.in")) as f:
    text = f.read().replace("@DIR@", dest).replace("@CUDA@", cuda)
with open(os.path.join(dest, "build", "compile_commands.json"), "w") as f:
    f.write(text)
