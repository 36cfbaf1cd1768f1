-- wrk script for POST /api/v1/compress.
--   BODY_FILE  the JSON request body to send
--   TERSE_KEY  the service key (sent as Authorization: Bearer)
-- Each response's stats.latencyMs (the engine's own time, measured inside filters::compress)
-- is collected so the runner can report the endpoint's overhead beyond the engine.
-- done() prints one machine-readable RESULT line.

local function read_file(path)
  local f = assert(io.open(path, "rb"), "cannot open BODY_FILE " .. tostring(path))
  local text = f:read("*a")
  f:close()
  return text
end

wrk.method = "POST"
wrk.body = read_file(os.getenv("BODY_FILE"))
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. assert(os.getenv("TERSE_KEY"), "TERSE_KEY is not set")

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  engine = {}
  failures = 0
end

function response(status, headers, body)
  if status ~= 200 then
    failures = failures + 1
    return
  end
  local ms = body:match('"latencyMs":([%d%.eE%-]+)')
  if ms then
    engine[#engine + 1] = tonumber(ms)
  end
end

local function percentile(sorted, p)
  if #sorted == 0 then return 0 end
  local index = math.max(1, math.ceil(#sorted * p / 100))
  return sorted[index]
end

function done(summary, latency, requests)
  local all = {}
  local failed = 0
  for _, thread in ipairs(threads) do
    for _, ms in ipairs(thread:get("engine")) do
      all[#all + 1] = ms
    end
    failed = failed + thread:get("failures")
  end
  table.sort(all)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d failed=%d errors=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f engine_p50_ms=%.3f engine_p99_ms=%.3f\n",
    summary.requests, failed,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    percentile(all, 50), percentile(all, 99)))
end
