"""The Grand Tour's count against an independent reading of its rule (issue 22, §2).

Two paths that share no route join two cities exactly when no single route of the player's
separates them (Menger): the engine's flow is checked against that, on random sets of routes.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .engines import engine

INDIA = engine("india")
ROUTE_IDS = sorted(INDIA.ROUTES)


def joined(routes: list[str], a: str, b: str) -> bool:
    seen, todo = {a}, [a]
    while todo:
        city = todo.pop()
        for route in routes:
            record = INDIA.ROUTES[route]
            for here, there in ((record["a"], record["b"]), (record["b"], record["a"])):
                if here == city and there not in seen:
                    seen.add(there)
                    todo.append(there)
    return b in seen


def joined_twice(routes: list[str], a: str, b: str) -> bool:
    return joined(routes, a, b) and all(joined([r for r in routes if r != cut], a, b) for cut in routes)


def region(centre: str, dropped: set[int]) -> list[str]:
    """The routes near `centre`, one track of each double, nearest first, within 45 trains:
    a dense piece of board, with loops; the routes at `dropped` places left out."""
    near, frontier, routes = {centre}, [centre], []
    while frontier:
        city = frontier.pop(0)
        for route in ROUTE_IDS:
            record = INDIA.ROUTES[route]
            if city in (record["a"], record["b"]) and route not in routes and record["twin"] not in routes:
                routes.append(route)
                other = record["b"] if record["a"] == city else record["a"]
                if other not in near:
                    near.add(other)
                    frontier.append(other)
    kept, trains = [], 0
    for place, route in enumerate(routes):
        if place not in dropped and trains + INDIA.ROUTES[route]["length"] <= INDIA.TRAINS:
            kept.append(route)
            trains += INDIA.ROUTES[route]["length"]
    return kept


CITIES = sorted({record[end] for record in INDIA.ROUTES.values() for end in ("a", "b")})


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(CITIES), st.sets(st.integers(0, 40), max_size=8), st.integers(0, 10_000))
def test_the_grand_tour_counts_the_tickets_no_single_route_separates(centre, dropped, seed) -> None:
    routes = region(centre, dropped)
    state = INDIA.new_game(2, seed).to_dict()
    record = state["players"][0]
    record["routes"] = routes
    record["trains"] = INDIA.TRAINS - sum(INDIA.ROUTES[r]["length"] for r in routes)
    record["score"] = sum(INDIA.ROUTE_POINTS[INDIA.ROUTES[r]["length"]] for r in routes)
    cities = {INDIA.ROUTES[r][end] for r in routes for end in ("a", "b")}
    tickets = [t for t, rec in INDIA.TICKETS.items() if rec["a"] in cities and rec["b"] in cities]
    for player in state["players"]:
        player["pending_tickets"] = []
    record["tickets"] = tickets
    state["ticket_deck"] = [t for t in state["ticket_deck"] if t not in tickets]
    state["phase"] = "over"
    scored = INDIA.Game.from_dict(state).scores()[0]
    expected = [t for t in tickets if joined_twice(routes, INDIA.TICKETS[t]["a"], INDIA.TICKETS[t]["b"])]
    table = scored["score_tables"]["grand_tour"]
    assert table["tickets"] == expected
    rows = dict(INDIA.SCORE_TABLES["grand_tour"][1])
    assert table["points"] == (rows[min(len(expected), 5)] if expected else 0)
