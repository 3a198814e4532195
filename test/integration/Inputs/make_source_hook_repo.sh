#!/usr/bin/env bash
# Makes a throw-away hook repository holding the sources of SRCROOT as they
# are in its working tree (tracked files and untracked ones git does not
# ignore), committed: what pre-commit clones from the published repository.
set -eu
srcroot="$1" dest="$2"
mkdir -p "$dest"
(cd "$srcroot" && git ls-files -z --cached --others --exclude-standard |
   xargs -0 -I{} sh -c 'test ! -e "$1" || printf "%s\0" "$1"' _ {}) |
  (cd "$srcroot" && xargs -0 cp --parents -t "$dest")
cd "$dest"
git init -q
git add -A
git -c user.name=test -c user.email=test@example.com commit -q -m sources
