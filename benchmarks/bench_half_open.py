"""Half-open connections against `aventuriers serve`, on 127.0.0.1.

python benchmarks/bench_half_open.py [--connections 1100]

Starts the server in a second process, opens ``--connections`` connections that
each send part of a request's head and never the rest, then measures how long a
person's request waits for its page (503s while the connections hold the
server's bound, then 200), and how many of the half-open connections the server
has closed once its header timeout has passed. Bounded: one minute at most.
"""

from __future__ import annotations

import argparse
import resource
import socket
import subprocess
import sys
import tempfile
import time

from aventuriers.play.serve_command import HEADER_SECONDS


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1100)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as records:
        command = ["aventuriers", "serve", "usa-2025", "--port", str(port), "--records", records]
        server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        try:
            return measure(port, args.connections)
        finally:
            server.terminate()
            server.wait(timeout=30)


def measure(port: int, count: int) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=2)
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(connection)
    started, refused, answered = time.monotonic(), 0, False
    while time.monotonic() - started < 60:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as person:
            person.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if person.recv(16).startswith(b"HTTP/1.1 200"):
                answered = True
                break
            refused += 1
        time.sleep(0.2)
    waited = time.monotonic() - started
    time.sleep(max(0.0, HEADER_SECONDS + 1 - waited))
    closed = 0
    for connection in held:
        connection.settimeout(0.5)
        try:
            closed += connection.recv(1) == b""
        except OSError:
            closed += 1
        connection.close()
    print(
        f"{count} half-open connections: a person's page after {waited:.1f} s ({refused} answers 503 before), "
        f"{closed} of {count} closed by the server within {HEADER_SECONDS + 1} s"
    )
    return 0 if answered and closed == count else 1


if __name__ == "__main__":
    sys.exit(main())
