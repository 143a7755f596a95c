"""The playtest pages: view models in French, printed by autoescaped templates.

The board is the printable sheet's picture, drawn again for each page with the
claimed routes in their owners' colours. A person sees only what
``observation(seat)`` shows them: their hand and tickets, everyone's routes,
counts for the rest.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from aventuriers.compiler.emit import template_environment
from aventuriers.compiler.emit.board import COLORS, render_board
from aventuriers.compiler.french import COLOR_NAMES, amount, card_forms, typo
from markupsafe import Markup

from .describe import (
    cards_phrase,
    clauses,
    color_word,
    describe,
    payment_phrase,
    route_name,
    said,
    ticket_name,
    track_name,
)
from .score_lines import breakdown
from .state_fields import declared, field_value, ids, values

if TYPE_CHECKING:
    from .session import Session
    from .web import Served

TEMPLATES = Path(__file__).resolve().parent / "web"
# The players' trains, in colours no train card has (teal, purple, brown, magenta, navy, olive),
# each wagon drawn with a bold outline and a white window: never mistaken for an open route.
PLAYER_COLORS = ("#00897b", "#7b3fa0", "#8c5a2b", "#b0186e", "#24306e", "#7d8c1c")
# The card colours as the board draws them, and the two jokers as patterns.
COLOR_SWATCHES = {
    **COLORS,
    "locomotive": "linear-gradient(90deg,#d7262b,#f3cd1f,#2f9a44,#2466c2)",
    "tunnel": "repeating-linear-gradient(45deg,#555 0 4px,#bbb 4px 8px)",
}


@cache
def environment() -> jinja2.Environment:
    return template_environment(TEMPLATES, autoescape=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Button:
    label: str
    action: str  # the action as JSON, posted back as it is
    kind: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Seat:
    name: str
    color: str
    score: int
    trains: int
    cards: int
    tickets: int
    current: bool
    detail: str

    @property
    def counts(self) -> tuple[str, ...]:
        """Score, trains, cards and tickets as a French reader says them (« 1 carte »)."""
        return (
            amount(self.score, "point", "points"),
            amount(self.trains, "wagon", "wagons"),
            amount(self.cards, "carte", "cartes"),
            amount(self.tickets, "ticket", "tickets"),
        )


def _button(label: str, action: dict, kind: str = "") -> Button:
    return Button(label=typo(label), action=json.dumps(dict(action), ensure_ascii=False), kind=kind)


def seat_name(session: Session, seat: int, viewer: int | None = None) -> str:
    who = session.seats[seat]
    name = f"Joueur {seat + 1}"
    if who != "human":
        return f"{name} (bot {who})"
    return f"{name} (toi)" if seat == viewer and len(session.humans) == 1 else name


def home_page(served: Served) -> str:
    low, high = served.engine.PLAYERS
    return (
        environment()
        .get_template("home.html.j2")
        .render(
            title=served.title,
            edition=served.edition,
            bots=", ".join(served.bots) or "aucun",
            humans_max=max(1, high - len(served.bots)),
            humans_min=max(1, low - len(served.bots)),
        )
    )


def message_page(text: str) -> str:
    return environment().get_template("message.html.j2").render(text=typo(text))


def game_page(served: Served, session: Session, query: dict[str, str], error: str | None = None) -> str:
    engine, game = served.engine, session.game
    viewer = session.viewer()
    # Several people at one screen: the next one's hand stays hidden until they ask for it.
    observation, covered = session.screen_observation(), session.is_covered()
    legal = list(game.legal_actions()) if session.is_human_turn() and not covered else []
    selected_route = query.get("route") if query.get("route") in engine.ROUTES else None
    cities = {route[end] for route in engine.ROUTES.values() for end in ("a", "b")}
    selected_city = query.get("city") if query.get("city") in cities else None
    claimed = {
        route: PLAYER_COLORS[seat % len(PLAYER_COLORS)]
        for seat, player in enumerate(observation["players"])
        for route in player.get("routes", [])
    }
    pieces, counts = _drawn_state(engine, observation, claimed)
    board = (
        Markup(
            render_board(
                served.board,
                served.title,
                claimed=claimed,
                stations=pieces,
                selected=selected_route,
                counts=counts,
                marked=_ticket_places(
                    engine, [] if covered else observation["players"][viewer].get("pending_tickets", [])
                ),
            )
        )
        if served.board is not None
        else None
    )
    forms = card_forms()
    market_buttons: dict[int, list[Button]] = {}
    deck_buttons: list[Button] = []
    route_buttons: list[Button] = []
    city_buttons: list[Button] = []
    other_buttons: list[Button] = []
    choices: list[dict] = []  # the ticket choices: one form of checkboxes, not a button each
    for action in legal:
        kind = action["type"]
        # What a mechanism adds to a core action (where a card goes, a share declined), as declared.
        added = clauses(engine, action, own=True)
        if kind == "draw_card" and action["source"] == "market":
            market_buttons.setdefault(action["slot"], []).append(_button(f"Prendre{added}", action))
        elif kind == "draw_card":
            deck_buttons.append(_button(f"Piocher{added}", action))
        elif kind == "claim_route":
            if action["route"] == selected_route:
                route_buttons.append(_button(f"Payer {payment_phrase(action, engine)}{added}", action))
        elif kind == "build_station":
            if action["city"] == selected_city:
                city_buttons.append(_button(f"Gare pour {cards_phrase(action['cards'])}", action))
        elif kind == "keep_tickets":
            choices.append(action)
        else:
            own = describe(engine, action, observation["market"], own=True)
            other_buttons.append(_button(own[:1].upper() + own[1:], action, kind))
    ticket_choice = _ticket_choice(engine, choices) if choices else None
    claimable = _claimable(engine, {action["route"] for action in legal if action["type"] == "claim_route"})
    attempt = None
    if selected_route and not route_buttons and legal:
        route = engine.ROUTES[selected_route]
        color = route["color"] if route["color"] != "gray" else "red"
        attempt = _button(
            f"Tenter de la prendre avec {cards_phrase({color: route['length']})}",
            {"type": "claim_route", "route": selected_route, "cards": {color: route["length"]}},
        )
    # What the screen may show of the viewer's own game: nothing while it is covered.
    me = {} if covered else observation["players"][viewer]
    seats = tuple(
        Seat(
            name=seat_name(session, seat, viewer),
            color=PLAYER_COLORS[seat % len(PLAYER_COLORS)],
            score=player.get("score", 0),
            trains=player.get("trains", 0),
            cards=sum(player["hand"].values()) if "hand" in player else player.get("hand_size", 0),
            tickets=len(player["tickets"]) if "tickets" in player else player.get("tickets_count", 0),
            current=seat == game.current_player and not game.is_over(),
            detail=" · ".join(
                [
                    *_shown_tickets(engine, player, seat == viewer),
                    *_declared_lines(engine, observation, [(player, "player")]),
                ]
            ),
        )
        for seat, player in enumerate(observation["players"])
    )
    final = _final_view(engine, session, viewer) if game.is_over() else None
    return (
        environment()
        .get_template("game.html.j2")
        .render(
            title=served.title,
            session=session,
            viewer_name=seat_name(session, viewer, viewer),
            human_turn=session.is_human_turn(),
            covered=covered,
            over=game.is_over(),
            bots_to_play=not game.is_over() and not session.is_human_turn(),
            # The person's turn is over, the bots wait until it is confirmed: it may still be undone.
            awaiting=not game.is_over() and not session.is_human_turn() and session.can_undo(),
            can_undo=session.can_undo(),
            auto=query.get("auto") != "0",
            error=error,
            board=board,
            seats=seats,
            market=tuple(
                (
                    index,
                    forms.get(card, (card or "vide", ""))[0],
                    COLOR_SWATCHES.get(card or "", "#eee"),
                    market_buttons.get(index, []),
                )
                for index, card in enumerate(observation["market"])
            ),
            deck=(observation["deck_size"], deck_buttons),
            hand=_cards_view(me.get("hand", {}), forms),
            tickets=tuple(ticket_name(engine, ticket) for ticket in me.get("tickets", [])),
            team=None if covered else _team_view(engine, observation, viewer, forms),
            pending=tuple(ticket_name(engine, ticket) for ticket in me.get("pending_tickets", [])),
            selected_route=(route_name(engine, selected_route), _route_facts(engine, selected_route))
            if selected_route
            else None,
            route_buttons=route_buttons,
            attempt=attempt,
            selected_city=selected_city,
            city_buttons=city_buttons,
            other_buttons=other_buttons,
            owed_note=_owed_note(engine, observation) if session.is_human_turn() and not covered else None,
            claimable=claimable,
            ticket_choice=ticket_choice,
            # In reading order, the last move at the bottom; the viewer reads their own draws' cards.
            log=tuple(
                (seat_name(session, seat, viewer), own if seat == viewer and not covered else public)
                for seat, public, own in session.log
            ),
            final=final,
            # What the mechanisms keep for the whole game, as the engine declares it (shares taken,
            # tokens on the cities, a supply's pieces, a second deck's pile).
            game_state=_declared_lines(engine, observation, [(observation, "game")]),
        )
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalScore:
    """A player's score at the end, line by line as the engine declares them, and every ticket
    they held, revealed: done or failed, and what it gave."""

    name: str
    color: str
    total: int
    won: bool
    lines: tuple[tuple[str, str], ...]  # (the line's label, its points said with their sign)
    tickets: tuple[tuple[str, str, bool], ...]  # (the ticket, its points with their sign, done)


def _signed(points: int) -> str:
    """Points as a score sheet writes them: « +12 », « −4 » (a minus sign, not a hyphen), « 0 »."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def _final_view(engine, session: Session, viewer: int) -> tuple[FinalScore, ...]:
    winners = set(session.game.winners())
    return tuple(
        FinalScore(
            name=seat_name(session, score["player"], viewer),
            color=PLAYER_COLORS[score["player"] % len(PLAYER_COLORS)],
            total=score["total"],
            won=score["player"] in winners,
            lines=tuple(
                (typo(label[:1].upper() + label[1:]), _signed(points))
                for label, points in breakdown(engine, score)
            ),
            tickets=tuple(
                (ticket_name(engine, entry["ticket"]), _signed(sign * entry["points"]), sign > 0)
                for key, sign in (("tickets_completed", 1), ("tickets_failed", -1))
                for entry in score.get(key, ())
            ),
        )
        for score in session.game.scores()
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamPart:
    """One field a team keeps, as its own players see it: its label and its cards (as
    swatches), its items by name, or its value said in a line."""

    label: str
    cards: tuple[tuple[str, int, str], ...] = ()
    items: tuple[str, ...] = ()
    text: str = ""
    empty: str  # what to say where it holds nothing


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamView:
    """The viewer's team: its seats and what the engine declares a team keeps (`STATE_FIELDS`
    of the team scope: a holder's cards and tickets in team play)."""

    teammates: str
    parts: tuple[TeamPart, ...]


def _cards_view(cards: dict[str, int], forms: dict) -> tuple[tuple[str, int, str], ...]:
    """Cards held, as (« cartes rouges », how many, swatch), colours without cards left out."""
    return tuple(
        (forms[color][0] if count == 1 else forms[color][1], count, COLOR_SWATCHES.get(color, "#eee"))
        for color, count in cards.items()
        if count
    )


def _team_view(engine, observation: dict, viewer: int, forms: dict) -> TeamView | None:
    """What the viewer's own team keeps, from the fields the engine declares for a team; None
    where no team is kept or its records are not the viewer's to see."""
    teams = observation.get("teams") or []
    own = next((team for team in teams if viewer in team.get("players", ())), None)
    if own is None:
        return None
    parts = []
    for field in declared(engine, len(observation["players"])):
        if field["scope"] != "team" or field["key"] not in own:
            continue
        value, label = field_value(own, field), field["label"][:1].upper() + field["label"][1:]
        if field["shape"] == "tally" and field.get("over") == "COLORS":
            parts.append(TeamPart(label=label, cards=_cards_view(value or {}, forms), empty="aucune carte"))
        elif field["shape"] == "ids":
            items = tuple(_readable(engine, field, key) for key in value or ())
            parts.append(
                TeamPart(
                    label=label,
                    items=items,
                    empty="aucun ticket" if field.get("over") == "TICKETS" else "aucun",
                )
            )
        else:
            parts.append(TeamPart(label=label, text=_said_value(engine, field, value), empty="rien"))
    return TeamView(teammates=", ".join(f"Joueur {seat + 1}" for seat in own["players"]), parts=tuple(parts))


@dataclass(frozen=True, slots=True, kw_only=True)
class TicketPick:
    """Some of the offered tickets a choice also names under a field of its own (the tickets
    shared with the team's holder): checkboxes ``FIELD.ID`` under the clause's legend."""

    field: str
    legend: str
    boxes: tuple[tuple[str, str, bool], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TicketChoice:
    """The tickets to choose among, as checkboxes: (id, name, checked) for keeping, and for each
    field of the choice that picks some of them (`TicketPick`); the form posts ``keep.ID`` and
    ``FIELD.ID``, and the fields in ``picks``."""

    keep: tuple[tuple[str, str, bool], ...]
    picks: tuple[TicketPick, ...]
    rule: str

    @property
    def pick_fields(self) -> str:
        return ",".join(pick.field for pick in self.picks)


def _ticket_choice(engine, choices: list[dict]) -> TicketChoice:
    offered = list(dict.fromkeys(ticket for action in choices for ticket in action["tickets"]))
    # Checked at first: the legal choice that keeps the most, picks the first ones.
    first = max(choices, key=lambda action: len(action["tickets"]))
    kept = set(first["tickets"])
    least = min(len(action["tickets"]) for action in choices)
    most = max(len(action["tickets"]) for action in choices)
    rule = f"Garde au moins {amount(least, 'ticket', 'tickets')}" + (
        f", au plus {most}" if most < len(offered) else ""
    )
    picks = []
    # A clause the engine declares for a field of the choice that lists some of its tickets: what
    # the chosen action says of them (« dont 1 ticket au porte-cartes de l’équipe »), and boxes.
    for clause in _picking_clauses(engine):
        field = clause["filled"]
        if not isinstance(first.get(field), list):
            continue
        rule += said(engine, clause, first)
        picked = set(first[field])
        boxes = tuple((ticket, ticket_name(engine, ticket), ticket in picked) for ticket in offered)
        picks.append(TicketPick(field=field, legend=clause["legend"], boxes=boxes))
    return TicketChoice(
        keep=tuple((ticket, ticket_name(engine, ticket), ticket in kept) for ticket in offered),
        picks=tuple(picks),
        rule=typo(rule + "."),
    )


def _drawn_state(
    engine, observation: dict, claimed: dict[str, str]
) -> tuple[dict[str, str], dict[str, int] | None]:
    """What the board draws of the mechanisms' state, read from the fields the engine declares
    drawn (`STATE_FIELDS`' ``drawn``): routes taken otherwise than by a claim, added to
    ``claimed`` in their holder's colour; each player's pieces on cities (city → colour); the
    numbers beside places as they are now (None where no field gives them)."""
    pieces: dict[str, str] = {}
    counts: dict[str, int] | None = None
    for field in declared(engine, len(observation["players"])):
        drawn = field.get("drawn")
        for _, seats, value in values(observation, field) if drawn else ():
            if drawn == "routes_taken":
                for route, seat in (value or {}).items():
                    claimed[route] = PLAYER_COLORS[seat % len(PLAYER_COLORS)]
            elif drawn == "pieces":
                for city in value or []:
                    pieces[city] = PLAYER_COLORS[seats[0] % len(PLAYER_COLORS)]
            elif drawn == "counts":
                counts = counts or {}
                for place, number in (value or {}).items():
                    counts[place] = counts.get(place, 0) + (
                        sum(number.values()) if isinstance(number, dict) else number
                    )
    return pieces, counts


def _shown_tickets(engine, player: dict, own: bool) -> list[str]:
    """Another seat's tickets, where the observation shows them (a rule that plays them face
    up): « tickets : Boston – Miami (12), … »; the viewer's own are listed apart."""
    if own or "tickets" not in player:
        return []
    names = [ticket_name(engine, ticket) for ticket in player["tickets"]]
    return [typo("tickets : " + (", ".join(names) if names else "aucun"))]


def _ticket_places(engine, tickets: list[str]) -> set[str]:
    """The cities of the tickets being chosen, to ring on the board."""
    places = set()
    for ticket in tickets:
        record = engine.TICKETS[ticket]
        places.add(record["a"])
        places.update(record.get("targets") or [record.get("b")])
    return places


def _picking_clauses(engine) -> list[dict]:
    """The clauses the engine declares for a ticket choice's fields that pick some of its
    tickets (those with a ``legend``)."""
    found = getattr(engine, "ACTION_WORDS", {}).get("clauses", {}).get("keep_tickets", ())
    return [clause for clause in found if clause.get("filled") and "legend" in clause]


def ticket_choice_action(engine, form: dict[str, str], pending: list[str]) -> dict:
    """The keep_tickets action the checkboxes say, tickets in the order they were offered; each
    field of the choice that picks some of them, where the form says it asked (``picks``), lists
    those checked under it."""
    action: dict = {"type": "keep_tickets", "tickets": [t for t in pending if f"keep.{t}" in form]}
    asked = set(form.get("picks", "").split(","))
    for clause in _picking_clauses(engine):
        field = clause["filled"]
        if field in asked:
            action[field] = [t for t in pending if f"{field}.{t}" in form]
    return action


def _claimable(engine, routes: set[str]) -> tuple[tuple[str, str], ...]:
    """The routes a claim may take, one link per route however many of its tracks are open
    (« Boston – New York (rouge ou jaune) »), in the order of their names."""
    groups: dict[tuple[str, str], list[str]] = {}
    for route_id in engine.ROUTES:
        if route_id in routes:
            record = engine.ROUTES[route_id]
            groups.setdefault((record["a"], record.get("endpoint") or record["b"]), []).append(route_id)
    links = []
    for tracks in groups.values():
        if len(tracks) == 1:
            links.append((tracks[0], track_name(engine, tracks[0])))
            continue
        kinds = [track_name(engine, track).rsplit(" (", 1)[1].rstrip(")") for track in tracks]
        links.append((tracks[0], f"{route_name(engine, tracks[0])} ({' ou '.join(kinds)})"))
    return tuple(sorted(links, key=lambda link: link[1]))


def _route_facts(engine, route_id: str) -> str:
    route = engine.ROUTES[route_id]
    facts = [f"{route['length']} cases", color_word(route["color"])]
    if route.get("tunnel"):
        facts.append("tunnel")
    if route.get("ferry"):
        facts.append(f"ferry ({route['ferry']} locomotive{'s' if route['ferry'] > 1 else ''})")
    # What its claim also costs and gains (a mountain's train set aside, a bridge's card).
    facts += engine.ROUTE_NOTES.get(route_id, ())
    return ", ".join(facts)


def _owed_note(engine, observation: dict) -> str | None:
    """What a claim still waits for, in the person's own turn: cards of any colour, one by one."""
    owed = observation.get("owed_cards")
    if not owed:
        return None
    count = owed["owed"]
    return typo(
        f"Ta route {route_name(engine, owed['route'])} attend encore {amount(count, 'carte', 'cartes')} "
        f"de n’importe quelle couleur : donne-{'la' if count == 1 else 'les'} une à une."
    )


def _readable(engine, field: dict, key: str) -> str:
    """An id of a declared field as a reader reads it: its French name, a route's ends, a ticket, a colour."""
    over, names = ids(engine, field), field.get("names", ())
    if names and key in over:
        return names[over.index(key)]
    if key in engine.ROUTES:
        return route_name(engine, key)
    if key in engine.TICKETS:
        return ticket_name(engine, key)
    return COLOR_NAMES.get(key, key)  # a colour as a noun: « rouge », « noir »


def _said_value(engine, field: dict, value) -> str:
    """A declared field's value in French, or "" when there is nothing to show (an empty list, a
    choice or a pending record, which the page asks about elsewhere)."""
    shape = field["shape"]
    if value is None or shape in ("choices", "pending"):
        return ""
    if shape == "card":
        return card_forms().get(value, (value,))[0]  # a card in its holder's sight (drawn blind)
    if shape == "count":
        return str(value)
    if shape == "ids":
        return ", ".join(_readable(engine, field, key) for key in value)
    if shape == "tally":
        return ", ".join(f"{_readable(engine, field, key)} {count}" for key, count in value.items() if count)
    if shape == "numbers":
        return ", ".join(
            f"{_readable(engine, field, key)} {len(held)}" for key, held in value.items() if held
        )
    if shape == "holders":
        return ", ".join(
            f"{_readable(engine, field, key)} (joueur {seat + 1})" for key, seat in value.items()
        )
    if shape == "grid":
        rows = []
        for key, row in value.items():
            inner = ", ".join(
                f"{_readable(engine, field, kind)} {count}" for kind, count in row.items() if count
            )
            if inner:
                rows.append(f"{_readable(engine, field, key)} ({inner})")
        return " ; ".join(rows)
    return ""


def _declared_lines(engine, observation: dict, records: list[tuple[dict, str]]) -> tuple[str, ...]:
    """What the engine declares its mechanisms keep (`STATE_FIELDS`) and the observation shows, in
    the given records of one scope ("game", "player"): « label : value » each."""
    lines = []
    for field in declared(engine, len(observation["players"])):
        for record, scope in records:
            if field["scope"] != scope:
                continue
            if field.get("seen") == "sizes":
                sizes = observation.get(field["shown_as"], {})
                value = ", ".join(
                    f"{_readable(engine, field, key)} {sizes.get(key, 0)}" for key in ids(engine, field)
                )
            else:
                value = _said_value(engine, field, field_value(record, field))
            if value:
                lines.append(f"{field['label']}\u00a0: {value}")
    return tuple(lines)
