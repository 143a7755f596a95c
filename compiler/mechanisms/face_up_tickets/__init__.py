"""Tickets face up: the tickets a player keeps lie face up, for all to see.

``face_up_tickets yes``: a change of what is seen, nothing else. Every seat's observation
shows every player's kept tickets (the core's own key, ``tickets``, in each player's record);
the tickets offered and not yet chosen, and those given back, stay hidden. A house rule of
issue 38, §6. The native engine takes its observation from the pure one: nothing of it is
played in C.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ApiTypes, Fact, Mechanism, SheetWords, citation


@dataclass(**IR)
class FaceUpTickets:
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: FaceUpTickets

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class FaceUpTicketRules(Mechanism):
    name = "face_up_tickets"
    french = "les tickets face visible"
    native = True  # what is seen, not what is played: the observation is the pure engine's
    native_scoring = True  # it changes neither the set-up nor the scoring
    rule_types = (FaceUpTickets,)
    folder = Path(__file__).resolve().parent
    statement = "face_up_tickets"
    # Every player's record of an observation writes their kept tickets.
    api = ApiTypes(fields={"ObservedPlayer": {"tickets": "list[TicketId]"}})

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        if not data.get("face_up_tickets"):
            return ()
        return (FaceUpTickets(span=span("face_up_tickets")),)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        return SheetWords(
            setup=(
                "Les tickets gardés se posent face visible devant soi, pour toute la partie : chacun "
                "voit ceux des autres. Ceux qu’on pioche restent cachés jusqu’au choix, et ceux qu’on "
                "rend, cachés, retournent sous la pioche.",
            ),
            summary=("Tickets gardés : face visible, vus de tous.",),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Le tour", label="Tickets gardés", value="face visible, vus de tous", without="cachés"
            )
        ]


MECHANISM = FaceUpTicketRules()
