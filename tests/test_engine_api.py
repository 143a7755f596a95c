"""The public engine API that bots, apps and tests rely on."""

from __future__ import annotations

import json
import random

import pytest

from tests.engines import EDITIONS, engine, play_random, seats


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [1, 9, 0, "4", 2.0])
def test_player_count_outside_the_range_is_a_value_error(edition, players):
    with pytest.raises(ValueError):
        engine(edition).new_game(players, 1)


def test_the_engine_s_errors_are_french() -> None:
    """Every error the API raises speaks French, with the typography of the house (a no-break
    space before « : »), like the refusals' messages."""
    module = engine("usa-2025")
    game = module.new_game(2, 1)
    said = {}
    for name, call, error in (
        ("players", lambda: module.new_game(7, 1), ValueError),
        ("seed", lambda: module.new_game(2, "x"), ValueError),
        ("observation", lambda: game.observation(5), ValueError),
        ("legal_at", lambda: game.legal_at(10**6), IndexError),
        ("negative", lambda: game.legal_at(-1), IndexError),
        ("edition", lambda: module.Game.from_dict({"edition": "europe"}), ValueError),
        ("state", lambda: module.Game.from_dict({**game.to_dict(), "phase": "lunch"}), ValueError),
        ("read-only", lambda: game.legal_actions()[0].clear(), TypeError),
    ):
        with pytest.raises(error) as raised:
            call()
        said[name] = str(raised.value)
    assert said["players"] == "usa-2025 se joue de 2 à 5 joueurs, pas 7"
    assert said["seed"] == "la graine doit être un entier, pas 'x'"
    assert said["observation"] == "player doit être un entier de 0 à 1, pas 5"
    assert said["legal_at"] == "aucune action légale à la position 1000000\u00a0: il y en a 11"
    assert said["negative"] == "aucune action légale à la position -1"
    assert said["edition"] == "cet état est de l’édition 'europe', pas 'usa-2025'"
    assert said["state"].startswith("état impossible pour usa-2025\u00a0: phase doit être l’une des phases")
    assert (
        said["read-only"]
        == "une action légale est en lecture seule\u00a0: dict(action) en donne une copie modifiable"
    )
    # In a turn the claims are counted, not listed: the position asked for is the one named.
    while game.to_dict()["phase"] != "turn":
        game.apply(game.legal_actions()[-1])
    with pytest.raises(IndexError) as raised:
        game.legal_at(10**6)
    assert str(raised.value) == "aucune action légale à la position 1000000"


@pytest.mark.parametrize("edition", EDITIONS)
def test_module_data_shapes(edition):
    module = engine(edition)
    assert len(module.TICKETS) >= module.SETUP_TICKETS * module.PLAYERS[1]
    for route_id, route in module.ROUTES.items():
        assert route_id == route_id.lower() and " " not in route_id
        assert {"a", "b", "length", "color"} <= set(route)
    for ticket in module.TICKETS.values():
        # A ticket joins two places, or scores the best of several targets.
        assert {"a", "b", "points"} <= set(ticket) <= {"a", "b", "points", "kind"} or (
            {"a", "targets", "kind"} == set(ticket) and len(ticket["targets"]) >= 2
        )
    for route_id, route in module.ROUTES.items():
        # A double route's tracks name each other; a triple route's each name the others as
        # "siblings", and the first of them as "twin".
        siblings = route.get("siblings", [route["twin"]] if route["twin"] else [])
        assert route["twin"] == (siblings[0] if siblings else None)
        for sibling in siblings:
            other = module.ROUTES[sibling]
            assert route_id in other.get("siblings", [other["twin"]])


@pytest.mark.parametrize("edition", EDITIONS)
def test_same_seed_same_game(edition):
    players = seats(engine(edition), 3)
    first = play_random(engine(edition), players, 42, check_every_step=False)
    second = play_random(engine(edition), players, 42, check_every_step=False)
    assert first.to_dict() == second.to_dict()
    assert engine(edition).new_game(players, 1).to_dict() != engine(edition).new_game(players, 2).to_dict()


@pytest.mark.parametrize("edition", EDITIONS)
def test_state_and_actions_are_plain_json(edition):
    game = engine(edition).new_game(min(4, engine(edition).PLAYERS[1]), 5)
    chooser = random.Random(5)
    for _ in range(60):
        actions = game.legal_actions()
        assert json.loads(json.dumps(actions)) == actions
        game.apply(chooser.choice(actions))
    state = game.to_dict()
    assert json.loads(json.dumps(state)) == state
    assert len(state["market"]) == 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_restored_game_continues_exactly_like_the_original(edition):
    module = engine(edition)
    original = module.new_game(min(4, module.PLAYERS[1]), 9)
    chooser = random.Random(9)
    for _ in range(80):
        original.apply(chooser.choice(original.legal_actions()))
    restored = module.Game.from_dict(json.loads(json.dumps(original.to_dict())))
    while not original.is_over():
        actions = original.legal_actions()
        assert restored.legal_actions() == actions
        action = chooser.choice(actions)
        original.apply(action)
        restored.apply(action)
        assert restored.to_dict() == original.to_dict()
    assert restored.scores() == original.scores() and restored.winners() == original.winners()


@pytest.mark.parametrize("edition", EDITIONS)
def test_illegal_action_has_a_stable_code_and_a_french_message(edition):
    module = engine(edition)
    game = module.new_game(seats(module, 2), 1)
    before = game.to_dict()
    with pytest.raises(module.IllegalAction) as refused:
        # A draw in due form (team play says where the card goes), at the wrong moment.
        game.apply(
            {
                "type": "draw_card",
                "source": "deck",
                **({"to": "hand"} if hasattr(module, "TEAM_SIZE") else {}),
            }
        )
    if before["phase"] == "ticket_mix":  # two decks of tickets: the mix is said first
        assert refused.value.code == "must_choose_ticket_mix"
        assert refused.value.message == (
            f"Dis d’abord combien de tes tickets de départ sont {module.TICKET_MIX['french']}."
        )
    else:
        assert refused.value.code == "must_keep_tickets"
        assert refused.value.message == "Tu dois d’abord choisir les tickets à garder."
    assert game.to_dict() == before
    with pytest.raises(module.IllegalAction) as refused:
        game.apply({"type": "fly"})
    assert refused.value.message == "Action inconnue\u00a0: «\u00a0fly\u00a0»."


@pytest.mark.parametrize("edition", EDITIONS)
def test_scores_shape(edition):
    game = play_random(engine(edition), seats(engine(edition), 2), 4, check_every_step=False)
    for player, score in enumerate(game.scores()):
        assert score["player"] == player
        assert set(score) >= {
            "route_points",
            "tickets_completed",
            "tickets_failed",
            "longest_path",
            "bonuses",
            "total",
        }
        expected = (
            score["route_points"]
            + sum(t["points"] for t in score["tickets_completed"])
            - sum(t["points"] for t in score["tickets_failed"])
            + sum(score["bonuses"].values())
            # What the edition's mechanisms add: mountains at the claim, score tables, shares,
            # tokens' majorities and regions at the end.
            + sum(score.get("claim_effects", {}).values())
            + sum(table["points"] for table in score.get("score_tables", {}).values())
            + sum(score.get("shares", {}).values())
            + sum(points for kinds in score.get("majorities", {}).values() for points in kinds.values())
            + sum(network["points"] for network in score.get("regions", []))
            + score.get("public_bonus", 0)
        )
        assert score["total"] == expected
    assert game.winners()


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_malformed_state_is_a_value_error(edition):
    module = engine(edition)
    good = module.new_game(seats(module, 2), 3).to_dict()
    broken_states = [
        {**good, "edition": "other"},
        {**good, "deck": ["purple"]},
        {**good, "players": [{**good["players"][0], "routes": ["nowhere-somewhere"]}, good["players"][1]]},
        {key: value for key, value in good.items() if key != "market"},
        "not a state",
        # Cards that are not names (once a TypeError), and values nested past any parser (RecursionError).
        {**good, "deck": [["red"], *good["deck"][1:]]},
        {**good, "market": [{"red": 1}, *good["market"][1:]]},
        {**good, "deck": [_nested(5_000)]},
        {**good, "edition": _nested(5_000)},
        {**good, "players": [_nested(5_000), good["players"][1]]},
    ]
    for state in broken_states:
        with pytest.raises(ValueError):
            module.Game.from_dict(state)


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_observation_shows_a_player_their_own_cards_and_only_counts_of_the_rest(edition):
    module = engine(edition)
    game = module.new_game(module.PLAYERS[0], 3)
    state = game.to_dict()
    seen = game.observation(1)
    mine, theirs = seen["players"][1], seen["players"][0]
    assert mine["hand"] == state["players"][1]["hand"]
    assert mine["pending_tickets"] == state["players"][1]["pending_tickets"]
    assert "hand" not in theirs and "pending_tickets" not in theirs and "tickets" not in theirs
    assert theirs["hand_size"] == sum(state["players"][0]["hand"].values())
    assert seen["deck_size"] == len(state["deck"]) and seen["ticket_deck_size"] == len(state["ticket_deck"])
    assert seen["market"] == state["market"]
    for wrong in (-1, module.PLAYERS[0], "0"):
        with pytest.raises(ValueError):
            game.observation(wrong)


FIELDS = {
    "draw_card": ("source", "slot", "to"),
    "claim_route": ("route", "cards", "holder_cards"),
    "keep_tickets": ("tickets", "return_order", "share"),
    "pay_tunnel": ("cards", "holder_cards"),
    "build_station": ("city", "cards"),
    "share_tickets": ("tickets",),
}
# The codes that say what is wrong with each field: its type, a value it does not know, or a
# count the rules refuse (an empty payment or ticket choice). Anything else (the phase, a field
# missing) would mean the field was never read.
FIELD_CODES = {
    "source": {"unknown_source"},
    "slot": {"bad_slot"},
    "to": {"unknown_place"},
    "route": {"unknown_route"},
    "city": {"unknown_city"},
    **dict.fromkeys(
        ("cards", "holder_cards"),
        {
            "bad_cards",
            "unknown_color",
            "bad_card_count",
            "wrong_card_count",
            "wrong_tunnel_payment",
            "wrong_station_cost",
        },
    ),
    "tickets": {
        *("bad_ticket_list", "ticket_not_offered", "too_few_tickets", "too_few_regular_tickets"),
        *("ticket_not_held", "wrong_share_tickets_count"),
    },
    "share": {"bad_ticket_list", "share_not_kept", "wrong_share_count"},
    # Where tickets given back are shuffled or leave the game, no order is taken, whatever its form.
    "return_order": {"bad_ticket_list", "ticket_not_offered", "bad_return_order", "return_order_not_allowed"},
}
# Fields an action takes without `legal_actions()` listing them.
UNLISTED = {"keep_tickets": {"return_order"}}


def where_playable(module, kind: str):
    """A game in which `kind` is legal, with one such legal action; (None, None) if none comes."""
    for seed in range(5, 45):
        game = module.new_game(seats(module, 2), seed)
        chooser = random.Random(seed)
        while not game.is_over():
            legal = [action for action in game.legal_actions() if action["type"] == kind]
            if legal:
                return game, dict(chooser.choice(legal))
            game.apply(chooser.choice(game.legal_actions()))
    return None, None


@pytest.mark.parametrize("edition", EDITIONS)
def test_any_value_in_any_field_is_refused_with_its_code(edition):
    """Unhashable, nested past the parser, or huge: an action's field gives an IllegalAction with a
    short message and the code of what is wrong with that field, never TypeError or RecursionError,
    and the game stays as it was. Each kind is tried where it is legal, so that its fields are read."""
    module = engine(edition)
    odd = [[], {}, ["red"], {"red": [1]}, _nested(3_000), {"a": _nested(3_000)}, 1.5, True, "x" * 100_000]
    kinds = {action["type"] for action in module.ACTIONS}
    for kind, fields in FIELDS.items():
        if kind in kinds:
            game, legal = where_playable(module, kind)
            assert game is not None, f"{kind}: an action of the edition, legal in no game"
        else:
            game, legal = module.new_game(seats(module, 2), 5), {}
        before = game.to_dict()
        for field in fields:
            taken = field in legal or field in UNLISTED.get(kind, set())
            codes = (
                FIELD_CODES[field] if taken else {"unknown_field"} if kind in kinds else {"unknown_action"}
            )
            for value in odd:
                if field in legal and legal[field] == value and not isinstance(value, bool):
                    continue  # the legal action's own value (no holder cards), not `True` for slot 1
                with pytest.raises(module.IllegalAction) as refused:
                    game.apply({**legal, "type": kind, field: value})
                assert refused.value.code in codes, (
                    f"{kind}.{field} = {str(value)[:40]}: {refused.value.code}"
                )
                assert len(refused.value.message) < 400
        assert game.to_dict() == before
    game = module.new_game(seats(module, 2), 5)
    for value in odd:
        with pytest.raises(module.IllegalAction) as refused:
            game.apply({"type": value})
        assert refused.value.code == "unknown_action"


@pytest.mark.parametrize("edition", ["usa-classic", "europe"])
def test_the_market_is_legal_whenever_the_cards_left_allow_it(edition):
    """Seed 000, 05: three face-up locomotives send the market to the discard, again and again
    until it has fewer. The resets played as on the table are bounded; when they leave it with
    three (the deck ran out, the discard came back with them), the outcome of resetting until it
    is legal is drawn at once, whatever the generator's state."""
    module = engine(edition)
    joker = module.COLORS[module.LOCOMOTIVE]
    start = module.new_game(2, 1).to_dict()
    for player in start["players"]:
        player["hand"] = {color: 0 for color in module.COLORS}
    start.update(
        phase="turn",
        current_player=0,
        cards_drawn=0,
        deck=[joker] * 9,
        discard=["white", "white", "white"],
        market=[joker, joker, "red", "blue", "green"],
    )
    for player in start["players"]:
        player["pending_tickets"] = []
    for state_of_the_generator in range(200):
        game = module.Game.from_dict({**start, "rng": state_of_the_generator})
        game.apply({"type": "draw_card", "source": "market", "slot": 2})
        state = game.to_dict()
        assert state["market"].count(joker) < module.MARKET_LOCOMOTIVE_RESET, state["market"]
        cards = state["deck"] + state["discard"] + [card for card in state["market"] if card]
        assert sorted(cards + ["red"]) == sorted([joker] * 11 + ["white"] * 3 + ["red", "blue", "green"])
    again = module.Game.from_dict({**start, "rng": 7})
    again.apply({"type": "draw_card", "source": "market", "slot": 2})
    game = module.Game.from_dict({**start, "rng": 7})
    game.apply({"type": "draw_card", "source": "market", "slot": 2})
    assert again.to_dict() == game.to_dict()  # deterministic for a generator's state
