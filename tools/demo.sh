#!/usr/bin/env bash
# The demo: installs what is missing, builds, and runs real queries over the
# bundled sample of logged chat-completions requests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
bash tools/build.sh build
bash demo/run.sh build
