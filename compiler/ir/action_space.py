"""The size of an engine's action index, in parts: what the cost check and the mechanisms
count with (``compiler.ir.cost`` adds the parts up, each mechanism says its own).

Below the mechanisms, so that they count their actions without the check that sums them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frontend.positions import Span

# Ten times the largest shipped edition (asia-equipes: 5,282 actions); an engine
# of this size loads in about a second and holds some 100 MB.
MAX_ACTIONS = 50_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Part:
    """The actions one statement of the spec puts in the index."""

    what: str  # French, as the message names it
    actions: int
    span: Span | None
    capped: bool = False  # counting stopped past the limit: there are more


def ways_to_pay(count: int, colors: int, least: int, jokers: bool, split: bool) -> int:
    """How many payments of `count` cards the engine lists (one colour, jokers completing;
    with `split`, each way to take them from the hand and the team's holder). Each step of
    the loop counts one action or more, so the callers' stop at the limit bounds it too."""
    top = count if jokers else min(1, count)
    if not split:
        per_color = max(0, top - least)
    else:
        per_color = 0
        for used in range(least, top):
            per_color += (count - used + 1) * (used + 1) if used else count + 1
    whole = (count + 1 if split else 1) if jokers and count else 0
    return colors * per_color + whole
