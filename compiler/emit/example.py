"""Build-time play: the spec's worked examples, run through the generated engine.

What the engine answers with the spec's own strings (places, targets) comes back
as ``Text``, so the sheet escapes it like the rest of the spec.

The rule sheet must not compute scores itself: it asks the edition's own
engine, loaded from the source just generated, so that the sheet and the
engine can never disagree.
"""

from __future__ import annotations

import types
from dataclasses import dataclass

from ..frontend.text import Text
from ..ir import Edition
from ..mechanisms import bonus_rows, side_size, used_by
from .escape import for_markdown
from .worked import refused, restored


@dataclass(frozen=True, slots=True, kw_only=True)
class ExampleBonus:
    """A bonus the example's player wins, with what it measured for both sides."""

    title: str
    example: str  # the sentence of its measure ({player}, {value})
    points: int
    value: int
    opponent_value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExampleScore:
    """The worked example as the generated engine scored it."""

    player: str
    route_points: int
    routes: int
    trains_used: int
    completed: tuple[tuple[str, int], ...]
    failed: tuple[tuple[str, int], ...]
    bonuses: tuple[ExampleBonus, ...]
    total: int
    # The tickets its side holds together (a team's holder), completed and failed.
    shared_completed: tuple[tuple[str, int], ...] = ()
    shared_failed: tuple[tuple[str, int], ...] = ()
    # Tickets with targets: (origin, the target that scored or None, every target with its points).
    targets: tuple[tuple[str, str | None, tuple[tuple[str, int], ...]], ...] = ()
    # What the edition's mechanisms put on the score track at the claims (mountains): what scored,
    # its points, the trains it took beyond the routes' spaces.
    track_lines: tuple[tuple[str, int, int], ...] = ()
    # What the edition's mechanisms add at the end (a score table): a sentence and its points.
    mechanism_lines: tuple[tuple[str, int], ...] = ()


def load_engine(source: str, name: str) -> types.ModuleType:
    """Run generated engine source as a fresh module, without touching sys.modules."""
    module = types.ModuleType(f"aventuriers_build_{name}")
    exec(compile(source, f"<generated engine {name}>", "exec"), module.__dict__)
    return module


def play_example(edition: Edition, engine: types.ModuleType) -> ExampleScore | None:
    """Lay the spec's example position on a real board and let the engine score it."""
    example = edition.score_example
    if example is None:
        return None
    try:
        state = engine.new_game(example.players, 0).to_dict()
    except ValueError as error:
        raise refused(example.span, "l’exemple de score", error) from None
    # The opponent sits in the next side (in team play, player 1 would be a teammate).
    opponent = side_size(edition)
    owned = {0: example.routes, opponent: example.opponent_routes}
    used = used_by(edition)
    for player, routes in owned.items():
        record = state["players"][player]
        record["routes"] = list(routes)
        record["trains"] -= sum(engine.ROUTES[route]["length"] for route in routes)
        record["score"] = sum(engine.ROUTE_POINTS[engine.ROUTES[route]["length"]] for route in routes)
        record["tickets"] = []
        for mechanism in used:
            mechanism.lay_routes(edition, engine, record, routes, player)
    for record in state["players"]:
        record["pending_tickets"] = []  # the example's players hold only what it says
    state["players"][0]["tickets"] = list(example.tickets)
    state["ticket_deck"] = [ticket for ticket in state["ticket_deck"] if ticket not in example.tickets]
    for mechanism in used:
        mechanism.lay_example(edition, state)
    state["phase"] = "over"
    game = restored(engine, state, example.span, "l’exemple de score")
    scores = game.scores()
    mine = scores[0]
    # Bonuses and the total are the side's (in team play, the example's teammate has nothing).
    ranked = next((found for m in used if (found := m.side_results(edition, game)) is not None), scores)
    outcome = ranked[0]

    def named(entries: list[dict]) -> tuple[tuple[str, int], ...]:
        # A ticket with targets is named after the target it reached (or its origin alone).
        return tuple(
            (
                Text(
                    f"{engine.TICKETS[e['ticket']]['a']} – "
                    f"{e.get('target') or engine.TICKETS[e['ticket']].get('b') or '…'}"
                ),
                e["points"],
            )
            for e in entries
        )

    def measured(bonus, score: dict) -> int:
        return engine.measured(score, bonus.measure)

    # A country is said in French, whatever name the board prints (« Autriche », not « Österreich »).
    in_french = {country.name: country.french for country in edition.board.countries if country.french}
    return ExampleScore(
        player=example.player,
        route_points=mine["route_points"],
        routes=len(example.routes),
        trains_used=sum(engine.ROUTES[route]["length"] for route in example.routes),
        completed=named(mine["tickets_completed"]),
        failed=named(mine["tickets_failed"]),
        bonuses=tuple(
            ExampleBonus(
                title=bonus.title,
                example=bonus.example,
                points=outcome["bonuses"][bonus.id],
                value=measured(bonus, outcome),
                opponent_value=max(measured(bonus, score) for score in ranked[1:]),
            )
            for bonus in bonus_rows(edition)
            if bonus.id in outcome["bonuses"]
        ),
        total=outcome["total"],
        shared_completed=named([e for m in used for e in m.shared_tickets(edition, outcome)[0]]),
        shared_failed=named([e for m in used for e in m.shared_tickets(edition, outcome)[1]]),
        targets=tuple(
            (
                Text(engine.TICKETS[entry["ticket"]]["a"]),
                Text(in_french.get(entry["target"], entry["target"])) if entry.get("target") else None,
                tuple(
                    (Text(in_french.get(place, place)), points)
                    for place, points in engine.TICKETS[entry["ticket"]]["targets"].items()
                ),
            )
            for entry in mine["tickets_completed"] + mine["tickets_failed"]
            if "targets" in engine.TICKETS[entry["ticket"]]
        ),
        # The lines name the spec's places and titles: worded from the IR escaped for Markdown.
        track_lines=tuple(
            line for mechanism in used for line in mechanism.example_track(for_markdown(edition), mine)
        ),
        mechanism_lines=tuple(
            line for mechanism in used for line in mechanism.example_lines(for_markdown(edition), mine)
        ),
    )
