"""Reading an engine's declared state (``STATE_FIELDS``) without knowing its mechanisms.

Each declaration says where ``to_dict()`` and ``observation()`` write a field, its shape and the
ids it ranges over (``compiler/mechanisms/state.py`` holds the vocabulary). The env's vector
(``play.env``) and the tests' invariants (``tests/engines.py``) read fields only through here.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any


def declared(engine: types.ModuleType, players: int) -> list[dict[str, Any]]:
    """The fields a game of `players` players keeps, in the engine's order."""
    return [field for field in engine.STATE_FIELDS if field.get("players", players) == players]


def ids(engine: types.ModuleType, field: dict[str, Any], key: str = "over") -> tuple[str, ...]:
    """The ids a field ranges over: listed, or the keys (the items) of the engine's table named."""
    over = field.get(key, ())
    if isinstance(over, str):
        return tuple(getattr(engine, over))
    return tuple(over)


def field_value(record: dict, field: dict[str, Any]) -> Any:
    """The field's value in a record (a state, an observation, a player's, a team's), None when absent."""
    value = record.get(field["key"])
    for step in field.get("path", ()):
        value = None if value is None else value.get(step)
    return value


def present(record: dict, field: dict[str, Any]) -> bool:
    """Whether the record (a state, a player's, a team's) writes the field at all."""
    value: Any = record
    for step in (field["key"], *field.get("path", ())):
        if not isinstance(value, dict) or step not in value:
            return False
        value = value[step]
    return True


def values(state: dict, field: dict[str, Any]) -> Iterator[tuple[int | None, list[int], Any]]:
    """Each place the field is kept, with its value: (index, seats, value) — a game field once
    (index None, every seat), a player's field per player, a team's per team (its seats)."""
    scope = field["scope"]
    if scope == "game":
        yield None, list(range(len(state["players"]))), field_value(state, field)
    elif scope == "player":
        for seat, player in enumerate(state["players"]):
            if present(player, field):
                yield seat, [seat], field_value(player, field)
    else:
        for index, team in enumerate(state.get("teams", [])):
            if present(team, field):
                yield index, list(team["players"]), field_value(team, field)


def measure(field: dict[str, Any], value: Any) -> int:
    """What a field adds to a total it is conserved in: a count itself, a tally's or a grid's
    numbers added up, a list's or a mapping's entries counted."""
    shape = field["shape"]
    if value is None:
        return 0
    if shape == "count":
        return int(value)
    if shape == "tally":
        return sum(value.values())
    if shape == "grid":
        return sum(sum(row.values()) for row in value.values())
    if shape == "numbers":
        return sum(len(numbers) for numbers in value.values())
    if shape == "piles":
        return sum(len(pile) for pile in value.values())
    if shape == "card":
        return 1
    return len(value)


def cards_shown(engine: types.ModuleType, observation: dict) -> dict[str, int]:
    """The train cards the declared fields hold where the observation shows them (a team's
    holder to its players, a card drawn blind to its drawer), by colour."""
    shown: dict[str, int] = {}
    for field in declared(engine, len(observation["players"])):
        if field.get("holds") != "cards":
            continue
        for _, _, value in values(observation, field):
            if field["shape"] == "card" and value is not None:
                shown[value] = shown.get(value, 0) + 1
            elif field["shape"] == "tally":
                for color, count in (value or {}).items():
                    shown[color] = shown.get(color, 0) + count
    return shown
