"""The speed API (issue 11): read-only shared legal actions, the integer action index,
`playout` and `copy()`, each checked against the dict API on random games."""

from __future__ import annotations

import copy
import importlib
import json
import pickle
import random

import pytest

from tests.engines import EACH_EDITION, EDITIONS, engine, seat_counts


def random_games(module, games: int):
    """(game, chooser) at every step of `games` random games."""
    counts = seat_counts(module)
    for seed in range(games):
        game = module.new_game(counts[seed % len(counts)], seed)
        chooser = random.Random(seed)
        while not game.is_over():
            yield game, chooser
            actions = game.legal_actions()
            game.apply(chooser.choice(actions))


@pytest.mark.parametrize("edition", EACH_EDITION)
def test_the_integer_index_agrees_with_the_dict_api_at_every_step(edition: str) -> None:
    module = engine(edition)
    for game, _ in random_games(module, 12):
        actions = game.legal_actions()
        ids = game.legal_action_ids()
        assert ids == sorted(set(ids)), "ids ascend, each once"
        assert len(ids) == len(actions)
        mask = game.action_mask()
        assert len(mask) == len(module.ACTIONS) and sorted(i for i, on in enumerate(mask) if on) == ids
        for action in actions:
            entry = module.ACTIONS[action.id]
            # The entry is the action itself, or a ticket choice by position that stands for it.
            assert entry is action or entry["type"] == action["type"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_playing_by_ids_plays_the_same_games(edition: str) -> None:
    module = engine(edition)
    counts = seat_counts(module)
    for seed in range(6):
        by_dict = module.new_game(counts[seed % len(counts)], seed)
        by_id = module.new_game(counts[seed % len(counts)], seed)
        chooser = random.Random(seed)
        while not by_dict.is_over():
            actions = by_dict.legal_actions()
            pick = chooser.randrange(len(actions))
            by_dict.apply(actions[pick])
            by_id.apply_id(actions[pick].id)
            assert by_id.to_dict() == by_dict.to_dict()


def test_a_wrong_id_is_refused_and_changes_nothing() -> None:
    module = engine("usa-2025")
    game = module.new_game(2, 1)
    before = game.to_dict()
    for wrong in (-1, len(module.ACTIONS), "3", 2.0):
        with pytest.raises(module.IllegalAction) as refused:
            game.apply_id(wrong)
        assert refused.value.code == "unknown_action_id"
    claim = next(action for action in module.ACTIONS if action["type"] == "claim_route")
    with pytest.raises(module.IllegalAction):
        game.apply_id(claim.id)  # a claim while the first tickets are being chosen
    keep_five = next(a for a in module.ACTIONS if a["type"] == "keep_tickets" and a["offered"] == 3)
    with pytest.raises(module.IllegalAction) as refused:
        game.apply_id(keep_five.id)  # usa-2025 offers four tickets at set-up
    assert refused.value.code == "action_id_not_legal"
    assert game.to_dict() == before


@pytest.mark.parametrize("edition", EDITIONS)
def test_legal_actions_are_read_only_but_copy_serialise_and_compare_as_dicts(edition: str) -> None:
    module = engine(edition)
    game = module.new_game(seat_counts(module)[0], 2)
    for _ in range(30):
        game.apply(random.Random(len(game.legal_actions())).choice(game.legal_actions()))
    for action in game.legal_actions():
        plain = json.loads(json.dumps(action))
        assert plain == action and action == plain
        with pytest.raises(TypeError):
            action["type"] = "pass"
        with pytest.raises(TypeError):
            action.pop("type")
        for value in action.values():
            if isinstance(value, dict):
                with pytest.raises(TypeError):
                    value["red"] = 99
            if isinstance(value, list):
                with pytest.raises(TypeError):
                    value.append("x")
        mine = copy.deepcopy(action)
        mine["extra"] = 1  # a copy is an ordinary dict
        assert pickle.loads(pickle.dumps(action)) == action
        assert type(dict(action)) is dict


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_copy_is_independent_and_plays_on_identically(edition: str) -> None:
    module = engine(edition)
    for game, chooser in random_games(module, 3):
        if chooser.random() > 0.05:
            continue
        before = game.to_dict()
        twin = game.copy()
        assert twin.to_dict() == before
        original = game.copy()
        twin.playout(random.Random(7))
        assert twin.is_over()
        assert game.to_dict() == before, "playing the copy changed the original"
        original.playout(random.Random(7))
        assert original.to_dict() == twin.to_dict(), "two copies with the same draws play the same game"


@pytest.mark.parametrize("edition", EDITIONS)
def test_playout_ends_the_game_with_legal_moves(edition: str) -> None:
    module = engine(edition)
    counts = seat_counts(module)
    for seed in range(5):
        game = module.new_game(counts[seed % len(counts)], seed)
        game.playout(random.Random(seed))
        assert game.is_over() and game.winners()


def every_start_longest_trail(module, routes: list[int]) -> int:
    """The longest trail, walked from every city: what the engine's pruned search must equal."""
    neighbours: dict[str, list[tuple[int, str, int]]] = {}
    for edge, route in enumerate(routes):
        a, b = module._ROUTE_ENDS[route]
        neighbours.setdefault(a, []).append((1 << edge, b, module._ROUTE_LENGTH[route]))
        neighbours.setdefault(b, []).append((1 << edge, a, module._ROUTE_LENGTH[route]))
    best = 0

    def walk(city: str, used: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for bit, other, step in neighbours[city]:
            if not used & bit:
                walk(other, used | bit, length + step)

    for city in neighbours:
        walk(city, 0, 0)
    return best


@pytest.mark.parametrize("edition", ["usa-2025", "europe", "switzerland"])
def test_the_longest_trail_starts_only_where_it_can_and_misses_nothing(edition: str) -> None:
    module = importlib.import_module(f"aventuriers.generated.{edition.replace('-', '_')}.engine")
    chooser = random.Random(11)
    for _ in range(300):
        routes = chooser.sample(range(len(module.ROUTES)), chooser.randrange(0, 20))
        assert module.Game._longest_trail(routes) == every_start_longest_trail(module, routes)
