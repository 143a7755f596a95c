"""Tickets with targets: one place, several targets, the best one reached scores.

``ticket "Bern" { target "France" 5; target "Italia" 8 }`` (Switzerland): the ticket scores the
points of the best-paid target its origin is joined to; when none is, the lowest is lost. The
targets are ticket data (the deck, the printable list and the score example read them too);
this folder holds how such a ticket scores, used by every edition whose deck has one. Moved
here from the core (issue 22).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...emit.escape import cite
from ...ir import Edition
from ..base import ApiTypes, Mechanism, SheetWords


@dataclass(frozen=True, slots=True)
class EngineView:
    citation: str


class TicketTargets(Mechanism):
    name = "ticket_targets"
    french = "les tickets à plusieurs destinations"
    # A ticket to the best of several targets has no `b` or `points` of its own; scored, it names
    # the target reached.
    api = ApiTypes(
        fields={
            "TicketRecord": {
                "b": "NotRequired[City]",
                "points": "NotRequired[int]",
                "targets": "NotRequired[dict[City, int]]",
            },
            "TicketResult": {"target": "NotRequired[City]"},
        }
    )
    native = True  # it only sets up or scores: a playout never meets it
    native_scoring = True  # the best target reached: its `ticket_result` part
    folder = Path(__file__).resolve().parent

    def used(self, edition: Edition) -> bool:
        return any(ticket.targets for ticket in edition.tickets.tickets)

    def engine_view(self, edition: Edition) -> EngineView:
        first = next(ticket for ticket in edition.tickets.tickets if ticket.targets)
        return EngineView(citation=cite(first.span))

    def sheet(self, edition: Edition, engine: object) -> SheetWords:
        return SheetWords(
            scoring=(
                "Tickets à plusieurs destinations : chacune a ses points. Tu marques ceux de la mieux payée que "
                "ton point de départ (une ville, ou un pays) rejoint par tes routes ; s’il n’en rejoint aucune, "
                "tu perds les points de la moins payée.",
            )
        )


MECHANISM = TicketTargets()
