#!/usr/bin/env bash
# Sets up and runs the service on its embedded defaults (SQLite in ./data, conf/terse.yaml).
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
exec cargo run --release --bin terse -- serve "$@"
