"""Stage 5: a merged, checked document to the typed IR (``compiler.ir``).

Also the names every stage agrees on: the readable, stable ids of routes and
tickets, and the selection of the tickets an edition plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..frontend.lower import Document, JsonPath
from ..frontend.positions import Span
from ..frontend.text import Text
from ..ir import (
    Board,
    CardColor,
    CardCount,
    ClaimRoute,
    Country,
    Criterion,
    Decision,
    DoubleRule,
    DrawCards,
    DrawTickets,
    Edition,
    End,
    FaceUpLocomotive,
    Place,
    Range,
    Route,
    RouteProperty,
    ScoreExample,
    Setup,
    Target,
    Ticket,
    TicketDeck,
    TicketsRejected,
    Tiebreaker,
    Turn,
    TwinPolicy,
)
from ..mechanisms import REGISTRY
from .ids import assign_ids

JOKER_CARDS = (CardColor.LOCOMOTIVE, CardColor.TUNNEL)


def arrows_of(board: dict[str, Any]) -> dict[str, str]:
    """Each border arrow (``France#2``) of the board, with its country."""
    return {
        f"{country['name']}#{number}": country["name"]
        for country in board.get("country", [])
        for number in range(1, country["arrows"] + 1)
    }


def _ends(route: dict[str, Any], arrows: dict[str, str]) -> dict[str, Any]:
    """A route's ends: a city and a city, or a city and a country through one of its arrows."""
    if route["b"] in arrows:
        return {"a": route["a"], "b": arrows[route["b"]], "endpoint": route["b"]}
    if route["a"] in arrows:
        return {"a": route["b"], "b": arrows[route["a"]], "endpoint": route["a"]}
    return {"a": route["a"], "b": route["b"]}


def _ticket_kind(ticket: dict[str, Any], countries: set[str]) -> str:
    """The declared kind; else, for a ticket whose targets are countries, where it starts from."""
    if "kind" in ticket:
        return ticket["kind"]
    targets = ticket.get("target", [])
    if targets and all(target["place"] in countries for target in targets):
        return "country_to_countries" if ticket["a"] in countries else "city_to_countries"
    return "regular"


def selected(tickets: dict[str, Any]) -> list[int]:
    """Indexes of the listed tickets that `select` keeps (all of them without `select`)."""
    wanted = tickets.get("select", {})
    return [
        index
        for index, ticket in enumerate(tickets["ticket"])
        if all(
            ticket.get(key, "regular" if key == "kind" else None) == value for key, value in wanted.items()
        )
    ]


def _range(value: Any) -> Range:
    if isinstance(value, int):
        return Range(min=value, max=value)
    return Range(min=value["min"], max=value["max"])


def build(document: Document) -> Edition:
    """The IR of a merged edition that passed every check."""
    data = document.data

    def span(*path: str | int) -> Span:
        at: JsonPath = tuple(path)
        return document.span(at)

    board, tickets, setup, turn = data["board"], data["tickets"], data["setup"], data["turn"]
    route_ids = assign_ids(board["route"], by_color=True)
    declared = board.get("property", [])
    arrows = arrows_of(board)
    routes = tuple(
        Route(
            id=route_id,
            **_ends(route, arrows),
            length=route["length"],
            color=route["color"],
            double_group=route.get("double"),
            tunnel=route.get("tunnel", False),
            ferry=route.get("ferry", 0),
            reveal=route.get("reveal"),
            properties=tuple((p["name"], route.get(p["name"], p["default"])) for p in declared),
            span=span("board", "route", index),
        )
        for index, (route, route_id) in enumerate(zip(board["route"], route_ids, strict=True))
    )
    ticket_ids = assign_ids(tickets["ticket"], by_color=False)
    ticket_list = tuple(
        Ticket(
            id=ticket_ids[i],
            a=tickets["ticket"][i]["a"],
            b=tickets["ticket"][i].get("b", ""),
            points=tickets["ticket"][i].get("points")
            or max(t["points"] for t in tickets["ticket"][i]["target"]),
            kind=_ticket_kind(tickets["ticket"][i], {c["name"] for c in board.get("country", [])}),
            deck=tickets["ticket"][i].get("deck"),
            targets=tuple(
                Target(place=t["place"], points=t["points"]) for t in tickets["ticket"][i].get("target", ())
            ),
            span=span("tickets", "ticket", i),
        )
        for i in selected(tickets)
    )
    draw = turn.get("draw_cards")
    draw_tickets = turn.get("draw_tickets")
    example = data.get("score_example")
    return Edition(
        name=data["edition"],
        extends=data.get("extends"),
        game=data["game"],
        title=data.get("title", data["game"]),
        rulebook=data.get("rulebook"),
        players=_range(data["players"]),
        duration=_range(data["duration"]) if "duration" in data else None,
        trains=data["trains"],
        cards=tuple(
            CardCount(color=color, count=data["cards"][color.value])
            for color in CardColor
            if color.value in data["cards"]
            # Of the joker cards, only the edition's own (a variant may zero the other).
            and (color not in JOKER_CARDS or color.value == data.get("joker", {}).get("card", "locomotive"))
        ),
        board=Board(
            map=data.get("map", ""),
            cities=tuple(city["name"] for city in board["city"]),
            routes=routes,
            countries=tuple(
                Country(
                    name=c["name"],
                    arrows=c["arrows"],
                    french=c.get("french"),
                    span=span("board", "country", i),
                )
                for i, c in enumerate(board.get("country", []))
            ),
            stand_in=board.get("stand_in"),
            places=_places(board, span),
            properties=tuple(
                RouteProperty(
                    name=p["name"],
                    default=p["default"],
                    singular=p["french"],
                    # A Text like the name it comes from: the sheets escape it the same way.
                    plural=p.get("plural", Text(p["french"] + "s")),
                    feminine=p.get("feminine", True),
                    span=span("board", "property", i),
                )
                for i, p in enumerate(declared)
            ),
            span=span("board"),
        ),
        tickets=TicketDeck(
            tickets=ticket_list,
            printed=tickets.get("printed", len(ticket_list)),
            name=tickets.get("name"),
            span=span("tickets"),
        ),
        setup=Setup(
            train_cards=setup["train_cards"],
            market_size=setup["market"]["size"],
            market_locomotive_reset=None
            if setup["market"]["locomotive_reset"] == "never"
            else setup["market"]["locomotive_reset"],
            tickets_dealt=setup["tickets"]["deal"],
            tickets_keep_at_least=setup["tickets"]["keep_at_least"],
            tickets_rejected=TicketsRejected(setup["tickets"]["rejected"]),
            tickets_keep_at_most=setup["tickets"].get("keep_at_most"),
            long_tickets_dealt=setup["tickets"].get("long", 0),
            long_tickets_rejected=TicketsRejected(setup["tickets"].get("long_rejected", "out_of_game")),
            keep_among_regular=setup["tickets"].get("keep_among", "all") == "regular",
            steps=tuple(setup.get("step", [])),
            span=span("setup"),
        ),
        turn=Turn(
            draw_cards=DrawCards(
                count=draw["count"],
                face_up_locomotive=FaceUpLocomotive(draw["face_up_locomotive"]),
                span=span("turn", "draw_cards"),
            )
            if draw
            else None,
            claim_route=ClaimRoute(span=span("turn", "claim_route")) if turn.get("claim_route") else None,
            draw_tickets=DrawTickets(
                draw=draw_tickets["draw"],
                keep_at_least=draw_tickets["keep_at_least"],
                rejected=TicketsRejected(draw_tickets["rejected"]),
                keep_at_most=draw_tickets.get("keep_at_most"),
                span=span("turn", "draw_tickets"),
            )
            if draw_tickets
            else None,
        ),
        route_points=tuple(sorted((int(k), v) for k, v in data["route_points"].items())),
        double_rules=tuple(
            DoubleRule(
                players=_range(rule["players"]),
                twin=TwinPolicy(rule["twin"]),
                span=span("double_routes", "rule", i),
            )
            for i, rule in enumerate(data["double_routes"]["rule"])
        ),
        end=End(
            trains_at_most=data["end"]["trains_at_most"],
            final_round=data["end"]["final_round"],
            when_nobody_can_play=data["end"]["when_nobody_can_play"],
            trains_of_team=data["end"].get("trains_of", "player") == "team",
            span=span("end"),
        ),
        tiebreakers=tuple(
            Tiebreaker(criterion=_criterion(t["criterion"]), bonus=t.get("bonus"), span=span("tiebreak", i))
            for i, t in enumerate(data.get("tiebreak", []))
            # A step on a bonus the edition dropped (`without bonus …`) is skipped.
            if t["criterion"] != "bonus" or t.get("bonus") in {b["id"] for b in data.get("bonus", [])}
        ),
        score_example=ScoreExample(
            player=example["player"],
            players=example["players"],
            routes=tuple(example["routes"]),
            tickets=tuple(example["tickets"]),
            opponent_routes=tuple(example["opponent_routes"]),
            span=span("score_example"),
        )
        if example
        else None,
        decisions=tuple(
            Decision(id=d["id"], text=d["text"], span=span("decision", i))
            for i, d in enumerate(data.get("decision", []))
        ),
        joker=CardColor(data.get("joker", {}).get("card", "locomotive")),
        rules=tuple(rule for mechanism in REGISTRY for rule in mechanism.build(data, span)),
        span=span("edition"),
        route_points_span=span("route_points"),
    )


def _places(board: dict, span: Callable[..., Span]) -> tuple[Place, ...]:
    located = [("city", index, city) for index, city in enumerate(board["city"]) if "at" in city]
    located += [("arrow", index, arrow) for index, arrow in enumerate(board.get("arrow", []))]
    return tuple(
        Place(
            name=item["name"],
            latitude=item["at"]["latitude"],
            longitude=item["at"]["longitude"],
            span=span("board", kind, index),
        )
        for kind, index, item in located
    )


def _criterion(name: str) -> Criterion | str:
    """A core tie-break criterion, or a mechanism's by its name."""
    return Criterion(name) if name in {criterion.value for criterion in Criterion} else name
