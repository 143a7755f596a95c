"""Tickets scored at once: a kept ticket scores the moment its cities are joined.

``score_tickets_at_once yes``: at the end of the turn that joins a ticket's cities (or keeps
it already joined), its owner shows it and moves their score marker by its points. At the end
it counts once, as completed; a ticket never completed loses its points as ever. The tickets
scored are part of the state (``tickets_scored``, seen by all, within the player's tickets),
so the score track stays the routes' points and the scored tickets'. A house rule of issue 38,
§6: the end of a turn, its state's bookkeeping, and what the score track must be.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ApiTypes, Fact, Mechanism, SheetWords, citation
from ..state import Scope, Shape, StateField


@dataclass(**IR)
class TicketsAtOnce:
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: TicketsAtOnce

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class TicketsScoredAtOnce(Mechanism):
    name = "tickets_at_once"
    french = "les tickets marqués aussitôt"
    native = True  # the native engine scores them at the end of a turn too (its `native` parts)
    native_scoring = True  # it changes neither the set-up nor the scoring
    rule_types = (TicketsAtOnce,)
    folder = Path(__file__).resolve().parent
    statement = "score_tickets_at_once"
    api = ApiTypes(
        fields={
            "PlayerState": {"tickets_scored": "list[TicketId]"},
            "ObservedPlayer": {"tickets_scored": "list[TicketId]"},
        }
    )

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        if not data.get("score_tickets_at_once"):
            return ()
        return (TicketsAtOnce(span=span("score_tickets_at_once")),)

    def check(self, checker: Any) -> None:
        data = checker.data
        if not data.get("score_tickets_at_once"):
            return
        targets = any(ticket.get("target") for ticket in data.get("tickets", {}).get("ticket", []))
        found = [
            words
            for words, present in (
                ("les gares (les routes empruntées ne sont choisies qu’à la fin)", "stations" in data),
                ("les équipes", "teams" in data),
                ("les tickets à plusieurs destinations", targets),
            )
            if present
        ]
        if found:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"« score_tickets_at_once » ne se joue pas avec {found[0]}",
                ("score_tickets_at_once",),
            )

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        return (
            StateField(
                key="tickets_scored",
                scope=Scope.PLAYER,
                shape=Shape.IDS,
                label="tickets réalisés, déjà marqués",
                over="TICKETS",
                unique=True,
                within="tickets",
                derived=True,
            ),
        )

    def replacements(self, edition: Edition) -> dict[str, str]:
        return {"score_meaning": "les points de ses routes et de ses tickets déjà marqués"}

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        return SheetWords(
            claim=(
                "Tickets marqués aussitôt : à la fin du tour où tes routes relient les deux villes d’un "
                "de tes tickets (ou où tu gardes un ticket déjà relié), tu le montres et tu avances ton "
                "marqueur de ses points. À la fin, il compte une fois, comme réussi ; un ticket jamais "
                "relié fait perdre ses points, comme toujours.",
            ),
            summary=("Un ticket relié se marque aussitôt, montré à tous.",),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Décompte",
                label="Tickets réussis",
                value="marqués dès qu’ils sont reliés, montrés à tous",
                without="marqués à la fin",
            )
        ]


MECHANISM = TicketsScoredAtOnce()
