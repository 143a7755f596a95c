"""One game between bots, as a plain, replayable record; a batch of them for a worker.

What the tournament's processes and a Ray cluster's workers run alike (``tournament``,
``scale``): below both, so that neither imports the other to play.
"""

from __future__ import annotations

import copy
import importlib
import random
import types

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
