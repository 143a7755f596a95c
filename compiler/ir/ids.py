"""The readable, stable ids every stage agrees on: a city's slug, a route's or a ticket's id
from its ends (twins told apart by colour, else by rank).

Below the stages and the mechanisms alike: the front end names routes with them, the IR
builder assigns them, and a mechanism reads a merged document's ids with them.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from typing import Any

# Letters that no Unicode decomposition turns into ASCII ones (« København » is « kobenhavn »).
LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ß": "ss",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
    }
)


def slug(text: str) -> str:
    """``"Sault St. Marie"`` → ``"sault-st-marie"``: readable, stable, ASCII ids."""
    folded = unicodedata.normalize("NFKD", text.translate(LETTERS)).encode("ascii", "ignore").decode().lower()
    words = "".join(char if char.isalnum() else " " for char in folded).split()
    return "-".join(words) or "x"


def assign_ids(items: list[dict[str, Any]], *, by_color: bool) -> list[str]:
    """Ids from the endpoints (a ticket with targets: its place, then its targets');
    twins are told apart by colour, else by rank."""
    bases = [
        slug(item["a"])
        + "-"
        + slug(item.get("b") or " ".join(t.get("place", "") for t in item.get("target", [])))
        for item in items
    ]
    groups: dict[str, list[int]] = defaultdict(list)
    for index, base in enumerate(bases):
        groups[base].append(index)
    ids = list(bases)
    for members in groups.values():
        if len(members) < 2:
            continue
        colors = [items[index].get("color") for index in members]
        distinct = by_color and len(set(colors)) == len(colors)
        for rank, index in enumerate(members, start=1):
            ids[index] = f"{bases[index]}-{colors[rank - 1] if distinct else rank}"
    return [item.get("id") or generated for item, generated in zip(items, ids, strict=True)]
