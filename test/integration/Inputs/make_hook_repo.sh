#!/usr/bin/env bash
# Makes a throw-away hook repository holding exactly the published hook
# files of SRCROOT, committed (try-repo and `rev:` read commits).
set -eu
srcroot="$1" dest="$2"
mkdir -p "$dest/scripts"
cp "$srcroot/.pre-commit-hooks.yaml" "$dest/"
cp "$srcroot/scripts/pre-commit-cudagraph-tidy.sh" "$dest/scripts/"
cd "$dest"
git init -q
git add .pre-commit-hooks.yaml scripts
git -c user.name=test -c user.email=test@example.com commit -q -m hooks
