"""Errors: the proxy's own in each protocol's shape (typed SDK exceptions), upstream errors
passed through unchanged, 502 for an unreachable target and 504 for a silent one."""

import anthropic
import httpx
import openai
import pytest

from proxy_helpers import TELEMETRY_HEADERS, anthropic_client, openai_client

MESSAGES = [{"role": "user", "content": "hi"}]


def chat(terse, key, **kwargs):
    return openai_client(terse, key).chat.completions.create(
        model="gpt-4o", messages=MESSAGES, **kwargs)


def message(terse, key, **kwargs):
    return anthropic_client(terse, key).messages.create(
        model="claude-sonnet-4-5", max_tokens=16, messages=MESSAGES, **kwargs)


@pytest.mark.parametrize("key", ["svc_live_notAKeyThatExists0000000000000000", "revoked",
                                 "not-a-known-kind-of-key"])
def test_bad_keys_are_authentication_errors(terse, fresh_mock, key):
    key = terse.keys.get(key, key)
    with pytest.raises(openai.AuthenticationError) as caught:
        chat(terse, key)
    assert caught.value.status_code == 401
    assert caught.value.body["type"] == "authentication_error"
    with pytest.raises(anthropic.AuthenticationError) as caught:
        message(terse, key)
    assert caught.value.body["error"]["type"] == "authentication_error"
    assert fresh_mock.requests() == []


def test_missing_key_is_401_with_telemetry_headers(terse):
    for path in ["/v1/chat/completions", "/v1/messages"]:
        response = httpx.post(f"{terse.base}{path}", json={"model": "m", "messages": []})
        assert response.status_code == 401
        for name in TELEMETRY_HEADERS:
            assert name in response.headers
        assert response.headers["x-service-vault-status"] == "bypassed"
    assert response.json()["type"] == "error"


def test_wrong_scope_is_permission_denied(terse, fresh_mock):
    with pytest.raises(openai.PermissionDeniedError):
        chat(terse, terse.keys["compress_only"])
    with pytest.raises(anthropic.PermissionDeniedError) as caught:
        message(terse, terse.keys["compress_only"])
    assert caught.value.body["error"]["type"] == "permission_error"
    assert fresh_mock.requests() == []


def test_rate_limit_is_rate_limit_error(terse, fresh_mock):
    key = terse.keys["limited"]  # 2 requests per minute
    chat(terse, key)
    message(terse, key)
    with pytest.raises(openai.RateLimitError) as caught:
        chat(terse, key)
    assert "retry-after" in caught.value.response.headers
    with pytest.raises(anthropic.RateLimitError):
        message(terse, key)
    assert len(fresh_mock.requests()) == 2


def test_body_over_the_cap_is_413(terse, fresh_mock):
    huge = "word " * 300_000  # 1.5 MB, over the default 1 MiB cap
    with pytest.raises(openai.APIStatusError) as caught:
        chat(terse, terse.keys["full"], extra_body={"padding": huge})
    assert caught.value.status_code == 413
    with pytest.raises(anthropic.APIStatusError) as caught:
        message(terse, terse.keys["full"], extra_body={"padding": huge})
    assert caught.value.status_code == 413
    assert caught.value.body["error"]["type"] == "request_too_large"
    assert fresh_mock.requests() == []


def test_upstream_errors_pass_through_unchanged(terse, fresh_mock):
    with pytest.raises(openai.RateLimitError) as caught:
        chat(terse, terse.keys["full"], extra_headers={"X-Mock-Status": "429"})
    assert caught.value.body["message"] == "mock upstream error 429"
    assert caught.value.response.headers["retry-after"] == "7"
    assert "x-service-vault-status" in caught.value.response.headers
    with pytest.raises(anthropic.APIStatusError) as caught:
        message(terse, "sk-ant-e2ePassThroughKey000",
                extra_headers={"X-Mock-Status": "529"})
    assert caught.value.status_code == 529
    assert caught.value.body["error"]["type"] == "overloaded_error"


def test_unreachable_target_is_502(terse):
    with pytest.raises(openai.InternalServerError) as caught:
        chat(terse, terse.keys["full"], extra_headers={"X-Service-Target": "custom"})
    assert caught.value.status_code == 502
    assert caught.value.body["type"] == "server_error"


def test_silent_upstream_is_504(terse, fresh_mock):
    with pytest.raises(anthropic.APIStatusError) as caught:
        message(terse, terse.keys["full"], extra_headers={"X-Mock-Hang": "4"})
    assert caught.value.status_code == 504
    assert caught.value.body["error"]["type"] == "timeout_error"
    with pytest.raises(openai.InternalServerError) as caught:
        chat(terse, terse.keys["full"], extra_headers={"X-Mock-Hang": "4"})
    assert caught.value.status_code == 504


def test_bad_steering_headers_are_bad_requests(terse, fresh_mock):
    for headers in [{"X-Service-Target": "nowhere"}, {"X-Service-Mode": "max"},
                    {"X-Service-Brevity": "silent"}]:
        with pytest.raises(openai.BadRequestError):
            chat(terse, terse.keys["full"], extra_headers=headers)
        with pytest.raises(anthropic.BadRequestError) as caught:
            message(terse, terse.keys["full"], extra_headers=headers)
        assert caught.value.body["error"]["type"] == "invalid_request_error"
    assert fresh_mock.requests() == []
