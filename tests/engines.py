"""Shared helpers for tests that play the generated engines."""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import json
import random
import sys
import types
from pathlib import Path

import pytest
from aventuriers.compiler import layout
from aventuriers.compiler.build import compile_ir, loader, shipped_editions
from aventuriers.compiler.cache import EDITION_FILE
from aventuriers.play.state_fields import declared, field_value, ids, measure, values

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
    return [n for n in range(low, high + 1) if n % module.SIDE_SIZE == 0]


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


def ticket_places(module: types.ModuleType, state: dict) -> list[str]:
    """Every ticket in the game, once for each place it is in: the deck, a hand (kept, to choose
    from), the tickets given back at set-up, and each field a mechanism declares holding tickets
    (a team's holder, a second deck)."""
    found = [
        *(
            ticket
            for player in state["players"]
            for field in ("tickets", "pending_tickets")
            for ticket in player[field]
        ),
        *state["ticket_deck"],
        *state.get("setup_rejected", []),
    ]
    for field in declared(module, len(state["players"])):
        if field.get("holds") != "tickets":
            continue
        for _, _, value in values(state, field):
            found += (
                [ticket for pile in value.values() for ticket in pile] if field["shape"] == "piles" else value
            )
    return found


def check_tickets_given_back(module: types.ModuleType, before: dict, action: dict, after: dict) -> None:
    """What a step may do to the tickets out of the game (the edition's, in no place): none comes
    back, and one leaves only as a ticket given back where its rule sends it out of the game,
    every one of those leaving."""
    gone_before = set(module.TICKETS) - set(ticket_places(module, before))
    gone = set(module.TICKETS) - set(ticket_places(module, after))
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


_STARTING: dict[tuple[int, int], tuple[types.ModuleType, list[int]]] = {}


def starting_scores(module: types.ModuleType, players: int) -> list[int]:
    """Where each seat's score marker starts, as a new game of the engine puts it (remembered with
    the module itself, so that another module's id cannot take its entry)."""
    found = _STARTING.get((id(module), players))
    if found is None or found[0] is not module:
        scores = [player["score"] for player in module.new_game(players, 0).to_dict()["players"]]
        found = _STARTING[(id(module), players)] = (module, scores)
    return found[1]


def check_invariants(module: types.ModuleType, game) -> dict:
    """What must hold after every step of every game; returns the state checked."""
    state = game.to_dict()
    total_cards = sum(module.DECK) if hasattr(module, "DECK") else None
    fields = declared(module, len(state["players"]))
    cards = (
        sum(sum(player["hand"].values()) for player in state["players"])
        + len(state["deck"])
        + len(state["discard"])
        + sum(card is not None for card in state["market"])
        # What a mechanism keeps of the cards (a team's holder, a card drawn blind, to place).
        + sum(
            measure(field, value)
            for field in fields
            if field.get("holds") == "cards"
            for _, _, value in values(state, field)
        )
    )
    assert total_cards is None or cards == total_cards, f"{cards} cards instead of {total_cards}"
    starting = starting_scores(module, len(state["players"]))
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
    places = ticket_places(module, state)
    assert len(places) == len(set(places)), "a ticket is in two places"
    assert set(places) <= set(module.TICKETS), "a ticket that is not the edition's"
    rules = given_back_rules(module.EDITION)
    if rules is not None and "out_of_game" not in rules.values():
        # No rule sends a ticket given back out of the game: every ticket is always somewhere.
        assert sorted(places) == sorted(module.TICKETS), "a ticket is lost"
    if any(field.get("keeps_every_ticket") for field in fields):
        # A mechanism that sends every ticket given back to a deck (team play, two decks).
        assert sorted(places) == sorted(module.TICKETS), "a ticket is lost"
    owned = [route for player in state["players"] for route in player["routes"]]
    assert len(owned) == len(set(owned)), "a route has two owners"
    check_declared(module, state, fields, owned)
    return state


def check_declared(module: types.ModuleType, state: dict, fields: list[dict], owned: list[str]) -> None:
    """What holds of every field the engine's mechanisms declare (`STATE_FIELDS`): numbers never
    below 0 (above it when a tally lists only those), within their bounds, ids of their range and
    held once where they must be, the totals of each conserved group, numbered items held once
    each, the spaces of the routes a seat built, a choice or a pending record exactly in its phase,
    piles of tickets by kind."""
    totals: dict[str, list[int]] = {}
    numbered: dict[str, dict[str, list[int]]] = {}
    for field in fields:
        shape, name = field["shape"], " ".join([field["key"], *field.get("path", ())])
        over = ids(module, field)
        bound = field.get("at_most")
        held: list[str] = []
        for _, seats, value in values(state, field):
            if field.get("phase") is not None:
                waiting = bool(value) if shape != "pending" else value is not None
                assert waiting == (state["phase"] == field["phase"]), f"{name} outside its phase"
            if shape == "count":
                assert value >= 0, f"{name} below 0"
                assert bound is None or value <= bound, f"{name}: {value}, above {bound}"
            elif shape in ("tally", "grid"):
                rows = value.values() if shape == "grid" else [value]
                for row in rows:
                    least = 1 if field.get("positive") else 0
                    assert all(number >= least for number in row.values()), f"{name}: a number below {least}"
                if shape == "tally":
                    assert set(value) <= set(over), f"{name}: ids out of its range"
                    limits = dict(zip(over, bound, strict=True)) if isinstance(bound, tuple) else {}
                    assert all(number <= limits.get(key, number) for key, number in value.items()), (
                        f"{name} above its bound"
                    )
            elif shape == "ids":
                assert set(value) <= set(over), f"{name}: ids out of its range"
                assert bound is None or len(value) <= bound, f"{name}: more than {bound}"
                held += value
                if field.get("within"):
                    (seat,) = seats
                    assert set(value) <= set(state["players"][seat][field["within"]]), (
                        f"{name}: not within its {field['within']}"
                    )
            elif shape == "holders":
                assert set(value) <= set(over) and all(
                    0 <= seat < len(state["players"]) for seat in value.values()
                )
                assert not field.get("never_owned") or not set(value) & set(owned), f"{name}: also owned"
            elif shape == "numbers":
                for key, numbers in value.items():
                    numbered.setdefault(field["numbered_by"], {}).setdefault(key, []).extend(numbers)
            elif shape == "piles" and field.get("pile_kinds"):
                for kind, pile in value.items():
                    assert all(module.TICKETS[ticket].get("kind") == kind for ticket in pile), (
                        f"{name}: kinds"
                    )
                    assert all(module.TICKETS[ticket].get("kind") != kind for ticket in state["ticket_deck"])
            if field.get("spaces_of"):
                (seat,) = seats
                source = next(f for f in fields if f["key"] == field["spaces_of"])
                built = field_value(state, source)
                spaces = sum(module.ROUTES[route]["length"] for route, by in built.items() if by == seat)
                assert value == spaces, f"{name} differs from the spaces of the routes built"
            if field.get("conserved"):
                totals.setdefault(field["conserved"][0], []).append(measure(field, value))
        if field.get("unique"):
            assert len(held) == len(set(held)), f"{name}: an id held twice"
    for field in fields:
        if field.get("conserved"):
            group, total = field["conserved"]
            assert sum(totals.get(group, [])) == total, f"{group} not conserved"
    for tally, by_id in numbered.items():
        taken = state[tally]
        for key, numbers in by_id.items():
            assert sorted(numbers) == list(range(1, taken[key] + 1)), (
                f"{key}: numbered items not each held once"
            )


def play_random(module: types.ModuleType, players: int, seed: int, *, check_every_step: bool, max_steps=5000):
    game = module.new_game(players, seed)
    chooser = random.Random(seed)
    steps = 0
    state = check_invariants(module, game) if check_every_step else None
    if state is not None and given_back_rules(module.EDITION) is not None:
        # At the start only long tickets not dealt are out of the game, where their rule says so.
        gone = set(module.TICKETS) - set(ticket_places(module, state))
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


def load_native(folder: Path, package: str) -> types.ModuleType | None:
    """The native engine built in an edition's folder (`build --native`), loaded inside a
    package of its own, `package`, so that it takes its edition's tables and messages from the
    `engine` beside it; None when none was built there."""
    from aventuriers.compiler.write import is_native_artefact

    built = [
        path
        for path in folder.iterdir()
        if is_native_artefact(path.name) and path.name.startswith("engine_core.")
    ]
    if not built:
        return None
    holder = importlib.util.module_from_spec(importlib.machinery.ModuleSpec(package, None, is_package=True))
    holder.__path__ = [str(folder)]
    sys.modules[package] = holder
    spec = importlib.util.spec_from_file_location(f"{package}.engine_core", built[0])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
