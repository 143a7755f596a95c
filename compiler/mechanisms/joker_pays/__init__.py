"""What the joker pays: every route (the default), or only some kinds of route.

``joker tunnel pays: tunnels`` (Switzerland: the tunnel cards pay tunnels only) or
``joker locomotive pays: [tunnels, ferries]`` (Nordic Countries: locomotives pay tunnels and
ferries only): a joker laid on an ordinary route is refused, and the claims listed never lay
one there. The joker card itself (a locomotive or a tunnel card) belongs to the deck; this folder
holds how far it reaches, which it declares (`Mechanism.joker_kinds`) and the stages and the
core's payments ask through ``used`` (``joker_pays_route``), never by its name. Moved here
from the core (issue 22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import KIND_ONE, JokerWording
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import Mechanism, SheetWords
from ..used import joker_refusal

# How a route of each kind is marked in the engine's ROUTES records.
RECORD_FIELDS = {"tunnels": "tunnel", "ferries": "ferry"}


@dataclass(**IR)
class JokerPays:
    """The kinds of route the joker pays ("tunnels", "ferries"), never an ordinary one."""

    kinds: tuple[str, ...]
    span: Span | None = field(default=None, compare=False)

    @property
    def tunnels_only(self) -> bool:
        return self.kinds == ("tunnels",)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: JokerPays

    @property
    def tunnels_only(self) -> bool:
        return self.rule.tunnels_only

    @property
    def record_test(self) -> str:
        """Whether the joker pays a route, from its `ROUTES` record (`route`)."""
        return " or ".join(f"bool(route[{RECORD_FIELDS[kind]!r}])" for kind in self.rule.kinds)


class JokerReach(Mechanism):
    name = "joker_pays"
    french = "ce que paie le joker"
    native = True  # the native engine reads `joker_pays` per route
    native_scoring = True  # it changes neither the set-up nor the scoring
    rule_types = (JokerPays,)
    folder = Path(__file__).resolve().parent

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        pays = data.get("joker", {}).get("pays", "all")
        chosen = {"all": set(), "tunnels": {"tunnels"}}[pays] if isinstance(pays, str) else set(pays)
        kinds = tuple(kind for kind in ("tunnels", "ferries") if kind in chosen)
        return (JokerPays(kinds=kinds, span=span("joker")),) if kinds else ()

    def check(self, checker: Any) -> None:
        data = checker.data
        pays = data.get("joker", {}).get("pays", "all")
        listed = {kind for kind in pays if isinstance(kind, str)} if isinstance(pays, list) else set()
        kinds = {"tunnels"} if pays == "tunnels" else listed  # `pays: [tunnels]` is `pays: tunnels`
        if kinds == {"tunnels"} and "tunnels" not in data:
            checker.report(
                Code.INCONSISTENT_RULE, "un joker qui ne paie que les tunnels demande « tunnels »", ("joker",)
            )
        routes = data.get("board", {}).get("route")
        ferries = (
            [i for i, route in enumerate(routes) if route.get("ferry")] if isinstance(routes, list) else []
        )
        if kinds and "ferries" not in kinds and ferries:
            # Blamed on the first ferry when this file marked it, else on the joker it inherits or declares.
            marked = ("board", "route", ferries[0], "ferry")
            local = checker.declared_here(marked)
            checker.report(
                Code.INCONSISTENT_RULE,
                "les locomotives d’un ferry se paient en jokers : il demande un joker qui paie les ferries, "
                "pas seulement les tunnels",
                marked if local else ("joker",),
                hint="« pays: [tunnels, ferries] », « pays: all », ou « without ferries »",
            )

    # -- engine ------------------------------------------------------------
    def joker_kinds(self, edition: Edition) -> tuple[str, ...]:
        return self.rule(edition).kinds if self.used(edition) else ()

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def messages(self, edition: Edition) -> dict[str, str]:
        kinds = self.rule(edition).kinds
        where = " ou ".join(KIND_ONE[kind] for kind in kinds)
        return {
            joker_refusal(kinds): f"Une {{JOKER}} ne se joue que sur {where}, jamais sur une route ordinaire."
        }

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        rule = self.rule(edition)
        joker = JokerWording(card=edition.joker.value, tunnels_only=rule.tunnels_only, kinds=rule.kinds)
        many = joker.many  # « cartes Tunnel »: only its first letter becomes a capital
        return SheetWords(
            summary=(
                f"{many[0].upper()}{many[1:]} : {joker.where_all} seulement, jamais sur une route ordinaire.",
            )
        )


MECHANISM = JokerReach()
