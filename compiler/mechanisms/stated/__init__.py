"""Stated rules: what an edition's rules text says that no declaration of the language says.

``stated one_tokyo in: material "Tokyo et Kokura figurent deux fois…"`` (Japan): a sentence of
the rules, printed where it belongs among the rules of the sheet (the material, the set-up, the
claim of a route or the scoring), never under « Quand la règle ne dit rien », which holds what
was decided. The engine has nothing to do for it: what such a sentence says is already how the
engine plays (one city drawn twice is one city of the board); the sentence tells a family so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...french import typo
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import Fact, Mechanism, SheetWords

# Where a stated rule is printed: the part of `SheetWords` it joins, and the differences page's
# section that lists it.
PARTS = {
    "material": ("material", "Matériel"),
    "setup": ("setup", "Mise en place"),
    "claim": ("claim", "Le tour"),
    "scoring": ("scoring", "Décompte"),
}


@dataclass(**IR)
class Stated:
    id: str
    text: str
    part: str  # a key of PARTS
    span: Span | None = field(default=None, compare=False)


class StatedRules(Mechanism):
    name = "stated"
    french = "les règles énoncées"
    native = True  # nothing of it is played: a sentence of the sheet
    native_scoring = True
    rule_types = (Stated,)
    folder = Path(__file__).resolve().parent
    statement = "stated"

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        return tuple(
            Stated(id=item["id"], text=item["text"], part=item["in"], span=span("stated", index))
            for index, item in enumerate(data.get("stated", []))
        )

    def check(self, checker: Any) -> None:
        ids = [
            item["id"] for item in checker.data.get("stated", []) if isinstance(item, dict) and "id" in item
        ]
        checker.duplicates(ids, ("stated",), "règle énoncée")

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        said: dict[str, list[str]] = {part: [] for part, _ in PARTS.values()}
        for rule in self.rules(edition):
            text = typo(rule.text)
            # « Matériel » lists items without their final stop; the other parts are paragraphs.
            said[PARTS[rule.part][0]].append(text.rstrip(".") if rule.part == "material" else text)
        return SheetWords(**{part: tuple(lines) for part, lines in said.items()})

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(section=PARTS[rule.part][1], label="Règle de l’édition", value=typo(rule.text).rstrip("."))
            for rule in self.rules(edition)
        ]


MECHANISM = StatedRules()
