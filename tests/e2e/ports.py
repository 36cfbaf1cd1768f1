"""Loopback ports for the servers the tests start."""

import socket

_GIVEN = set()


def free_port() -> int:
    """A loopback port free a moment ago and never handed out before in this process: two quick
    probes can get the same port back, and a service given one port for both of its listeners
    would answer half its requests from the wrong one."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port not in _GIVEN:
            _GIVEN.add(port)
            return port
