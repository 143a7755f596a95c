"""A fixed number of rounds: the game ends once every player has played N turns.

``end { rounds 20 }``: after the twentieth round (each player's twentieth turn, a pass
counted), the game is over and scored, whatever the trains left; the trains' last round,
begun before, ends it earlier. A house rule of issue 38, §6: it fills the core's end of a
turn and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...french import counted, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import Fact, Mechanism, SheetWords, citation


@dataclass(**IR)
class Rounds:
    count: int  # the rounds a game lasts at most
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: Rounds

    @property
    def count(self) -> int:
        return self.rule.count

    @property
    def citation(self) -> str:
        return citation((self.rule,))


def turns_words(count: int) -> str:
    """« douze tours », « 1 tour »."""
    return f"{words(count)} {counted(count, 'tour', 'tours')}"


class FixedRounds(Mechanism):
    name = "rounds"
    french = "le nombre de tours"
    native = True  # the native engine ends the game as the pure one does (its `native` part)
    native_scoring = True  # it changes neither the set-up nor the scoring
    rule_types = (Rounds,)
    folder = Path(__file__).resolve().parent
    exports = ("ROUNDS",)

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        count = data.get("end", {}).get("rounds")
        if count is None:
            return ()
        return (Rounds(count=count, span=span("end", "rounds")),)

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        end = data.get("end", {})
        if "rounds" not in end:
            return None
        data["end"] = {key: value for key, value in end.items() if key != "rounds"}
        return ("end",)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        turns = turns_words(self.rule(edition).count)
        return SheetWords(
            scoring=(
                f"Partie en {turns} de table : la partie s’arrête quand chaque joueur a joué "
                f"{turns} (passer compte pour un tour), même s’il reste des wagons à tous ; le "
                "dernier tour, s’il commence avant, l’arrête plus tôt.",
            ),
            summary=(f"Fin : après {turns} de table, ou le dernier tour.",),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Décompte",
                label="Nombre de tours",
                value=f"{turns_words(self.rule(edition).count)} de table au plus",
                without="aucune limite",
            )
        ]


MECHANISM = FixedRounds()
