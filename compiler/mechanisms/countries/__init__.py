"""Neighbouring countries: routes that end at a country's border arrows, tickets that name it.

``board { country "France" arrows: 4 }`` (Switzerland): a route ends at an arrow written
``"France#2"``, a ticket names the country; a country is reached through any of its arrows but
never crossed, and a longest path only ends there. The countries, their arrows and the routes
to them are board data (the checks of the board, its picture and the printable lists read
them); this folder holds what they mean for the engine and the sheet, used by every edition
whose board has one. Moved here from the core (issue 22).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...french import alphabetical_key, counted, enumerate_fr
from ...ir import Country, Edition
from ..base import Fact, Mechanism, SheetWords
from ..bonuses import Bonus, Measure


@dataclass(frozen=True, slots=True)
class EngineView:
    countries: tuple[Country, ...]

    @property
    def countries_literal(self) -> str:
        """Each country and its border arrows."""
        return repr(
            {
                country.name: tuple(f"{country.name}#{n}" for n in range(1, country.arrows + 1))
                for country in self.countries
            }
        )


def _country(country: Country) -> str:
    """« Allemagne (5 flèches) »: the country in French, whatever name the board prints."""
    return (
        f"{country.french or country.name} ({country.arrows} {counted(country.arrows, 'flèche', 'flèches')})"
    )


def _in_order(edition: Edition) -> list[Country]:
    """The board's countries in French alphabetical order, as a family looks them up."""
    return sorted(edition.board.countries, key=lambda c: alphabetical_key(c.french or c.name))


class Countries(Mechanism):
    name = "countries"
    french = "les pays"
    native = True  # it only sets up or scores: a playout never meets it
    native_scoring = True  # a country reached by any of its arrows: its `load_ids` part
    folder = Path(__file__).resolve().parent
    exports = ("COUNTRIES",)

    def used(self, edition: Edition) -> bool:
        return bool(edition.board.countries)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(countries=edition.board.countries)

    def sheet(self, edition: Edition, engine: object) -> SheetWords:
        countries = _in_order(edition)
        border = sum(1 for route in edition.board.routes if route.endpoint)
        return SheetWords(
            claim=(
                f"Pays voisins : {border} routes ne mènent pas à une ville mais à un pays voisin, par l’une "
                f"des flèches de sa frontière : {enumerate_fr([_country(country) for country in countries])}. "
                "Un pays se rejoint par n’importe laquelle de ses flèches, mais ne se traverse jamais : deux "
                "flèches d’un même pays ne se relient pas"
                + (
                    ", et une route vers un pays ne compte dans le chemin le plus long que comme une extrémité."
                    if _longest_path_scored(edition)
                    else "."
                ),
            ),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Le plateau",
                label="Pays voisins",
                value=f"{enumerate_fr([c.french or c.name for c in _in_order(edition)])}, par "
                f"{sum(1 for r in edition.board.routes if r.endpoint)} routes frontalières",
            )
        ]


def _longest_path_scored(edition: Edition) -> bool:
    """Whether a bonus of the edition measures the longest trail (a country then ends one)."""
    return any(isinstance(rule, Bonus) and rule.measure is Measure.LONGEST_TRAIL for rule in edition.rules)


MECHANISM = Countries()
