"""Actions told in French, for the playtest page: its buttons and the log of the last moves.

Only what every player saw is said: a kept or shared ticket is counted, never named,
unless the text is for the player who holds it.
"""

from __future__ import annotations

import re
import types
from functools import cache
from typing import Any

from aventuriers.compiler.french import card_forms, typo

SOURCES_TO = {"hand": "en main", "holder": "pour le porte-cartes de l’équipe"}


def cards_phrase(cards: dict[str, int] | None) -> str:
    """« 3 cartes rouges et 1 locomotive »."""
    forms = card_forms()
    parts = []
    for color, count in (cards or {}).items():
        if count:
            one, many = forms.get(color, (color, color))
            parts.append(f"{count} {one if count == 1 else many}")
    if not parts:
        return "aucune carte"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " et " + parts[-1]


def payment_phrase(action: dict, engine: types.ModuleType | None = None) -> str:
    """What a claim or a payment lays: its cards, those from the team's holder, and the cards of
    its own a mechanism lets it lay (`ACTION_WORDS["payment"]`: « et 1 carte Ferry »)."""
    paid = cards_phrase(action.get("cards"))
    for key, one, many in getattr(engine, "ACTION_WORDS", {}).get("payment", ()):
        laid = action.get(key)
        if laid:
            named = f"{laid} {one if laid == 1 else many}"
            paid = named if paid == "aucune carte" else f"{paid} et {named}"
    if action.get("holder_cards"):
        paid += f" (du porte-cartes : {cards_phrase(action['holder_cards'])})"
    return paid


# `{field}`, `{field:form}` in an action's sentence; doubled braces are braces.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z0-9_-]+)(?::([a-z]+))?\}")


def said(engine: types.ModuleType, words: dict[str, Any], action: dict) -> str:
    """An action's sentence as the engine declares it (`ACTION_WORDS`), its fields filled in."""

    def filled(match: re.Match) -> str:
        if match.group(1) is None:
            return match.group(0)[0]
        key, form = match.group(1), match.group(2)
        value = action.get(key)
        if form == "cards":
            return cards_phrase(value)
        if form == "payment":
            return payment_phrase(action, engine)
        if form == "count":
            count = len(value) if isinstance(value, list) else int(value or 0)
            none, one, many = words["counts"][key]
            return none if count == 0 else f"{count} {one if count == 1 else many}"
        names = words.get("names", {}).get(key)
        if names is None:
            return "?" if value is None else str(value)  # an action written by hand may lack it
        return names.get(value, f"« {value} »")

    return _PLACEHOLDER.sub(filled, words["text"])


def _with_clauses(engine: types.ModuleType, text: str, action: dict) -> str:
    """A core action's sentence with what the mechanisms add to it where the action says so."""
    for clause in getattr(engine, "ACTION_WORDS", {}).get("clauses", {}).get(action.get("type"), ()):
        present = clause.get("present")
        when = clause.get("when")
        if (present is None or present in action) and (when is None or action.get(when[0]) == when[1]):
            text += said(engine, clause, action)
    return text


def route_name(engine: types.ModuleType, route_id: str) -> str:
    route = engine.ROUTES.get(route_id)
    if route is None:
        return route_id
    end = route.get("endpoint") or route["b"]
    return f"{route['a']} – {end}"


def sibling_tracks(route: dict) -> list[str]:
    """The other tracks of a double or triple route (an engine lists "siblings" only when its board
    has a triple route; "twin" is the other track of a double one)."""
    if "siblings" in route:
        return list(route["siblings"])
    return [route["twin"]] if route.get("twin") else []


@cache
def _tracks_between(routes_id: int, engine: types.ModuleType) -> dict[frozenset, list[str]]:
    """The routes of an engine by the two places they join, in board order (`routes_id` keys the
    cache on the engine's table, so an engine rebuilt under the same name is read anew)."""
    found: dict[frozenset, list[str]] = {}
    for route_id, record in engine.ROUTES.items():
        found.setdefault(frozenset((record["a"], record.get("endpoint") or record["b"])), []).append(route_id)
    return found


def track_name(engine, route_id: str) -> str:
    """A route's name, told apart from its other tracks by colour, or by rank when they share it."""
    route = engine.ROUTES[route_id]
    # Its other tracks, and any other route between the same two places that is not its double
    # (Japan's Aomori – Hakodate, white and Shinkansen): each is told apart the same way.
    tracks = _tracks_between(id(engine.ROUTES), engine)[
        frozenset((route["a"], route.get("endpoint") or route["b"]))
    ]
    if len(tracks) == 1:
        return route_name(engine, route_id)
    siblings = [track for track in tracks if track != route_id]
    if any(engine.ROUTES[track]["color"] == route["color"] for track in siblings):
        return f"{route_name(engine, route_id)} (voie {tracks.index(route_id) + 1})"
    return f"{route_name(engine, route_id)} ({color_word(route['color'])})"


def color_word(color: str) -> str:
    return "grise" if color == "gray" else card_forms()[color][0].removeprefix("carte ")


def cards_seen(observation: dict) -> dict[str, int]:
    """Every card its player sees as theirs: the hand, the team's holder, a card drawn blind."""
    seen: dict[str, int] = dict(observation["players"][observation["player"]].get("hand", {}))
    for team in observation.get("teams", []):
        for color, count in team.get("holder", {}).items():
            seen[color] = seen.get(color, 0) + count
    if observation.get("drawn_card"):
        seen[observation["drawn_card"]] = seen.get(observation["drawn_card"], 0) + 1
    return seen


def drawn_blind(before: dict, after: dict) -> str | None:
    """The card a draw from the deck gave its player (from their observations before and after)."""
    gained = [color for color, count in cards_seen(after).items() if count > cards_seen(before).get(color, 0)]
    return gained[0] if len(gained) == 1 else None


def ticket_name(engine: types.ModuleType, ticket_id: str) -> str:
    ticket = engine.TICKETS.get(ticket_id)
    if ticket is None:
        return ticket_id
    if ticket.get("targets"):
        targets = ", ".join(f"{place} {points}" for place, points in ticket["targets"].items())
        return f"{ticket['a']} → {targets}"
    return f"{ticket['a']} – {ticket['b']} ({ticket['points']})"


def describe(
    engine: types.ModuleType,
    action: dict,
    market: list[Any] | None = None,
    *,
    own: bool = False,
    drawn: str | None = None,
) -> str:
    """What ``action`` does, in French with its typography (see ``_describe``); ``drawn``, the card
    a blind draw gave, is said only in the text for its player (``own``)."""
    if own and drawn and action.get("type") == "draw_card" and action.get("source") != "market":
        to = f" {SOURCES_TO[action['to']]}" if action.get("to") in SOURCES_TO else ""
        return typo(f"pioche une {card_forms().get(drawn, (drawn,))[0]}{to}")
    return typo(_describe(engine, action, market, own=own))


def _describe(
    engine: types.ModuleType, action: dict, market: list[Any] | None = None, *, own: bool = False
) -> str:
    """What ``action`` does, as a sentence without its subject (« prend la route … »).

    ``market`` is the face-up row before the action (to name the card taken); ``own``
    says the text is for the acting player, who may see the tickets named.
    """
    kind = action.get("type")
    declared = getattr(engine, "ACTION_WORDS", {}).get("sentences", {})
    if kind in declared:
        return said(engine, declared[kind], action)
    to = f" {SOURCES_TO[action['to']]}" if action.get("to") in SOURCES_TO else ""
    if kind == "draw_card" and action.get("source") == "market":
        slot = action.get("slot")
        card = market[slot] if market and isinstance(slot, int) and 0 <= slot < len(market) else None
        forms = card_forms()
        what = f"la {forms[card][0]} visible" if card in forms else "une carte visible"
        return f"prend {what}{to}"
    if kind == "draw_card":
        return f"pioche une carte{to}"
    if kind == "place_card":
        return f"met la carte piochée{to}"
    if kind == "claim_route":
        route = engine.ROUTES.get(action.get("route"), {})
        length = route.get("length", "?")
        text = f"prend la route {route_name(engine, action.get('route', ''))} ({length}) avec {payment_phrase(action, engine)}"
        return _with_clauses(engine, text, action)
    if kind == "draw_tickets":
        return _with_clauses(engine, "pioche des tickets", action)
    if kind == "keep_tickets":
        kept = action.get("tickets") or []
        shared = action.get("share") or []
        if own:
            text = "garde " + (", ".join(ticket_name(engine, t) for t in kept) or "aucun ticket")
            if shared:
                text += " ; au porte-cartes : " + ", ".join(ticket_name(engine, t) for t in shared)
            return text
        text = f"garde {len(kept)} ticket{'s' if len(kept) > 1 else ''}"
        return text + (f", dont {len(shared)} au porte-cartes de l’équipe" if shared else "")
    if kind == "pay_card":
        forms = card_forms()
        color = action.get("color")
        return (
            f"donne une {forms[color][0]} de plus pour sa route"
            if color in forms
            else "donne une carte de plus"
        )
    if kind == "pass":
        return "passe son tour"
    return f"joue « {kind} »"
