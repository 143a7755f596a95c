"""A starting score by seat: each seat's score marker starts where the spec says.

``setup { starting_score [0, 1, 2, 3, 4] }``: the first player's marker on 0, the second's on 1…
(one value per seat up to the most players; never in team play, where a team has one marker).
The points count in every total. Moved here from the core (issue 20 added it there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import SEATS, enumerate_fr
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ApiTypes, Fact, Mechanism, SheetWords, citation


@dataclass(**IR)
class StartingScore:
    scores: tuple[int, ...]  # where each seat's marker starts, in turn order
    span: Span | None = field(default=None, compare=False)


def sentence(scores: tuple[int, ...]) -> str:
    """« Chaque joueur pose son marqueur de score selon sa place… »."""
    seats = [f"sur la case {scores[0]} pour le premier joueur"] + [
        f"{score} pour le {SEATS[seat]}" for seat, score in enumerate(scores) if seat
    ]
    return (
        "Chaque joueur pose son marqueur de score selon sa place dans l’ordre du tour : "
        f"{enumerate_fr(seats)}. Ces points comptent dans son total."
    )


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: StartingScore

    @property
    def scores(self) -> tuple[int, ...]:
        return self.rule.scores

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class StartingScores(Mechanism):
    name = "starting_score"
    french = "le score de départ"
    native = True  # it only sets up or scores: a playout never meets it
    rule_types = (StartingScore,)
    folder = Path(__file__).resolve().parent
    exports = ("STARTING_SCORE",)
    api = ApiTypes(fields={"ScoreRecord": {"starting_score": "int"}})

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        scores = tuple(data["setup"].get("starting_score", ()))
        if not any(scores):
            return ()  # all zeros is the game without it
        return (StartingScore(scores=scores, span=span("setup")),)

    def check(self, checker: Any) -> None:
        data = checker.data
        if "starting_score" not in data.get("setup", {}) or "players" not in data:
            return
        scores, most = data["setup"]["starting_score"], data["players"]["max"]
        path = ("setup", "starting_score")
        if "teams" in data:
            checker.report(Code.INCONSISTENT_RULE, "« starting_score » ne se joue pas en équipes", path)
        elif len(scores) != most:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"l’édition se joue jusqu’à {most} joueurs : il faut un score de départ par place, "
                f"{most} valeurs, pas {len(scores)}",
                path,
                hint="la première valeur pour le premier joueur, et ainsi de suite",
            )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        setup = data.get("setup", {})
        if "starting_score" not in setup:
            return None
        data["setup"] = {key: value for key, value in setup.items() if key != "starting_score"}
        return ("setup",)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def replacements(self, edition: Edition) -> dict[str, str]:
        return {
            "initial_scores": "list(STARTING_SCORE[:players])",
            "score_meaning": "son score de départ et les points de ses routes",
        }

    # -- worked examples ---------------------------------------------------
    def lay_routes(
        self, edition: Edition, engine: Any, record: dict, routes: tuple[str, ...], seat: int
    ) -> None:
        record["score"] += engine.STARTING_SCORE[seat]

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        start = result["starting_score"]
        if not start:
            return []
        return [
            (f"Son marqueur de score est parti de {start}, la case de sa place dans l’ordre du tour", start)
        ]

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        return SheetWords(setup=(sentence(self.rule(edition).scores),), score_start=True)

    def facts(self, edition: Edition) -> list[Fact]:
        scores = self.rule(edition).scores
        return [
            Fact(
                section="Mise en place",
                label="Score de départ",
                value="par place dans l’ordre du tour, " + enumerate_fr([str(score) for score in scores]),
            )
        ]


MECHANISM = StartingScores()
