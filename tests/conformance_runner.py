"""Runs conformance cases written as YAML data files.

A file holds ``cases`` and may say what it ``requires`` of an engine (a case
may add its own): module constants with their values (``TICKETS_PER_DRAW:
3``), ``tickets`` and ``bonuses`` that must exist. An edition that differs is
skipped with the reason, and its own folder holds the cases of its difference.

Each case starts from ``new_game(players, seed)`` (players: the fewest the edition allows unless said),
moved to the first turn (``start: turn``, the default) or left at set-up
(``start: setup``), patched with ``given`` (a partial state in the shape of
``to_dict()``: ``players`` and ``teams`` are maps from index to a partial
record; a ``hand`` or a team's ``holder`` given replaces the whole of it, and so does a set of
``tokens``: a place it leaves out holds none), then runs ``steps``:

- ``play: ACTION``: must be accepted; a case may not end on one, since nothing would check
  what it did;
- ``refuse: ACTION`` with ``code: CODE``: must raise IllegalAction with that
  code and leave ``to_dict()`` exactly as it was, and, where ``legal_actions()``
  could list the action, not be offered;
- ``legal_includes`` / ``legal_excludes``: actions that must (not) be offered; an
  excluded action must be one ``legal_actions()`` could list here, else its absence
  proves nothing;
- ``legal``: the exact list of legal actions;
- ``legal_for: FIELDS`` with ``actions``: the legal actions having those fields (``{type:
  claim_route, route: R}``: every way to claim R now), exactly those listed, in any order;
  FIELDS must fit an action the engine could list;
- ``expect``: a partial state that ``to_dict()`` must match;
- ``scores``: a partial ``scores()`` (map from player index to fields);
- ``team_scores``: a partial ``team_scores()`` (map from team index to fields);
- ``observation``: ``{player: P, expect: PARTIAL}``, a partial ``observation(P)``;
- ``winners``: the exact ``winners()`` list;
- ``hand_sizes``: the number of cards in each player's hand;
- ``ticket_count``: the number of tickets the edition plays with;
- ``pending_ticket_counts``: how many tickets each player has to choose from;
- ``ticket_deck_size``, ``ticket_deck_excludes``: the ticket deck's size, and
  tickets it must not hold;
- ``ticket_decks_include``: tickets each deck holds, in any place (``main``: the ticket deck;
  a kind: the second deck of that kind);
- ``ticket_deck_bottom``: the tickets at the bottom of the ticket deck, in any
  order (rejected tickets shuffled under the deck).

A partial expectation lists only the keys it checks, but an empty one (``{}``,
``[]``) means exactly empty: ``bonuses: {}`` is no bonus at all.
"""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

CONFORMANCE = Path(__file__).resolve().parent / "conformance"


@functools.cache
def _documents(folder: Path) -> tuple[tuple[str, dict], ...]:
    """The case files of a folder, parsed once (a folder's cases run on several editions)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return tuple(
        (path.stem, yaml.load(path.read_text(encoding="utf-8"), Loader=loader))
        for path in sorted(folder.glob("*.yaml"))
    )


def load_cases(folder: Path) -> list[tuple[str, dict]]:
    """Each case of a folder with the requirements of its file, as a copy of its own."""
    cases = []
    for stem, parsed in _documents(folder):
        document = copy.deepcopy(parsed)
        for case in document["cases"]:
            case = {**case, "requires": {**document.get("requires", {}), **case.get("requires", {})}}
            cases.append((f"{stem}: {case['name']}", case))
    return cases


def unmet_requirement(engine, requires: dict) -> str | None:
    """Why this engine's edition is not one the case applies to, or None."""
    for key, wanted in requires.items():
        if key == "tickets":
            missing = [ticket for ticket in wanted if ticket not in engine.TICKETS]
            if missing:
                return f"no ticket {missing[0]}"
        elif key == "bonuses":
            if sorted(engine.BONUSES) != sorted(wanted):
                return f"bonuses {sorted(engine.BONUSES)}, not {sorted(wanted)}"
        elif json.loads(json.dumps(getattr(engine, key, None))) != wanted:
            return f"{key} is {getattr(engine, key, None)!r}, not {wanted!r}"
    return None


def start_state(engine, case: dict) -> dict:
    game = engine.new_game(case.get("players", engine.PLAYERS[0]), case.get("seed", 0))
    state = game.to_dict()
    if case.get("start", "turn") == "turn":
        for player in state["players"]:
            state["ticket_deck"].extend(player["pending_tickets"])
            player["pending_tickets"] = []
        state["phase"] = "turn"
        state["current_player"] = 0
    given = case.get("given", {})
    patch(state, given)
    settle(engine, state, given)
    return state


def claimed_extras(engine, routes: list[str]) -> tuple[int, int]:
    """What claiming `routes` also cost and gained, from the engine's published `CLAIM_EXTRAS`
    (a mountain's train set aside, its points): (trains set aside, points)."""
    extras = [engine.CLAIM_EXTRAS.get(route, (0, 0)) for route in routes]
    return sum(trains for trains, _ in extras), sum(points for _, points in extras)


def settle(engine, state: dict, given: dict) -> None:
    """Make a position written as overrides one the engine accepts (``from_dict`` refuses impossible states).

    The cards of the hands and market come out of the deck and discard the case
    did not write (from the bottom, so the top cards stay where the case expects
    them); tickets a player holds leave the ticket deck the case did not write;
    and a player's trains and score follow the routes given (and the seat's starting score),
    unless written too.
    """
    for index, fields in given.get("players", {}).items():
        player = state["players"][int(index)]
        lengths = [engine.ROUTES[route]["length"] for route in player["routes"]]
        aside, gained = claimed_extras(engine, player["routes"])
        if "routes" in fields and "trains" not in fields:
            player["trains"] = engine.TRAINS - sum(lengths) - aside
        if "routes" in fields and "score" not in fields:
            starting = getattr(engine, "STARTING_SCORE", (0,) * len(state["players"]))[int(index)]
            player["score"] = starting + sum(engine.ROUTE_POINTS[length] for length in lengths) + gained
    counts: Counter[str] = Counter()
    for player in state["players"]:
        counts.update({color: number for color, number in player["hand"].items() if number > 0})
    counts.update(card for pile in ("market", "deck", "discard") for card in state[pile] if card is not None)
    for team in state.get("teams", []):
        counts.update({color: number for color, number in team["holder"].items() if number > 0})
    for color, most in zip(engine.COLORS, engine.DECK, strict=True):
        excess = counts[color] - most
        for pile in ("deck", "discard"):
            cards = state[pile]
            for position in range(len(cards) - 1, -1, -1):
                if excess <= 0 or pile in given:
                    break
                if cards[position] == color:
                    del cards[position]
                    excess -= 1
    held = {
        ticket
        for player in state["players"]
        for ticket in player["tickets"] + player["pending_tickets"] + player.get("setup_share", [])
    }
    held.update(ticket for team in state.get("teams", []) for ticket in team["tickets"])
    held.update(state.get("setup_rejected", []))
    if "ticket_deck" not in given:
        state["ticket_deck"] = [ticket for ticket in state["ticket_deck"] if ticket not in held]
    if "ticket_decks" in state and "ticket_decks" not in given:
        state["ticket_decks"] = {
            kind: [ticket for ticket in deck if ticket not in held]
            for kind, deck in state["ticket_decks"].items()
        }


def patch(state: dict, given: dict) -> None:
    for key, value in given.items():
        if key in ("players", "teams"):
            for index, fields in value.items():
                record = state[key][int(index)]
                for field, field_value in fields.items():
                    if field in ("hand", "holder"):
                        record[field] = {color: field_value.get(color, 0) for color in record[field]}
                    else:
                        record[field] = field_value
        elif key == "tokens":
            # Each set given holds exactly the tokens given: a place left out holds none.
            for tokens, places in value.items():
                state[key][tokens] = {place: dict(places.get(place, {})) for place in state[key][tokens]}
        elif isinstance(value, dict) and isinstance(state.get(key), dict):
            patch(state[key], value)
        else:
            state[key] = copy.deepcopy(value)


def mismatch(actual: Any, expected: Any, where: str = "") -> str | None:
    """None when ``actual`` matches the partial ``expected``, else what differs."""
    if isinstance(expected, (dict, list)) and not expected:
        # An empty partial lists no key, so it would otherwise check nothing at all.
        if isinstance(actual, (dict, list)) and not actual:
            return None
        return f"{where}: expected nothing, got {actual!r}"
    if isinstance(expected, dict) and isinstance(actual, list):
        for index, value in expected.items():
            found = mismatch(actual[int(index)], value, f"{where}[{index}]")
            if found:
                return found
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            if key not in actual:
                return f"{where}.{key}: missing"
            found = mismatch(actual[key], value, f"{where}.{key}")
            if found:
                return found
        return None
    if actual != expected:
        return f"{where}: expected {expected!r}, got {actual!r}"
    return None


def canonical(action: Any) -> str:
    """An action as JSON: `True` is not the slot `1` it equals in Python."""
    return json.dumps(action, sort_keys=True)


def offered(game, action: Any) -> bool:
    return canonical(action) in {canonical(legal) for legal in game.legal_actions()}


@functools.cache
def every_action(engine) -> frozenset[str]:
    return frozenset(canonical(entry) for entry in engine.ACTIONS)


def listable_now(engine, game) -> list[dict]:
    """The actions ``legal_actions()`` could list in this position: the entries of ``ACTIONS``, a
    ticket choice by position read as the choice by name it stands for now."""
    state = game.to_dict()
    player = state["players"][state["current_player"]]
    named = [by_name(entry, player) if is_positional(entry) else entry for entry in engine.ACTIONS]
    return [action for action in named if action is not None]


def listable(engine, game, action: Any) -> bool:
    if canonical(action) in every_action(engine):
        return True
    return canonical(action) in {canonical(listed) for listed in listable_now(engine, game)}


def fits(action: dict, fields: dict) -> bool:
    return all(key in action and canonical(action[key]) == canonical(value) for key, value in fields.items())


def is_positional(entry: dict) -> bool:
    return entry["type"] in ("keep_tickets", "share_tickets") and ("offered" in entry or "held" in entry)


def by_name(entry: dict, player: dict) -> dict | None:
    """The ticket choice by name an entry of ``ACTIONS`` by position stands for (as ``apply_id``
    reads it), or None where the player's tickets do not fit it."""
    if entry["type"] == "share_tickets":
        held = player["tickets"]
        if entry["held"][-1] >= len(held):
            return None
        return {"type": "share_tickets", "tickets": [held[at] for at in entry["held"]]}
    pending = player["pending_tickets"]
    if entry["offered"] != len(pending):
        return None
    action = {"type": "keep_tickets", "tickets": [pending[at] for at in entry["kept"]]}
    if "shared" in entry:
        action["share"] = [pending[at] for at in entry["shared"]]
    return action


def unchecked_end(case: dict) -> str | None:
    """Why nothing checks what the case's last play did, or None."""
    steps = case.get("steps", [])
    if steps and "play" in steps[-1]:
        return f"{case['name']!r} ends on a play ({steps[-1]['play']}) that no step checks"
    return None


def run_case(engine, case: dict) -> None:
    unchecked = unchecked_end(case)
    assert unchecked is None, unchecked
    game = engine.Game.from_dict(start_state(engine, case))
    for number, step in enumerate(case.get("steps", []), start=1):
        label = f"step {number} {step}"
        if "play" in step:
            try:
                game.apply(copy.deepcopy(step["play"]))
            except engine.IllegalAction as error:
                raise AssertionError(f"{label}: refused with {error.code}: {error.message}") from error
        elif "refuse" in step:
            before = game.to_dict()
            try:
                game.apply(copy.deepcopy(step["refuse"]))
            except engine.IllegalAction as error:
                assert error.code == step["code"], f"{label}: refused with {error.code}, not {step['code']}"
                assert error.message, f"{label}: no message"
            else:
                raise AssertionError(f"{label}: accepted, expected {step['code']}")
            assert game.to_dict() == before, f"{label}: a refused action changed the state"
            if listable(engine, game, step["refuse"]):
                assert not offered(game, step["refuse"]), f"{label}: refused, yet offered"
        elif "legal_includes" in step:
            for action in step["legal_includes"]:
                assert offered(game, action), f"{label}: {action} is not offered"
        elif "legal_excludes" in step:
            for action in step["legal_excludes"]:
                # An action in a shape never listed is never offered: its absence would prove nothing.
                assert listable(engine, game, action), f"{label}: {action} is not an action the engine lists"
                assert not offered(game, action), f"{label}: {action} is offered"
        elif "legal_for" in step:
            fields = step["legal_for"]
            assert any(fits(action, fields) for action in listable_now(engine, game)), (
                f"{label}: no action the engine lists has {fields}"
            )
            legal = sorted(canonical(action) for action in game.legal_actions() if fits(action, fields))
            wanted = sorted(canonical(action) for action in step["actions"])
            assert legal == wanted, f"{label}: got {[json.loads(action) for action in legal]}"
        elif "legal" in step:
            legal = [canonical(action) for action in game.legal_actions()]
            assert legal == [canonical(action) for action in step["legal"]], (
                f"{label}: got {game.legal_actions()}"
            )
        elif "expect" in step:
            found = mismatch(game.to_dict(), step["expect"], "state")
            assert found is None, f"{label}: {found}"
        elif "scores" in step:
            found = mismatch(game.scores(), step["scores"], "scores")
            assert found is None, f"{label}: {found}"
        elif "team_scores" in step:
            found = mismatch(game.team_scores(), step["team_scores"], "team_scores")
            assert found is None, f"{label}: {found}"
        elif "observation" in step:
            seen = game.observation(step["observation"]["player"])
            found = mismatch(seen, step["observation"]["expect"], "observation")
            assert found is None, f"{label}: {found}"
        elif "winners" in step:
            assert game.winners() == step["winners"], f"{label}: got {game.winners()}"
        elif "pending_ticket_counts" in step:
            counts = [len(player["pending_tickets"]) for player in game.to_dict()["players"]]
            assert counts == step["pending_ticket_counts"], f"{label}: got {counts}"
        elif "ticket_deck_size" in step:
            size = len(game.to_dict()["ticket_deck"])
            assert size == step["ticket_deck_size"], f"{label}: {size} tickets in the deck"
        elif "ticket_deck_excludes" in step:
            deck = game.to_dict()["ticket_deck"]
            assert not set(deck) & set(step["ticket_deck_excludes"]), f"{label}: {deck}"
        elif "ticket_count" in step:
            assert len(engine.TICKETS) == step["ticket_count"], f"{label}: {len(engine.TICKETS)} tickets"
        elif "market_jokers_at_most" in step:
            market = game.to_dict()["market"]
            jokers = market.count(engine.COLORS[engine.LOCOMOTIVE])
            assert jokers <= step["market_jokers_at_most"], f"{label}: market {market}"
        elif "hand_sizes" in step:
            sizes = [sum(player["hand"].values()) for player in game.to_dict()["players"]]
            assert sizes == step["hand_sizes"], f"{label}: got {sizes}"
        elif "ticket_decks_include" in step:
            state = game.to_dict()
            for kind, wanted in step["ticket_decks_include"].items():
                deck = state["ticket_deck"] if kind == "main" else state["ticket_decks"][kind]
                assert set(wanted) <= set(deck), f"{label}: {kind} deck {deck}"
        elif "ticket_deck_bottom" in step:
            wanted = step["ticket_deck_bottom"]
            bottom = game.to_dict()["ticket_deck"][-len(wanted) :]
            assert sorted(bottom) == sorted(wanted), f"{label}: bottom is {bottom}"
        else:
            raise AssertionError(f"{label}: unknown step")
