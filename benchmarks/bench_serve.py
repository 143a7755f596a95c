"""Load on `aventuriers serve`: concurrent games moving at once, on 127.0.0.1.

python benchmarks/bench_serve.py [--edition usa-2025] [--games 50] [--actions 40] [--think 1.0]

Starts the server in a second process, then plays ``--games`` games at once
(asyncio, one HTTP client): each game's person looks at the state, thinks
``--think`` seconds (0: no pause at all, the server's throughput), plays a random
legal action and lets the two greedy bots answer, until it has made
``--actions`` actions or the game ends. Prints the median and 95th percentile of a person's action (the POST
that the engine checks and applies) and of the whole round trip with the bots'
answer, and the number of errors; exits 1 on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time


async def one_game(
    client, base: str, seed: int, actions: int, think: float, timings: dict, errors: list
) -> None:
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
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
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


async def load(base: str, seeds: range, actions: int, think: float) -> tuple[dict, list]:
    import httpx

    timings: dict[str, list[float]] = {"action": [], "advance": []}
    errors: list[str] = []
    limits = httpx.Limits(max_connections=len(seeds), max_keepalive_connections=len(seeds))
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        await asyncio.gather(
            *(one_game(client, base, seed, actions, think, timings, errors) for seed in seeds)
        )
    return timings, errors


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _client(args: tuple[str, range, int, float]) -> tuple[dict, list]:
    base, seeds, actions, think = args
    return asyncio.run(load(base, seeds, actions, think))


def run(edition: str, games: int, actions: int, think: float, clients: int = 4) -> tuple[dict, list]:
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
            # The games are shared among client processes: one process alone would be the bottleneck.
            shares = [range(start, games, clients) for start in range(min(clients, games))]
            with multiprocessing.get_context("spawn").Pool(len(shares)) as pool:
                results = pool.map(_client, [(base, share, actions, think) for share in shares])
            timings: dict[str, list[float]] = {"action": [], "advance": []}
            errors: list[str] = []
            for part, failed in results:
                for key in timings:
                    timings[key].extend(part[key])
                errors.extend(failed)
            return timings, errors
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--edition", default="usa-2025")
    options.add_argument("--games", type=int, default=50)
    options.add_argument("--actions", type=int, default=40)
    options.add_argument("--think", type=float, default=1.0, help="seconds a person thinks, on average")
    options.add_argument("--clients", type=int, default=4, help="client processes sharing the games")
    args = options.parse_args()
    started = time.perf_counter()
    timings, errors = run(args.edition, args.games, args.actions, args.think, args.clients)
    elapsed = time.perf_counter() - started

    def ms(values: list[float], q: float) -> str:
        if not values:
            return "-"
        ordered = sorted(values)
        return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f} ms"

    print(
        f"{args.games} concurrent games of {args.edition} (thinking {args.think} s), "
        f"{len(timings['action'])} person actions, "
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
