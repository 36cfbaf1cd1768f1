"""Anthropic messages through terse with the official `anthropic` SDK."""

import json
import time

from proxy_helpers import assert_telemetry, anthropic_client

MESSAGES = [{"role": "user", "content": "What is six times seven?"}]


def test_service_key_non_streaming(terse, fresh_mock):
    client = anthropic_client(terse, terse.keys["full"])
    raw = client.messages.with_raw_response.create(
        model="claude-sonnet-4-5", max_tokens=64, system="You are terse.", messages=MESSAGES)
    message = raw.parse()
    assert message.content[0].text == "The answer is 42."
    assert_telemetry(raw.headers)
    received = fresh_mock.last_request()
    assert received["path"].startswith("/anthropic/v1/messages")
    assert received["headers"]["x-api-key"] == "upstream-anthropic-credential"
    assert "anthropic-version" in received["headers"]
    assert "authorization" not in received["headers"]
    assert terse.keys["full"] not in json.dumps(received)


def test_service_key_streaming_passes_each_event_at_once(terse, fresh_mock):
    client = anthropic_client(terse, terse.keys["proxy_only"])
    # Warm up the SDK's event parsing first (a one-time client cost of tens of milliseconds).
    for _ in client.messages.create(model="claude-sonnet-4-5", max_tokens=64, messages=MESSAGES,
                                    stream=True, extra_headers={"X-Mock-Interval-Ms": "0"}):
        pass
    lags, text = [], ""
    stream = client.messages.create(model="claude-sonnet-4-5", max_tokens=64,
                                    messages=MESSAGES, stream=True,
                                    extra_headers={"X-Mock-Events": "4"})
    for event in stream:
        lags.append(time.time() - event.model_extra["mock_sent_at"])
        if event.type == "content_block_delta":
            text += event.delta.text
    assert text == "The answer is 42"
    assert len(lags) == 9  # start, block start, 4 deltas, block stop, message delta, stop
    assert max(lags) < 0.020, f"event lags (s): {lags}"


def test_pass_through_key_uses_x_api_key(terse, fresh_mock):
    key = "sk-ant-api03-e2eAnthropicPassThrough123"
    client = anthropic_client(terse, key)
    raw = client.messages.with_raw_response.create(model="claude-haiku-4-5",
                                                   max_tokens=32, messages=MESSAGES)
    assert raw.parse().content[0].text == "The answer is 42."
    assert_telemetry(raw.headers)
    received = fresh_mock.last_request()
    assert received["path"].startswith("/anthropic/")
    assert received["headers"]["x-api-key"] == key


def test_beta_query_string_is_accepted_and_forwarded(terse, fresh_mock):
    client = anthropic_client(terse, terse.keys["full"])
    client.beta.messages.create(model="claude-sonnet-4-5", max_tokens=32, messages=MESSAGES)
    assert fresh_mock.last_request()["path"] == "/anthropic/v1/messages?beta=true"
