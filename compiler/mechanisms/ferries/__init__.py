"""Ferries: a route marked with locomotives is paid with at least that many.

A route of the board written ``ferry: 2`` (Europe, Legendary Asia, Nordic Countries) needs two
locomotives among its cards, whatever its colour; the rest is paid as usual. The marks are
board data (the joker and the board picture read them too); this folder holds what they mean,
used by every edition whose board has one. ``without ferries`` drops the marks. Moved here
from the core (issue 22).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import JOKERS
from ...ir import Edition
from ..base import Fact, Mechanism, SheetWords
from ..card_sets import Substitute


def _every_gray_route_a_ferry(edition: Edition) -> bool:
    """Whether the board has gray routes and every one of them is a ferry (Italy): the sheet says
    it, read from the board, not typed by the spec."""
    gray = [route for route in edition.board.routes if route.color == "gray"]
    return bool(gray) and all(route.ferry for route in gray)


def _counts(edition: Edition) -> list[int]:
    """The numbers of locomotives the board's ferries ask, in increasing order."""
    return sorted({route.ferry for route in edition.board.routes if route.ferry})


class FerryRules(Mechanism):
    name = "ferries"
    french = "les ferries"
    native = True  # the native engine counts a ferry's locomotives (`least_jokers`)
    native_scoring = True  # it changes neither the set-up nor the scoring
    folder = Path(__file__).resolve().parent

    def used(self, edition: Edition) -> bool:
        return any(route.ferry for route in edition.board.routes)

    def check(self, checker: Any) -> None:
        board = checker.data.get("board", {})
        routes = board.get("route")
        if not isinstance(routes, list):
            return
        for index, route in enumerate(routes):
            if route.get("ferry", 0) > route["length"]:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    "un ferry ne peut pas demander plus de locomotives que de cases",
                    ("board", "route", index, "ferry"),
                )
        checker.count(
            "ferries",
            sum(bool(r.get("ferry")) for r in routes),
            board.get("expect", {}).get("ferries"),
            ("board", "expect", "ferries"),
        )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        """``without ferries``: every route's mark and the count that checks them."""
        board = data["board"] = dict(data["board"])  # it may be the parent's own
        expect = board.get("expect")
        if not any("ferry" in route for route in board["route"]) and not (
            isinstance(expect, dict) and "ferries" in expect
        ):
            return None
        board["route"] = [
            {key: value for key, value in route.items() if key != "ferry"} for route in board["route"]
        ]
        if isinstance(expect, dict) and "ferries" in expect:
            board["expect"] = {key: value for key, value in expect.items() if key != "ferries"}
        return ("board",)

    # -- engine ------------------------------------------------------------
    def expressions(self, edition: Edition) -> dict[str, str]:
        return {"least_jokers": "_ROUTE_FERRY[route]"}

    def least_jokers(self, edition: Edition, route: Any) -> int:
        return route.ferry

    def messages(self, edition: Edition) -> dict[str, str]:
        return {"ferry_needs_locomotives": "Ce ferry se paie avec au moins {locomotives}."}

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        counts = _counts(edition)
        # The board marks a ferry with locomotives; the edition's joker card pays them.
        one, many = JOKERS[edition.joker.value]
        # Where every gray route is a ferry (Italy), the board says so and the sheet with it.
        lead = (
            "Ferries : sur ce plateau, toutes les routes grises sont des ferries. Une"
            if _every_gray_route_a_ferry(edition)
            else "Ferries : une"
        )
        if counts == [1]:
            claim = (
                f"{lead} route marquée d’une locomotive se paie avec au moins une {one} ; le reste se paie "
                "comme d’habitude."
            )
        else:
            # « une ou plusieurs » says it: the counts listed after it (« (une ou deux) ») only
            # repeated what the board shows (issue 37, §3).
            claim = (
                f"{lead} route marquée d’une ou plusieurs locomotives se paie avec au moins autant de "
                f"{many} ; le reste se paie comme d’habitude."
            )
        sets = _locomotive_sets(edition)
        instead = "".join(f" ou, pour chacune, un lot de {cards} cartes" for cards in sets)
        return SheetWords(
            claim=(claim,),
            mistakes=(f"Payer un ferry sans ses {many}{instead.replace(' ou,', ' ni,')}.",),
            summary=(f"Ferry = ses {many} d’abord{instead}.",),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        ferries = sum(1 for route in edition.board.routes if route.ferry)
        return [Fact(section="Le plateau", label="Ferries", value=str(ferries))]


MECHANISM = FerryRules()


def _locomotive_sets(edition: Edition) -> list[int]:
    """The sizes of the sets of cards that may stand in for a ferry's locomotive (Nordic
    Countries' three cards): the mistake and the summary name them, or they would contradict them."""
    return [
        rule.cards for rule in edition.rules if isinstance(rule, Substitute) and rule.replaces == "locomotive"
    ]
