"""Score tables: points every player scores at the end, read from a count in a table.

India's Grand Tour (« Mandala »): the completed tickets whose two cities a player's routes join
by two paths that share no route are counted, and 1 → 5, 2 → 10, 3 → 20, 4 → 30, 5 or more → 40.
Written ``score_table grand_tour { title "Grand Tour" counts tickets_two_paths points 1: 5 … }``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import enumerate_fr, guillemets, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ApiTypes, Fact, Mechanism, ScoreLine, SheetWords, citation
from ..used import used_by

# What each count is, in French: the rule (after « compte… ») and the table's first column.
COUNTS = {
    "tickets_two_paths": (
        "tes tickets réussis dont les deux villes sont reliées de deux façons par tes propres routes : par deux "
        "chemins qui n’ont aucune route en commun (ils peuvent passer par les mêmes villes)",
        "Tickets reliés deux fois",
    ),
    "completed_tickets": ("tes tickets réussis", "Tickets réussis"),
}


@dataclass(**IR)
class ScoreTable:
    id: str
    title: str
    counts: str
    points: tuple[tuple[int, int], ...]  # (count, points), by count
    span: Span | None = field(default=None, compare=False)

    def points_for(self, count: int) -> int:
        """The row of the count, or of the largest count below it; nothing below the first row."""
        found = 0
        for row, points in self.points:
            if row <= count:
                found = points
        return found


class ScoreTables(Mechanism):
    name = "score_tables"
    french = "les tables de points"
    native = True  # it only sets up or scores: a playout never meets it
    native_scoring = True  # each table's count and points in the record: its `score_player` part
    rule_types = (ScoreTable,)
    folder = Path(__file__).resolve().parent
    statement = "score_table"
    exports = ("SCORE_TABLES",)
    api = ApiTypes(
        fields={"ScoreRecord": {"score_tables": "dict[str, ScoreTableResult]"}},
        records={"ScoreTableResult": {"count": "int", "tickets": "list[TicketId]", "points": "int"}},
    )

    def scores_natively(self, edition: Edition) -> bool:
        # its native count reads the tickets between two places: a ticket to targets is the pure engine's.
        return not any(ticket.targets for ticket in edition.tickets.tickets)

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        return tuple(
            ScoreTable(
                id=item["id"],
                title=item["title"],
                counts=item["counts"],
                points=tuple(sorted((int(k), v) for k, v in item["points"].items())),
                span=span("score_table", index),
            )
            for index, item in enumerate(data.get("score_table", []))
        )

    def check(self, checker: Any) -> None:
        data = checker.data
        for index, item in enumerate(data.get("score_table", [])):
            if item.get("counts") != "tickets_two_paths":
                continue
            why = None
            if data["board"].get("country"):
                why = "un ticket vers un pays n’a pas de ville à relier deux fois"
            elif any(ticket.get("target") for ticket in data.get("tickets", {}).get("ticket", [])):
                why = "un ticket à plusieurs destinations n’a pas une seule ville à relier deux fois"
            if why:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"« tickets_two_paths » ne se compte pas dans cette édition : {why}",
                    ("score_table", index, "counts"),
                )

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return tuple(
            ScoreLine(label=table.title, path=("score_tables", table.id, "points"))
            for table in self.rules(edition)
        )

    def engine_view(self, edition: Edition) -> Any:
        return EngineView(tables=self.rules(edition))

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        sections = []
        for table in self.rules(edition):
            rule, column = COUNTS[table.counts]
            last = table.points[-1][0]
            rows = (
                (column, *(f"{row} ou plus" if row == last and row else str(row) for row, _ in table.points)),
                ("Points", *(str(points) for _, points in table.points)),
            )
            first = table.points[0][0]
            below = f" En dessous de {first}, rien." if first > 1 else ""
            lent = [said for m in used_by(edition) if (said := m.borrowed_routes(edition))]
            borrowed = next(iter(lent), None)
            if table.counts == "tickets_two_paths" and borrowed:
                # Completed with a station's or a teammate's routes, a ticket may still count only
                # on its holder's own routes: say so where it could be doubted.
                below += f" Les routes {borrowed} ne comptent pas pour les deux chemins."
            sections.append(
                (
                    table.title,
                    (
                        f"À la fin de la partie, compte {rule}. Selon leur nombre, tu marques les points du "
                        f"tableau ; au-delà de sa dernière colonne, ceux de la dernière.{below}",
                    ),
                    rows,
                )
            )
        tables = self.rules(edition)
        return SheetWords(
            scoring=tuple(
                f"{guillemets(table.title)} : les points du tableau « {table.title} », selon ton nombre de "
                f"{COUNTS[table.counts][1].lower()}."
                for table in tables
            ),
            summary=tuple(f"{table.title} : {self.rows(table)}." for table in tables),
            gains=tuple(f"le barème {guillemets(table.title)}" for table in tables),
            formula=tuple(f" + {guillemets(table.title)}" for table in tables),
            sections=tuple(sections),
        )

    @staticmethod
    def rows(table: ScoreTable) -> str:
        """« 1 → 5, 2 → 10, …, 5 ou plus → 40 »."""
        last = table.points[-1][0]
        return ", ".join(
            f"{row}{' ou plus' if row == last else ''} → {points}" for row, points in table.points
        )

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        names = {ticket.id: f"{ticket.a} – {ticket.b}" for ticket in edition.tickets.tickets}
        lines = []
        for table in self.rules(edition):
            scored = result["score_tables"][table.id]
            if not scored["count"]:
                continue
            count = scored["count"]
            listed = enumerate_fr([guillemets(names[ticket]) for ticket in scored["tickets"]])
            if table.counts == "tickets_two_paths":
                what = (
                    f"{words(count)} {'ticket relié' if count == 1 else 'tickets reliés'} deux fois, {listed}"
                )
                others = [
                    e["ticket"] for e in result["tickets_completed"] if e["ticket"] not in scored["tickets"]
                ]
                if others:
                    once = enumerate_fr([guillemets(names[ticket]) for ticket in others])
                    what += f" ({once} {'ne l’est' if len(others) == 1 else 'ne le sont'} qu’une fois)"
            else:
                what = f"{words(count)} {'ticket réussi' if count == 1 else 'tickets réussis'}"
            lines.append(
                (
                    f"{what[0].upper()}{what[1:]} : {guillemets(table.title)} ajoute {scored['points']} points",
                    scored["points"],
                )
            )
        return lines

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Décompte",
                label=table.title,
                value=f"{self.rows(table)} points, selon le nombre de {COUNTS[table.counts][1].lower()}",
            )
            for table in self.rules(edition)
        ]


@dataclass(frozen=True, slots=True)
class EngineView:
    tables: tuple[ScoreTable, ...]

    @property
    def tables_literal(self) -> str:
        return repr({t.id: (t.counts, t.points) for t in self.tables})

    @property
    def two_paths(self) -> bool:
        return any(t.counts == "tickets_two_paths" for t in self.tables)

    @property
    def citation(self) -> str:
        return citation(self.tables)


MECHANISM = ScoreTables()
