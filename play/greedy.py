"""The bots' common ground and the two plain bots: what a bot is, the board as a graph with its
shortest paths for a ticket, the random bot and the greedy one.

Below the search (``play.mcts``), which plays the greedy bot's moves in its rollouts, and
below the roster (``play.bots``), which names every bot.
"""

from __future__ import annotations

import heapq
import random
import types
from dataclasses import dataclass, field
from typing import Protocol

from .describe import cards_seen, sibling_tracks

INFINITY = float("inf")


class Bot(Protocol):
    name: str

    def choose(
        self, engine: types.ModuleType, observation: dict, legal: list, rng: random.Random
    ) -> dict: ...


@dataclass
class RandomBot:
    name: str = "random"

    def choose(self, engine: types.ModuleType, observation: dict, legal: list, rng: random.Random) -> dict:
        return legal[rng.randrange(len(legal))]


@dataclass
class Board:
    """The engine's board as a graph: each place to (route id, other place, length) triples; and
    each route with its length and its other tracks, in board order."""

    engine: types.ModuleType
    edges: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    tracks: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for route_id, route in self.engine.ROUTES.items():
            a, b = route["a"], route["b"]
            self.edges.setdefault(a, []).append((route_id, b, route["length"]))
            self.edges.setdefault(b, []).append((route_id, a, route["length"]))
            self.tracks.append((route_id, route["length"], tuple(sibling_tracks(route))))


_BOARDS: dict[str, Board] = {}


def board_of(engine: types.ModuleType) -> Board:
    board = _BOARDS.get(engine.EDITION)
    if board is None or board.engine is not engine:
        board = _BOARDS[engine.EDITION] = Board(engine)
    return board


def my_side(engine: types.ModuleType, observation: dict) -> list[int]:
    """The seats whose routes count as the bot's own: itself, and its teammates in team play."""
    me = observation["player"]
    size = engine.SIDE_SIZE
    first = me - me % size
    return list(range(first, first + size))


def route_costs(engine: types.ModuleType, observation: dict) -> dict[str, float]:
    """Each route's cost to the bot: 0 when its side owns it (or it is a public route built), its
    length when it may still take it, infinite when it is taken or closed to it."""
    players = observation["players"]
    side = my_side(engine, observation)
    owner = {route: seat for seat, record in enumerate(players) for route in record["routes"]}
    count = len(players)
    closes = next(rule[2] for rule in engine.DOUBLE_ROUTE_RULES if rule[0] <= count <= rule[1])
    public = observation.get("public_routes", {})  # built with a shared piece: everyone's to use
    costs: dict[str, float] = {}
    for route_id, length, siblings in board_of(engine).tracks:
        if route_id in public:
            costs[route_id] = 0
            continue
        holder = owner.get(route_id)
        if holder is not None:
            costs[route_id] = 0 if holder in side else INFINITY
            continue
        if siblings:
            taken = [owner[track] for track in siblings if track in owner]
            if taken and (closes or any(seat in side for seat in taken)):
                costs[route_id] = INFINITY
                continue
        costs[route_id] = length
    return costs


def shortest_path(
    board: Board, costs: dict[str, float], start: str, goals: set[str]
) -> tuple[float, list[str]]:
    """The cheapest path from `start` to any of `goals`, as (cost, route ids)."""
    if start in goals:
        return 0, []
    queue: list[tuple[float, int, str]] = [(0, 0, start)]
    best = {start: 0.0}
    back: dict[str, tuple[str, str]] = {}
    tie = 0
    while queue:
        cost, _, place = heapq.heappop(queue)
        if cost > best.get(place, INFINITY):
            continue
        if place in goals:
            path = []
            while place != start:
                route, place = back[place]
                path.append(route)
            return cost, path
        for route_id, other, _ in board.edges.get(place, ()):
            step = costs[route_id]
            if step == INFINITY:
                continue
            if cost + step < best.get(other, INFINITY):
                best[other] = cost + step
                back[other] = (route_id, place)
                tie += 1
                heapq.heappush(queue, (cost + step, tie, other))
    return INFINITY, []


def ticket_goals(engine: types.ModuleType, ticket_id: str) -> tuple[str, list[tuple[set[str], int]]]:
    """A ticket's start and its goals, each a set of places with the points for reaching it."""
    ticket = engine.TICKETS[ticket_id]
    # A country is a place of the board too: the routes to it end at its name.
    if "targets" in ticket:
        return ticket["a"], [({place}, points) for place, points in ticket["targets"].items()]
    return ticket["a"], [({ticket["b"]}, ticket["points"])]


def ticket_plan(
    engine: types.ModuleType, board: Board, costs: dict[str, float], ticket_id: str
) -> tuple[float, list[str], int]:
    """The cheapest way to complete a ticket: (cost in trains still to lay, routes, points)."""
    start, goals = ticket_goals(engine, ticket_id)
    best: tuple[float, list[str], int] = (INFINITY, [], 0)
    for places, points in goals:
        cost, path = shortest_path(board, costs, start, places)
        if cost < INFINITY and (best[0] == INFINITY or points - cost > best[2] - best[0]):
            best = (cost, path, points)
    if best[0] == INFINITY:
        return INFINITY, [], max(points for _, points in goals)
    return best


def hand_of(observation: dict, engine: types.ModuleType) -> dict[str, int]:
    """The cards the bot may pay with: every card it sees as its own (its hand, a team's holder);
    a card drawn blind waits only in a phase where the bot pays nothing."""
    return cards_seen(engine, observation)


@dataclass
class GreedyBot:
    """Plans its tickets' shortest paths and builds them; see the module's docstring."""

    name: str = "greedy"
    late_trains: int = 12  # from this many trains left, claim the longest routes it can

    def choose(self, engine: types.ModuleType, observation: dict, legal: list, rng: random.Random) -> dict:
        kinds: dict[str, list] = {}
        for action in legal:
            kinds.setdefault(action["type"], []).append(action)
        if "keep_tickets" in kinds:
            return self.keep(engine, observation, kinds["keep_tickets"])
        if "pay_tunnel" in kinds:
            return min(kinds["pay_tunnel"], key=lambda action: _jokers(engine, action))
        if "abandon_tunnel" in kinds:
            return kinds["abandon_tunnel"][0]
        if "pay_card" in kinds:
            # A card of any colour a claim still owes: the most plentiful colour, a joker last.
            hand = hand_of(observation, engine)
            joker = engine.COLORS[engine.LOCOMOTIVE]
            return max(
                kinds["pay_card"], key=lambda action: (action["color"] != joker, hand.get(action["color"], 0))
            )
        board = board_of(engine)
        costs = route_costs(engine, observation)
        me = observation["player"]
        trains = observation["players"][me]["trains"]
        tickets = list(observation["players"][me].get("tickets", []))
        for team in observation.get("teams", []):
            if me in team["players"]:
                tickets += team.get("tickets", [])
        plan: dict[str, int] = {}
        open_tickets = 0
        for ticket in sorted(tickets, key=lambda t: -engine.TICKETS[t].get("points", 0)):
            cost, path, _ = ticket_plan(engine, board, costs, ticket)
            if 0 < cost <= trains:
                open_tickets += 1
                for route in path:
                    if costs[route] > 0:
                        plan[route] = plan.get(route, 0) + 1
        claims = kinds.get("claim_route", [])
        on_plan = [action for action in claims if action["route"] in plan]
        if on_plan:
            return max(on_plan, key=lambda a: (engine.ROUTES[a["route"]]["length"], -_jokers(engine, a)))
        if not open_tickets and trains > self.late_trains and "draw_tickets" in kinds:
            return kinds["draw_tickets"][0]
        if claims and (trains <= self.late_trains or not open_tickets):
            return max(claims, key=lambda a: (engine.ROUTES[a["route"]]["length"], -_jokers(engine, a)))
        draws = kinds.get("draw_card", [])
        if draws:
            return self.draw(engine, observation, draws, plan)
        if claims:
            return max(claims, key=lambda a: (engine.ROUTES[a["route"]]["length"], -_jokers(engine, a)))
        for kind in ("draw_tickets", "draw_extra_card", "share_tickets", "build_station", "pass"):
            if kind in kinds:
                return kinds[kind][0]
        return legal[0]

    def ranked(self, engine: types.ModuleType, observation: dict, legal: list) -> list:
        """The legal actions, the greedy choice first, then each kind of action in the order the
        greedy bot weighs them (claims by length, face-up cards, the deck, tickets)."""
        first = self.choose(engine, observation, legal, random.Random(0))
        rest = [action for action in legal if action is not first and action != first]

        def order(action: dict) -> tuple:
            kind = action["type"]
            if kind == "claim_route":
                return (0, -engine.ROUTES[action["route"]]["length"], _jokers(engine, action))
            if kind == "draw_card":
                return (1, action.get("source") != "market", action.get("slot", 0))
            return (2, kind)

        return [first, *sorted(rest, key=order)]

    def draw(self, engine: types.ModuleType, observation: dict, draws: list, plan: dict[str, int]) -> dict:
        """A face-up card of a colour the plan needs most, else the deck."""
        hand = hand_of(observation, engine)
        wanted: dict[str, int] = {}
        for route, weight in plan.items():
            record = engine.ROUTES[route]
            color = record["color"]
            if color != "gray":
                wanted[color] = wanted.get(color, 0) + weight * record["length"]
        joker = engine.COLORS[engine.LOCOMOTIVE]

        def value(action: dict) -> float:
            if action["source"] == "deck":
                return 0.5
            card = observation["market"][action["slot"]]
            if card == joker:
                return 0.9 if plan else 0.4
            need = wanted.get(card, 0) - hand.get(card, 0)
            return 1 + need if need > 0 else 0.1

        return max(draws, key=value)

    def keep(self, engine: types.ModuleType, observation: dict, keeps: list) -> dict:
        """The ticket choice whose tickets are cheapest to complete for their points."""
        board = board_of(engine)
        costs = route_costs(engine, observation)
        trains = observation["players"][observation["player"]]["trains"]
        value: dict[str, float] = {}

        def worth(ticket: str) -> float:
            if ticket not in value:
                cost, _, points = ticket_plan(engine, board, costs, ticket)
                value[ticket] = points - 1.5 * cost if cost <= trains else -2.0 * points
            return value[ticket]

        return max(
            keeps, key=lambda action: (sum(worth(t) for t in action["tickets"]), -len(action["tickets"]))
        )


def _jokers(engine: types.ModuleType, action: dict) -> int:
    """The jokers a payment lays, from the hand and from wherever else the engine lets it pay."""
    joker = engine.COLORS[engine.LOCOMOTIVE]
    sources = ["cards", *(key for key, _ in getattr(engine, "ACTION_WORDS", {}).get("payment_from", ()))]
    return sum(action.get(key, {}).get(joker, 0) for key in sources)
