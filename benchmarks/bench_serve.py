"""Load on `aventuriers serve`: concurrent games moving at once, on 127.0.0.1.

python benchmarks/bench_serve.py [--edition usa-2025] [--games 50] [--actions 40]

Starts the server in a second process, then plays ``--games`` games at once
(asyncio, one HTTP client): each game's person plays random legal actions and
lets the two greedy bots answer, until it has made ``--actions`` actions or the
game ends. Prints the median and 95th percentile of a person's action (the POST
that the engine checks and applies) and of the whole round trip with the bots'
answer, and the number of errors; exits 1 on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time


async def one_game(client, base: str, seed: int, actions: int, timings: dict, errors: list) -> None:
    import httpx

    try:
        created = await client.post(f"{base}/games", data={"humans": "1", "seed": str(seed)})
        game = created.headers["location"].rsplit("/", 1)[-1]
        rng = random.Random(seed)
        made = 0
        while made < actions:
            state = (await client.get(f"{base}/games/{game}/state.json")).json()
            if state["over"]:
                break
            if not state["human_turn"]:
                started = time.perf_counter()
                response = await client.post(
                    f"{base}/games/{game}/advance", headers={"accept": "application/json"}
                )
                timings["advance"].append(time.perf_counter() - started)
                if response.status_code != 200:
                    errors.append(f"advance {response.status_code}")
                continue
            action = rng.choice(state["legal_actions"])
            started = time.perf_counter()
            response = await client.post(
                f"{base}/games/{game}/action",
                data={"action": json.dumps(action)},
                headers={"accept": "application/json"},
            )
            timings["action"].append(time.perf_counter() - started)
            if response.status_code != 200:
                errors.append(f"action {response.status_code}: {response.text[:200]}")
            made += 1
    except (httpx.HTTPError, KeyError, ValueError) as error:
        errors.append(repr(error))


async def load(base: str, games: int, actions: int) -> tuple[dict, list]:
    import httpx

    timings: dict[str, list[float]] = {"action": [], "advance": []}
    errors: list[str] = []
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        await asyncio.gather(
            *(one_game(client, base, seed, actions, timings, errors) for seed in range(games))
        )
    return timings, errors


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(edition: str, games: int, actions: int) -> tuple[dict, list]:
    port = free_port()
    with tempfile.TemporaryDirectory() as records:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "aventuriers.compiler.cli",
                "serve",
                edition,
                "--port",
                str(port),
                "--bots",
                "greedy,greedy",
                "--records",
                records,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            import httpx

            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise RuntimeError(
                            "the server did not start: "
                            + (server.stderr.read() if server.poll() is not None else "")
                        ) from None
                    time.sleep(0.1)
            return asyncio.run(load(base, games, actions))
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--edition", default="usa-2025")
    options.add_argument("--games", type=int, default=50)
    options.add_argument("--actions", type=int, default=40)
    args = options.parse_args()
    started = time.perf_counter()
    timings, errors = run(args.edition, args.games, args.actions)
    elapsed = time.perf_counter() - started

    def ms(values: list[float], q: float) -> str:
        if not values:
            return "-"
        ordered = sorted(values)
        return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f} ms"

    print(
        f"{args.games} concurrent games of {args.edition}, {len(timings['action'])} person actions, "
        f"{len(timings['advance'])} bot turns in {elapsed:.1f} s: "
        f"action median {statistics.median(timings['action']) * 1000:.1f} ms, p95 {ms(timings['action'], 0.95)}; "
        f"bots' answer median {ms(timings['advance'], 0.5)}, p95 {ms(timings['advance'], 0.95)}; "
        f"{len(errors)} errors"
    )
    for error in errors[:10]:
        print("  " + error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
