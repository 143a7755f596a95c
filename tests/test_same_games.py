"""The same seed plays the same game: 200 random games per edition, recorded before the
speed work of issue 11 (their legal actions at every step, the final state, the scores
and the winners, as one digest per game), must come out identical from today's engines.

A default run plays the first 20 seeds of each edition, `-m slow` the other 180.

A change that is meant to change games re-records them (all 200) with
`AVENTURIERS_UPDATE_EXPECTED=1 pytest tests/test_same_games.py -n 0` (see tests/ci.py), and
says why in its commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from tests.ci import rewriting, rewritten
from tests.engines import EDITIONS, engine, seat_counts

RECORDED = Path(__file__).resolve().parent / "expected" / "trajectories.json"
GAMES = 200
QUICK_GAMES = 20


def digest(module, seed: int) -> str:
    counts = seat_counts(module)
    game = module.new_game(counts[seed % len(counts)], seed)
    chooser = random.Random(seed)
    played = hashlib.sha256()
    while not game.is_over():
        actions = game.legal_actions()
        played.update(json.dumps(actions, sort_keys=True).encode())
        game.apply(chooser.choice(actions))
    played.update(json.dumps([game.to_dict(), game.scores(), game.winners()], sort_keys=True).encode())
    return played.hexdigest()[:16]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_first_seeds_play_the_recorded_games(edition: str) -> None:
    if rewriting():
        recorded = json.loads(RECORDED.read_text(encoding="utf-8")) if RECORDED.exists() else {}
        recorded[edition] = [digest(engine(edition), seed) for seed in range(GAMES)]
        RECORDED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        rewritten(RECORDED)
    compare(edition, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_seed_plays_the_recorded_game(edition: str) -> None:
    compare(edition, range(QUICK_GAMES, GAMES))


def compare(edition: str, seeds: range) -> None:
    module = engine(edition)
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert edition in recorded, f"no recorded games for {edition}"
    assert len(recorded[edition]) == GAMES, f"{edition}: {len(recorded[edition])} games recorded, not {GAMES}"
    differing = [seed for seed in seeds if digest(module, seed) != recorded[edition][seed]]
    assert not differing, f"{edition}: seeds {differing[:10]} play differently from the recorded games"
