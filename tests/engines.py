"""Shared helpers for tests that play the generated engines."""

from __future__ import annotations

import functools
import importlib
import json
import random
import types

import pytest
from aventuriers.compiler import layout
from aventuriers.compiler.build import compile_ir, loader, shipped_editions
from aventuriers.compiler.cache import EDITION_FILE

from .conformance_runner import claimed_extras

EDITIONS = shipped_editions(loader())


def mechanisms_of(edition: str) -> tuple[str, ...]:
    """The mechanisms a shipped edition's rules use, as its build recorded them (`edition.json`:
    reading it costs nothing, where compiling the editions at collection would cost seconds)."""
    record = layout.GENERATED / layout.module_name(edition) / EDITION_FILE
    return tuple(json.loads(record.read_text(encoding="utf-8"))["mechanisms"])


def mechanism_cover(editions: list[str]) -> list[str]:
    """The editions a quick run plays in full: one with the fewest mechanisms (the core rules
    alone, as near as any edition has them), then, until every mechanism some edition uses is
    used by one of them, the edition that adds the most not yet used (by name on a tie)."""
    used = {edition: set(mechanisms_of(edition)) for edition in editions}
    chosen = [min(editions, key=lambda edition: (len(used[edition]), edition))]
    covered = set(used[chosen[0]])
    wanted = set().union(*used.values())
    while covered != wanted:
        best = min(editions, key=lambda edition: (-len(used[edition] - covered), edition))
        chosen.append(best)
        covered |= used[best]
    return sorted(chosen)


# What a test costs per edition grows with the editions; what it finds grows with the mechanisms.
# A test that is long for each edition (a browser, a printed PDF, every step of a game) runs on
# COVER by default and on the others under `-m slow`: an edition that brings no mechanism of its
# own then adds to the default run only its cheap tests.
COVER = mechanism_cover(EDITIONS)
EACH_EDITION = [
    edition if edition in COVER else pytest.param(edition, marks=pytest.mark.slow) for edition in EDITIONS
]


def engine(edition: str) -> types.ModuleType:
    return importlib.import_module(f"aventuriers.generated.{edition.replace('-', '_')}")


def seat_counts(module: types.ModuleType) -> list[int]:
    """The player counts a game of this edition may have (whole teams only, in team play)."""
    low, high = module.PLAYERS
    return [n for n in range(low, high + 1) if n % getattr(module, "TEAM_SIZE", 1) == 0]


def seats(module: types.ModuleType, wanted: int) -> int:
    """`wanted` players when the edition allows it, else a valid count picked from it."""
    counts = seat_counts(module)
    return wanted if wanted in counts else counts[wanted % len(counts)]


@functools.cache
def given_back_rules(edition: str) -> dict[str, str] | None:
    """Where a shipped edition's tickets given back go, as its spec says (`rejected:`): at set-up
    (`setup`), the long ones dealt apart at set-up (`long`), after a draw (`draw`). None for an
    engine built from a spec of its own (a test's variant), whose rules are not read here."""
    if edition not in EDITIONS:
        return None
    editions = loader()
    rules = compile_ir(editions.path_of(edition), editions)
    setup, draw = rules.setup, rules.turn.draw_tickets
    found = {"setup": setup.tickets_rejected.value}
    if setup.long_tickets_dealt:
        found["long"] = setup.long_tickets_rejected.value
    if draw is not None:
        found["draw"] = draw.rejected.value
    return found


def ticket_places(state: dict) -> list[str]:
    """Every ticket in the game, once for each place it is in: a deck, a hand (kept, to choose
    from, shared at set-up), a team's holder, the tickets given back at set-up."""
    return [
        *(
            ticket
            for player in state["players"]
            for field in ("tickets", "pending_tickets", "setup_share")
            for ticket in player.get(field, [])
        ),
        *(ticket for team in state.get("teams", []) for ticket in team["tickets"]),
        *state["ticket_deck"],
        *(ticket for deck in state.get("ticket_decks", {}).values() for ticket in deck),
        *state.get("setup_rejected", []),
    ]


def check_tickets_given_back(module: types.ModuleType, before: dict, action: dict, after: dict) -> None:
    """What a step may do to the tickets out of the game (the edition's, in no place): none comes
    back, and one leaves only as a ticket given back where its rule sends it out of the game,
    every one of those leaving."""
    gone_before = set(module.TICKETS) - set(ticket_places(before))
    gone = set(module.TICKETS) - set(ticket_places(after))
    assert gone_before <= gone, f"tickets {sorted(gone_before - gone)} came back into the game"
    given_back: set[str] = set()
    if action["type"] == "keep_tickets" and before["phase"] in ("setup_tickets", "keep_tickets"):
        pending = before["players"][before["current_player"]]["pending_tickets"]
        given_back = set(pending) - set(action["tickets"])
    left = gone - gone_before
    assert left <= given_back, f"tickets {sorted(left - given_back)} left the game without being given back"
    rules = given_back_rules(module.EDITION)
    if rules is None:
        return
    for ticket in given_back:
        if before["phase"] == "keep_tickets":
            rule = rules["draw"]
        elif "long" in rules and module.TICKETS[ticket].get("kind") == "long":
            rule = rules["long"]
        else:
            rule = rules["setup"]
        where = "left the game" if ticket in left else "stayed in it"
        assert (ticket in left) == (rule == "out_of_game"), f"{ticket}, given back ({rule}), {where}"


def check_invariants(module: types.ModuleType, game) -> dict:
    """What must hold after every step of every game; returns the state checked."""
    state = game.to_dict()
    total_cards = sum(module.DECK) if hasattr(module, "DECK") else None
    teams = state.get("teams", [])
    cards = (
        sum(sum(player["hand"].values()) for player in state["players"])
        + sum(sum(team["holder"].values()) for team in teams)
        + len(state["deck"])
        + len(state["discard"])
        + sum(card is not None for card in state["market"])
        + (state.get("drawn_card") is not None)  # team play: a card drawn blind, not yet placed
    )
    assert total_cards is None or cards == total_cards, f"{cards} cards instead of {total_cards}"
    starting = getattr(module, "STARTING_SCORE", (0,) * len(state["players"]))
    for seat, player in enumerate(state["players"]):
        assert player["trains"] >= 0
        assert all(count >= 0 for count in player["hand"].values())
        records = [module.ROUTES[route] for route in player["routes"]]
        aside, gained = claimed_extras(module, player["routes"])
        track = sum(module.ROUTE_POINTS[record["length"]] for record in records)
        assert player["score"] == starting[seat] + track + gained, (
            "the score track differs from the routes' points"
        )
        spaces = sum(record["length"] for record in records)
        assert player["trains"] == module.TRAINS - spaces - aside, (
            "trains used differ from the routes' spaces"
        )
    places = ticket_places(state)
    assert len(places) == len(set(places)), "a ticket is in two places"
    assert set(places) <= set(module.TICKETS), "a ticket that is not the edition's"
    rules = given_back_rules(module.EDITION)
    if rules is not None and "out_of_game" not in rules.values():
        # No rule sends a ticket given back out of the game: every ticket is always somewhere.
        assert sorted(places) == sorted(module.TICKETS), "a ticket is lost"
    if "ticket_decks" in state:
        # Two decks of tickets: every ticket given back returns to its deck, none leaves the game;
        # each deck holds its own kind.
        assert sorted(places) == sorted(module.TICKETS), "a ticket is lost"
        kind = module.TICKET_MIX["kind"]
        assert all(module.TICKETS[ticket]["kind"] == kind for ticket in state["ticket_decks"][kind])
        assert all(module.TICKETS[ticket]["kind"] != kind for ticket in state["ticket_deck"])
    if teams:
        # Team play gives every ticket back under the deck: each is always somewhere.
        assert sorted(places) == sorted(module.TICKETS), "a ticket is lost"
        assert all(count >= 0 for team in teams for count in team["holder"].values())
    owned = [route for player in state["players"] for route in player["routes"]]
    assert len(owned) == len(set(owned)), "a route has two owners"
    if hasattr(module, "STATIONS"):
        cities = [city for player in state["players"] for city in player["stations"]]
        assert len(cities) == len(set(cities)), "two stations in one city"
        assert all(len(player["stations"]) <= module.STATIONS for player in state["players"])
    if "tunnel" in state:
        assert (state["tunnel"] is None) == (state["phase"] != "tunnel"), "a tunnel waits outside its phase"
    for tokens, record in getattr(module, "TOKENS", {}).items():
        # Tokens on cities: every token placed at set-up is on its place or held, never below 0.
        on_board = [count for there in state["tokens"][tokens].values() for count in there.values()]
        held = [count for player in state["players"] for count in player["tokens"][tokens].values()]
        assert all(count > 0 for count in on_board + held), "a token count of 0 or less is listed"
        assert sum(on_board) + sum(held) == sum(record["on"].values()), f"tokens {tokens} not conserved"
        assert bool(state["token_choices"]) == (state["phase"] == "take_token"), (
            "a token choice outside its phase"
        )
    for company, record in getattr(module, "SHARES", {}).items():
        # Shares: each taken share is held by one player, numbered in the order taken.
        held = sorted(
            [number for player in state["players"] for number in player["shares"].get(company, [])]
            + state.get("dummy_shares", {}).get(company, [])
        )
        assert held == list(range(1, state["shares_taken"][company] + 1)), (
            f"shares of {company} not conserved"
        )
        assert state["shares_taken"][company] <= record["count"]
    if hasattr(module, "PUBLIC_ROUTES"):
        # Public routes: one piece of the supply on each built, never also owned; each builder's
        # track is the spaces of the public routes they built.
        built = state["public_routes"]
        assert state["public_pieces"] + len(built) == module.PUBLIC_ROUTES["pieces"], "pieces not conserved"
        assert not set(built) & set(owned), "a public route is also owned"
        for seat, player in enumerate(state["players"]):
            spaces = sum(
                module.ROUTES[route]["length"] for route, builder in built.items() if builder == seat
            )
            assert player["public_track"] == spaces, "the contribution track differs from the routes built"
    if hasattr(module, "EXTRA_DECK"):
        # The second deck: its pile and the cards the players hold make the whole deck.
        held = [player["extra_cards"] for player in state["players"]]
        assert all(count >= 0 for count in held) and state["extra_pile"] >= 0, "a second-deck count below 0"
        assert state["extra_pile"] + sum(held) == module.EXTRA_DECK["cards"], (
            "second-deck cards not conserved"
        )
        most = module.EXTRA_DECK.get("hold_at_most")
        assert most is None or max(held) <= most, (
            f"a player holds {max(held)} second-deck cards, above {most}"
        )
    if hasattr(module, "SHARES"):
        assert bool(state["share_choices"]) == (state["phase"] == "take_share"), (
            "a share choice outside its phase"
        )
    return state


def play_random(module: types.ModuleType, players: int, seed: int, *, check_every_step: bool, max_steps=5000):
    game = module.new_game(players, seed)
    chooser = random.Random(seed)
    steps = 0
    state = check_invariants(module, game) if check_every_step else None
    if state is not None and given_back_rules(module.EDITION) is not None:
        # At the start only long tickets not dealt are out of the game, where their rule says so.
        gone = set(module.TICKETS) - set(ticket_places(state))
        assert not gone or given_back_rules(module.EDITION).get("long") == "out_of_game", sorted(gone)
        assert all(module.TICKETS[ticket].get("kind") == "long" for ticket in gone), sorted(gone)
    while not game.is_over():
        actions = game.legal_actions()
        assert actions, "a game that is not over must offer an action"
        action = chooser.choice(actions)
        game.apply(action)
        steps += 1
        assert steps < max_steps, "the game does not end"
        if check_every_step:
            before, state = state, check_invariants(module, game)
            check_tickets_given_back(module, before, action, state)
    check_invariants(module, game)
    return game


def random_position(module: types.ModuleType, seed: int, most_steps: int):
    """A game of a valid player count after up to `most_steps` random moves (fewer if it ends)."""
    counts = seat_counts(module)
    game = module.new_game(counts[seed % len(counts)], seed)
    chooser = random.Random(seed)
    for _ in range(chooser.randrange(0, most_steps)):
        if game.is_over():
            break
        game.apply(chooser.choice(game.legal_actions()))
    return game
