"""`terse mcp` driven by the official Python MCP SDK's stdio client against the real service.

Covers SPEC 4.4 and issue 5: the handshake and its instructions at every brevity level, the
tool list and schemas, both tools, and every failure as an `isError` result (bad argument,
unreachable service, 401, 403, 429) or, for bad settings, a start-up error on stderr.
"""

from __future__ import annotations

import asyncio
import tempfile

import pytest

from mcp_fixtures import (
    brevity_directives,
    closed_port_url,
    mcp_env,
    mcp_session,
    run_terse_mcp,
    terse_service,  # noqa: F401  (a fixture)
    text_of,
)

LEVELS = ["off", "lite", "full", "ultra"]
STATS_FIELDS = {
    "mode", "originalTokens", "finalTokens", "savedTokens", "savedPercent", "latencyMs",
    "tokenizerUsed", "integrityPassed", "stageBreakdown", "protectedItems",
}
CODE = "```python\ndef add(a, b):\n    # keep   this   spacing\n    return a + b\n```"
JSON_BLOCK = '{"user": {"id": 42, "roles": ["admin", "dev"]}}'
PROMPT = (
    "Hello! I was wondering if you could please help me out with something, if it is not too much "
    "trouble. Basically, I would really like you to carefully review the following function and "
    "explain, in a very detailed way, what it actually does and whether there are any bugs:\n\n"
    f"{CODE}\n\nIt is called with this configuration object, which should not be changed at all: "
    f"{JSON_BLOCK}\n\nAlso, just to be sure, please make sure that you do not rename `add`. "
    "Thank you so much in advance for your kind help, I really appreciate it!"
)


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, timeout=120))


# --- handshake --------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_instructions_carry_the_brevity_directive_of_each_level(level):
    async def scenario():
        env = mcp_env(SERVICE_API_KEY="svc_live_unused", SERVICE_URL=closed_port_url(),
                      SERVICE_PONYTAIL=level)
        async with mcp_session(env) as (_, init):
            return init

    init = run(scenario())
    assert init.server_info.name == "terse"
    instructions = init.instructions
    assert instructions, "the initialize result has instructions"
    assert "service_compress" in instructions and "service_get_metrics" in instructions
    directives = brevity_directives()
    if level == "off":
        assert not any(d in instructions for d in directives.values())
    else:
        assert instructions.startswith(directives[level])
        others = [d for name, d in directives.items() if name != level]
        assert not any(d in instructions for d in others)


def test_unset_ponytail_means_off():
    async def scenario():
        env = mcp_env(SERVICE_API_KEY="svc_live_unused", SERVICE_URL=closed_port_url())
        async with mcp_session(env) as (_, init):
            return init.instructions

    instructions = run(scenario())
    assert not any(d in instructions for d in brevity_directives().values())


def test_tools_list_names_and_schemas():
    async def scenario():
        env = mcp_env(SERVICE_API_KEY="svc_live_unused", SERVICE_URL=closed_port_url(),
                      SERVICE_MODE="aggressive")
        async with mcp_session(env) as (session, _):
            return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in run(scenario())}
    assert set(tools) == {"service_compress", "service_get_metrics"}

    compress = tools["service_compress"]
    assert compress.description
    schema = compress.input_schema
    assert schema["type"] == "object"
    assert schema["required"] == ["prompt"]
    props = schema["properties"]
    assert set(props) == {"prompt", "mode", "protectCodeBlocks", "protectJson"}
    assert props["prompt"]["type"] == "string"
    assert props["mode"]["enum"] == ["conservative", "balanced", "aggressive"]
    assert props["mode"]["default"] == "aggressive", "the default follows SERVICE_MODE"
    for flag in ("protectCodeBlocks", "protectJson"):
        assert props[flag]["type"] == "boolean" and props[flag]["default"] is True
    assert all(prop.get("description") for prop in props.values())
    assert set(compress.output_schema["properties"]) == STATS_FIELDS

    metrics = tools["service_get_metrics"]
    assert metrics.input_schema.get("properties", {}) == {}
    assert not metrics.input_schema.get("required")
    assert set(metrics.output_schema["properties"]) == {"session", "month"}


def test_mode_default_is_balanced_without_service_mode():
    async def scenario():
        env = mcp_env(SERVICE_API_KEY="svc_live_unused", SERVICE_URL=closed_port_url())
        async with mcp_session(env) as (session, _):
            return (await session.list_tools()).tools

    compress = next(t for t in run(scenario()) if t.name == "service_compress")
    assert compress.input_schema["properties"]["mode"]["default"] == "balanced"


# --- the tools against the real service ------------------------------------------------------


def test_compress_returns_the_services_text_and_stats(terse_service):
    key = terse_service.keys["compress_only"]

    async def scenario():
        env = mcp_env(SERVICE_API_KEY=key, SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            await session.list_tools()
            return await session.call_tool("service_compress", {"prompt": PROMPT, "mode": "aggressive"})

    result = run(scenario())
    assert not result.is_error, text_of(result)
    compressed = result.content[0].text
    stats = result.structured_content
    assert set(stats) == STATS_FIELDS
    assert stats["mode"] == "aggressive"
    assert stats["savedTokens"] == stats["originalTokens"] - stats["finalTokens"]
    assert stats["integrityPassed"] is True
    assert stats["protectedItems"]["codeBlocks"] >= 1 and stats["protectedItems"]["jsonBlocks"] >= 1
    assert CODE in compressed, "the fenced code block is byte-identical"
    assert JSON_BLOCK in compressed, "the JSON is byte-identical"
    assert "`add`" in compressed

    direct = terse_service.compress_directly(key, {"prompt": PROMPT, "mode": "aggressive"})
    assert direct["compressed"] == compressed, "the tool returns what the service computes"
    assert direct["stats"]["finalTokens"] == stats["finalTokens"]


def test_a_prompt_of_exactly_50000_characters_is_accepted(terse_service):
    sentence = "Could you please take a careful look at the report and summarise it? "
    prompt = (sentence * (50_000 // len(sentence) + 1))[:50_000]
    assert len(prompt) == 50_000

    async def scenario():
        env = mcp_env(SERVICE_API_KEY=terse_service.keys["full"], SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            return await session.call_tool("service_compress", {"prompt": prompt})

    result = run(scenario())
    assert not result.is_error, text_of(result)
    assert result.structured_content["originalTokens"] > result.structured_content["finalTokens"]


def test_metrics_add_up_the_session_and_read_the_month(terse_service):
    key = terse_service.keys["full"]

    async def scenario():
        env = mcp_env(SERVICE_API_KEY=key, SERVICE_URL=terse_service.url, SERVICE_PONYTAIL="full",
                      SERVICE_MODE="conservative")
        async with mcp_session(env) as (session, _):
            await session.list_tools()
            first = await session.call_tool("service_compress", {"prompt": PROMPT})
            second = await session.call_tool("service_compress", {"prompt": PROMPT * 2, "mode": "balanced"})
            bad = await session.call_tool("service_compress", {"prompt": 1})
            # Usage reaches the store in batches (every 100 ms here): poll, bounded.
            for _ in range(50):
                metrics = await session.call_tool("service_get_metrics", {})
                if not metrics.is_error and metrics.structured_content["month"]["totals"]["requests"] >= 2:
                    break
                await asyncio.sleep(0.1)
            return first, second, bad, metrics

    first, second, bad, metrics = run(scenario())
    assert not first.is_error and not second.is_error and bad.is_error
    assert first.structured_content["mode"] == "conservative", "SERVICE_MODE is the default"
    assert not metrics.is_error, text_of(metrics)
    session = metrics.structured_content["session"]
    saved = first.structured_content["savedTokens"] + second.structured_content["savedTokens"]
    final = first.structured_content["finalTokens"] + second.structured_content["finalTokens"]
    assert session["compressCalls"] == 2
    assert session["failedCalls"] == 1
    assert session["toolCalls"] >= 4
    assert session["inputTokensSaved"] == saved
    assert session["finalTokens"] == final
    assert session["brevityLevel"] == "full"
    assert session["outputTokensSavedEst"] == round(final * session["outputSavingShare"])
    assert session["outputSavingShare"] > 0
    expected_input_usd = saved * session["inputUsdPerMtok"] / 1e6
    assert session["inputUsdSaved"] == pytest.approx(expected_input_usd, abs=1e-6)
    assert session["netUsdSaved"] == pytest.approx(
        session["inputUsdSaved"] + session["outputUsdSavedEst"], abs=2e-6)

    month = metrics.structured_content["month"]
    assert month["totals"]["requests"] >= 2
    assert month["totals"]["savedTokens"] >= saved


# --- failures are tool results with isError ---------------------------------------------------


BAD_ARGUMENTS = [
    ({}, "`prompt` is required"),
    ({"prompt": 42}, "`prompt` must be a string"),
    ({"prompt": "x", "mode": "fast"}, "unknown mode"),
    ({"prompt": "x", "protectJson": "yes"}, "`protectJson` must be true or false"),
    ({"prompt": "x", "colour": "red"}, "unknown argument `colour`"),
    ({"prompt": "a" * 50_001}, "at most 50000"),
]


def test_bad_arguments_are_tool_errors_and_the_server_goes_on(terse_service):
    async def scenario():
        env = mcp_env(SERVICE_API_KEY=terse_service.keys["full"], SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            results = [await session.call_tool("service_compress", args) for args, _ in BAD_ARGUMENTS]
            after = await session.call_tool("service_compress", {"prompt": "Please just say hello."})
            return results, after

    results, after = run(scenario())
    for (args, expected), result in zip(BAD_ARGUMENTS, results):
        assert result.is_error, args
        assert expected in text_of(result), text_of(result)
    assert not after.is_error, "a bad call does not stop the server"


def test_unreachable_service_is_a_tool_error():
    url = closed_port_url()

    async def scenario():
        async with mcp_session(mcp_env(SERVICE_API_KEY="svc_live_x", SERVICE_URL=url)) as (session, _):
            return (await session.call_tool("service_compress", {"prompt": "hello"}),
                    await session.call_tool("service_get_metrics", {}))

    compress, metrics = run(scenario())
    for result in (compress, metrics):
        assert result.is_error
        assert "not reachable" in text_of(result) and url in text_of(result)
        assert "terse serve" in text_of(result)


def test_key_without_the_compress_scope_is_a_tool_error(terse_service):
    async def scenario():
        env = mcp_env(SERVICE_API_KEY=terse_service.keys["proxy_only"], SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            return (await session.call_tool("service_compress", {"prompt": "hello"}),
                    await session.call_tool("service_get_metrics", {}))

    compress, metrics = run(scenario())
    assert compress.is_error
    message = text_of(compress)
    assert "lacks the compress scope" in message and "compress_only" in message
    assert not metrics.is_error, "any key may read its own usage"


def test_unknown_key_is_a_tool_error(terse_service):
    async def scenario():
        env = mcp_env(SERVICE_API_KEY="svc_live_" + "x" * 40, SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            return await session.call_tool("service_compress", {"prompt": "hello"})

    result = run(scenario())
    assert result.is_error
    assert "SERVICE_API_KEY" in text_of(result) and "terse keys create" in text_of(result)


def test_rate_limit_is_a_tool_error_that_says_when_to_retry(terse_service):
    async def scenario():
        env = mcp_env(SERVICE_API_KEY=terse_service.keys["one_rpm"], SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            return [await session.call_tool("service_compress", {"prompt": "hello there"}) for _ in range(3)]

    results = run(scenario())
    assert not results[0].is_error, text_of(results[0])
    limited = [r for r in results[1:] if r.is_error]
    assert limited, "a key limited to 1 request per minute is refused on the next calls"
    assert "rate limit" in text_of(limited[0]) and "wait" in text_of(limited[0])


def test_exhausted_monthly_quota_is_a_tool_error(terse_service):
    async def scenario():
        env = mcp_env(SERVICE_API_KEY=terse_service.keys["tiny_quota"], SERVICE_URL=terse_service.url)
        async with mcp_session(env) as (session, _):
            return [await session.call_tool("service_compress", {"prompt": PROMPT}) for _ in range(3)]

    results = run(scenario())
    refused = [r for r in results if r.is_error]
    assert refused, "a key with a 5-token monthly quota is refused once it is used up"
    assert "monthly token quota is used up" in text_of(refused[0]), text_of(refused[0])


@pytest.mark.parametrize("rust_log", ["debug", "trace,rmcp=trace,ureq=trace,ureq_proto=trace"])
def test_logs_never_contain_the_key_or_the_prompt(terse_service, rust_log):
    key = terse_service.keys["full"]
    secret_prompt = "Please compress this sentence about the zebra-unicorn-7731 project."

    async def scenario(errlog):
        env = mcp_env(SERVICE_API_KEY=key, SERVICE_URL=terse_service.url, RUST_LOG=rust_log)
        async with mcp_session(env, errlog=errlog) as (session, _):
            await session.call_tool("service_compress", {"prompt": secret_prompt})
            await session.call_tool("service_compress", {"prompt": 7})

    with tempfile.TemporaryFile("w+") as errlog:
        run(scenario(errlog))
        errlog.seek(0)
        logs = errlog.read()
    assert "terse mcp serving on stdio" in logs, "logs go to stderr"
    assert key not in logs and key[len("svc_live_"):] not in logs
    assert "zebra-unicorn-7731" not in logs


# --- start-up errors --------------------------------------------------------------------------


def test_missing_api_key_stops_the_server():
    done = run_terse_mcp({"SERVICE_URL": closed_port_url()})
    assert done.returncode != 0
    assert "SERVICE_API_KEY is not set" in done.stderr
    assert "terse keys create" in done.stderr
    assert done.stdout == "", "nothing but protocol messages on stdout"


@pytest.mark.parametrize(
    "variable,value,expected",
    [
        ("SERVICE_PONYTAIL", "max", "off, lite, full, ultra"),
        ("SERVICE_MODE", "fast", "conservative, balanced, aggressive"),
        ("SERVICE_URL", "127.0.0.1:8080", "http://"),
    ],
)
def test_unknown_settings_stop_the_server(variable, value, expected):
    done = run_terse_mcp({"SERVICE_API_KEY": "svc_live_x", variable: value})
    assert done.returncode != 0
    assert variable in done.stderr and expected in done.stderr, done.stderr
    assert done.stdout == ""
