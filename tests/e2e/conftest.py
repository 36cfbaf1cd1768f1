"""Fixtures of the end-to-end proxy tests: the mock provider and the real terse binary.

Everything binds 127.0.0.1 on free ports; the data directory and logs live in a temporary
directory removed at the end. `TERSE_BIN` names the binary (test.sh sets it to the release
build).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from ports import free_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ADMIN_TOKEN = "e2e-admin-token-0123456789abcdef"
# The credentials terse sends upstream for service-key requests (the mock records them).
UPSTREAM_CREDENTIALS = {
    "OPENAI_API_KEY": "upstream-openai-credential",
    "ANTHROPIC_API_KEY": "upstream-anthropic-credential",
    "OPENROUTER_API_KEY": "upstream-openrouter-credential",
    "INFERENCE_API_KEY": "upstream-inference-credential",
    "CUSTOM_API_KEY": "upstream-custom-credential",
}
TARGETS = ["openai", "anthropic", "openrouter", "inference", "custom"]
# How long the proxy waits for an upstream answer in these tests (the 504 test hangs longer).
UPSTREAM_TIMEOUT_MS = 1500


def terse_bin():
    path = os.environ.get("TERSE_BIN") or str(ROOT / "target" / "release" / "terse")
    if not Path(path).exists():
        pytest.exit(f"terse binary not found at {path}: build it or set TERSE_BIN", 2)
    return path


def http_get_json(url, timeout=2.0):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


def wait_until(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


class MockProvider:
    def __init__(self, process, port):
        self.process = process
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def requests(self):
        return http_get_json(f"{self.base}/_mock/requests")

    def last_request(self):
        received = self.requests()
        assert received, "the mock received no request"
        return received[-1]

    def streams(self):
        return http_get_json(f"{self.base}/_mock/streams")

    def reset(self):
        http_get_json(f"{self.base}/_mock/reset")


@pytest.fixture(scope="session")
def mock():
    process = subprocess.Popen(
        [sys.executable, str(HERE / "mock_provider.py"), "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline().split()
    if len(line) != 2 or line[0] != "ready":
        process.kill()
        raise RuntimeError("the mock provider did not start")
    provider = MockProvider(process, int(line[1]))
    yield provider
    process.terminate()
    process.wait(timeout=5)


class Terse:
    def __init__(self, base, admin, data_dir, log_path, env, process):
        self.base = base
        self.admin = admin
        self.data_dir = data_dir
        self.log_path = log_path
        self.env = env
        self.process = process
        self.keys = {}

    def create_key(self, name, *args):
        out = subprocess.run(
            [terse_bin(), "keys", "create", "--name", name, *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return out.stdout.strip().splitlines()[-1]

    def logs(self):
        return Path(self.log_path).read_text(errors="replace")


@pytest.fixture(scope="session")
def terse(mock):
    workdir = Path(tempfile.mkdtemp(prefix="terse-e2e-"))
    port, admin_port = free_port(), free_port()
    env = dict(os.environ)
    env.update(UPSTREAM_CREDENTIALS)
    env.update({
        "SERVICE_STORAGE_DATA_DIR": str(workdir / "data"),
        "SERVICE_SERVER_PUBLIC_LISTEN": f"127.0.0.1:{port}",
        "SERVICE_SERVER_ADMIN_LISTEN": f"127.0.0.1:{admin_port}",
        "SERVICE_ADMIN_TOKEN": ADMIN_TOKEN,
        "SERVICE_SERVER_THREADS": "2",
        "SERVICE_PROXY_UPSTREAM_TIMEOUT_MS": str(UPSTREAM_TIMEOUT_MS),
        "SERVICE_LOGGING_LEVEL": "debug",
        "RUST_LOG": "debug",
    })
    # Each target gets its own path prefix on the mock, so a test can tell where a request went.
    for name in TARGETS:
        env[f"SERVICE_TARGET_{name.upper()}_BASE_URL"] = f"{mock.base}/{name}"
    # ...except `custom`, which points at a port nothing listens on (the 502 test).
    env["SERVICE_TARGET_CUSTOM_BASE_URL"] = f"http://127.0.0.1:{free_port()}"
    server = Terse(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{admin_port}",
                   workdir / "data", workdir / "terse.log", env, None)
    # Keys are created before the server starts (the CLI works on the data directory).
    server.keys = {
        "full": server.create_key("e2e-full", "--scope", "full"),
        "proxy_only": server.create_key("e2e-proxy", "--scope", "proxy_only"),
        "compress_only": server.create_key("e2e-compress", "--scope", "compress_only"),
        "limited": server.create_key("e2e-limited", "--scope", "full", "--rpm", "2"),
        "off": server.create_key("e2e-off", "--scope", "full", "--mode", "off",
                                 "--brevity", "off"),
        "revoked": server.create_key("e2e-revoked", "--scope", "full"),
    }
    listed = subprocess.run([terse_bin(), "keys", "list"], env=env, capture_output=True,
                            text=True, timeout=30, check=True).stdout
    revoked_id = next(line.split()[0] for line in listed.splitlines() if "e2e-revoked" in line)
    subprocess.run([terse_bin(), "keys", "revoke", revoked_id], env=env, capture_output=True,
                   timeout=30, check=True)
    log = open(server.log_path, "w")
    server.process = subprocess.Popen([terse_bin(), "serve"], env=env, stdout=log,
                                      stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: http_get_json(f"{server.base}/healthz") is not None, 20,
                   "terse /healthz")
        yield server
    finally:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def fresh_mock(mock):
    mock.reset()
    return mock
