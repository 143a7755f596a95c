"""Stations: a turn spent building one in a city, which lends its owner a route at the end.

``stations 3 cost: [1, 2, 3] unused_points: 4`` with ``turn { build_station }`` (Europe): each
player has 3 stations; the first costs 1 card, the second 2, the third 3, of one colour with
jokers; one station per city; at the end each lends its owner one other player's route into its
city, for tickets only (the owner picks the one that scores best), and each station not built
scores 4. ``tiebreak fewest_stations`` breaks ties on the fewest built. Moved here from the core
(issue 22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...emit.escape import cite
from ...french import enumerate_fr, typo, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ...ir.action_space import Part, ways_to_pay
from ..base import ActionSentence, ActionWords, ApiTypes, Fact, Mechanism, ScoreLine, SheetWords, citation
from ..marks import Drawn
from ..state import Scope, Shape, StateField

CRITERION = "fewest_stations"


@dataclass(**IR)
class Stations:
    count: int
    cost: tuple[int, ...]  # cards for the 1st, 2nd… station
    unused_points: int
    span: Span | None = field(default=None, compare=False)
    action_span: Span | None = field(default=None, compare=False)  # `turn { build_station }`


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: Stations
    cities: tuple[str, ...]

    @property
    def count(self) -> int:
        return self.rule.count

    @property
    def unused_points(self) -> int:
        return self.rule.unused_points

    @property
    def cost_literal(self) -> str:
        return repr(self.rule.cost)

    @property
    def cities_literal(self) -> str:
        return repr(self.cities)

    @property
    def action_citation(self) -> str:
        return cite(self.rule.action_span)

    @property
    def citation(self) -> str:
        return citation((self.rule,))


def _ordinal(rank: int) -> str:
    """« 1re », « 2e »…"""
    return f"{rank + 1}{'re' if rank == 0 else 'e'}"


class StationRules(Mechanism):
    name = "stations"
    french = "les gares"
    native = True  # the native engine builds them (its `native` parts)
    native_scoring = True  # and deals and scores them: its `set_up` and `score_player` parts
    native_kinds = ("KIND_STATION",)

    def native_turn_actions(self, edition: Edition) -> tuple[str, str, str | None] | None:
        return ("station_count", "station_id", "list_stations")

    rule_types = (Stations,)
    folder = Path(__file__).resolve().parent
    exports = ("CITIES", "STATIONS", "STATION_COST", "UNUSED_STATION_POINTS")
    api = ApiTypes(
        fields={
            "PlayerState": {"stations": "list[City]"},  # in building order
            "ObservedPlayer": {"stations": "list[City]"},
            "ScoreRecord": {"stations": "StationScore"},
        },
        records={
            "StationScore": {
                "built": "list[City]",
                "borrowed_routes": "list[RouteId]",
                "unused_points": "int",
            }
        },
        actions={"build_station": {"city": "City", "cards": "Cards"}},
    )

    def scores_natively(self, edition: Edition) -> bool:
        # its native borrowing judges tickets between two cities: a ticket to a country or to targets is the pure engine's.
        return not any(ticket.targets for ticket in edition.tickets.tickets) and not any(
            route.endpoint for route in edition.board.routes
        )

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        return {"build_station": ("_apply_build_station", ("city", "cards"), ())}

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        stations = data.get("stations")
        if not stations:
            return ()
        return (
            Stations(
                count=stations["count"],
                cost=tuple(stations["cost"]),
                unused_points=stations["unused_points"],
                span=span("stations"),
                action_span=span("turn", "build_station"),
            ),
        )

    def check(self, checker: Any) -> None:
        data = checker.data
        stations = data.get("stations")
        if stations and "teams" in data:
            checker.report(
                Code.INCONSISTENT_RULE,
                "les gares ne se jouent pas en équipes",
                ("stations",),
                hint="« without stations »",
            )
        if stations and len(stations["cost"]) != stations["count"]:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"{stations['count']} gares, mais {len(stations['cost'])} coûts",
                ("stations", "cost"),
            )
        if "turn" in data and bool(stations) != bool(data["turn"].get("build_station")):
            where = ("stations",) if stations else ("turn", "build_station")
            checker.report(
                Code.INCONSISTENT_RULE, "« stations » et l’action « build_station » vont ensemble", where
            )
        for index, rule in enumerate(data.get("tiebreak", [])):
            if rule["criterion"] == CRITERION and not stations:
                checker.report(
                    Code.INCONSISTENT_RULE, "départager aux gares demande « stations »", ("tiebreak", index)
                )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        if "stations" not in data:
            return None
        data.pop("stations")
        turn = data.get("turn", {})
        if "build_station" in turn:
            data["turn"] = {key: value for key, value in turn.items() if key != "build_station"}
        steps = data.get("tiebreak", [])
        if steps:
            keep_items(
                data, ("tiebreak",), [i for i, step in enumerate(steps) if step.get("criterion") != CRITERION]
            )
        return ("stations", "turn", "tiebreak")

    # -- engine ------------------------------------------------------------
    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        return {"build_station": ActionSentence(text="construit une gare à {city} avec {cards:cards}")}

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        return (
            StateField(
                key="stations",
                scope=Scope.PLAYER,
                shape=Shape.IDS,
                label="gares posées",
                over="CITIES",
                at_most=self.rule(edition).count,
                unique=True,
                drawn=Drawn.PIECES,
                derived=True,
            ),
        )

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return (ScoreLine(label="gares non posées", path=("stations", "unused_points")),)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition), cities=edition.board.cities)

    def engine_helpers(self, edition: Edition) -> frozenset[str]:
        return frozenset({"payments"})

    def messages(self, edition: Edition) -> dict[str, str]:
        return {
            "unknown_city": "Ville inconnue : « {city} ».",
            "station_taken": "Il y a déjà une gare à {city}.",
            "no_station_left": "Tu as déjà construit toutes tes gares.",
            "wrong_station_cost": "Cette gare se paie avec exactement {cards}, pas {given}.",
        }

    def borrowed_routes(self, edition: Edition) -> str | None:
        return "empruntées par une gare"

    def tiebreaks(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {CRITERION: ('-len(result["stations"]["built"])', "le moins de gares construites")}

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:

        rule = self.rule(edition)
        plain = len(edition.cards) - 1
        per_city = sum(ways_to_pay(cost, plain, 0, True, False) for cost in set(rule.cost))
        return [Part(what="« stations »", actions=len(edition.board.cities) * per_city, span=rule.span)]

    # -- worked examples ---------------------------------------------------
    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        points = result["stations"]["unused_points"]
        if not points:
            return []
        unused = self.rule(edition).count - len(result["stations"]["built"])
        each = points // unused
        if unused == 1:
            return [(f"Sa gare non construite rapporte {each} points", points)]
        return [
            (
                f"Ses {words(unused, feminine=True)} gares non construites rapportent {unused} × {each} = "
                f"{points} points",
                points,
            )
        ]

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        rule = self.rule(edition)
        many = _jokers(edition)
        costs = enumerate_fr(
            [f"{words(cost, feminine=True)} pour la {_ordinal(rank)}" for rank, cost in enumerate(rule.cost)]
        )
        summary_costs = enumerate_fr([words(cost, feminine=True) for cost in rule.cost]).replace(
            " et ", " puis "
        )
        return SheetWords(
            material=(f"{rule.count} gares par joueur, de sa couleur",),
            gains_last=(f"{rule.unused_points} points par gare que tu n’as pas construite",),
            ticket_joined=(
                "Un ticket est réussi par un chemin continu de tes propres routes entre {ends} ; chacune de "
                "tes gares peut y ajouter une route d’un autre joueur qui arrive dans sa ville."
            ),
            actions=(
                ActionWords(
                    name="construire une gare",
                    title="Construire une gare",
                    paragraphs=(
                        "Pose une gare dans une ville qui n’en a pas encore (une seule gare par ville, tous "
                        f"joueurs confondus). Elle coûte des cartes d’une seule couleur, {many} en joker : "
                        f"{costs}. Chaque joueur a {words(rule.count)} gares.",
                        "En fin de partie, chaque gare permet à son propriétaire d’emprunter une route d’un "
                        "autre joueur qui arrive dans sa ville, pour réussir ses tickets seulement, jamais pour "
                        "le chemin le plus long.",
                    ),
                ),
            ),
            scoring=(
                "Gares : chacune de tes gares emprunte au plus une route d’un autre joueur qui arrive dans sa "
                "ville, pour tes tickets seulement ; au décompte, c’est toi qui choisis laquelle, et tu choisis "
                f"celle qui te rapporte le plus. Chaque gare que tu n’as pas construite vaut {rule.unused_points} "
                "points.",
            ),
            mistakes=(
                "Construire une gare dans une ville qui en a déjà une, ou utiliser une gare pour le chemin le plus "
                "long.",
            ),
            decisions=(
                "Une gare emprunte la route que son propriétaire choisit au décompte : le meilleur choix est "
                "celui qui rapporte le plus de points de tickets, et c’est celui qu’on compte "
                "(à égalité, la première route dans l’ordre du plateau).",
            ),
            summary=(
                f"Gares = {summary_costs} cartes ; {rule.unused_points} points par gare non construite.",
            ),
            formula=(f" + {rule.unused_points} par gare non construite",),
        )

    def score_rows(self, edition: Edition) -> list[str]:
        return [typo(f"Gares non utilisées (+{self.rule(edition).unused_points} chacune)")]

    def facts(self, edition: Edition) -> list[Fact]:
        rule = self.rule(edition)
        costs = ", ".join(str(cost) for cost in rule.cost)
        return [
            Fact(section="Matériel", label="Gares par joueur", value=str(rule.count)),
            Fact(section="Le tour", label="Construire une gare", value=f"{costs} cartes"),
            Fact(section="Décompte", label="Gare non construite", value=f"{rule.unused_points} points"),
        ]


def _jokers(edition: Edition) -> str:
    """« locomotives », « cartes Tunnel »: the edition's joker, in the plural."""
    from ...french import JOKERS

    return JOKERS[edition.joker.value][1]


MECHANISM = StationRules()
