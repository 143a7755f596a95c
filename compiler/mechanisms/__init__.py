"""The mechanisms of the language, one folder each, and the registry that lists them.

A mechanism is the unit of the language: adding one means adding its folder and
one line to ``REGISTRY`` (see ``base.Mechanism`` for what a folder holds). The
registry's order is the order in which their engine parts, sheet sentences and
facts are emitted.
"""

from __future__ import annotations

import copy
from typing import Any

from ..french import JokerWording
from ..ir import Criterion
from .base import (
    EXPRESSIONS,
    HOOKS,
    ActionWords,
    BonusRow,
    EnginePart,
    Fact,
    Mechanism,
    SheetWords,
    SideWords,
)
from .bonuses import MECHANISM as BONUSES
from .card_sets import MECHANISM as CARD_SETS
from .claim_effects import MECHANISM as CLAIM_EFFECTS
from .countries import MECHANISM as COUNTRIES
from .extra_deck import MECHANISM as EXTRA_DECK
from .ferries import MECHANISM as FERRIES
from .joker_pays import MECHANISM as JOKER_PAYS
from .public_routes import MECHANISM as PUBLIC_ROUTES
from .regions import MECHANISM as REGIONS
from .score_tables import MECHANISM as SCORE_TABLES
from .shares import MECHANISM as SHARES
from .starting_score import MECHANISM as STARTING_SCORE
from .stated import MECHANISM as STATED
from .stations import MECHANISM as STATIONS
from .teams import MECHANISM as TEAMS
from .ticket_mix import MECHANISM as TICKET_MIX
from .ticket_targets import MECHANISM as TICKET_TARGETS
from .tokens import MECHANISM as TOKENS
from .tunnels import MECHANISM as TUNNELS

REGISTRY: tuple[Mechanism, ...] = (
    BONUSES,
    COUNTRIES,
    JOKER_PAYS,
    FERRIES,
    TUNNELS,
    TICKET_TARGETS,
    STATIONS,
    TEAMS,
    STARTING_SCORE,
    CLAIM_EFFECTS,
    CARD_SETS,
    EXTRA_DECK,
    SCORE_TABLES,
    TOKENS,
    SHARES,
    REGIONS,
    PUBLIC_ROUTES,
    TICKET_MIX,
    STATED,
)

__all__ = [
    "EXPRESSIONS",
    "HOOKS",
    "REGISTRY",
    "ActionWords",
    "BonusRow",
    "EnginePart",
    "Fact",
    "Mechanism",
    "SheetWords",
    "SideWords",
    "board_marks",
    "joker_kinds",
    "joker_pays",
    "joker_wording",
    "least_jokers",
    "set_aside",
    "claim_points",
    "bonus_rows",
    "example_ticket_keys",
    "side_size",
    "tiebreaks",
    "used_by",
    "with_fragments",
]


def used_by(edition: Any) -> tuple[Mechanism, ...]:
    """The registered mechanisms an edition's rules use, in the registry's order."""
    # Asked thousands of times per compile (each template line that depends on a mechanism):
    # remembered per edition object, which is frozen. Kept with the object itself, so that its
    # id cannot be another's while the entry lives.
    found = _USED.get(id(edition))
    if found is not None and found[0] is edition:
        return found[1]
    used = tuple(mechanism for mechanism in REGISTRY if mechanism.used(edition))
    _USED[id(edition)] = (edition, used)
    while len(_USED) > 64:
        del _USED[next(iter(_USED))]
    return used


_USED: dict[int, tuple[Any, tuple[Mechanism, ...]]] = {}


def example_ticket_keys() -> tuple[str, ...]:
    """The keys the mechanisms add to `score_example` that name tickets."""
    return tuple(key for mechanism in REGISTRY for key in mechanism.example_tickets)


def side_size(edition: Any) -> int:
    """How many players play together as one side: a team's size, else 1."""
    return max([1] + [mechanism.side_size(edition) for mechanism in used_by(edition)])


def board_marks(edition: Any) -> tuple[tuple[str, int], ...]:
    """The crosses the board picture draws on each route, from the mechanisms the edition uses."""
    marks: dict[str, int] = {}
    for mechanism in used_by(edition):
        for route, count in mechanism.board_marks(edition).items():
            marks[route] = marks.get(route, 0) + count
    return tuple(sorted(marks.items()))


def bonus_rows(edition: Any) -> tuple[BonusRow, ...]:
    """The rows of the engine's bonus table, from the mechanisms the edition uses."""
    return tuple(row for mechanism in used_by(edition) for row in mechanism.bonus_rows(edition))


def joker_kinds(edition: Any) -> tuple[str, ...]:
    """The kinds of route the joker pays ("tunnels", "ferries"), never an ordinary one; empty: every route."""
    return JOKER_PAYS.rule(edition).kinds if JOKER_PAYS.used(edition) else ()


def least_jokers(edition: Any, route: Any) -> int:
    """The jokers a claim of ``route`` lays at least: the terms of the engine's ``least_jokers``."""
    return sum(mechanism.least_jokers(edition, route) for mechanism in used_by(edition))


def set_aside(edition: Any, route: Any) -> int:
    """The trains a claim of ``route`` takes besides its length: the terms of ``claim_trains``."""
    return sum(mechanism.set_aside(edition, route) for mechanism in used_by(edition))


def claim_points(edition: Any, route: Any) -> int:
    """The points a claim of ``route`` scores besides the route's own."""
    return sum(mechanism.claim_points(edition, route) for mechanism in used_by(edition))


def joker_pays(edition: Any, route: Any) -> bool:
    """Whether the joker card may pay a space of ``route``."""
    return not JOKER_PAYS.used(edition) or JOKER_PAYS.rule(edition).pays(route)


def joker_wording(edition: Any) -> JokerWording:
    """How the sheets name the edition's joker and say where it pays."""
    kinds = joker_kinds(edition)
    return JokerWording(card=edition.joker.value, tunnels_only=kinds == ("tunnels",), kinds=kinds)


def tiebreaks(edition: Any) -> dict[Any, tuple[str, str]]:
    """Every tie-break criterion the edition may name (``Tiebreaker.name``): the core's, and those
    of the mechanisms it uses; each with the engine's key of a ``scores()`` record (more wins)
    and the sheet's French."""
    found: dict[Any, tuple[str, str]] = {
        Criterion.COMPLETED_TICKETS: ('len(result["tickets_completed"])', "le plus de tickets réussis")
    }
    for mechanism in used_by(edition):
        found.update(mechanism.tiebreaks(edition))
    return found


def with_fragments(base: dict[str, Any]) -> dict[str, Any]:
    """The language's schema: the core one with each mechanism's fragment added.

    A fragment adds top-level statements (``properties``), keys of a top-level block
    (``extend``: ``{"setup": {"starting_score": …}}``), definitions (``$defs``), kinds of
    ``without`` (``without``: its first kind drops all its rules) and criteria of ``tiebreak``
    (``criteria``).
    """
    schema = copy.deepcopy(base)
    without = schema["properties"]["without"]["items"]["properties"]["kind"]["enum"]
    criteria = schema["properties"]["tiebreak"]["items"]["properties"]["criterion"]["enum"]
    for mechanism in REGISTRY:
        fragment = mechanism.schema()
        for key, node in fragment.get("properties", {}).items():
            assert key not in schema["properties"], f"{mechanism.name} redeclares « {key} »"
            schema["properties"][key] = node
        for block, keys in fragment.get("extend", {}).items():
            inner = schema["properties"][block]["properties"]
            assert not set(keys) & set(inner), f"{mechanism.name} redeclares a key of « {block} »"
            inner.update(keys)
        schema["$defs"].update(fragment.get("$defs", {}))
        without.extend(fragment.get("without", ()))
        criteria.extend(fragment.get("criteria", ()))
    return schema
