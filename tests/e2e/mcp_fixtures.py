"""Fixtures of the MCP tests: the real service on free 127.0.0.1 ports, keys, and `terse mcp`
driven by the official Python MCP SDK's stdio client.

Kept apart from conftest.py (shared with the proxy tests) so the two sets of fixtures evolve
independently; test_mcp.py imports what it uses from here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import AsyncIterator

import pytest
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

from ports import free_port

REPO = Path(__file__).resolve().parents[2]
# Longest wait for the service to become ready, and for one MCP request.
READY_TIMEOUT_S = 60
CALL_TIMEOUT_S = 30


def terse_bin() -> str:
    """The binary under test: $TERSE_BIN (test.sh sets it), else a local release or debug build."""
    candidates = [os.environ.get("TERSE_BIN", "")]
    candidates += [str(REPO / "target" / p / "terse") for p in ("release", "debug")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("no terse binary: build it (cargo build --release) or set TERSE_BIN", pytrace=False)


def closed_port_url() -> str:
    """The address of a port nothing listens on."""
    return f"http://127.0.0.1:{free_port()}"


class Service:
    """`terse serve` on free ports with its own data directory; keys made with `terse keys`."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.public = f"127.0.0.1:{free_port()}"
        self.url = f"http://{self.public}"
        self.log_path = workdir / "service.log"
        self.env = {
            **os.environ,
            "SERVICE_STORAGE_DATA_DIR": str(workdir / "data"),
            "SERVICE_SERVER_PUBLIC_LISTEN": self.public,
            "SERVICE_SERVER_ADMIN_LISTEN": f"127.0.0.1:{free_port()}",
            "SERVICE_ADMIN_TOKEN": "mcp-tests-admin-token-0123456789",
            "SERVICE_USAGE_FLUSH_INTERVAL_MS": "100",
            "SERVICE_SERVER_THREADS": "1",
        }
        self.process: subprocess.Popen | None = None

    def create_key(self, name: str, scope: str, *extra: str) -> str:
        done = subprocess.run(
            [terse_bin(), "keys", "create", "--name", name, "--scope", scope, *extra],
            env=self.env, capture_output=True, text=True, timeout=60, check=False,
        )
        assert done.returncode == 0, f"keys create failed: {done.stderr}"
        secret = done.stdout.strip().splitlines()[-1]
        assert secret.startswith("svc_live_"), "the secret is the last line of stdout"
        return secret

    def start(self) -> None:
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [terse_bin(), "serve"], env=self.env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"terse serve exited: {self.log_path.read_text()}", pytrace=False)
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.1)
        pytest.fail(f"terse serve not ready in {READY_TIMEOUT_S} s", pytrace=False)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def compress_directly(self, key: str, body: dict) -> dict:
        """POST /api/v1/compress without MCP, to compare with what the tool returns."""
        request = urllib.request.Request(
            f"{self.url}/api/v1/compress", data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=CALL_TIMEOUT_S) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="session")
def terse_service():
    workdir = Path(tempfile.mkdtemp(prefix="terse-mcp-e2e-"))
    svc = Service(workdir)
    svc.keys = {
        "full": svc.create_key("mcp-full", "full"),
        "compress_only": svc.create_key("mcp-compress", "compress_only"),
        "proxy_only": svc.create_key("mcp-proxy", "proxy_only"),
        "one_rpm": svc.create_key("mcp-limited", "compress_only", "--rpm", "1"),
        "tiny_quota": svc.create_key("mcp-quota", "compress_only", "--monthly-quota", "5"),
    }
    svc.start()
    yield svc
    svc.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def mcp_env(**settings: str) -> dict[str, str]:
    """The `env` of an assistant's MCP configuration entry, plus what the process needs to run."""
    env = {"RUST_LOG": "info"}
    env.update(settings)
    return env


@contextlib.asynccontextmanager
async def mcp_session(env: dict[str, str], errlog=None) -> AsyncIterator[tuple[ClientSession, types.InitializeResult]]:
    """Starts `terse mcp` as an assistant does and completes the MCP handshake."""
    params = StdioServerParameters(command=terse_bin(), args=["mcp"], env=env)
    with contextlib.ExitStack() as stack:
        if errlog is None:
            errlog = stack.enter_context(tempfile.TemporaryFile("w+"))
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=CALL_TIMEOUT_S) as session:
                init = await session.initialize()
                yield session, init


def run_terse_mcp(env: dict[str, str]) -> subprocess.CompletedProcess:
    """Runs `terse mcp` without a client (for start-up errors): stdin is closed at once."""
    return subprocess.run(
        [terse_bin(), "mcp"], env={"PATH": os.environ.get("PATH", ""), **env},
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30, check=False,
    )


def brevity_directives() -> dict[str, str]:
    """The directive of each level, read from the engine's source (filters/src/brevity.rs), the
    single place it is written, so the test compares against the text the proxy injects."""
    source = (REPO / "filters" / "src" / "brevity.rs").read_text()
    directives = {}
    for level in ("lite", "full", "ultra"):
        match = re.search(rf"const {level.upper()}: &str = concat!\((.*?)\);", source, re.S)
        assert match, f"no {level.upper()} directive in brevity.rs"
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))
        directives[level] = "".join(json.loads(f'"{part}"') for part in parts)
    return directives


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))
