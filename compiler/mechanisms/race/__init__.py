"""A race to points: the game ends at the end of the round in which a score reaches N.

``end { race 100 }``: once a player's marker on the score track reaches 100 points (the
points scored during the game: routes, and what other rules score at once; tickets are
revealed only at the end), the round is played out, up to the last seat in turn order, and
the game ends; a last round begun by the trains ends at the earlier of the two. A house rule
of issue 38, §6: it fills the core's end of a turn and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import counted
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import Fact, Mechanism, SheetWords, citation


@dataclass(**IR)
class Race:
    points: int  # the score that ends the game with its round
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: Race

    @property
    def points(self) -> int:
        return self.rule.points

    @property
    def citation(self) -> str:
        return citation((self.rule,))


def points_words(points: int) -> str:
    return f"{points} {counted(points, 'point', 'points')}"


class ScoreRace(Mechanism):
    name = "race"
    french = "la course aux points"
    native = True  # the native engine ends the round as the pure one does (its `native` part)
    native_scoring = True  # it changes neither the set-up nor the scoring
    rule_types = (Race,)
    folder = Path(__file__).resolve().parent
    exports = ("RACE_POINTS",)

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        points = data.get("end", {}).get("race")
        if points is None:
            return ()
        return (Race(points=points, span=span("end", "race")),)

    def check(self, checker: Any) -> None:
        data = checker.data
        points = data.get("end", {}).get("race")
        if points is None or "teams" not in data:
            return
        checker.report(
            Code.INCONSISTENT_RULE,
            "« race » ne se joue pas en équipes : un score d’équipe n’est connu qu’à la fin",
            ("end", "race"),
        )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        end = data.get("end", {})
        if "race" not in end:
            return None
        data["end"] = {key: value for key, value in end.items() if key != "race"}
        return ("end",)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        points = points_words(self.rule(edition).points)
        return SheetWords(
            scoring=(
                f"Course aux points : dès qu’un joueur atteint {points} sur la piste de score "
                "(les points marqués en cours de partie ; les tickets ne comptent qu’à la fin), "
                "on termine le tour de table, jusqu’au dernier joueur dans l’ordre du tour, et la "
                "partie s’arrête. Si le dernier tour a déjà commencé, la partie s’arrête à la "
                "première de ces deux fins.",
            ),
            summary=(f"Fin : le tour de table où un joueur atteint {points}, ou le dernier tour.",),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Décompte",
                label="Course aux points",
                value=f"fin du tour de table où un score atteint {points_words(self.rule(edition).points)}",
                without="la seule fin par les wagons",
            )
        ]


MECHANISM = ScoreRace()
