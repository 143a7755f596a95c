"""The mechanisms of the language, one folder each, and the registry that lists them.

A mechanism is the unit of the language: adding one means adding its folder and
one line to ``REGISTRY`` (see ``base.Mechanism`` for what a folder holds). The
registry's order is the order in which their engine parts, sheet sentences and
facts are emitted.
"""

from __future__ import annotations

import copy
from typing import Any

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
from .face_up_tickets import MECHANISM as FACE_UP_TICKETS
from .ferries import MECHANISM as FERRIES
from .hand_limit import MECHANISM as HAND_LIMIT
from .joker_pays import MECHANISM as JOKER_PAYS
from .public_routes import MECHANISM as PUBLIC_ROUTES
from .race import MECHANISM as RACE
from .regions import MECHANISM as REGIONS
from .rounds import MECHANISM as ROUNDS
from .score_tables import MECHANISM as SCORE_TABLES
from .shares import MECHANISM as SHARES
from .starting_score import MECHANISM as STARTING_SCORE
from .stated import MECHANISM as STATED
from .stations import MECHANISM as STATIONS
from .teams import MECHANISM as TEAMS
from .ticket_mix import MECHANISM as TICKET_MIX
from .ticket_targets import MECHANISM as TICKET_TARGETS
from .tickets_at_once import MECHANISM as TICKETS_AT_ONCE
from .tokens import MECHANISM as TOKENS
from .tunnels import MECHANISM as TUNNELS
from .used import (
    board_marks,
    bonus_rows,
    claim_points,
    joker_kinds,
    joker_pays_route,
    joker_refusal,
    joker_rules,
    joker_wording,
    least_jokers,
    register,
    set_aside,
    side_size,
    spared_trains,
    tiebreaks,
    used_by,
)

REGISTRY: tuple[Mechanism, ...] = register(
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
    TICKETS_AT_ONCE,
    RACE,
    ROUNDS,
    FACE_UP_TICKETS,
    HAND_LIMIT,
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
    "joker_pays_route",
    "joker_refusal",
    "joker_rules",
    "joker_wording",
    "least_jokers",
    "set_aside",
    "spared_trains",
    "claim_points",
    "bonus_rows",
    "example_ticket_keys",
    "side_size",
    "tiebreaks",
    "used_by",
    "with_fragments",
]


def example_ticket_keys() -> tuple[str, ...]:
    """The keys the mechanisms add to `score_example` that name tickets."""
    return tuple(key for mechanism in REGISTRY for key in mechanism.example_tickets)


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
