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

from .state_fields import cards_shown


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
    for key, source in getattr(engine, "ACTION_WORDS", {}).get("payment_from", ()):
        if action.get(key):
            paid += f" ({source} : {cards_phrase(action[key])})"
    return paid


# `{field}`, `{field:form}` in an action's sentence; doubled braces are braces.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z0-9_-]+)(?::([a-z]+))?\}")


def said(engine: types.ModuleType, words: dict[str, Any], action: dict, *, own: bool = False) -> str:
    """An action's sentence as the engine declares it (`ACTION_WORDS`), its fields filled in;
    ``own``: the text is for the acting player, who sees its tickets named."""

    def filled(match: re.Match) -> str:
        if match.group(1) is None:
            return match.group(0)[0]
        key, form = match.group(1), match.group(2)
        value = action.get(key)
        if form == "cards":
            return cards_phrase(value)
        if form == "payment":
            return payment_phrase(action, engine)
        if form == "tickets" and own:
            return ", ".join(ticket_name(engine, ticket) for ticket in value or ()) or words["counts"][key][0]
        if form in ("count", "tickets"):
            count = len(value) if isinstance(value, list) else int(value or 0)
            none, one, many = words["counts"][key]
            return none if count == 0 else f"{count} {one if count == 1 else many}"
        names = words.get("names", {}).get(key)
        if names is None:
            return "?" if value is None else str(value)  # an action written by hand may lack it
        return names.get(value, f"« {value} »")

    return _PLACEHOLDER.sub(filled, words["text"])


def clauses(engine: types.ModuleType, action: dict, *, own: bool = False) -> str:
    """What the mechanisms add to a core action's sentence where the action says so (« pour le
    porte-cartes de l’équipe », « sans prendre d’action »), "" where none does."""
    text = ""
    for clause in getattr(engine, "ACTION_WORDS", {}).get("clauses", {}).get(action.get("type"), ()):
        present, filled, when = clause.get("present"), clause.get("filled"), clause.get("when")
        if (
            (present is None or present in action)
            and (filled is None or action.get(filled))
            and (when is None or action.get(when[0]) == when[1])
        ):
            text += said(engine, clause, action, own=own)
    return text


def _with_clauses(engine: types.ModuleType, text: str, action: dict, *, own: bool = False) -> str:
    """A core action's sentence with what the mechanisms add to it where the action says so."""
    return text + clauses(engine, action, own=own)


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


def cards_seen(engine: types.ModuleType, observation: dict) -> dict[str, int]:
    """Every card its player sees as theirs: the hand, and the train cards a mechanism keeps that
    its observation shows (`STATE_FIELDS` holding cards: a team's holder, a card drawn blind)."""
    seen: dict[str, int] = dict(observation["players"][observation["player"]].get("hand", {}))
    for color, count in cards_shown(engine, observation).items():
        seen[color] = seen.get(color, 0) + count
    return seen


def drawn_blind(engine: types.ModuleType, before: dict, after: dict) -> str | None:
    """The card a draw from the deck gave its player (from their observations before and after)."""
    had, has = cards_seen(engine, before), cards_seen(engine, after)
    gained = [color for color, count in has.items() if count > had.get(color, 0)]
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
        return typo(_with_clauses(engine, f"pioche une {card_forms().get(drawn, (drawn,))[0]}", action))
    return typo(_describe(engine, action, market, own=own))


def _describe(
    engine: types.ModuleType, action: dict, market: list[Any] | None = None, *, own: bool = False
) -> str:
    """What ``action`` does, as a sentence without its subject (« prend la route … »).

    ``market`` is the face-up row before the action (to name the card taken); ``own``
    says the text is for the acting player, who may see the tickets named.
    """
    kind = action.get("type")
    sentences = getattr(engine, "ACTION_WORDS", {}).get("sentences", {})
    if kind in sentences:
        return said(engine, sentences[kind], action, own=own)
    if kind == "draw_card" and action.get("source") == "market":
        slot = action.get("slot")
        card = market[slot] if market and isinstance(slot, int) and 0 <= slot < len(market) else None
        forms = card_forms()
        what = f"la {forms[card][0]} visible" if card in forms else "une carte visible"
        return _with_clauses(engine, f"prend {what}", action)
    if kind == "draw_card":
        return _with_clauses(engine, "pioche une carte", action)
    if kind == "claim_route":
        route = engine.ROUTES.get(action.get("route"), {})
        length = route.get("length", "?")
        text = f"prend la route {route_name(engine, action.get('route', ''))} ({length}) avec {payment_phrase(action, engine)}"
        return _with_clauses(engine, text, action)
    if kind == "draw_tickets":
        return _with_clauses(engine, "pioche des tickets", action)
    if kind == "keep_tickets":
        kept = action.get("tickets") or []
        if own:
            text = "garde " + (", ".join(ticket_name(engine, t) for t in kept) or "aucun ticket")
        else:
            text = f"garde {len(kept)} ticket{'s' if len(kept) > 1 else ''}"
        return _with_clauses(engine, text, action, own=own)
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
