"""What the mechanisms an edition uses say together: which ones it uses, how many players make a
side, the marks on the board, the bonus rows, what a claim lays and scores besides its route, the
tie-breaks.

The registry (``compiler.mechanisms``) hands its list over once, with ``register``; so a
mechanism may ask what the others say (how big a side is, whether a team's holder pays too)
without importing the registry, which imports it. The stages import these from the registry.
"""

from __future__ import annotations

from typing import Any

from ..french import JokerWording
from ..ir import Criterion
from .base import BonusRow, Mechanism
from .marks import BoardMark

_REGISTERED: list[Mechanism] = []


def register(*mechanisms: Mechanism) -> tuple[Mechanism, ...]:
    """The registry's list, in its order, from now on what ``used_by`` picks from."""
    assert not _REGISTERED, "the registry hands its list over once"
    names = [mechanism.name for mechanism in mechanisms]
    assert len(set(names)) == len(names), f"a mechanism is registered twice: {names}"
    _REGISTERED.extend(mechanisms)
    return tuple(_REGISTERED)


def registered() -> tuple[Mechanism, ...]:
    """Every registered mechanism, in the registry's order."""
    assert _REGISTERED, "asked before the registry (compiler.mechanisms) listed the mechanisms"
    return tuple(_REGISTERED)


def used_by(edition: Any) -> tuple[Mechanism, ...]:
    """The registered mechanisms an edition's rules use, in the registry's order."""
    # Asked thousands of times per compile (each template line that depends on a mechanism):
    # remembered per edition object, which is frozen. Kept with the object itself, so that its
    # id cannot be another's while the entry lives.
    found = _USED.get(id(edition))
    if found is not None and found[0] is edition:
        return found[1]
    used = tuple(mechanism for mechanism in registered() if mechanism.used(edition))
    _USED[id(edition)] = (edition, used)
    while len(_USED) > 64:
        del _USED[next(iter(_USED))]
    return used


_USED: dict[int, tuple[Any, tuple[Mechanism, ...]]] = {}


def side_size(edition: Any) -> int:
    """How many players play together as one side: a team's size, else 1."""
    return max([1] + [mechanism.side_size(edition) for mechanism in used_by(edition)])


def board_marks(edition: Any) -> tuple[BoardMark, ...]:
    """What the board picture draws besides the routes and places, from the mechanisms the
    edition uses, in the registry's order."""
    return tuple(mark for mechanism in used_by(edition) for mark in mechanism.board_marks(edition))


def bonus_rows(edition: Any) -> tuple[BonusRow, ...]:
    """The rows of the engine's bonus table, from the mechanisms the edition uses."""
    return tuple(row for mechanism in used_by(edition) for row in mechanism.bonus_rows(edition))


def joker_kinds(edition: Any) -> tuple[str, ...]:
    """The kinds of route the joker pays ("tunnels", "ferries"), never an ordinary one; empty:
    every route (`Mechanism.joker_kinds`)."""
    found = [kinds for mechanism in used_by(edition) if (kinds := mechanism.joker_kinds(edition))]
    assert len(found) <= 1, "one mechanism of an edition at most limits the joker"
    return found[0] if found else ()


def joker_rules(edition: Any) -> tuple[Any, ...]:
    """The rules that limit what the joker pays, for the engine's citations."""
    return tuple(
        rule
        for mechanism in used_by(edition)
        if mechanism.joker_kinds(edition)
        for rule in mechanism.rules(edition)
    )


def joker_pays_route(edition: Any, route: Any) -> bool:
    """Whether the joker card may pay a space of ``route``."""
    kinds = joker_kinds(edition)
    return not kinds or (route.tunnel and "tunnels" in kinds) or (route.ferry > 0 and "ferries" in kinds)


def joker_refusal(kinds: tuple[str, ...]) -> str:
    """The code of a joker laid on a route it does not pay: « joker_tunnels_and_ferries_only »."""
    return "joker_" + "_and_".join(kinds) + "_only"


def joker_wording(edition: Any) -> JokerWording:
    """How the sheets name the edition's joker and say where it pays."""
    kinds = joker_kinds(edition)
    return JokerWording(card=edition.joker.value, tunnels_only=kinds == ("tunnels",), kinds=kinds)


def least_jokers(edition: Any, route: Any) -> int:
    """The jokers a claim of ``route`` lays at least: the terms of the engine's ``least_jokers``."""
    return sum(mechanism.least_jokers(edition, route) for mechanism in used_by(edition))


def set_aside(edition: Any, route: Any) -> int:
    """The trains a claim of ``route`` takes besides its length: the terms of ``claim_trains``."""
    return sum(mechanism.set_aside(edition, route) for mechanism in used_by(edition))


def spared_trains(edition: Any, route: Any) -> int:
    """The trains a claim of ``route`` takes fewer while the ``spares_trains`` condition holds."""
    return sum(mechanism.spared_trains(edition, route) for mechanism in used_by(edition))


def claim_points(edition: Any, route: Any) -> int:
    """The points a claim of ``route`` scores besides the route's own."""
    return sum(mechanism.claim_points(edition, route) for mechanism in used_by(edition))


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
