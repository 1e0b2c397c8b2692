#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures and builds wirejson into a folder (default: build).
# Usage: tools/build.sh [build-dir] [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
