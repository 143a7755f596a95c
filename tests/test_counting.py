"""The counting API (issue 23): `legal_count()`, `legal_at(k)`, `sample_id(rng)` and the
playout they define, checked against the dict API at every step of random games, in every
edition. A native core is held to the same: the order of `legal_at` is `legal_actions()`'s."""

from __future__ import annotations

import random

import pytest

from tests.engines import EACH_EDITION, EDITIONS, engine
from tests.test_speed_api import random_games

MASK = (1 << 64) - 1


@pytest.mark.parametrize("edition", EACH_EDITION)
def test_the_k_th_legal_action_is_the_k_th_listed_at_every_step(edition: str) -> None:
    module = engine(edition)
    steps = 0
    for game, _chooser in random_games(module, 3):
        actions = game.legal_actions()
        count = game.legal_count()
        assert count == len(actions)
        found = [game.legal_at(k) for k in range(count)]
        assert found == actions
        assert [action.id for action in found] == [action.id for action in actions]
        with pytest.raises(IndexError):
            game.legal_at(count)
        sampled = game.sample_id(random.Random(steps))
        assert sampled in game.legal_action_ids()
        steps += 1
    assert steps > 150


@pytest.mark.parametrize("k", [-1, 1.0, "0", None, True])
def test_a_position_that_is_no_index_is_refused(k) -> None:
    game = engine("usa-2025").new_game(2, 1)
    with pytest.raises(IndexError):
        game.legal_at(k)


def lcg(state: int) -> int:
    """The playouts' generator, written here from its definition: the next 64-bit state."""
    return (state * 6364136223846793005 + 1442695040888963407) & MASK


@pytest.mark.parametrize("edition", EDITIONS)
def test_playout_draws_each_move_by_count_from_its_seed(edition: str) -> None:
    """What any build of an engine must play: the generator seeded with `getrandbits(64)`, each
    move the legal action at `(state >> 32) * legal_count() >> 32`."""
    module = engine(edition)
    low, high = module.PLAYERS
    for seed in range(3):
        players = max(low, min(high, 2 + seed))
        played = module.new_game(players, seed)
        by_hand = played.copy()
        played.playout(random.Random(seed))
        state = random.Random(seed).getrandbits(64)
        while not by_hand.is_over():
            state = lcg(state)
            by_hand.apply(by_hand.legal_at(((state >> 32) * by_hand.legal_count()) >> 32))
        assert by_hand.to_dict() == played.to_dict()
