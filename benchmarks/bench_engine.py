"""Random 4-player games per second through legal_actions()/apply(), on one core.

    python benchmarks/bench_engine.py [--edition usa-2025] [--games 1000] [--players 4]

Each game: new_game, then uniform random legal actions until is_over(), then
scores(). The best of three rounds is reported (the least disturbed by the
machine), with the mean number of actions per game.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time


def play(engine, games: int, players: int, seed: int) -> tuple[float, int]:
    chooser = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    for index in range(games):
        game = engine.new_game(players, seed + index)
        while not game.is_over():
            game.apply(chooser.choice(game.legal_actions()))
            actions += 1
        game.scores()
    return time.perf_counter() - started, actions


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--edition", default="usa-2025")
    options.add_argument("--games", type=int, default=1000)
    options.add_argument("--players", type=int, default=4)
    options.add_argument("--rounds", type=int, default=3)
    args = options.parse_args()
    engine = importlib.import_module(f"aventuriers.generated.{args.edition.replace('-', '_')}")
    best, actions = min(play(engine, args.games, args.players, seed=1) for _ in range(args.rounds))
    print(
        f"{args.edition}: {args.games} random {args.players}-player games in {best:.2f} s: "
        f"{args.games / best:.0f} games/s, {actions / args.games:.0f} actions per game, "
        f"{best / actions * 1e6:.1f} µs per legal_actions()+apply()"
    )


if __name__ == "__main__":
    main()
