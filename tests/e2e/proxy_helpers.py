"""Shared helpers of the proxy tests: SDK clients pointed at terse, and the sample prompts."""

import anthropic
import openai

TELEMETRY_HEADERS = [
    "x-service-original-tokens",
    "x-service-input-tokens",
    "x-service-input-saved",
    "x-service-output-saved-est",
    "x-service-latency-ms",
    "x-service-vault-status",
]

# Wordy prose around protected items: a fenced code block, inline code, JSON and a variable.
CODE_BLOCK = "```python\ndef add(a, b):\n    return a + b  # keep   this   spacing\n```"
INLINE_JSON = '{"retries": 3, "backoff": [1, 2, 4], "name": "svc"}'
VARIABLE = "{{customer_name}}"
WORDY_PROMPT = (
    "Hello there! I would really, really appreciate it if you could please take a moment to "
    "basically just carefully review the following code for me, if that is at all possible, "
    "and honestly tell me whether or not it is actually correct in every possible way:\n\n"
    f"{CODE_BLOCK}\n\n"
    "In addition to that, it would also be very helpful if you could please explain, in a "
    "very simple and very clear way, what the configuration "
    f"{INLINE_JSON} actually does, and please also make sure to greet {VARIABLE} by name "
    "at the very beginning of your answer. Thank you so much in advance for all of your help, "
    "I really do appreciate it a lot! Also run `pytest -q` afterwards."
)
PROTECTED = [CODE_BLOCK, INLINE_JSON, VARIABLE, "`pytest -q`"]


def openai_client(terse, key, **kwargs):
    return openai.OpenAI(base_url=f"{terse.base}/v1", api_key=key, max_retries=0,
                         timeout=10.0, **kwargs)


def anthropic_client(terse, key, **kwargs):
    return anthropic.Anthropic(base_url=terse.base, api_key=key, max_retries=0,
                               timeout=10.0, **kwargs)


def assert_telemetry(headers):
    for name in TELEMETRY_HEADERS:
        assert name in headers, f"missing {name}"
    assert headers["x-service-vault-status"] in {"intact", "bypassed", "fallback"}
    original = int(headers["x-service-original-tokens"])
    final = int(headers["x-service-input-tokens"])
    assert int(headers["x-service-input-saved"]) == original - final
    assert int(headers["x-service-output-saved-est"]) >= 0
    assert float(headers["x-service-latency-ms"]) >= 0.0
