"""What the proxy does to the body it forwards, as recorded by the mock provider."""

import json
import socket
import time
from pathlib import Path

import httpx

from proxy_helpers import PROTECTED, WORDY_PROMPT, anthropic_client, openai_client


def post(terse, path, body_bytes, key, **headers):
    return httpx.post(f"{terse.base}{path}", content=body_bytes, timeout=10.0,
                      headers={"authorization": f"Bearer {key}",
                               "content-type": "application/json",
                               "anthropic-version": "2023-06-01", **headers})


def test_forwarded_body_is_compressed_and_protected_items_byte_identical(terse, fresh_mock):
    # Odd spacing, number spellings and an unknown field must survive byte for byte.
    body = ('{"model":"gpt-4o",  "temperature": 0.50, "future_field": {"x": [1, 2.0e0]},\n'
            ' "tools": [{"type": "function", "function": {"name": "f", "description": '
            '"Please   kindly  do it", "parameters": {"type": "object", "properties": {}}}}],\n'
            ' "messages": [{"role": "user", "content": ' + json.dumps(WORDY_PROMPT) + '}]}')
    response = post(terse, "/v1/chat/completions", body.encode(), terse.keys["full"],
                    **{"X-Service-Mode": "aggressive", "X-Service-Brevity": "off"})
    assert response.status_code == 200
    assert response.headers["x-service-vault-status"] == "intact"
    original = int(response.headers["x-service-original-tokens"])
    final = int(response.headers["x-service-input-tokens"])
    assert final < original, "the wordy prompt was not compressed"
    forwarded = fresh_mock.last_request()["body"]
    for untouched in ['"temperature": 0.50', '"future_field": {"x": [1, 2.0e0]}',
                      '"description": "Please   kindly  do it"', '{"model":"gpt-4o",  ']:
        assert untouched in forwarded
    text = json.loads(forwarded)["messages"][0]["content"]
    assert text != WORDY_PROMPT
    for item in PROTECTED:
        assert item in text, f"{item!r} changed"


def test_brevity_directive_is_appended_to_the_system_prompt(terse, fresh_mock):
    client = openai_client(terse, terse.keys["full"])
    client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "system", "content": "You are helpful."},
                                  {"role": "user", "content": "hi"}],
        extra_headers={"X-Service-Brevity": "ultra", "X-Service-Mode": "off"})
    messages = json.loads(fresh_mock.last_request()["body"])["messages"]
    assert len(messages) == 2
    assert messages[0]["content"].startswith("You are helpful.")
    assert "Keep exact and unabridged" in messages[0]["content"]


def raw_value(body, key):
    """The exact bytes of a top-level field's value in a JSON text."""
    start = body.index(f'"{key}":') + len(key) + 3
    while body[start] == " ":
        start += 1
    _, end = json.JSONDecoder().raw_decode(body, start)
    return body[start:end]


def test_compressed_prefix_is_byte_stable_across_turns_with_cache_control(terse, fresh_mock):
    client = anthropic_client(terse, terse.keys["full"])
    system = [{"type": "text", "text": WORDY_PROMPT, "cache_control": {"type": "ephemeral"}}]
    turn1 = [{"role": "user", "content": [{"type": "text", "text": WORDY_PROMPT,
                                           "cache_control": {"type": "ephemeral"}}]}]
    turn2 = turn1 + [{"role": "assistant", "content": "Sure."},
                     {"role": "user", "content": "And the JSON?"}]
    client.messages.create(model="claude-sonnet-4-5", max_tokens=16, system=system,
                           messages=turn1)
    first = fresh_mock.last_request()["body"]
    client.messages.create(model="claude-sonnet-4-5", max_tokens=16, system=system,
                           messages=turn2)
    second = fresh_mock.last_request()["body"]
    first_doc, second_doc = json.loads(first), json.loads(second)
    assert first_doc["system"] == second_doc["system"]
    assert first_doc["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert second_doc["messages"][0] == first_doc["messages"][0]
    assert second_doc["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    # Byte-level: the forwarded `system` is identical, and the first turn's messages array
    # (without its closing bracket) is a prefix of the second turn's.
    assert raw_value(first, "system") == raw_value(second, "system")
    assert raw_value(second, "messages").startswith(raw_value(first, "messages")[:-1])


def test_a_body_that_is_not_json_is_forwarded_unchanged(terse, fresh_mock):
    response = post(terse, "/v1/chat/completions", b"{this is not json",
                    terse.keys["full"])
    assert response.status_code == 400  # the provider's own answer
    assert response.headers["x-service-vault-status"] == "bypassed"
    assert fresh_mock.last_request()["body"] == "{this is not json"


def test_expect_continue_with_a_large_body(terse, fresh_mock):
    filler = " ".join(f"Line {i}: please kindly note that this is really just filler."
                      for i in range(6000))
    body = json.dumps({"model": "gpt-4o", "messages": [
        {"role": "user", "content": filler + "\n" + WORDY_PROMPT}]}).encode()
    assert len(body) > 300_000
    host, port = terse.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}\r\n"
                f"Authorization: Bearer {terse.keys['full']}\r\n"
                "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
        conn.sendall(head.encode())
        interim = conn.recv(4096)
        assert interim.startswith(b"HTTP/1.1 100"), interim
        conn.sendall(body)
        answer = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            part = conn.recv(65536)
            if not part:
                break
            answer += part
    assert answer.split(b"\r\n", 1)[0] == b"HTTP/1.1 200 OK", answer[:200]
    forwarded = json.loads(fresh_mock.last_request()["body"])
    text = forwarded["messages"][-1]["content"]
    assert "Line 5999" in text
    for item in PROTECTED:
        assert item in text


def test_client_disconnect_ends_the_upstream_request(terse, fresh_mock):
    body = {"model": "gpt-4o", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    with httpx.stream("POST", f"{terse.base}/v1/chat/completions", json=body, timeout=10.0,
                      headers={"authorization": f"Bearer {terse.keys['full']}",
                               "X-Mock-Events": "20", "X-Mock-Interval-Ms": "100"}) as response:
        for line in response.iter_lines():
            if line.startswith("data:"):
                break  # one event, then hang up
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        streams = fresh_mock.streams()
        if streams and streams[-1]["client_gone"]:
            break
        time.sleep(0.1)
    assert streams[-1]["client_gone"] and not streams[-1]["completed"]
    assert len(streams[-1]["sent"]) < 20


def test_pass_through_key_is_never_stored_or_logged(terse, fresh_mock):
    key = "sk-proj-e2eSecretThatMustNeverBeStored987"
    client = openai_client(terse, key)
    client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    anthropic_key = "sk-ant-api03-e2eSecretThatMustNeverBeStored987"
    anthropic_client(terse, anthropic_key).messages.create(
        model="claude-sonnet-4-5", max_tokens=8, messages=[{"role": "user", "content": "hi"}])
    time.sleep(1.5)  # let usage flush
    needles = [key.encode(), anthropic_key.encode()]
    for path in Path(terse.data_dir).rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            assert not any(n in content for n in needles), f"key found in {path}"
    assert not any(n.decode() in terse.logs() for n in needles)


def test_usage_records_proxy_traffic_with_the_output_estimate(terse, fresh_mock):
    key = terse.keys["proxy_only"]
    client = openai_client(terse, key)
    for _ in range(3):
        client.chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": WORDY_PROMPT}],
            extra_headers={"X-Service-Brevity": "full"})
    time.sleep(1.5)  # usage is written off the request path, once a second
    usage = httpx.get(f"{terse.base}/api/v1/usage",
                      headers={"authorization": f"Bearer {key}"}).json()
    totals = usage["totals"]
    assert totals["requests"] >= 3
    assert totals["originalTokens"] > 0
    assert totals["outputSavedEst"] > 0
    assert totals["usdSaved"] != 0


def test_chunked_request_body_goes_upstream_with_a_content_length(terse, fresh_mock):
    body = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": WORDY_PROMPT}]})

    def pieces():
        for start in range(0, len(body), 100):
            yield body[start:start + 100].encode()

    response = httpx.post(f"{terse.base}/v1/chat/completions", content=pieces(), timeout=10.0,
                          headers={"authorization": f"Bearer {terse.keys['full']}",
                                   "content-type": "application/json"})
    assert response.status_code == 200
    received = fresh_mock.last_request()
    assert "transfer-encoding" not in received["headers"]
    assert int(received["headers"]["content-length"]) == len(received["body"].encode())
    for item in PROTECTED:
        assert item in json.loads(received["body"])["messages"][-1]["content"]
