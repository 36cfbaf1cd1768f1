#!/usr/bin/env bash
# Runs every test: formatting and lint gates, the Rust unit/property/integration tests, and the
# end-to-end tests (official SDKs, MCP client, browser) against the real binary on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh --tests

cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo build --release --bin terse
cargo test --workspace --release

if ls tests/e2e/test_*.py >/dev/null 2>&1; then
    TERSE_BIN="$PWD/target/release/terse" .venv/bin/python -m pytest -q tests/e2e
fi

if [ -f tests/e2e/dashboard.test.mjs ]; then
    TERSE_BIN="$PWD/target/release/terse" node --test tests/e2e/
fi
