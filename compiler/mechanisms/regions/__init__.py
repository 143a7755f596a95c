"""Regions: each network of a player's routes scores at the end by the regions it reaches.

``regions { region sicilia "Sicile" [agrigento, catania, messina, palermo, siracusa]
whole_counts: 2; points 5: 1, 6: 2, 7: 4 }`` (Italy's region bonus): the board's cities are
grouped in regions; at the end, each network of a player (the cities their routes join together)
counts the regions it reaches, a region counting ``whole_counts`` times where the network
reaches every one of its cities, and scores the row of that count in ``points`` (the row of the
largest count below it; nothing below the first row). Each network scores on its own. Issue 24,
the regions of the economies' scoring.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...french import alphabetical, alphabetical_key, enumerate_fr, typo, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ApiTypes, Fact, Mechanism, ScoreLine, SheetWords, citation, places_by_id
from ..marks import BoardMark, MarkKind


@dataclass(**IR)
class Region:
    id: str
    name: str  # its French name
    cities: tuple[str, ...]  # by name, in spec order
    whole_counts: int = 1  # the regions it counts for where a network reaches all its cities
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Regions:
    regions: tuple[Region, ...]
    points: tuple[tuple[int, int], ...]  # (regions reached, points), by count
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: Regions

    @property
    def literal(self) -> str:
        return repr(
            {
                region.id: {"name": region.name, "cities": region.cities, "whole_counts": region.whole_counts}
                for region in self.rule.regions
            }
        )

    @property
    def cities_most(self) -> int:
        """The most cities of one region (the native engine's room for them)."""
        return max(len(region.cities) for region in self.rule.regions)

    @property
    def points_literal(self) -> str:
        return repr(self.rule.points)

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class RegionRules(Mechanism):
    name = "regions"
    french = "les régions"
    native = True  # it only scores: a playout never meets it
    native_scoring = True  # each network's regions, in C (`region_lines`)
    rule_types = (Regions,)
    folder = Path(__file__).resolve().parent
    statement = "regions"
    exports = ("REGIONS", "REGION_POINTS", "region_points")
    api = ApiTypes(
        fields={"ScoreRecord": {"regions": "list[RegionScore]"}},
        records={"RegionScore": {"regions": "list[str]", "count": "int", "points": "int"}},
    )

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        rule = data.get("regions")
        if not rule:
            return ()
        cities = places_by_id(data, countries=False)
        return (
            Regions(
                regions=tuple(
                    Region(
                        id=item["id"],
                        name=item["name"],
                        cities=tuple(cities[city] for city in item["cities"]),
                        whole_counts=item.get("whole_counts", 1),
                        span=span("regions", "region", index),
                    )
                    for index, item in enumerate(rule["region"])
                ),
                points=tuple(sorted((int(count), points) for count, points in rule["points"].items())),
                span=span("regions"),
            ),
        )

    def check(self, checker: Any) -> None:
        """Cities on the board, each in one region at most."""
        rule = checker.data.get("regions")
        if not rule or not checker.has("board"):
            return
        cities = places_by_id(checker.data, countries=False)
        owner: dict[str, str] = {}
        for index, item in enumerate(rule["region"]):
            for at, city in enumerate(item["cities"]):
                if city not in cities:
                    checker.report(
                        Code.UNKNOWN_CITY,
                        f"« {city} » n’est pas une ville de ce plateau",
                        ("regions", "region", index, "cities", at),
                        did_you_mean(city, list(cities))
                        or "une ville se nomme par son identifiant : palermo",
                    )
                elif city in owner:
                    checker.report(
                        Code.DUPLICATE_NAME,
                        f"« {city} » est déjà dans la région « {owner[city]} »",
                        ("regions", "region", index, "cities", at),
                    )
                owner.setdefault(city, item["id"])

    # -- engine ------------------------------------------------------------
    def board_marks(self, edition: Edition) -> tuple[BoardMark, ...]:
        """Each region's cities in a tinted area."""
        return tuple(
            BoardMark(
                kind=MarkKind.REGION,
                targets=region.cities,
                label=region.name,
                meaning="les villes d’une région",
            )
            for rule in self.rules(edition)
            for region in rule.regions
        )

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return (ScoreLine(label="régions", path=("regions",), reads="each"),)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    # -- words -------------------------------------------------------------
    def _doubled(self, edition: Edition) -> list[Region]:
        return [region for region in self.rule(edition).regions if region.whole_counts > 1]

    def _whole_sentence(self, edition: Edition) -> str:
        doubled = self._doubled(edition)
        if not doubled:
            return ""
        groups: dict[int, list[str]] = {}
        for region in self._in_order(doubled):
            groups.setdefault(region.whole_counts, []).append(region.name)
        said = [
            f"{enumerate_fr(names)} {'comptent' if len(names) > 1 else 'compte'} pour {words(times, feminine=True)}"
            for times, names in groups.items()
        ]
        return f" ; {enumerate_fr(said)} quand le réseau relie toutes {'leurs' if len(doubled) > 1 else 'ses'} villes"

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        rule = self.rule(edition)
        first, best = rule.points[0], rule.points[-1]
        rows = [("Régions touchées par un réseau", "Points")] + [
            (f"{count} et plus" if (count, points) == best else str(count), str(points))
            for count, points in rule.points
        ]
        # A network reaching as many regions as the whole board, scored by the engine at build time.
        reached = sum(region.whole_counts for region in rule.regions)
        example = (
            f"Un réseau qui touche toutes les régions du plateau (elles comptent alors pour {reached}) "
            f"rapporte {engine.region_points(reached)} points ; un réseau qui en touche moins de "
            f"{first[0]} ne rapporte rien."
        )
        scoring = typo(
            "Régions : à la fin, chacun de tes réseaux (les villes que tes routes relient entre elles) "
            f"rapporte les points du tableau « Régions » selon le nombre de régions qu’il touche"
            f"{self._whole_sentence(edition)}. Chaque réseau compte à part."
        )
        return SheetWords(
            material=(
                typo(
                    f"{len(rule.regions)} régions : "
                    + enumerate_fr([self._region_item(r) for r in self._in_order(rule.regions)])
                ),
            ),
            gains_last=("les régions touchées par chacun de tes réseaux",),
            scoring=(scoring,),
            decisions=(
                "Un réseau touche une région dès qu’il passe par une de ses villes ; deux réseaux séparés qui "
                "touchent la même région la comptent chacun.",
            ),
            summary=(
                typo(
                    "Régions par réseau : "
                    + ", ".join(f"{count} → {points}" for count, points in rule.points)
                    + " points."
                ),
            ),
            formula=(" + régions de chaque réseau",),
            sections=(("Régions", (typo(example),), tuple(rows)),),
        )

    @staticmethod
    def _in_order(regions: tuple[Region, ...] | list[Region]) -> list[Region]:
        """Regions as a French reader looks them up: by name, in alphabetical order."""
        return sorted(regions, key=lambda region: (alphabetical_key(region.name), region.id))

    @staticmethod
    def _region_item(region: Region) -> str:
        return f"{region.name} ({enumerate_fr(alphabetical(list(region.cities), article=False))})"

    def score_rows(self, edition: Edition) -> list[str]:
        return ["Régions de chaque réseau"]

    def facts(self, edition: Edition) -> list[Fact]:
        rule = self.rule(edition)
        return [
            Fact(section="Matériel", label="Régions", value=str(len(rule.regions))),
            Fact(
                section="Décompte",
                label="Régions par réseau",
                value=", ".join(f"{count} → {points}" for count, points in rule.points)
                + f" points{self._whole_sentence(edition)}",
            ),
        ]

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        """Each network reaching regions: which, what they count for, what they score."""
        names = {region.id: region.name for region in self.rule(edition).regions}
        networks = result.get("regions", [])
        lines = []
        for rank, network in enumerate(networks):
            reached = network["regions"]
            who = "Son réseau" if len(networks) == 1 else ("Un réseau" if rank == 0 else "Un autre réseau")
            counted = (
                f", qui comptent pour {words(network['count'], feminine=True)}"
                if network["count"] != len(reached)
                else ""
            )
            scored = f"{network['points']} points" if network["points"] else "rien : trop peu de régions"
            lines.append(
                (
                    typo(
                        f"{who} touche {words(len(reached), feminine=True)} "
                        f"{'région' if len(reached) == 1 else 'régions'} "
                        f"({enumerate_fr(alphabetical([names[id] for id in reached]))}){counted} : {scored}"
                    ),
                    network["points"],
                )
            )
        return lines


MECHANISM = RegionRules()
