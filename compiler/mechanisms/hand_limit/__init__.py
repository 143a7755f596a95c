"""A hand limit: no player holds more than N train cards.

``hand_limit 10``: with ten train cards in hand, a player may not draw one (the draw is
refused, ``hand_full``, and not offered: they claim a route, draw tickets, or pass when
nothing else is legal); a first card that brings the hand to ten ends the draw. A house rule
of issue 38, §6: it adds its term to the core's condition on drawing cards
(``may_draw_cards``, in both engines) and a refusal at the start of a draw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import counted, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import Fact, Mechanism, SheetWords, citation


@dataclass(**IR)
class HandLimit:
    cards: int  # the most train cards a hand holds
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: HandLimit

    @property
    def cards(self) -> int:
        return self.rule.cards

    @property
    def citation(self) -> str:
        return citation((self.rule,))


def cards_words(count: int) -> str:
    return f"{words(count)} {counted(count, 'carte Wagon', 'cartes Wagon')}"


class HandLimitRules(Mechanism):
    name = "hand_limit"
    french = "la limite de cartes en main"
    native = True  # its term of the condition on drawing, in C too (`native_conditions`)
    native_scoring = True  # it changes neither the set-up nor the scoring
    rule_types = (HandLimit,)
    folder = Path(__file__).resolve().parent
    statement = "hand_limit"
    exports = ("HAND_LIMIT",)

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        cards = data.get("hand_limit")
        if cards is None:
            return ()
        return (HandLimit(cards=cards, span=span("hand_limit")),)

    def check(self, checker: Any) -> None:
        data = checker.data
        cards = data.get("hand_limit")
        if cards is None:
            return
        if "teams" in data:
            checker.report(
                Code.INCONSISTENT_RULE,
                "« hand_limit » ne se joue pas en équipes : une carte piochée y va aussi au porte-cartes",
                ("hand_limit",),
            )
            return
        dealt = data.get("setup", {}).get("train_cards")
        if isinstance(dealt, int) and cards < dealt:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"chaque joueur reçoit {dealt} cartes Wagon au départ : la limite ne peut pas être "
                f"en dessous, pas {cards}",
                ("hand_limit",),
                hint=f"au moins « hand_limit {dealt} »",
            )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        if "hand_limit" not in data:
            return None
        data.pop("hand_limit")
        return ("hand_limit",)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def conditions(self, edition: Edition) -> dict[str, str]:
        return {"may_draw_cards": "sum(self._hands[self._current]) < HAND_LIMIT"}

    def native_conditions(self, edition: Edition) -> dict[str, str]:
        return {"may_draw_cards": "self.hand_cards(self.s.current) < HAND_LIMIT"}

    def messages(self, edition: Edition) -> dict[str, str]:
        limit = cards_words(self.rule(edition).cards)
        return {
            "hand_full": f"Ta main a déjà {limit}, le plus qu’elle puisse tenir : tu ne peux pas piocher."
        }

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        limit = cards_words(self.rule(edition).cards)
        return SheetWords(
            claim=(
                f"Limite de main : personne ne tient plus de {limit}. Avec {limit} en main, on ne "
                "pioche pas de carte : on prend une route, on pioche des tickets, ou l’on passe si rien "
                "d’autre n’est possible. Si la première carte piochée remplit la main, on ne pioche pas "
                "la seconde.",
            ),
            mistakes=(f"Piocher une carte avec déjà {limit} en main.",),
            summary=(f"Main : {limit} au plus.",),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Le tour",
                label="Cartes Wagon en main",
                value=f"{cards_words(self.rule(edition).cards)} au plus",
                without="aucune limite",
            )
        ]


MECHANISM = HandLimitRules()
