#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The demo: installs only what it needs (tools/install-deps.sh demo), builds
# the SQLite extension and wirejq without the tests, and runs real queries
# over the bundled sample of logged chat-completions requests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh demo
bash tools/build.sh build -DWIREJSON_TESTS=OFF
bash demo/run.sh build
