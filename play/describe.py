"""Actions told in French, for the playtest page: its buttons and the log of the last moves.

Only what every player saw is said: a kept or shared ticket is counted, never named,
unless the text is for the player who holds it.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Any

from aventuriers.compiler.french import card_forms, of_name, typo

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
    the edition's second deck (« et 1 carte Ferry »)."""
    laid = action.get("extra_cards")
    deck = getattr(engine, "EXTRA_DECK", None)
    paid = cards_phrase(action.get("cards"))
    if laid and deck:
        named = f"{laid} {deck['singular'] if laid == 1 else deck['plural']}"
        paid = named if paid == "aucune carte" else f"{paid} et {named}"
    if action.get("holder_cards"):
        paid += f" (du porte-cartes : {cards_phrase(action['holder_cards'])})"
    return paid


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
        # With shares, a claim may decline the route's share.
        return text + (" sans prendre d’action" if action.get("share") is False else "")
    if kind == "draw_tickets":
        mix = getattr(engine, "TICKET_MIX", None)
        if mix and mix["kind"] in action:
            count = action[mix["kind"]]
            one = mix["french"].removesuffix("s")
            some = f"{count} {mix['french'] if count > 1 else one}" if count else f"aucun {one}"
            return f"pioche des tickets, dont {some}"
        return "pioche des tickets"
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
    if kind == "share_tickets":
        count = len(action.get("tickets") or [])
        return f"met {count} ticket{'s' if count > 1 else ''} dans le porte-cartes de l’équipe"
    if kind == "pay_tunnel":
        return f"paie le supplément du tunnel : {payment_phrase(action)}"
    if kind == "abandon_tunnel":
        return "renonce au tunnel"
    if kind == "pay_card":
        forms = card_forms()
        color = action.get("color")
        return (
            f"donne une {forms[color][0]} de plus pour sa route"
            if color in forms
            else "donne une carte de plus"
        )
    if kind == "build_station":
        return f"construit une gare à {action.get('city')} avec {cards_phrase(action.get('cards'))}"
    if kind == "take_share":
        company = getattr(engine, "SHARES", {}).get(action.get("company"), {}).get("name")
        if not company:
            return f"prend une action « {action.get('company')} »"
        return f"prend une action {of_name(company)}"
    if kind == "draw_extra_card":
        deck = getattr(engine, "EXTRA_DECK", None)
        return f"prend une {deck['singular']}" if deck else "prend une carte de la seconde pioche"
    if kind == "take_token":
        return f"prend le jeton « {action.get('kind')} » à {action.get('city')}"
    if kind == "pass":
        return "passe son tour"
    return f"joue « {kind} »"
