#!/usr/bin/env bash
# Sets up and builds cudagraph-tidy, then runs the whole test suite: the
# GoogleTest unit tests and every lit test (each lit check test runs through
# both the clang-tidy-22 plugin and the standalone driver), all under CTest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$BUILD_DIR"
ctest --output-on-failure -j"$(nproc)"
