#!/usr/bin/env bash
# Load test of POST /api/v1/compress: builds the release binary, starts the service on free
# loopback ports with a fresh data directory and key, and for 2,000- and 50,000-character
# prompts prints requests/s, p50/p99 latency, the engine's own p50 (stats.latencyMs, same run),
# the endpoint's overhead beyond the engine, and resident memory under load.
#
# Two runs per size: one connection (latency and overhead, no queueing) and CONNECTIONS
# connections (throughput; latency there includes queueing). wrk shares the machine's cores
# with the server, so the figures are a lower bound on what the server alone can do.
#
# Environment: DURATION (default 10s), CONNECTIONS (16), THREADS (2),
# CORPUS (/work/shared/corpus), SIZES ("2000 50000").
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-2}
CORPUS=${CORPUS:-/work/shared/corpus}
SIZES=${SIZES:-"2000 50000"}

if ! command -v wrk >/dev/null; then
    echo "run-compress: installing wrk (Debian package)" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null
fi
scripts/setup.sh
cargo build --release --bin terse
BIN=$PWD/target/release/terse

work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# Two distinct free loopback ports, chosen while both probe sockets are open.
read -r PUBLIC ADMIN <<< "$(python3 -c 'import socket; s=[socket.socket() for _ in range(2)]; [x.bind(("127.0.0.1",0)) for x in s]; print(" ".join(str(x.getsockname()[1]) for x in s))')"
export SERVICE_STORAGE_DATA_DIR=$work/data
SERVICE_SERVER_PUBLIC_LISTEN=127.0.0.1:$PUBLIC SERVICE_SERVER_ADMIN_LISTEN=127.0.0.1:$ADMIN \
SERVICE_ADMIN_TOKEN=load-test-admin-token-0000 \
    "$BIN" serve 2>"$work/serve.log" &
server_pid=$!
for _ in $(seq 1 200); do
    curl -fs "http://127.0.0.1:$PUBLIC/healthz" >/dev/null 2>&1 && break
    sleep 0.05
done
curl -fs "http://127.0.0.1:$PUBLIC/healthz" >/dev/null || { cat "$work/serve.log"; exit 1; }

export TERSE_KEY
TERSE_KEY=$("$BIN" keys create --name load-test --rpm 1000000000 --monthly-quota 1000000000000000 | tail -n 1)
# shellcheck disable=SC2086
python3 load-tests/make_prompts.py "$CORPUS" "$work" $SIZES

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status"; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$server_pid/status"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

idle_rss=$(rss_kb)
rows=()
for size in $SIZES; do
    export BODY_FILE=$work/prompt-$size.json
    wrk -t1 -c1 -d2s -s load-tests/compress.lua "http://127.0.0.1:$PUBLIC/api/v1/compress" >/dev/null
    single=$(wrk -t1 -c1 -d"$DURATION" -s load-tests/compress.lua "http://127.0.0.1:$PUBLIC/api/v1/compress" | grep '^RESULT')

    peak=0
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s load-tests/compress.lua \
        "http://127.0.0.1:$PUBLIC/api/v1/compress" >"$work/wrk-$size.txt" &
    wrk_pid=$!
    while kill -0 "$wrk_pid" 2>/dev/null; do
        now=$(rss_kb); [ "$now" -gt "$peak" ] && peak=$now
        sleep 0.25
    done
    wait "$wrk_pid"
    loaded=$(grep '^RESULT' "$work/wrk-$size.txt")

    for run in "$single" "$loaded"; do
        [ "$(field failed "$run")" = 0 ] && [ "$(field errors "$run")" = 0 ] || {
            echo "run-compress: failed requests in: $run" >&2; exit 1; }
    done
    overhead=$(python3 -c "print(f'{$(field p50_ms "$single") - $(field engine_p50_ms "$single"):.3f}')")
    rows+=("$(printf '| %6s | %9s | %7s | %7s | %7s | %7s | %9s | %9s | %8s | %8s |' \
        "$size" "$(field rps "$single")" "$(field p50_ms "$single")" "$(field p99_ms "$single")" \
        "$(field engine_p50_ms "$single")" "$overhead" \
        "$(field rps "$loaded")" "$(field p50_ms "$loaded")" "$(field p99_ms "$loaded")" \
        "$((peak / 1024))")")
done

echo
echo "POST /api/v1/compress, mode balanced, release build, $(nproc) cores shared by wrk and the server;"
echo "each run $DURATION. 1 conn: latency without queueing. $CONNECTIONS conns / $THREADS wrk threads: throughput."
echo
echo "| chars  | 1 conn req/s | p50 ms | p99 ms | engine p50 ms | overhead p50 ms | $CONNECTIONS conns req/s | p50 ms | p99 ms | peak RSS MiB |"
echo "|-------:|----------:|-------:|-------:|--------------:|----------------:|----------:|-------:|-------:|-------------:|"
for row in "${rows[@]}"; do echo "$row"; done
echo
echo "resident memory: idle $((idle_rss / 1024)) MiB, high-water mark $(( $(hwm_kb) / 1024 )) MiB (VmHWM)"
