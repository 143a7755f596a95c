"""Shared helpers for tests that play the generated engines."""

from __future__ import annotations

import importlib
import random
import types

from aventuriers.compiler.build import loader, shipped_editions

from .conformance_runner import claimed_extras

EDITIONS = shipped_editions(loader())


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


def check_invariants(module: types.ModuleType, game) -> None:
    """What must hold after every step of every game."""
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
    places = [
        *(
            ticket
            for player in state["players"]
            for field in ("tickets", "pending_tickets", "setup_share")
            for ticket in player.get(field, [])
        ),
        *(ticket for team in teams for ticket in team["tickets"]),
        *state["ticket_deck"],
        *(ticket for deck in state.get("ticket_decks", {}).values() for ticket in deck),
        *state.get("setup_rejected", []),
    ]
    assert len(places) == len(set(places)), "a ticket is in two places"
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
    if hasattr(module, "SHARES"):
        assert bool(state["share_choices"]) == (state["phase"] == "take_share"), (
            "a share choice outside its phase"
        )


def play_random(module: types.ModuleType, players: int, seed: int, *, check_every_step: bool, max_steps=5000):
    game = module.new_game(players, seed)
    chooser = random.Random(seed)
    steps = 0
    while not game.is_over():
        actions = game.legal_actions()
        assert actions, "a game that is not over must offer an action"
        game.apply(chooser.choice(actions))
        steps += 1
        assert steps < max_steps, "the game does not end"
        if check_every_step:
            check_invariants(module, game)
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
