"""Public routes: built with a piece of a shared supply, used by everyone, scored on a track.

``public_routes { french "Shinkansen"; pieces 16; on [akita-morioka, …]; ranks 2: [10, -10], …;
no_contribution -20; last_round pieces_at_most: 2 with_trains: both }`` (Japan's Bullet Train):
a public route is claimed with cards as any route of its colour, but marked with one piece of the
shared supply instead of the player's trains; it scores no route points and moves its builder up
the contribution track by its length; once built, every player may use it for tickets. When the
supply is empty these routes are ordinary routes again. At the end the track ranks the players,
each scoring the points of its rank in the row of the player count (ties: each tied player scores
the rank's points, the next player the rank they would have without the tie); a player who never
contributed scores ``no_contribution`` instead. ``last_round`` joins an end trigger on the supply to
the trains' one. Issue 24: public routes, a contribution track, rank tables by player count with
negative values and a penalty for zero, an end trigger on a shared supply.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ApiTypes, Fact, Mechanism, ScoreLine, SheetWords, citation, route_ids
from ..marks import BoardMark, Drawn, MarkKind
from ..state import Scope, Shape, StateField
from .wording import PublicWording, points_of


class WithTrains(enum.Enum):
    """How the supply's end trigger joins the trains' one."""

    BOTH = "both"  # a player's trains low and the supply low
    EITHER = "either"  # one of the two


@dataclass(**IR)
class PublicRoutes:
    singular: str
    plural: str
    feminine: bool
    pieces: int
    route_singular: str  # one public route, « voie rapide »
    route_plural: str  # « voies rapides »
    track_name: str  # « piste Train Rapide »
    routes: tuple[str, ...]  # by id, in spec order
    ranks: tuple[tuple[int, tuple[int, ...]], ...]  # each player count and its points by rank
    no_contribution: int | None = None  # the points of a player still at 0, in place of their rank's
    last_round_pieces: int | None = None  # the supply's end trigger, or None: the trains' alone
    with_trains: WithTrains = WithTrains.BOTH
    span: Span | None = field(default=None, compare=False)

    def row(self, players: int) -> tuple[int, ...]:
        return dict(self.ranks)[players]


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: PublicRoutes

    @property
    def literal(self) -> str:
        rule = self.rule
        return repr(
            {
                "pieces": rule.pieces,
                "routes": rule.routes,
                "ranks": dict(rule.ranks),
                "no_contribution": rule.no_contribution,
                "last_round_pieces": rule.last_round_pieces,
                "with_trains": rule.with_trains.value,
            }
        )

    @property
    def both(self) -> bool:
        return self.rule.with_trains is WithTrains.BOTH

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class PublicRouteRules(Mechanism):
    name = "public_routes"
    french = "les routes publiques"
    rule_types = (PublicRoutes,)
    folder = Path(__file__).resolve().parent
    statement = "public_routes"
    exports = ("PUBLIC_ROUTES", "rank_points")
    # The native engine plays it (a public route's claim spares its trains while the supply
    # lasts, `spared_trains`), deals it (the core-kept fields) and scores it (`public_lines`).
    native = True
    native_scoring = True
    api = ApiTypes(
        fields={
            # The public routes built, each with the player who built it.
            "State": {"public_pieces": "int", "public_routes": "dict[RouteId, int]"},
            "PlayerState": {"public_track": "int"},
            "Observation": {"public_pieces": "int", "public_routes": "dict[RouteId, int]"},
            "ObservedPlayer": {"public_track": "int"},
            "ScoreRecord": {"public_track": "int", "public_bonus": "int"},
        }
    )

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        item = data.get("public_routes")
        if not item:
            return ()
        last = item.get("last_round")
        route = item.get("route", f"route {item['french']}")
        return (
            PublicRoutes(
                singular=item["french"],
                plural=item.get("plural", item["french"] + "s"),
                feminine=item.get("feminine", False),
                pieces=item["pieces"],
                route_singular=route,
                route_plural=item.get(
                    "routes", _plural(route) if "route" in item else f"routes {item['french']}"
                ),
                track_name=item.get("track", f"piste {item['french']}"),
                routes=tuple(item["on"]),
                ranks=tuple(sorted((int(players), tuple(row)) for players, row in item["ranks"].items())),
                no_contribution=item.get("no_contribution"),
                last_round_pieces=last["pieces_at_most"] if last else None,
                with_trains=WithTrains(last["with_trains"]) if last else WithTrains.BOTH,
                span=span("public_routes"),
            ),
        )

    def check(self, checker: Any) -> None:
        """Routes of the board, each once and on no double route; a row of ranks for each player
        count, as long as the count; no teams or stations (not written for them yet)."""
        rule = checker.data.get("public_routes")
        if not rule or not checker.has("board"):
            return
        items = checker.data["board"].get("route", [])
        routes = route_ids(checker.data)
        by_id = dict(zip(routes, items, strict=True))
        seen: set[str] = set()
        for at, route in enumerate(rule["on"]):
            where = ("public_routes", "on", at)
            if route not in by_id:
                checker.report(
                    Code.UNKNOWN_REFERENCE,
                    f"« {route} » n’est pas une route de ce plateau",
                    where,
                    did_you_mean(route, routes),
                )
            elif route in seen:
                checker.report(Code.DUPLICATE_NAME, f"la route « {route} » est déjà publique", where)
            elif by_id[route].get("double") is not None:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"la route « {route} » a une voie double : une route publique n’en a pas",
                    where,
                    "une route publique est une voie seule, que tous les joueurs empruntent",
                )
            seen.add(route)
        players = checker.data.get("players")
        if isinstance(players, dict):
            for count in range(players["min"], players["max"] + 1):
                row = rule["ranks"].get(str(count))
                if row is None:
                    checker.report(
                        Code.INCONSISTENT_RULE,
                        f"la piste n’a pas de points à {count} joueurs",
                        ("public_routes", "ranks"),
                        f"ajoute une ligne « {count}: [...] », un nombre de points par rang",
                    )
                elif len(row) != count:
                    checker.report(
                        Code.INCONSISTENT_RULE,
                        f"à {count} joueurs, la piste donne des points à {len(row)} rangs au lieu de {count}",
                        ("public_routes", "ranks", str(count)),
                    )
        for other in ("teams", "stations"):
            if checker.data.get(other):
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"les routes publiques ne se combinent pas encore avec « {other} »",
                    ("public_routes",),
                )

    # -- engine ------------------------------------------------------------
    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        rule = self.rule(edition)
        conserved = ("public pieces", rule.pieces)
        return (
            StateField(
                key="public_pieces",
                derived=True,
                scope=Scope.GAME,
                shape=Shape.COUNT,
                label=f"{rule.plural} de la réserve",
                start=rule.pieces,
                at_most=rule.pieces,
                conserved=conserved,
            ),
            StateField(
                key="public_routes",
                derived=True,
                scope=Scope.GAME,
                shape=Shape.HOLDERS,
                label=f"{rule.route_plural} construites",
                over=rule.routes,
                conserved=conserved,
                never_owned=True,
                drawn=Drawn.ROUTES_TAKEN,
            ),
            StateField(
                key="public_track",
                derived=True,
                scope=Scope.PLAYER,
                shape=Shape.COUNT,
                label=rule.track_name,
                spaces_of="public_routes",
            ),
        )

    def board_marks(self, edition: Edition) -> tuple[BoardMark, ...]:
        """A dotted line along each public route."""
        rule = self.rule(edition)
        return (
            BoardMark(
                kind=MarkKind.ROUTE_LINE,
                targets=rule.routes,
                meaning=f"les {rule.route_plural} ({rule.plural})",
            ),
        )

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return (ScoreLine(label=self.rule(edition).track_name, path=("public_bonus",)),)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def expressions(self, edition: Edition) -> dict[str, str]:
        # A public route built with a piece takes none of the player's trains.
        return {"claim_trains": "-(_PUBLIC_LENGTH[route] if self._public_pieces else 0)"}

    def spared_trains(self, edition: Edition, route: Any) -> int:
        return route.length if route.id in self.rule(edition).routes else 0

    def conditions(self, edition: Edition) -> dict[str, str]:
        # The supply's pieces spare the trains of a public route's claim while any are left.
        return {"spares_trains": "self._public_pieces > 0"}

    def native_conditions(self, edition: Edition) -> dict[str, str]:
        return {"spares_trains": "self.s.public_pieces > 0"}

    def borrowed_routes(self, edition: Edition) -> str | None:
        return f"publiques ({self.rule(edition).plural})"

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        return PublicWording(rule=self.rule(edition), edition=edition).sheet(engine)

    def score_rows(self, edition: Edition) -> list[str]:
        return [PublicWording(rule=self.rule(edition), edition=edition).score_row()]

    def facts(self, edition: Edition) -> list[Fact]:
        return PublicWording(rule=self.rule(edition), edition=edition).facts()

    def route_words(self, edition: Edition, route: Any) -> list[str]:
        rule = self.rule(edition)
        return [f"publique ({rule.route_singular})"] if route.id in rule.routes else []

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        rule = self.rule(edition)
        if "public_bonus" not in result:
            return []
        spaces, points = result["public_track"], result["public_bonus"]
        where = f"{spaces} {'case' if spaces == 1 else 'cases'}" if spaces else "la case 0"
        return [(f"Sur la {rule.track_name}, à {where}, il marque {points_of(points)}", points)]


def _plural(name: str) -> str:
    """« voie rapide » → « voies rapides »: each word takes its s (a name that does not is given)."""
    return " ".join(word if word.endswith(("s", "x")) else word + "s" for word in name.split(" "))


MECHANISM = PublicRouteRules()
