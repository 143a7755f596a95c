"""Bonus cards: the most of something scores N points at the end.

``bonus longest_path { title "Le plus long chemin"; measure longest_trail; points 10; ties shared }``:
at the end, every player (every team, in team play) with the best value of the measure, above
zero, scores the points; ``tiebreak bonus ID`` breaks ties on who holds the card. The measures:
the longest continuous path, the most tickets completed, the most routes claimed, the most
cities joined by one network. Each bonus is a row of the engine's bonus table (``BONUSES``,
``measured``, a ``scores()`` record's ``bonuses``), a facility of the core that every engine
has, empty without bonuses. Moved here from the core (issue 22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...french import guillemets
from ...frontend.positions import Span
from ...ir import IR, Criterion, Edition
from ..base import BonusRow, Fact, Mechanism, SheetWords
from ..used import side_size


class Measure(Enum):
    LONGEST_TRAIL = "longest_trail"
    COMPLETED_TICKETS = "completed_tickets"
    MOST_ROUTES = "most_routes"
    LARGEST_NETWORK = "largest_network"  # the most cities joined by one network of routes


@dataclass(frozen=True, slots=True, kw_only=True)
class MeasureWording:
    """How the sheets say what a bonus measures."""

    who: str  # after « N points au joueur » (« à l’équipe » in team play): what earns the card
    rule: str  # what the sheet adds after it (« Il peut repasser… »), or ""
    example: str  # the worked example's sentence; {player} and {value}
    at_least: str  # what a player needs for the bonus to be given at all


MEASURES = {
    "longest_trail": MeasureWording(
        who="qui a le chemin continu le plus long",
        rule="Il peut repasser par une ville et faire des boucles, mais n’emprunte jamais deux fois la même route.",
        example="Son chemin continu le plus long fait {value} wagons",
        at_least="une route",
    ),
    "completed_tickets": MeasureWording(
        who="qui a réussi le plus de tickets",
        rule="",
        example="{player} a réussi {value} tickets",
        at_least="un ticket réussi",
    ),
    "most_routes": MeasureWording(
        who="qui a pris le plus de routes, quelle que soit leur longueur",
        rule="",
        example="{player} a pris {value} routes",
        at_least="une route",
    ),
    "largest_network": MeasureWording(
        who="dont un même réseau de ses routes relie le plus de villes",
        rule="",
        example="Son plus grand réseau relie {value} villes",
        at_least="une route",
    ),
}


@dataclass(**IR)
class Bonus:
    id: str
    title: str
    measure: Measure
    points: int
    ties: str
    span: Span | None = field(default=None, compare=False)


class BonusCards(Mechanism):
    name = "bonuses"
    french = "les cartes bonus"
    native = True  # it only sets up or scores: a playout never meets it
    native_scoring = True  # its bonuses are the table BONUSES, which every engine scores alike
    rule_types = (Bonus,)
    folder = Path(__file__).resolve().parent

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        return tuple(
            Bonus(
                id=b["id"],
                title=b["title"],
                measure=Measure(b["measure"]),
                points=b["points"],
                ties=b["ties"],
                span=span("bonus", i),
            )
            for i, b in enumerate(data.get("bonus", []))
        )

    def check(self, checker: Any) -> None:
        data = checker.data
        bonuses = [
            bonus["id"] for bonus in data.get("bonus", []) if isinstance(bonus, dict) and "id" in bonus
        ]
        checker.duplicates(bonuses, ("bonus",), "bonus")
        for index, rule in enumerate(data.get("tiebreak", [])):
            dropped = ("bonus", rule.get("bonus")) in checker.document.removed
            if rule["criterion"] == "bonus" and rule.get("bonus") not in bonuses and not dropped:
                name = rule.get("bonus", "")
                checker.report(
                    Code.UNKNOWN_REFERENCE,
                    f"bonus inconnu « {name} »",
                    ("tiebreak", index),
                    did_you_mean(name, bonuses),
                )

    # -- engine ------------------------------------------------------------
    def bonus_rows(self, edition: Edition) -> tuple[BonusRow, ...]:
        return tuple(
            BonusRow(
                id=bonus.id,
                title=bonus.title,
                measure=bonus.measure.value,
                points=bonus.points,
                example=MEASURES[bonus.measure.value].example,
                span=bonus.span,
            )
            for bonus in self.rules(edition)
        )

    def tiebreaks(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {
            f"{Criterion.BONUS.value} {bonus.id}": (
                f'{bonus.id!r} in result["bonuses"]',
                f"la carte {guillemets(bonus.title)}",
            )
            for bonus in self.rules(edition)
        }

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        bonuses = self.rules(edition)
        teams = side_size(edition) > 1
        if teams:
            scoring = tuple(
                f"{guillemets(b.title)} : {b.points} points à l’équipe {MEASURES[b.measure.value].who}, les "
                "routes de ses joueurs réunies. À égalité, chacune des équipes concernées les marque."
                for b in bonuses
            )
        else:
            scoring = tuple(
                f"{guillemets(b.title)} : {b.points} points au joueur {MEASURES[b.measure.value].who}. "
                + (f"{MEASURES[b.measure.value].rule} " if MEASURES[b.measure.value].rule else "")
                + "À égalité, chacun des joueurs concernés les marque."
                for b in bonuses
            )
        return SheetWords(
            material_last=tuple(f"la carte bonus {guillemets(bonus.title)}" for bonus in bonuses),
            gains_last=tuple(f"le bonus {guillemets(b.title)}" for b in bonuses),
            setup_first=tuple(f"Pose la carte {guillemets(b.title)} à côté du plateau." for b in bonuses),
            scoring=scoring,
            decisions=tuple(
                f"La carte {guillemets(bonus.title)} ne revient qu’à {'une équipe' if teams else 'un joueur'} "
                f"qui a au moins {MEASURES[bonus.measure.value].at_least}."
                for bonus in bonuses
            ),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        to = "à l’équipe" if side_size(edition) > 1 else "au joueur"
        return [
            Fact(
                section="Cartes bonus",
                label=guillemets(bonus.title),
                value=f"{bonus.points} points {to} {MEASURES[bonus.measure.value].who}, partagés en cas "
                "d’égalité",
            )
            for bonus in self.rules(edition)
        ]


MECHANISM = BonusCards()
