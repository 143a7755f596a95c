"""Random games per second through an engine's API, on one core.

    python benchmarks/bench_engine.py [--edition usa-2025] [--games 1000] [--players 4]
        [--api dict|ids|sample|playout|core] [--native] [--against REV]

Each game: new_game, then uniform random legal moves until the game is over, then
scores(). `--api dict` plays through legal_actions()/apply(), `ids` through
legal_action_ids()/apply_id(), `sample` through apply_id(sample_id(rng)) (the
counting API), `core` through the native playout core (`engine_core`, built by `aventuriers
build --native`: the same games as `playout`, in C), `playout` calls Game.playout(rng) (the moves are drawn
inside the engine). `--playout-only` leaves new_game() and scores() out of the time. `--native` plays the native engine (`engine_core`, built by `aventuriers build --native`) through the chosen API.
`--against REV` also runs the same benchmark, in the same process and in alternate
rounds, on the engine of git revision REV (say, the commit before a change). The best of
the rounds is reported (the least disturbed by the machine), with the actions per game.
"""

from __future__ import annotations

import argparse
import importlib
import random
import subprocess
import time
import types
from pathlib import Path

from aventuriers.compiler.native import native_engine, native_playout

ROOT = Path(__file__).resolve().parent.parent


def play(
    engine, api: str, games: int, players: int, seed: int, playout_only: bool = False
) -> tuple[float, int]:
    chooser = random.Random(seed)
    core = native_playout(engine) if api == "core" else None
    if api == "core" and core is None:
        raise SystemExit(f"{engine.EDITION} : pas de cœur natif construit (aventuriers build --native)")
    actions = 0
    started = time.perf_counter()
    outside = 0.0  # with `playout_only`, the time spent setting up and scoring games
    for index in range(games):
        before = time.perf_counter()
        game = engine.new_game(players, seed + index)
        if playout_only:
            outside += time.perf_counter() - before
        if api == "playout":
            game.playout(chooser)
        elif api == "core":
            core(game, chooser)
        elif api == "sample":
            while not game.is_over():
                game.apply_id(game.sample_id(chooser))
                actions += 1
        elif api == "ids":
            while not game.is_over():
                legal = game.legal_action_ids()
                game.apply_id(legal[chooser.randrange(len(legal))])
                actions += 1
        else:
            while not game.is_over():
                game.apply(chooser.choice(game.legal_actions()))
                actions += 1
        before = time.perf_counter()
        game.scores()
        if playout_only:
            outside += time.perf_counter() - before
    return time.perf_counter() - started - outside, actions


def engine_at(revision: str, module: str) -> types.ModuleType:
    """The generated engine of `module` as committed at `revision`, loaded under another name."""
    source = subprocess.run(
        ["git", "show", f"{revision}:generated/{module}/engine.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    loaded = types.ModuleType(f"engine_at_{revision}")
    exec(compile(source, f"<{module} at {revision}>", "exec"), loaded.__dict__)
    return loaded


# The method each API needs: an older engine without it is played through the dict API.
API_METHOD = {
    "dict": "apply",
    "ids": "apply_id",
    "sample": "sample_id",
    "playout": "playout",
    "core": "playout",
}


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--edition", default="usa-2025")
    options.add_argument("--games", type=int, default=1000)
    options.add_argument("--players", type=int, default=4)
    options.add_argument("--rounds", type=int, default=3)
    options.add_argument("--api", choices=("dict", "ids", "sample", "playout", "core"), default="dict")
    options.add_argument("--native", action="store_true")
    options.add_argument("--against", metavar="REV")
    options.add_argument(
        "--playout-only", action="store_true", help="time the play alone, not new_game() and scores()"
    )
    args = options.parse_args()
    module = args.edition.replace("-", "_")
    package = f"aventuriers.generated.{module}"
    engine = importlib.import_module(package)
    if args.native:
        engine = native_engine(engine)
        if engine is None:
            raise SystemExit(f"{args.edition} : pas de moteur natif construit (aventuriers build --native)")
    engines = {"now": engine}
    if args.against:
        engines[args.against] = engine_at(args.against, module)
    # Engines without an API are played through the dict API.
    apis = {
        label: args.api if hasattr(candidate.Game, API_METHOD[args.api]) else "dict"
        for label, candidate in engines.items()
    }
    if args.api == "core" and args.against:
        apis[args.against] = "playout"  # an older engine's own playout: the same games, in Python
    best: dict[str, tuple[float, int]] = {}
    for _ in range(args.rounds):
        for label, candidate in engines.items():
            result = play(
                candidate, apis[label], args.games, args.players, seed=1, playout_only=args.playout_only
            )
            best[label] = min(best.get(label, result), result)
    for label, (seconds, actions) in best.items():
        kind = f"{'native' if (args.native or apis[label] == 'core') and label == 'now' else 'pure'} {apis[label]}"
        per_action = (
            f", {actions / args.games:.0f} actions per game, {seconds / actions * 1e6:.1f} µs per step"
            if actions
            else ""
        )
        print(
            f"{args.edition} ({label}, {kind}): {args.games} random {args.players}-player games in "
            f"{seconds:.2f} s: {args.games / seconds:.0f} games/s{per_action}"
        )


if __name__ == "__main__":
    main()
