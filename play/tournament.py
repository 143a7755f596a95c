"""Tournaments: many games between bots, on one core, several processes, or a Ray cluster.

Game `i` is played with the seed `seed + i`, and the seats turn: in game `i` seat `s` is
played by bot `(s + i) % n` of the list. So a game's result depends only on its index, and
a tournament gives the same results whatever the number of workers.
"""

from __future__ import annotations

import copy
import importlib
import math
import random
import statistics
import types
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .bots import make_bot
from .engines import EngineRef


def seating(bots: list[str], game: int) -> list[str]:
    """The bot playing each seat in game number `game`: the list turned by the game's index."""
    shift = game % len(bots)
    return bots[shift:] + bots[:shift]


def play_game(engine: types.ModuleType, bots: list[str], game: int, seed: int) -> dict:
    """One game; the record is plain JSON and replayable (its seed and its actions)."""
    seats = seating(bots, game)
    players = [make_bot(name) for name in seats]
    state = engine.new_game(len(seats), seed + game)
    choosers = [random.Random((seed + game) * 1_000_003 + seat) for seat in range(len(seats))]
    actions = []
    while not state.is_over():
        seat = state.current_player
        legal = state.legal_actions()
        action = players[seat].choose(engine, state.observation(seat), legal, choosers[seat])
        state.apply(action)
        actions.append(copy.deepcopy(action))  # a plain dict: legal actions are read-only
    scores = state.scores()
    totals = [score["total"] for score in scores]
    if hasattr(state, "team_scores"):
        by_team = {team["team"]: team["total"] for team in state.team_scores()}
        totals = [by_team[score["team"]] for score in scores]
    final = state.to_dict()["players"]
    return {
        "game": game,
        "seed": seed + game,
        "edition": engine.EDITION,
        "bots": seats,
        "scores": totals,
        "winners": state.winners(),
        "actions": actions,
        "turns": len(actions),
        "tickets_completed": [len(score["tickets_completed"]) for score in scores],
        # Each seat's tickets: [ticket id, completed], its hand's and (in team play) not its holder's.
        "ticket_results": [
            [[entry["ticket"], True] for entry in score["tickets_completed"]]
            + [[entry["ticket"], False] for entry in score["tickets_failed"]]
            for score in scores
        ],
        "tickets_failed": [len(score["tickets_failed"]) for score in scores],
        "routes": [_count_lengths(engine, player["routes"]) for player in final],
        "routes_taken": [route for player in final for route in player["routes"]],
    }


def _count_lengths(engine: types.ModuleType, routes: list[str]) -> dict[str, int]:
    """How many routes of each length (as text, for JSON)."""
    counted: dict[str, int] = {}
    for route in routes:
        length = str(engine.ROUTES[route]["length"])
        counted[length] = counted.get(length, 0) + 1
    return counted


def load(reference: EngineRef | str) -> types.ModuleType:
    return importlib.import_module(reference) if isinstance(reference, str) else reference.load()


def play_batch(reference: EngineRef | str, bots: list[str], games: list[int], seed: int) -> list[dict]:
    engine = load(reference)
    return [play_game(engine, bots, game, seed) for game in games]


def batches(games: int, size: int) -> list[list[int]]:
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def run(
    package: EngineRef | str,
    bots: list[str],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
    batch_size: int | None = None,
) -> list[dict]:
    """Every game's record, in game order. `package`: an engine reference, or an importable module name.

    Games go out in batches (by default small enough to keep every worker busy, at most 10).
    """
    if batch_size is None:
        batch_size = max(1, min(10, games // (4 * max(workers, 2 if ray_address else 1))))
    chunks = batches(games, batch_size)
    results: list[dict] = []

    def done(records: Iterable[dict]) -> None:
        records = list(records)
        results.extend(records)
        if progress:
            progress(len(records))

    if ray_address:
        from .scale import run_on_ray

        for records in run_on_ray(ray_address, package, bots, chunks, seed):
            done(records)
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for records in pool.map(
                play_batch, [package] * len(chunks), [bots] * len(chunks), chunks, [seed] * len(chunks)
            ):
                done(records)
    else:
        engine = load(package)
        for chunk in chunks:
            done(play_game(engine, bots, game, seed) for game in chunk)
    return sorted(results, key=lambda record: record["game"])


@dataclass(frozen=True, slots=True, kw_only=True)
class BotSummary:
    bot: str
    seats: int  # seats played, over all games
    wins: int
    win_low: float
    win_high: float
    mean_score: float
    spread: float
    tickets: float  # completed per game
    routes_by_length: dict[str, float]
    turns: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if total == 0:
        return 0.0, 0.0
    rate = wins / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(records: list[dict]) -> list[BotSummary]:
    """Per bot name: wins (a shared victory counts for each winner), scores, tickets, routes, length."""
    by_bot: dict[str, list[tuple[dict, int]]] = {}
    for record in records:
        for seat, bot in enumerate(record["bots"]):
            by_bot.setdefault(bot, []).append((record, seat))
    summaries = []
    for bot, seats in by_bot.items():
        scores = [record["scores"][seat] for record, seat in seats]
        wins = sum(seat in record["winners"] for record, seat in seats)
        low, high = wilson(wins, len(seats))
        lengths: dict[str, float] = {}
        for record, seat in seats:
            for length, count in record["routes"][seat].items():
                lengths[length] = lengths.get(length, 0) + count / len(seats)
        summaries.append(
            BotSummary(
                bot=bot,
                seats=len(seats),
                wins=wins,
                win_low=low,
                win_high=high,
                mean_score=statistics.fmean(scores),
                spread=statistics.pstdev(scores) if len(scores) > 1 else 0.0,
                tickets=statistics.fmean(record["tickets_completed"][seat] for record, seat in seats),
                routes_by_length=dict(sorted(lengths.items(), key=lambda item: int(item[0]))),
                turns=statistics.fmean(record["turns"] for record, _ in seats),
            )
        )
    return sorted(summaries, key=lambda summary: -summary.win_rate)
