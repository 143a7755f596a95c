"""The same seed plays the same game: 200 random games per edition, recorded before the
speed work of issue 11 (their legal actions at every step, the final state, the scores
and the winners, as one digest per game), must come out identical from today's engines.

A change that is meant to change games re-records them with
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
def test_a_seed_plays_the_recorded_game(edition: str) -> None:
    module = engine(edition)
    games = [digest(module, seed) for seed in range(GAMES)]
    if rewriting():
        recorded = json.loads(RECORDED.read_text(encoding="utf-8")) if RECORDED.exists() else {}
        recorded[edition] = games
        RECORDED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        rewritten(RECORDED)
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert edition in recorded, f"no recorded games for {edition}"
    differing = [
        seed for seed, (now, then) in enumerate(zip(games, recorded[edition], strict=True)) if now != then
    ]
    assert not differing, f"{edition}: seeds {differing[:10]} play differently from the recorded games"
