"""Tournaments: many games between bots, on one core, several processes, or a Ray cluster.

Game `i` is played with the seed `seed + i`, and the seats turn: in game `i` seat `s` is
played by bot `(s + i) % n` of the list. So a game's result depends only on its index, and
a tournament gives the same results whatever the number of workers.
"""

from __future__ import annotations

import math
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .engines import EngineRef
from .games import load, play_batch, play_game
from .scale import run_on_ray


def batches(games: int, size: int) -> Iterator[list[int]]:
    """The games' numbers, ``size`` at a time, made as they are asked for."""
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def usable_workers(requested: int) -> int:
    """No more processes than this machine has processors."""
    return max(1, min(requested, os.cpu_count() or 1))


def stream(
    package: EngineRef | str,
    bots: list[str],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    ray_address: str | None = None,
    batch_size: int | None = None,
) -> Iterator[dict]:
    """Every game's record, in game order, as the games end: a few batches at most are in flight
    or waiting, so that memory does not grow with the number of games (a billion included).

    `package`: an engine reference, or an importable module name. Games go out in batches (by
    default small enough to keep every worker busy, at most 10).
    """
    workers = usable_workers(workers)
    if batch_size is None:
        batch_size = max(1, min(10, games // (4 * max(workers, 2 if ray_address else 1))))
    chunks = batches(games, batch_size)
    if ray_address:
        for records in run_on_ray(ray_address, package, bots, chunks, seed):
            yield from records
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: deque = deque()
            for chunk in chunks:
                pending.append(pool.submit(play_batch, package, bots, chunk, seed))
                if len(pending) >= IN_FLIGHT_PER_WORKER * workers:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
    else:
        engine = load(package)
        for chunk in chunks:
            for game in chunk:
                yield play_game(engine, bots, game, seed)


# Batches submitted ahead of the one awaited, per worker: enough to keep each busy.
IN_FLIGHT_PER_WORKER = 2


def run(
    package: EngineRef | str,
    bots: list[str],
    games: int,
    *,
    progress: Callable[[int], None] | None = None,
    **options: Any,
) -> list[dict]:
    """Every game's record, in game order, in one list; ``options`` are those of ``stream``,
    which gives them one by one."""
    records = []
    for record in stream(package, bots, games, **options):
        records.append(record)
        if progress:
            progress(1)
    return records


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


@dataclass(slots=True)
class _BotTally:
    seats: int = 0
    wins: int = 0
    scores: Counter = field(default_factory=Counter)  # score -> how many times
    tickets: int = 0
    turns: int = 0
    lengths: Counter = field(default_factory=Counter)  # route length -> routes claimed


@dataclass(slots=True)
class Tally:
    """What a tournament's table and picture need, gathered game by game: its size does not
    grow with the number of games (scores are counted by value)."""

    games: int = 0
    bots: dict[str, _BotTally] = field(default_factory=dict)
    taken: Counter = field(default_factory=Counter)  # route -> games it was taken in

    def add(self, record: dict) -> None:
        self.games += 1
        self.taken.update(record["routes_taken"])
        for seat, bot in enumerate(record["bots"]):
            tally = self.bots.setdefault(bot, _BotTally())
            tally.seats += 1
            tally.wins += seat in record["winners"]
            tally.scores[record["scores"][seat]] += 1
            tally.tickets += record["tickets_completed"][seat]
            tally.turns += record["turns"]
            tally.lengths.update(record["routes"][seat])

    def summaries(self) -> list[BotSummary]:
        """Per bot name: wins (a shared victory counts for each winner), scores, tickets, routes, length."""
        summaries = []
        for bot, tally in self.bots.items():
            seats = tally.seats
            mean = sum(score * count for score, count in tally.scores.items()) / seats
            variance = sum(count * (score - mean) ** 2 for score, count in tally.scores.items()) / seats
            low, high = wilson(tally.wins, seats)
            summaries.append(
                BotSummary(
                    bot=bot,
                    seats=seats,
                    wins=tally.wins,
                    win_low=low,
                    win_high=high,
                    mean_score=mean,
                    spread=math.sqrt(variance) if seats > 1 else 0.0,
                    tickets=tally.tickets / seats,
                    routes_by_length={
                        length: count / seats
                        for length, count in sorted(tally.lengths.items(), key=_by_length)
                    },
                    turns=tally.turns / seats,
                )
            )
        return sorted(summaries, key=lambda summary: -summary.win_rate)


def _by_length(item: tuple[str, int]) -> int:
    return int(item[0])


def summarise(records: Iterable[dict]) -> list[BotSummary]:
    """The table's rows for ``records``."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally.summaries()
