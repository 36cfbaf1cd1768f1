#!/usr/bin/env bash
# Installs everything the build and the tests need, idempotently, from the package registries only:
# Debian packages (scripts/apt-packages.txt), the Python test environment (.venv from
# tests/e2e/requirements.txt) and npm test packages (tests/e2e/package.json).
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=0
[ "${1:-}" = "--tests" ] && want_tests=1

missing=()
while read -r pkg _; do
    case "$pkg" in ''|'#'*) continue ;; esac
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done < scripts/apt-packages.txt
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "$want_tests" = 1 ]; then
    if [ -s tests/e2e/requirements.txt ]; then
        stamp=.venv/.requirements.sha
        sum=$(sha256sum tests/e2e/requirements.txt | cut -d' ' -f1)
        if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
            echo "setup: creating the Python test environment in .venv" >&2
            python3 -m venv .venv
            .venv/bin/pip install -q --disable-pip-version-check -r tests/e2e/requirements.txt
            echo "$sum" > "$stamp"
        fi
    fi
    if [ -f tests/e2e/package.json ] && [ ! -d tests/e2e/node_modules ]; then
        echo "setup: installing npm test packages" >&2
        (cd tests/e2e && npm ci --silent --no-audit --no-fund)
    fi
fi
