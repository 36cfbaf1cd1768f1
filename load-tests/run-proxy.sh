#!/usr/bin/env bash
# Proxy benchmark (issue 4, item 8): the latency terse adds in front of a provider, against
# calling the same mock upstream directly and against Debian's nginx `proxy_pass`.
#
# Upstream: an nginx server answering a fixed chat-completions JSON (fast and steady, so the
# differences measured are the proxies'). Load: load-tests/loadgen.rs, open-loop at RATE
# requests per second over CONNS keep-alive connections, a ~4,000-token chat request.
# Streaming: time to first byte of a server-sent-event answer from tests/e2e/mock_provider.py,
# direct and through terse. Everything on 127.0.0.1; prints one table.
#
# Usage: load-tests/run-proxy.sh [SECONDS (default 20)] [RATE (default 200)]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-20}
RATE=${2:-200}
CONNS=8
OUT=load-tests/results/proxy
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/terse-proxy-bench.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

command -v nginx >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }
NGINX=$(command -v nginx)
cargo build --release --quiet --bin terse --example loadgen
TERSE=target/release/terse
LOADGEN=target/release/examples/loadgen
PY=python3
[ -x .venv/bin/python ] && PY=.venv/bin/python

# N distinct free loopback ports, chosen while all N probe sockets are open (two separate probes
# can get the same port back).
free_ports() { $PY -c 'import socket,sys; s=[socket.socket() for _ in range(int(sys.argv[1]))]; [x.bind(("127.0.0.1",0)) for x in s]; print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"; }
wait_port() {
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2; return 1
}

read -r UPSTREAM NGINX_PROXY TERSE_PORT ADMIN_PORT SSE_MOCK <<< "$(free_ports 5)"

# --- the mock upstream and the nginx baseline: two nginx instances, one worker each ---------
ANSWER='{"id":"chatcmpl-bench","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"The answer is 42."}}],"usage":{"prompt_tokens":4000,"completion_tokens":5,"total_tokens":4005}}'
nginx_conf() { # $1 = name, $2 = server block
    mkdir -p "$WORK/$1/logs"
    cat > "$WORK/$1/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/$1/nginx.pid;
error_log $WORK/$1/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/$1/body;
    proxy_temp_path $WORK/$1/proxy;
    fastcgi_temp_path $WORK/$1/fastcgi;
    uwsgi_temp_path $WORK/$1/uwsgi;
    scgi_temp_path $WORK/$1/scgi;
    keepalive_requests 100000;
    client_max_body_size 8m;
    client_body_buffer_size 1m;
    $2
}
CONF
}
nginx_conf upstream "server { listen 127.0.0.1:$UPSTREAM; location / { default_type application/json; return 200 '$ANSWER'; } }"
nginx_conf baseline "upstream mock { server 127.0.0.1:$UPSTREAM; keepalive 32; }
    server { listen 127.0.0.1:$NGINX_PROXY; location / { proxy_pass http://mock; proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_buffering off; } }"
"$NGINX" -p "$WORK/upstream" -c "$WORK/upstream/nginx.conf" & PIDS+=($!)
"$NGINX" -p "$WORK/baseline" -c "$WORK/baseline/nginx.conf" & PIDS+=($!)
$PY tests/e2e/mock_provider.py "$SSE_MOCK" > "$WORK/sse-mock.log" 2>&1 & PIDS+=($!)

# --- terse: one worker thread, targets pointed at the mocks, limits off ----------------------
export SERVICE_STORAGE_DATA_DIR="$WORK/data"
export SERVICE_SERVER_PUBLIC_LISTEN="127.0.0.1:$TERSE_PORT"
export SERVICE_SERVER_ADMIN_LISTEN="127.0.0.1:$ADMIN_PORT"
export SERVICE_ADMIN_TOKEN="bench-admin-token-0123456789"
export SERVICE_SERVER_THREADS=1
export SERVICE_LIMITS_DEFAULT_RPM=0
export SERVICE_LIMITS_DEFAULT_MONTHLY_QUOTA=0
export SERVICE_LOGGING_LEVEL=warn
export SERVICE_TARGET_OPENAI_BASE_URL="http://127.0.0.1:$UPSTREAM"
export SERVICE_TARGET_ANTHROPIC_BASE_URL="http://127.0.0.1:$SSE_MOCK"
export OPENAI_API_KEY=bench-upstream-credential ANTHROPIC_API_KEY=bench-upstream-credential
KEY=$("$TERSE" keys create --name bench --scope full | tail -n 1)
"$TERSE" serve > "$WORK/terse.log" 2>&1 & TERSE_PID=$!; PIDS+=($TERSE_PID)
for port in $UPSTREAM $NGINX_PROXY $TERSE_PORT $SSE_MOCK; do wait_port "$port"; done

# --- the request: ~4,000 tokens of real prompts from the corpus -----------------------------
$PY - "$WORK/body.json" <<'PYEOF'
import json, sys
texts = []
for line in open("/work/shared/corpus/fabric-patterns.jsonl"):
    texts.append(json.loads(line)["text"])
    if sum(map(len, texts)) > 19500:
        break
system, user = texts[0], "\n\n".join(texts[1:])[:19500 - len(texts[0])]
body = {"model": "gpt-4o", "messages": [{"role": "system", "content": system},
                                        {"role": "user", "content": user}]}
open(sys.argv[1], "w").write(json.dumps(body))
# The same request with a user text that differs on every request (loadgen --vary): the
# system prompt is a cache hit, the user text a miss, as on a new conversation turn.
body["messages"][1]["content"] = "Request @@VARY@@. " + user
open(sys.argv[1].replace(".json", "-vary.json"), "w").write(json.dumps(body))
PYEOF
TOKENS=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \
    -H "X-Service-Mode: off" -H "X-Service-Brevity: off" --data-binary "@$WORK/body.json" \
    "http://127.0.0.1:$TERSE_PORT/v1/chat/completions" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-service-original-tokens"{print $2}')
SAVED=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \
    --data-binary "@$WORK/body.json" "http://127.0.0.1:$TERSE_PORT/v1/chat/completions" \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="x-service-input-saved"{print $2}')

run() { # $1 = name, $2 = port, $3 = body file, rest = loadgen flags
    local name=$1 port=$2 body=$3; shift 3
    "$LOADGEN" --url "http://127.0.0.1:$port/v1/chat/completions" --body "$body" \
        --rate "$RATE" --seconds "$SECONDS_PER_RUN" --connections "$CONNS" "$@" > "$OUT/$name.json"
    echo "$name $(cat "$OUT/$name.json")" >&2
}
AUTH="Authorization: Bearer $KEY"
B="$WORK/body.json"; V="$WORK/body-vary.json"
run direct "$UPSTREAM" "$B"
run terse_compress_new "$TERSE_PORT" "$V" --header "$AUTH"
run terse_compress "$TERSE_PORT" "$B" --header "$AUTH"
RSS_PEAK_KB=$(awk '/VmHWM/{print $2}' "/proc/$TERSE_PID/status")
run terse_off "$TERSE_PORT" "$B" --header "$AUTH" --header "X-Service-Mode: off" --header "X-Service-Brevity: off"
run nginx "$NGINX_PROXY" "$B"
run direct_again "$UPSTREAM" "$B"
RSS_KB=$(awk '/VmRSS/{print $2}' "/proc/$TERSE_PID/status")

# --- streaming: time to first byte, direct to the SSE mock and through terse (Anthropic) ----
echo '{"model":"claude-sonnet-4-5","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"What is six times seven?"}]}' > "$WORK/stream.json"
STREAM_RATE=50
"$LOADGEN" --url "http://127.0.0.1:$SSE_MOCK/v1/messages" --body "$WORK/stream.json" --ttfb \
    --rate $STREAM_RATE --seconds 10 --connections 4 --header "X-Mock-Interval-Ms: 0" \
    --header "X-Mock-Events: 1" > "$OUT/stream_direct.json"
"$LOADGEN" --url "http://127.0.0.1:$TERSE_PORT/v1/messages" --body "$WORK/stream.json" --ttfb \
    --rate $STREAM_RATE --seconds 10 --connections 4 --header "X-Mock-Interval-Ms: 0" \
    --header "X-Mock-Events: 1" --header "x-api-key: $KEY" --header "anthropic-version: 2023-06-01" \
    > "$OUT/stream_terse.json"

$PY - "$OUT" "$TOKENS" "$SAVED" "$RSS_KB" "$RSS_PEAK_KB" "$RATE" "$SECONDS_PER_RUN" <<'PYEOF'
import json, math, sys
out, tokens, saved, rss, peak, rate, secs = sys.argv[1:]
r = {n: json.load(open(f"{out}/{n}.json")) for n in
     ["direct", "terse_compress_new", "terse_compress", "terse_off", "nginx", "direct_again", "stream_direct", "stream_terse"]}
base50 = (r["direct"]["p50_ms"] + r["direct_again"]["p50_ms"]) / 2
base99 = (r["direct"]["p99_ms"] + r["direct_again"]["p99_ms"]) / 2
print(f"\nProxy benchmark: {tokens}-token chat request (compression saves {saved} input tokens), "
      f"{rate} req/s for {secs} s, 8 keep-alive connections, terse with 1 worker thread")
print(f"{'path':<34} {'ok':>6} {'err':>4} {'p50 ms':>8} {'p99 ms':>8} {'+p50 ms':>8} {'+p99 ms':>8} {'own p50':>8}")
rows = [("direct to mock upstream", "direct"),
        ("terse, balanced+lite, new user text", "terse_compress_new"),
        ("terse, balanced+lite, repeated text", "terse_compress"),
        ("terse, mode off + brevity off", "terse_off"), ("nginx proxy_pass", "nginx"),
        ("direct again", "direct_again")]
for label, name in rows:
    x = r[name]
    ok = sum(v for k, v in x["statuses"].items() if k.startswith("2"))
    print(f"{label:<34} {ok:>6} {x['errors']:>4} {x['p50_ms']:>8.3f} {x['p99_ms']:>8.3f} "
          f"{x['p50_ms'] - base50:>+8.3f} {x['p99_ms'] - base99:>+8.3f}"
          + (f" {own:>8.3f}" if (own := x.get("service_p50_ms", math.nan)) == own else ""))
sd, st = r["stream_direct"], r["stream_terse"]
print(f"{'streaming TTFB direct (50 req/s)':<34} {sd['requests']:>6} {sd['errors']:>4} {sd['p50_ms']:>8.3f} {sd['p99_ms']:>8.3f}")
print(f"{'streaming TTFB via terse':<34} {st['requests']:>6} {st['errors']:>4} {st['p50_ms']:>8.3f} {st['p99_ms']:>8.3f} "
      f"{st['p50_ms'] - sd['p50_ms']:>+8.3f} {st['p99_ms'] - sd['p99_ms']:>+8.3f}")
off = r["terse_off"]["p50_ms"] - base50
ngx = r["nginx"]["p50_ms"] - base50
print(f"\nadded p50, mode off: terse {off:.3f} ms vs nginx {ngx:.3f} ms (ratio {off / ngx if ngx > 0 else float('nan'):.2f})")
print("own p50: terse's own time before the request went upstream (its X-Service-Latency-Ms header), median")
print(f"terse resident memory: {int(rss) / 1024:.1f} MiB after the runs, peak {int(peak) / 1024:.1f} MiB during the compress runs")
PYEOF
