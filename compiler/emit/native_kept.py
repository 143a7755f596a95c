"""The state fields the core keeps for a mechanism, in the native core (issue 38, §1 and §2).

A field declared ``derived`` lives in the pure engine in its attribute (``_<key>``), in the form
``to_dict`` writes it (`kept_state`). The native core keeps the same field in its ``State``
struct, under the same key, in C arrays: a count as an ``int`` (one per seat for a player's);
a list of ids as their places in the ids' table, with ``<key>_count`` its length; a tally as
one number per id; holders as one seat per id (-1: nobody); numbers as a list of them per id
(``<key>_count`` their lengths), as many room as the most the tally numbering them counts. A
field kept only at some player counts is there in every game's struct, read and written where
the pure engine keeps it (None in other games). From the declaration alone it
reads the field from the pure game (``Game.load``) and writes it back (``_write``), so a
mechanism's native parts keep only their rules and what they derive from the field. A game the
native core deals itself (``set_up``) starts each field as the pure engine's ``__init__`` does.

The shapes a native field may not have yet (piles, choices, records, a card) are refused at
build time, by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mechanisms.state import Scope, Shape, StateField

# The native core's count of the ids of each of the pure engine's tables a field may range over.
_TABLE_SIZES = {
    "CITIES": "CITY_COUNT",
    "TICKETS": "TICKET_COUNT",
    "ROUTES": "ROUTE_COUNT",
    "COLORS": "COLOR_COUNT",
}
_NATIVE_SHAPES = (Shape.COUNT, Shape.IDS, Shape.TALLY, Shape.HOLDERS, Shape.NUMBERS)


@dataclass(frozen=True, slots=True)
class NativeKept:
    """The lines each section of the native core prints for the core-kept fields."""

    fields: tuple[StateField, ...]

    @staticmethod
    def of(fields: tuple[StateField, ...]) -> NativeKept:
        for field in fields:
            scopes = (Scope.PLAYER, Scope.GAME) if field.shape is not Shape.HOLDERS else (Scope.GAME,)
            if field.shape not in _NATIVE_SHAPES or field.scope not in scopes:
                raise ValueError(
                    f"the native core cannot keep {field.key!r} yet ({field.shape.value}, {field.scope.value})"
                )
            if not isinstance(field.over, str) and field.shape is not Shape.COUNT and not field.over:
                raise ValueError(f"{field.key!r} ranges over no ids")
        kept = NativeKept(fields)
        for field in fields:
            if isinstance(field.over, str) and field.shape is not Shape.COUNT:
                kept._table_size(field.over)  # known: a table of the core's, or one a field names
        for field in fields:
            if field.shape is Shape.NUMBERS:
                kept._numbers_room(field)  # a numbered field's tally is declared, with its bounds
        return kept

    @staticmethod
    def _ids(field: StateField) -> str:
        """The module constant listing the field's ids in their native places."""
        return f"_{field.key.upper()}_NATIVE_IDS"

    def _table_size(self, table: str) -> str:
        """The count of a pure engine's table's ids: the core's by its constant, a mechanism's
        by a field over it that names each id (or bounds each)."""
        if table in _TABLE_SIZES:
            return _TABLE_SIZES[table]
        for field in self.fields:
            if field.over == table and (field.names or isinstance(field.at_most, tuple)):
                return str(len(field.names or field.at_most))  # type: ignore[arg-type]
        raise ValueError(f"no field says how many ids {table} holds")

    def _id_count(self, field: StateField) -> str:
        return self._table_size(field.over) if isinstance(field.over, str) else str(len(field.over))

    def _numbers_room(self, field: StateField) -> str:
        """How many numbers one id of a numbered field may hold: the most its tally counts."""
        tally = next((other for other in self.fields if other.key == field.numbered_by), None)
        if tally is None or tally.at_most is None:
            raise ValueError(f"{field.key!r} is numbered by no tally with bounds ({field.numbered_by!r})")
        return str(max(tally.at_most) if isinstance(tally.at_most, tuple) else tally.at_most)

    def _room(self, field: StateField) -> str:
        """How many ids a list may hold: its bound, else every id once."""
        if isinstance(field.at_most, int):
            return str(field.at_most)
        return self._id_count(field)

    def tables(self) -> list[str]:
        """Module constants: each field's ids in their native places, and the place of each."""
        lines = []
        for field in self.fields:
            if field.shape is Shape.COUNT:
                continue
            ids = f"_pure.{field.over}" if isinstance(field.over, str) else repr(tuple(field.over))
            lines += [
                f"{self._ids(field)} = tuple({ids})",
                f"_{field.key.upper()}_PLACE = {{item: place for place, item in enumerate({self._ids(field)})}}",
            ]
        return lines

    def state(self) -> list[str]:
        """Fields of the ``State`` struct."""
        lines = []
        for field in self.fields:
            seats = "[PLAYERS_MOST]" if field.scope is Scope.PLAYER else ""
            if field.shape is Shape.COUNT:
                lines.append(f"int {field.key}{seats}")
            elif field.shape is Shape.IDS:
                lines += [f"int {field.key}{seats}[{self._room(field)}]", f"int {field.key}_count{seats}"]
            elif field.shape is Shape.TALLY:
                lines.append(f"int {field.key}{seats}[{self._id_count(field)}]")
            elif field.shape is Shape.NUMBERS:
                ids = self._id_count(field)
                lines += [
                    f"int {field.key}{seats}[{ids}][{self._numbers_room(field)}]",
                    f"int {field.key}_count{seats}[{ids}]",
                ]
            else:  # holders: one seat per id
                lines.append(f"int {field.key}[{self._id_count(field)}]")
        return lines

    def set_up(self) -> list[str]:
        """In ``set_up``, once the struct is zeroed: each field as a new game has it (a count at
        its start, nobody holding anything; no ids, an empty tally: the zeroed struct's)."""
        lines = []
        for field in self.fields:
            if field.shape is Shape.COUNT and field.start:
                if field.scope is Scope.PLAYER:
                    lines += [
                        "for player in range(players):",
                        f"    self.s.{field.key}[player] = {field.start}",
                    ]
                else:
                    lines.append(f"self.s.{field.key} = {field.start}")
            elif field.shape is Shape.HOLDERS:
                lines += [
                    f"for index in range({self._id_count(field)}):",
                    f"    self.s.{field.key}[index] = -1",
                ]
        return lines

    def _load_one(self, field: StateField, value: str, seat: str) -> list[str]:
        """The field's `value` in the pure game read into the struct (`seat`: "[player]" or "")."""
        key, place = f"self.s.{field.key}", f"_{field.key.upper()}_PLACE"
        if field.shape is Shape.COUNT:
            return [f"{key}{seat} = {value}"]
        if field.shape is Shape.IDS:
            return [
                f"{key}_count{seat} = _room({value}, {self._room(field)})",
                f"for index, item in enumerate({value}):",
                f"    {key}{seat}[index] = {place}[item]",
            ]
        if field.shape is Shape.TALLY:
            return [f"for item, number in {value}.items():", f"    {key}{seat}[{place}[item]] = number"]
        if field.shape is Shape.NUMBERS:
            return [
                f"for item, numbers in {value}.items():",
                f"    {key}_count{seat}[{place}[item]] = _room(numbers, {self._numbers_room(field)})",
                "    for index, number in enumerate(numbers):",
                f"        {key}{seat}[{place}[item]][index] = number",
            ]
        return [
            f"for index in range({self._id_count(field)}):",
            f"    {key}[index] = -1",
            f"for item, holder in {value}.items():",
            f"    {key}[{place}[item]] = holder",
        ]

    def load(self) -> list[str]:
        """In ``Game.load``, once the struct is zeroed: each field read from the pure ``game``
        (a field kept only at some player counts, where the game keeps it)."""
        lines = []
        for field in self.fields:
            if field.scope is Scope.PLAYER:
                body = self._load_one(field, f"game._{field.key}[player]", "[player]")
                body = ["for player in range(self.s.players):", *(f"    {line}" for line in body)]
            else:
                body = self._load_one(field, f"game._{field.key}", "")
            if field.players is not None:
                body = [f"if game._{field.key} is not None:", *(f"    {line}" for line in body)]
            lines += body
        return lines

    def _written(self, field: StateField, seat: str) -> str:
        """The field in the struct as the pure game keeps it (`seat`: "[player]" or "")."""
        ids, key = self._ids(field), f"core.s.{field.key}"
        if field.shape is Shape.COUNT:
            return f"{key}{seat}"
        if field.shape is Shape.IDS:
            return f"[{ids}[{key}{seat}[index]] for index in range({key}_count{seat})]"
        if field.shape is Shape.TALLY:
            kept = f" if {key}{seat}[place]" if field.positive else ""
            return f"{{item: {key}{seat}[place] for place, item in enumerate({ids}){kept}}}"
        if field.shape is Shape.NUMBERS:
            numbers = f"[{key}{seat}[place][index] for index in range({key}_count{seat}[place])]"
            return f"{{item: {numbers} for place, item in enumerate({ids})}}"
        return f"{{item: {key}[place] for place, item in enumerate({ids}) if {key}[place] >= 0}}"

    def write(self) -> list[str]:
        """In ``_write``: each field written back into the pure ``game``, in its form there."""
        lines = []
        for field in self.fields:
            if field.scope is Scope.PLAYER:
                value = f"[{self._written(field, '[player]')} for player in range(core.s.players)]"
            else:
                value = self._written(field, "")
            if field.players is not None:
                value = f"{value} if core.s.players == {field.players} else None"
            lines.append(f"game._{field.key} = {value}")
        return lines
