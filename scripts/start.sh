#!/usr/bin/env bash
# Installs every dependency, builds sandboxd (release) and starts it with its
# embedded defaults (127.0.0.1:8080, ./sandboxd-data). Extra arguments go to
# sandboxd, e.g. scripts/start.sh --listen 0.0.0.0:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSANDBOXD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target sandboxd sandboxctl
exec ./build/sandboxd "$@"
