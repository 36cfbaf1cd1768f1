"""OpenAI chat completions through terse with the official `openai` SDK."""

import json
import time

from proxy_helpers import assert_telemetry, openai_client

MESSAGES = [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is six times seven?"}]


def test_service_key_non_streaming(terse, fresh_mock):
    client = openai_client(terse, terse.keys["full"])
    raw = client.chat.completions.with_raw_response.create(model="gpt-4o", messages=MESSAGES)
    completion = raw.parse()
    assert completion.choices[0].message.content == "The answer is 42."
    assert_telemetry(raw.headers)
    received = fresh_mock.last_request()
    assert received["path"] == "/openai/v1/chat/completions"
    # The service key is swapped for the target's own credential; controls are not forwarded.
    assert received["headers"]["authorization"] == "Bearer upstream-openai-credential"
    assert terse.keys["full"] not in json.dumps(received)
    assert not any(name.startswith("x-service-") for name in received["headers"])
    assert int(received["headers"]["content-length"]) == len(received["body"].encode())


def test_service_key_streaming_passes_each_event_at_once(terse, fresh_mock):
    client = openai_client(terse, terse.keys["full"])
    # The SDK's first parse of a chunk type costs it tens of milliseconds (a client cost):
    # warm it up so the measured lags are the proxy's.
    for _ in client.chat.completions.create(model="gpt-4o", messages=MESSAGES, stream=True,
                                            extra_headers={"X-Mock-Interval-Ms": "0"}):
        pass
    stream = client.chat.completions.create(
        model="gpt-4o", messages=MESSAGES, stream=True,
        stream_options={"include_usage": True},
        extra_headers={"X-Mock-Events": "5", "X-Mock-Interval-Ms": "200"})
    lags, text = [], ""
    for chunk in stream:
        arrived = time.time()
        lags.append(arrived - chunk.model_extra["mock_sent_at"])
        if chunk.choices and chunk.choices[0].delta.content:
            text += chunk.choices[0].delta.content
    assert text == "The answer is 42."
    assert len(lags) == 7  # 5 words, the finish chunk, the usage chunk
    assert max(lags) < 0.020, f"event lags (s): {lags}"


def test_pass_through_keys_go_to_their_provider(terse, fresh_mock):
    for key, prefix in [("sk-proj-e2eOpenAiPassThrough123", "/openai/"),
                        ("sk-or-v1-e2eOpenRouterPassThrough123", "/openrouter/")]:
        client = openai_client(terse, key)
        raw = client.chat.completions.with_raw_response.create(model="gpt-4o-mini",
                                                               messages=MESSAGES)
        assert raw.parse().choices[0].message.content == "The answer is 42."
        assert_telemetry(raw.headers)
        received = fresh_mock.last_request()
        assert received["path"].startswith(prefix)
        assert received["headers"]["authorization"] == f"Bearer {key}"


def test_target_header_and_model_rules_pick_the_target(terse, fresh_mock):
    client = openai_client(terse, terse.keys["full"])
    client.chat.completions.create(model="gpt-4o", messages=MESSAGES,
                                   extra_headers={"X-Service-Target": "openrouter"})
    received = fresh_mock.last_request()
    assert received["path"].startswith("/openrouter/")
    assert received["headers"]["authorization"] == "Bearer upstream-openrouter-credential"
    # conf/terse.yaml routes open-weight model names to the inference host.
    client.chat.completions.create(model="llama-3.3-70b-versatile", messages=MESSAGES)
    assert fresh_mock.last_request()["path"].startswith("/inference/")


def test_mode_header_off_forwards_the_text_unchanged(terse, fresh_mock):
    client = openai_client(terse, terse.keys["full"])
    body = {"model": "gpt-4o", "messages": MESSAGES}
    raw = client.chat.completions.with_raw_response.create(
        **body, extra_headers={"X-Service-Mode": "off", "X-Service-Brevity": "off"})
    assert raw.headers["x-service-vault-status"] == "bypassed"
    assert raw.headers["x-service-input-saved"] == "0"
    forwarded = json.loads(fresh_mock.last_request()["body"])
    assert forwarded["messages"] == MESSAGES
