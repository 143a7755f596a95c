"""What a mechanism draws on the board: its marks, declared as data.

A mechanism says what its rules put on the board (a company's logo on the routes that bear
it, the tokens set out on a city, a region's cities, the crosses of a mountain pass, the
special track of a public route) and, in French, what the mark means; the board picture
(``emit.board``) draws every kind one way for the rule sheet's board and the playtest page's,
and words its legend: how the kind looks, then the mark's meaning. A mechanism never draws.

A mark names routes by id and places (cities, countries) by name, as the IR does.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class MarkKind(enum.Enum):
    CROSSES = "crosses"  # crosses on the first spaces of a route, after its ferry's locomotives
    ROUTE_BADGE = "route_badge"  # a short label laid on a route: a company's initials
    ROUTE_LINE = "route_line"  # a dotted line along a route's spaces: a special track
    PLACE_BADGE = "place_badge"  # a number beside a place: the tokens set out on it
    REGION = "region"  # a tinted area around some cities, one colour per region


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardMark:
    """One thing a mechanism draws. ``targets``: the route ids (``CROSSES``, ``ROUTE_BADGE``,
    ``ROUTE_LINE``) or the place names (``PLACE_BADGE``, ``REGION``) it is drawn on."""

    kind: MarkKind
    targets: tuple[str, ...]
    # What is written: a company's initials (« PRR »), a count (« 5 »); a region's name for
    # its legend only.
    label: str = ""
    count: int = 1  # CROSSES: how many spaces of each target carry one
    # What it means, in French, for the board's legend: « la Pennsylvania Railroad », « une
    # montagne ». Marks that mean the same (the crosses of every pass) are one line there.
    meaning: str = ""

    def __post_init__(self) -> None:
        if not self.targets:
            raise ValueError(f"a board mark ({self.kind.value}) needs at least one target")
        if self.kind in (MarkKind.ROUTE_BADGE, MarkKind.PLACE_BADGE) and not self.label:
            raise ValueError(f"a {self.kind.value} mark writes a label")
        if self.count < 1:
            raise ValueError("a mark crosses at least one space")


class Drawn(enum.Enum):
    """What the board draws of a field of the state (``StateField.drawn``), as a game goes on:
    the playtest page reads the field from the observation and draws it, knowing no mechanism."""

    ROUTES_TAKEN = "routes_taken"  # a holders field over routes: each in its holder's colour
    PIECES = "pieces"  # a player's ids of cities: a piece of the player's colour on each
    COUNTS = (
        "counts"  # numbers by place (by kind below it): their sum beside each place, in place of its mark's
    )
