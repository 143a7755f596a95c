"""Invariants over random games: hypothesis picks editions, player counts and seeds."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engines import (
    EDITIONS,
    check_invariants,
    check_tickets_given_back,
    engine,
    play_random,
    seat_counts,
    seats,
)


@settings(max_examples=40, deadline=None)
@given(edition=st.sampled_from(EDITIONS), players=st.integers(2, 5), seed=st.integers(0, 2**63))
def test_invariants_hold_at_every_step(edition, players, seed):
    module = engine(edition)
    play_random(module, seats(module, min(players, module.PLAYERS[1])), seed, check_every_step=True)


@settings(max_examples=25, deadline=None)
@given(
    edition=st.sampled_from(EDITIONS),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 400),
)
def test_a_restored_game_continues_identically(edition, players, seed, cut):
    module = engine(edition)
    game = module.new_game(seats(module, min(players, module.PLAYERS[1])), seed)
    chooser = random.Random(seed)
    for _ in range(cut):
        if game.is_over():
            break
        game.apply(chooser.choice(game.legal_actions()))
    restored = module.Game.from_dict(game.to_dict())
    follow = random.Random(seed + 1)
    while not game.is_over():
        action = follow.choice(game.legal_actions())
        game.apply(action)
        restored.apply(action)
    assert restored.to_dict() == game.to_dict()


@settings(max_examples=30, deadline=None)
@given(
    edition=st.sampled_from(EDITIONS),
    seed=st.integers(0, 2**32),
    junk=st.dictionaries(
        st.sampled_from(["type", "source", "slot", "route", "cards", "tickets", "return_order"]),
        st.one_of(
            st.none(),
            st.integers(-3, 8),
            st.text(max_size=5),
            st.lists(st.text(max_size=3), max_size=3),
            st.sampled_from(
                ["draw_card", "claim_route", "draw_tickets", "keep_tickets", "pass", "deck", "market"]
            ),
        ),
    ),
    data=st.data(),
)
def test_any_refused_action_leaves_the_state_unchanged(edition, seed, junk, data):
    """Junk, or a legal action with one field changed (another payment, a part of the tickets):
    refused, it changes nothing; accepted, the game keeps every invariant."""
    module = engine(edition)
    game = module.new_game(seats(module, 3), seed)
    chooser = random.Random(seed)
    for _ in range(chooser.randrange(60)):
        game.apply(chooser.choice(game.legal_actions()))
    if data.draw(st.booleans(), label="a legal action changed"):
        junk = dict(chooser.choice(game.legal_actions()))
        fields = sorted(field for field in junk if field != "type")
        if fields:
            field = data.draw(st.sampled_from(fields), label="field")
            junk[field] = data.draw(near(module, field, junk[field]), label="value")
    before = game.to_dict()
    refused_or_sound(module, game, before, junk)


def near(module, field: str, value) -> st.SearchStrategy:
    """Values close to a legal action's `value` for `field`, some of them legal too."""
    if field == "route":
        return st.sampled_from(sorted(module.ROUTES))
    if isinstance(value, dict):
        # A payment of as many cards, one or two moved from a colour to another (or to a joker),
        # a count going below 0 too: often another payment the hand holds, so accepted.
        colors = sorted({*value, module.COLORS[module.LOCOMOTIVE], module.COLORS[0]})
        moves = st.tuples(st.sampled_from(colors), st.sampled_from(colors), st.integers(1, 2))
        return moves.map(lambda move: moved(value, *move))
    if isinstance(value, list):
        # Part of the tickets, in any order.
        return st.lists(st.sampled_from(value), unique=True) if value else st.just([])
    if isinstance(value, int) and not isinstance(value, bool):
        return st.integers(-2, 8)
    return st.text(max_size=5)


def moved(payment: dict, source: str, target: str, count: int) -> dict:
    counts = {**payment, source: payment.get(source, 0) - count}
    counts[target] = counts.get(target, 0) + count
    return {color: number for color, number in counts.items() if number}


@settings(max_examples=40, deadline=None)
@given(
    edition=st.sampled_from(EDITIONS), seed=st.integers(0, 2**32), after_a_draw=st.booleans(), data=st.data()
)
def test_any_order_of_the_tickets_given_back_is_refused_or_keeps_every_invariant(
    edition, seed, after_a_draw, data
):
    """No legal action names an order for the tickets given back (`return_order`): random games
    never reach that code. Any order, whole or partial, at set-up or after a draw: refused, it
    changes nothing; accepted, no ticket is lost or comes back."""
    module = engine(edition)
    game = module.new_game(seats(module, 3), seed)
    chooser = random.Random(seed)
    while after_a_draw or not game.to_dict()["phase"].endswith("_tickets"):
        if after_a_draw and game.to_dict()["phase"] == "turn":
            draws = [action for action in game.legal_actions() if action["type"] == "draw_tickets"]
            if draws:
                game.apply(chooser.choice(draws))
                break
        if game.is_over():
            return
        game.apply(chooser.choice(game.legal_actions()))
    before = game.to_dict()
    keep = dict(data.draw(st.sampled_from(game.legal_actions()), label="keep"))
    pending = before["players"][before["current_player"]]["pending_tickets"]
    given_back = [ticket for ticket in pending if ticket not in keep["tickets"]]
    keep["return_order"] = data.draw(near(module, "return_order", given_back), label="order")
    refused_or_sound(module, game, before, keep)


@pytest.mark.slow
@pytest.mark.parametrize("quarter", range(4))
@pytest.mark.parametrize("edition", EDITIONS)
def test_four_hundred_random_games_end_with_every_invariant(edition, quarter):
    """Four hundred games per edition, every invariant checked at every step, in four quarters
    so that the workers share the longest editions' games (Germany's) instead of one worker
    playing them all at the end."""
    module = engine(edition)
    counts = seat_counts(module)
    for seed in range(quarter * 100, (quarter + 1) * 100):
        game = play_random(module, counts[seed % len(counts)], seed, check_every_step=True)
        assert game.winners()


def test_random_europe_games_exercise_tunnels_ferries_and_stations():
    """The random games above go through every Europe decision; this shows they occur."""
    module = engine("europe")
    seen: dict[str, int] = {}
    ferry_routes = {route for route, record in module.ROUTES.items() if record["ferry"]}
    for seed in range(60):
        game = module.new_game(2 + seed % 4, seed)
        chooser = random.Random(seed)
        while not game.is_over():
            action = chooser.choice(game.legal_actions())
            kind = action["type"]
            if kind == "claim_route" and action["route"] in ferry_routes:
                kind = "claim_ferry"
            seen[kind] = seen.get(kind, 0) + 1
            game.apply(action)
    for kind in ("pay_tunnel", "abandon_tunnel", "build_station", "claim_ferry", "keep_tickets"):
        assert seen.get(kind, 0) > 0, f"no {kind} in 60 random games: {seen}"


def test_switzerland_never_shows_a_rejected_ticket_again():
    """Seed 003: every ticket given back, at set-up or later, leaves the game."""
    module = engine("switzerland")
    for seed in range(200):
        game = module.new_game(2 + seed % 2, seed)
        chooser = random.Random(seed)
        gone: set[str] = set()
        while not game.is_over():
            state = game.to_dict()
            pending = state["players"][state["current_player"]]["pending_tickets"]
            action = chooser.choice(game.legal_actions())
            game.apply(action)
            if action["type"] == "keep_tickets":
                gone |= set(pending) - set(action["tickets"])
            after = game.to_dict()
            seen = set(after["ticket_deck"]) | {
                ticket
                for player in after["players"]
                for ticket in player["tickets"] + player["pending_tickets"]
            }
            assert not gone & seen, f"seed {seed}: {sorted(gone & seen)} came back"
        assert all(player["trains"] >= 0 for player in game.to_dict()["players"])


def hidden_changes(module, state: dict, viewer: int, rng: random.Random) -> dict:
    """The same game as `viewer` sees it, with everything hidden from them changed."""
    state = copy.deepcopy(state)
    rng.shuffle(state["deck"])
    state["rng"] = rng.randrange(2**64)
    for index, player in enumerate(state["players"]):
        if index == viewer:
            continue
        # Swap cards between the other player's hand and the deck, keeping every count (not
        # while the cards laid for a pending tunnel, or given to a claim that owes cards, which
        # are on the table, are in that hand).
        laid = state.get("tunnel") or state.get("owed_cards")
        for _ in range(0 if laid and index == state["current_player"] else 3):
            held = [color for color, count in player["hand"].items() if count]
            if not held or not state["deck"]:
                break
            color, position = rng.choice(held), rng.randrange(len(state["deck"]))
            player["hand"][color] -= 1
            player["hand"][state["deck"][position]] = player["hand"].get(state["deck"][position], 0) + 1
            state["deck"][position] = color
        # Swap the other player's tickets (a teammate's too) with tickets of the deck.
        for field in ("tickets", "pending_tickets", "setup_share"):
            swap_tickets(player.get(field, []), state["ticket_deck"], rng, module, state)
    for team in state.get("teams", []):
        if viewer in team["players"]:
            continue
        # Another team's holders are hidden too: swap their cards and tickets with the decks'.
        for color in [color for color, count in team["holder"].items() for _ in range(count)]:
            if state["deck"]:
                position = rng.randrange(len(state["deck"]))
                team["holder"][color] -= 1
                team["holder"][state["deck"][position]] += 1
                state["deck"][position] = color
        swap_tickets(team["tickets"], state["ticket_deck"], rng, module, state)
    rng.shuffle(state["ticket_deck"])
    for deck in state.get("ticket_decks", {}).values():
        rng.shuffle(deck)
    return state


def swap_tickets(tickets: list[str], deck: list[str], rng: random.Random, module=None, state=None) -> None:
    """Swap each ticket with one of the deck; where the edition keeps two decks of tickets by
    kind (`TICKET_MIX`), with one of the deck of its own kind."""
    mix = getattr(module, "TICKET_MIX", None)
    for position in range(len(tickets)):
        own = deck
        if mix and module.TICKETS[tickets[position]]["kind"] == mix["kind"]:
            own = state["ticket_decks"][mix["kind"]]
        if own:
            other = rng.randrange(len(own))
            tickets[position], own[other] = own[other], tickets[position]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_observation_reveals_nothing_hidden(edition):
    """Changing every hidden part of a game leaves what a player sees unchanged."""
    module = engine(edition)
    changed = 0
    counts = seat_counts(module)
    for seed in range(30):
        game = module.new_game(counts[seed % len(counts)], seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(0, 120)):
            if game.is_over():
                break
            game.apply(chooser.choice(game.legal_actions()))
        state = game.to_dict()
        for viewer in range(len(state["players"])):
            seen = game.observation(viewer)
            assert json.loads(json.dumps(seen)) == seen
            assert "rng" not in seen and "deck" not in seen and "ticket_deck" not in seen
            other = module.Game.from_dict(hidden_changes(module, state, viewer, random.Random(seed)))
            assert other.observation(viewer) == seen
            changed += other.to_dict() != state
    assert changed, "the hidden changes must change something"


def refused_or_sound(module, game, before: dict, action) -> None:
    """`action` applied to `game` (whose state was `before`): refused with one of the engine's
    codes and nothing changed, or accepted with every invariant holding after it."""
    try:
        game.apply(action)
    except module.IllegalAction as refused:
        assert refused.code in module.MESSAGES
        assert game.to_dict() == before
    else:
        check_tickets_given_back(module, before, action, check_invariants(module, game))


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_nobody_ever_holds_more_ferry_cards_than_italy_allows(players, seed):
    """Italy: two ferry cards at most in a hand (« un joueur ne peut en avoir que deux maximum »,
    issue 37, §1). Random games that take a ferry card half the times one is offered reach the
    limit, and nobody ever passes it."""
    module = engine("italy")
    assert module.EXTRA_DECK["hold_at_most"] == 2
    game = module.new_game(players, seed)
    chooser = random.Random(seed)
    reached = False
    while not game.is_over():
        actions = game.legal_actions()
        draws = [action for action in actions if action["type"] == "draw_extra_card"]
        game.apply(draws[0] if draws and chooser.random() < 0.5 else chooser.choice(actions))
        held = [player["extra_cards"] for player in game.to_dict()["players"]]
        assert max(held) <= 2, held
        reached = reached or 2 in held
    assert reached, "no player ever held two ferry cards: the limit went untested"
