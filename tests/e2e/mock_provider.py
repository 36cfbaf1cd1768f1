"""A mock model provider on 127.0.0.1 speaking OpenAI chat completions and Anthropic messages.

It records every request it receives (path, headers, raw body) and how each stream ended, and
answers in the protocol's own shape, streaming (server-sent events `interval` seconds apart,
each stamped with its send time, the first one `interval` after the header) or not. Requests steer it with headers the proxy forwards:

  X-Mock-Status: 429         answer with this status and the protocol's error body
  X-Mock-Hang: 3.5           wait this many seconds before answering
  X-Mock-Events: 5           number of content events in a stream (default 3)
  X-Mock-Interval-Ms: 200    gap between stream events (default 200)

Control endpoints (GET): /_mock/requests (JSON list), /_mock/streams (JSON list of stream
records: sent timestamps, whether the client went away), /_mock/reset.

Run: python mock_provider.py PORT   (prints "ready PORT" on stdout once listening)
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REQUESTS = []
STREAMS = []
LOCK = threading.Lock()
# A tiny fixed answer; its token counts are what `usage` reports.
ANSWER_WORDS = ["The", " answer", " is", " 42", "."]


def openai_error(status, message):
    kinds = {401: "invalid_request_error", 429: "rate_limit_exceeded"}
    return {"error": {"message": message, "type": kinds.get(status, "server_error"),
                      "param": None, "code": f"mock_{status}"}}


def anthropic_error(status, message):
    kinds = {400: "invalid_request_error", 401: "authentication_error", 429: "rate_limit_error",
             529: "overloaded_error"}
    return {"type": "error", "error": {"type": kinds.get(status, "api_error"), "message": message}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    # ---- plumbing -------------------------------------------------------------------------
    def send_json(self, status, payload, extra_headers=()):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.send_header("x-mock-upstream", "1")
        for name, value in extra_headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def read_body(self):
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("content-length", "0"))
        return self.rfile.read(length)

    def write_chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    # ---- control --------------------------------------------------------------------------
    def do_GET(self):
        if self.path == "/_mock/requests":
            with LOCK:
                self.send_json(200, REQUESTS)
        elif self.path == "/_mock/streams":
            with LOCK:
                self.send_json(200, STREAMS)
        elif self.path == "/_mock/reset":
            with LOCK:
                REQUESTS.clear()
                STREAMS.clear()
            self.send_json(200, {"ok": True})
        else:
            self.send_json(404, {"error": "not found"})

    # ---- the two protocols ----------------------------------------------------------------
    def do_POST(self):
        raw = self.read_body()
        record = {
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": raw.decode("utf-8", "replace"),
            "received_at": time.time(),
        }
        with LOCK:
            REQUESTS.append(record)
        path = self.path.split("?")[0]
        if path.endswith("/v1/chat/completions"):
            protocol = "openai"
        elif path.endswith("/v1/messages"):
            protocol = "anthropic"
        else:
            self.send_json(404, {"error": {"message": "no such route", "type": "invalid_request_error"}})
            return
        hang = float(self.headers.get("x-mock-hang", "0"))
        if hang > 0:
            time.sleep(min(hang, 30))
        status = int(self.headers.get("x-mock-status", "200"))
        if status != 200:
            shape = openai_error if protocol == "openai" else anthropic_error
            self.send_json(status, shape(status, f"mock upstream error {status}"),
                           [("retry-after", "7")] if status == 429 else [])
            return
        try:
            request = json.loads(raw)
        except ValueError:
            shape = openai_error if protocol == "openai" else anthropic_error
            self.send_json(400, shape(400, "body is not JSON"))
            return
        model = request.get("model", "unknown")
        if request.get("stream"):
            events = int(self.headers.get("x-mock-events", "3"))
            interval = float(self.headers.get("x-mock-interval-ms", "200")) / 1000.0
            self.stream(protocol, model, request, events, interval)
        elif protocol == "openai":
            self.send_json(200, {
                "id": "chatcmpl-mock", "object": "chat.completion", "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": "".join(ANSWER_WORDS)}}],
                "usage": {"prompt_tokens": 11, "completion_tokens": len(ANSWER_WORDS),
                          "total_tokens": 11 + len(ANSWER_WORDS)},
            })
        else:
            self.send_json(200, {
                "id": "msg_mock", "type": "message", "role": "assistant", "model": model,
                "content": [{"type": "text", "text": "".join(ANSWER_WORDS)}],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 11, "output_tokens": len(ANSWER_WORDS)},
            })

    def stream(self, protocol, model, request, events, interval):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        sent = []
        record = {"protocol": protocol, "sent": sent, "completed": False, "client_gone": False}
        with LOCK:
            STREAMS.append(record)

        def emit(event_name, payload):
            # Every event, the first included, comes `interval` after the previous write, so
            # the client is already waiting for it when it is sent.
            time.sleep(interval)
            payload["mock_sent_at"] = time.time()
            text = (f"event: {event_name}\n" if event_name else "") + f"data: {json.dumps(payload)}\n\n"
            self.write_chunk(text.encode())
            sent.append(payload["mock_sent_at"])

        try:
            if protocol == "openai":
                base = {"id": "chatcmpl-mock", "object": "chat.completion.chunk",
                        "created": int(time.time()), "model": model}
                for i in range(events):
                    word = ANSWER_WORDS[i % len(ANSWER_WORDS)]
                    emit(None, dict(base, choices=[{"index": 0, "delta": {"content": word},
                                                    "finish_reason": None}]))
                emit(None, dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]))
                if (request.get("stream_options") or {}).get("include_usage"):
                    emit(None, dict(base, choices=[], usage={
                        "prompt_tokens": 11, "completion_tokens": events, "total_tokens": 11 + events}))
                self.write_chunk(b"data: [DONE]\n\n")
            else:
                emit("message_start", {"type": "message_start", "message": {
                    "id": "msg_mock", "type": "message", "role": "assistant", "model": model,
                    "content": [], "stop_reason": None, "stop_sequence": None,
                    "usage": {"input_tokens": 11, "output_tokens": 1}}})
                emit("content_block_start", {"type": "content_block_start", "index": 0,
                                             "content_block": {"type": "text", "text": ""}})
                for i in range(events):
                    word = ANSWER_WORDS[i % len(ANSWER_WORDS)]
                    emit("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                 "delta": {"type": "text_delta", "text": word}})
                emit("content_block_stop", {"type": "content_block_stop", "index": 0})
                emit("message_delta", {"type": "message_delta",
                                       "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                       "usage": {"output_tokens": events}})
                emit("message_stop", {"type": "message_stop"})
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            record["completed"] = True
        except (BrokenPipeError, ConnectionResetError):
            record["client_gone"] = True
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = Server(("127.0.0.1", port), Handler)
    print(f"ready {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
