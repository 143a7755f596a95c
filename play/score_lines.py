"""A player's score, line by line, as the engine declares its parts (``SCORE_LINES``): the core's
(routes, tickets done and failed, each bonus) and each mechanism's, in French; the lines add up
to the total. The play page's end of game and the balance report read scores only through here.
"""

from __future__ import annotations

import types
from typing import Any


def _total(value: Any) -> int:
    """The numbers of a mapping (or a list) added up, however deep."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, dict):
        return sum(_total(inner) for inner in value.values())
    if isinstance(value, list):
        return sum(_total(inner) for inner in value)
    return 0


def line_points(line: dict[str, Any], score: dict[str, Any]) -> int:
    """The points a declared line gives one `scores()` record (0 where the record has none)."""
    value: Any = score
    for step in line["path"]:
        value = value.get(step) if isinstance(value, dict) else None
    if value is None:
        return 0
    reads = line["reads"]
    if reads == "points":
        points = int(value)
    elif reads == "sum":
        points = _total(value)
    else:  # "each": the points of each entry
        entries = value.values() if isinstance(value, dict) else value
        points = sum(int(entry.get("points", 0)) for entry in entries)
    return line.get("sign", 1) * points


def breakdown(engine: types.ModuleType, score: dict[str, Any]) -> list[tuple[str, int]]:
    """(label, points) for each declared line of the score, in the engine's order."""
    return [(line["label"], line_points(line, score)) for line in engine.SCORE_LINES]
