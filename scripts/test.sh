#!/usr/bin/env bash
# Installs every dependency, builds sandboxd with AddressSanitizer + UBSan
# and -Werror, and runs the whole test suite: the GoogleTest unit tests
# (CTest) and the end-to-end suite (pytest) against real sandboxd processes
# on loopback. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

build=build-test
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSANDBOXD_SANITIZE=ON -DSANDBOXD_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

echo "== unit tests (ctest)"
(cd "$build" && ctest --output-on-failure -j"$(nproc)")

echo "== end-to-end tests (pytest)"
SANDBOXD_BIN="$PWD/$build/sandboxd" SANDBOXCTL_BIN="$PWD/$build/sandboxctl" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/e2e
