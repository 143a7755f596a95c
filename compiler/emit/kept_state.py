"""The bookkeeping of the state fields the core keeps for a mechanism (issue 38, §1).

A mechanism that declares a field ``derived`` writes no slot, set-up, copy, ``to_dict``,
``from_dict``, ``observation`` or shape check of its own: the pure engine gets them from here,
one line per field and section, from the declaration alone. The field lives in the attribute
``_<key>`` in the form ``to_dict`` writes it (per player: a list by seat), so a mechanism's rules
read and change it there; a field kept only at some number of players is None in other games.

What a shape means, and so what each section does with it, is the one table below (`_SHAPES`);
the checks ``from_dict`` runs are the engine's `_check_*` helpers, printed only where a field
needs them; what a field's value means beyond its shape (a pending record's cards held by the
player) is still its mechanism's check, after these. The native core keeps the same fields
from the same declarations (`native_kept`), but a pending record, whose native form is the
mechanism's own (a tunnel's claim in its C fields), which its native part loads and writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mechanisms.state import Scope, Seen, Shape, StateField


@dataclass(frozen=True, slots=True)
class _Forms:
    """How a shape is kept: its empty value, a copy, its record, its load from a record's value
    (``{v}`` the value, ``{ids}`` the ids it ranges over, ``{key}`` the field's key)."""

    empty: str
    copy: str
    record: str
    load: str  # from ``{got}``, the record's value or None when absent (a count: ``{start}`` then)
    check: str  # the engine's helper that checks a record's value


_SHAPES: dict[Shape, _Forms] = {
    Shape.COUNT: _Forms("{start}", "{v}", "{v}", "{got}", "_check_count"),
    Shape.IDS: _Forms("[]", "list({v})", "list({v})", "list({got} or [])", "_check_ids"),
    Shape.TALLY: _Forms(
        "dict.fromkeys({ids}, 0)",
        "dict({v})",
        "dict({v})",
        "{{**dict.fromkeys({ids}, 0), **({got} or {{}})}}",
        "_check_tally",
    ),
    Shape.NUMBERS: _Forms(
        "{{item: [] for item in {ids}}}",
        "{{item: list(numbers) for item, numbers in {v}.items()}}",
        "{{item: list(numbers) for item, numbers in {v}.items() if numbers}}",
        "{{item: list(({got} or {{}}).get(item, [])) for item in {ids}}}",
        "_check_numbers",
    ),
    # Holders are recorded in the order of their ids, whatever order they were taken in: the
    # same state reads the same, in either engine (the native one keeps a seat per id).
    Shape.HOLDERS: _Forms(
        "{{}}",
        "dict({v})",
        "{{item: {v}[item] for item in {ids} if item in {v}}}",
        "dict({got} or {{}})",
        "_check_holders",
    ),
    # A record waiting to be settled (a tunnel's claim), None when nothing waits: its own lists
    # and mappings copied, so that no copy or record shares them (`_pending_copy`).
    Shape.PENDING: _Forms(
        "None",
        "_pending_copy({v}, {keys})",
        "_pending_copy({v}, {keys})",
        "_pending_copy({got}, {keys})",
        "_check_pending",
    ),
    # Piles of tickets, top first, hidden but their sizes (a second deck of tickets).
    Shape.PILES: _Forms(
        "{{item: [] for item in {ids}}}",
        "{{item: list(pile) for item, pile in {v}.items()}}",
        "{{item: list(pile) for item, pile in {v}.items()}}",
        "{{item: list(({got} or {{}}).get(item, [])) for item in {ids}}}",
        "_check_piles",
    ),
}


# The type of each shape as the engine keeps it (ids are the ids' strings).
_TYPES = {
    Shape.COUNT: "int",
    Shape.IDS: "list[str]",
    Shape.TALLY: "dict[str, int]",
    Shape.NUMBERS: "dict[str, list[int]]",
    Shape.HOLDERS: "dict[str, int]",
    Shape.PENDING: "dict[str, Any] | None",
    Shape.PILES: "dict[str, list[str]]",
}


def _positive_record(v: str) -> str:
    return f"{{item: number for item, number in {v}.items() if number}}"


@dataclass(frozen=True, slots=True)
class KeptState:
    """The lines each section of the pure engine prints for the core-kept fields, in the order
    the mechanisms declare them."""

    fields: tuple[StateField, ...]

    @staticmethod
    def of(declared: list[StateField]) -> KeptState:
        kept = tuple(field for field in declared if field.derived)
        for field in kept:
            # Keys and phases become attribute names and words of messages: identifiers only (ids
            # from a spec reach the engine as literals, never as names).
            if (field.shape is Shape.PENDING) != bool(field.keys):
                raise ValueError(f"{field.key!r}: a pending record, and it alone, lists its keys")
            if not field.key.isidentifier() or not (field.phase or "x").isidentifier():
                raise ValueError(
                    f"a kept field's key and phase are identifiers, not {field.key!r}, {field.phase!r}"
                )
            if (
                field.shape not in _SHAPES
                or field.path
                or field.scope is Scope.TEAM
                or (field.seen is Seen.SIZES and (field.shape, field.scope) != (Shape.PILES, Scope.GAME))
            ):
                raise ValueError(
                    f"the core cannot keep {field.key!r} yet ({field.shape.value}, {field.scope.value})"
                )
        return KeptState(kept)

    def _of(self, scope: Scope) -> tuple[StateField, ...]:
        return tuple(field for field in self.fields if field.scope is scope)

    @staticmethod
    def _ids(field: StateField) -> str:
        """The ids a field ranges over: the engine's table, or the constant listing them."""
        return field.over if isinstance(field.over, str) else f"_{field.key.upper()}_IDS"

    def constants(self) -> list[str]:
        """The ids of each field that lists its own (the others range over an engine's table)."""
        return [
            f"{self._ids(field)} = {tuple(field.over)!r}"
            for field in self.fields
            if not isinstance(field.over, str) and field.shape not in (Shape.COUNT, Shape.PENDING)
        ]

    def _form(self, field: StateField, which: str, **values: str) -> str:
        text = getattr(_SHAPES[field.shape], which)
        if which == "record" and field.positive:
            text = _positive_record("{v}")
        return text.format(
            ids=self._ids(field), key=field.key, start=field.start, keys=repr(field.keys), **values
        )

    @staticmethod
    def _got(field: StateField, source: str) -> str:
        """The field's value in a record being loaded: a count absent is its start, else None."""
        if field.shape is Shape.COUNT:
            return f'{source}.get("{field.key}", {field.start})'
        return f'{source}.get("{field.key}")'

    def _only_some(self, field: StateField, value: str, players: str = "players") -> str:
        return value if field.players is None else f"{value} if {players} == {field.players} else None"

    # -- the Game's sections ------------------------------------------------------------------
    def slots(self) -> list[str]:
        return [f'"_{field.key}",' for field in self.fields]

    def init(self) -> list[str]:
        lines = []
        for field in self.fields:
            empty = self._form(field, "empty")
            if field.scope is Scope.PLAYER:
                scalar = field.shape is Shape.COUNT
                empty = f"[{empty}] * players" if scalar else f"[{empty} for _ in range(players)]"
            kind = _TYPES[field.shape]
            if field.scope is Scope.PLAYER:
                kind = f"list[{kind}]"
            if field.players is not None:
                kind = f"{kind} | None"
            lines.append(f"self._{field.key}: {kind} = {self._only_some(field, empty)}")
        return lines

    def copy(self) -> list[str]:
        lines = []
        for field in self.fields:
            mine = f"self._{field.key}"
            if field.scope is Scope.PLAYER and field.shape is Shape.COUNT:
                copied = f"list({mine})"
            elif field.scope is Scope.PLAYER:
                copied = f"[{self._form(field, 'copy', v='value')} for value in {mine}]"
            else:
                copied = self._form(field, "copy", v=mine)
            if field.players is not None:
                copied = f"None if {mine} is None else {copied}"
            lines.append(f"game._{field.key} = {copied}")
        return lines

    def record_player(self, seat: str = "player") -> list[str]:
        return [
            f'"{field.key}": {self._form(field, "record", v=f"self._{field.key}[{seat}]")},'
            for field in self._of(Scope.PLAYER)
        ]

    def observe_player(self) -> list[str]:
        return [
            line
            for field, line in zip(self._of(Scope.PLAYER), self.record_player("other"), strict=True)
            if field.seen is Seen.ALL
        ]

    def observe_own(self) -> list[str]:
        return [
            f'record["{field.key}"] = {self._form(field, "record", v=f"self._{field.key}[other]")}'
            for field in self._of(Scope.PLAYER)
            if field.seen is Seen.OWNER
        ]

    def _record_game(self, into: str, seen_only: bool) -> list[str]:
        lines = []
        for field in self._of(Scope.GAME):
            mine = f"self._{field.key}"
            if seen_only and field.seen is Seen.SIZES:
                # Shown only as the size of each of its lists, under its own key.
                lines.append(
                    f'{into}["{field.shown_as}"] = {{item: len(pile) for item, pile in {mine}.items()}}'
                )
                continue
            if seen_only and field.seen is not Seen.ALL:
                continue
            line = f'{into}["{field.key}"] = {self._form(field, "record", v=mine)}'
            lines += [f"if {mine} is not None:", f"    {line}"] if field.players is not None else [line]
        return lines

    def record_state(self) -> list[str]:
        return self._record_game("state", seen_only=False)

    def observe_state(self) -> list[str]:
        return self._record_game("seen", seen_only=True)

    def load_player(self) -> list[str]:
        return [
            f"game._{field.key}[player] = " + self._form(field, "load", got=self._got(field, "record"))
            for field in self._of(Scope.PLAYER)
        ]

    def load_state(self) -> list[str]:
        lines = []
        for field in self._of(Scope.GAME):
            line = f"game._{field.key} = " + self._form(field, "load", got=self._got(field, "state"))
            lines += (
                [f"if game._{field.key} is not None:", f"    {line}"] if field.players is not None else [line]
            )
        return lines

    def _conserved(self) -> list[str]:
        """Each group of counts that always add up to the same total (a deck between a pile and
        the hands), where the core keeps every count of the group."""
        groups: dict[tuple[str, int], list[StateField]] = {}
        for field in self.fields:
            if field.conserved is not None:
                groups.setdefault(field.conserved, []).append(field)
        lines = []
        for (_, total), members in groups.items():
            if any(field.shape not in (Shape.COUNT, Shape.HOLDERS) for field in members):
                raise ValueError(f"the core adds up only counts and holders, not {[f.key for f in members]}")
            terms = [
                f'len(state.get("{field.key}") or {{}})'
                if field.shape is Shape.HOLDERS
                else f'state.get("{field.key}", {field.start})'
                if field.scope is Scope.GAME
                else f'sum(record.get("{field.key}", {field.start}) for record in players)'
                for field in members
            ]
            named = " et ".join(field.key for field in members)
            lines += [
                f"conserved = {' + '.join(terms)}",
                f"if conserved != {total}:",
                f'    _invalid(f"{named} font {{conserved}}, quand ils doivent faire {total}")',
            ]
        return lines

    def _spaces(self) -> list[str]:
        """A player's count that is the spaces of the routes a holders field gives them."""
        lines = []
        for field in self._of(Scope.PLAYER):
            if field.spaces_of is None:
                continue
            lines += [
                "seat_spaces = [0] * count",
                f'for route, seat in (state.get("{field.spaces_of}") or {{}}).items():',
                '    seat_spaces[seat] += ROUTES[route]["length"]',
                "for index, record in enumerate(players):",
                f'    if record.get("{field.key}", {field.start}) != seat_spaces[index]:',
                f'        _invalid(f"players[{{index}}].{field.key} doit valoir {{seat_spaces[index]}}, les cases de ses routes dans {field.spaces_of}")',
            ]
        return lines

    # -- from_dict's checks ------------------------------------------------------------------
    def check_helpers(self) -> set[str]:
        """The engine's `_check_*` helpers the fields need (the others are not printed)."""
        return {_SHAPES[field.shape].check for field in self.fields}

    def _check(self, field: StateField, value: str, where: str) -> str:
        bound = field.at_most
        if field.shape is Shape.NUMBERS:
            tally = next(other for other in self.fields if other.key == field.numbered_by)
            bound = tally.at_most
            extra = f", numbered_{field.numbered_by}"
        elif field.shape is Shape.COUNT:
            return f"{_SHAPES[field.shape].check}({value}, {where}, {bound!r})"
        elif field.shape is Shape.PENDING:
            return f"{_SHAPES[field.shape].check}({value}, {where})"
        elif field.shape is Shape.PILES:
            return f"{_SHAPES[field.shape].check}({value}, {where}, {self._ids(field)})"
        elif field.shape is Shape.HOLDERS:
            return f"{_SHAPES[field.shape].check}({value}, {where}, {self._ids(field)}, count)"
        else:
            extra = f", {field.unique}" if field.shape is Shape.IDS else ""
        return f"{_SHAPES[field.shape].check}({value}, {where}, {self._ids(field)}, {bound!r}{extra})"

    def check_start(self) -> list[str]:
        """Before the players' records: the numbers seen so far of each numbered field, and the
        ids held so far of each list whose ids are held once across the players."""
        return [
            f"numbered_{field.key}: dict[str, set[int]] = {{item: set() for item in {self._ids(field)}}}"
            for field in self.fields
            if any(other.numbered_by == field.key for other in self.fields)
        ] + [f"held_{field.key}: set[str] = set()" for field in self._held_once()]

    def _held_once(self) -> tuple[StateField, ...]:
        return tuple(field for field in self._of(Scope.PLAYER) if field.shape is Shape.IDS and field.unique)

    def check_player(self) -> list[str]:
        lines = []
        for field in self._of(Scope.PLAYER):
            lines.append(self._check(field, f'record.get("{field.key}")', f'f"{{where}}.{field.key}"'))
            if field in self._held_once():
                lines += [
                    f'for item in record.get("{field.key}") or []:',
                    f"    if item in held_{field.key}:",
                    f'        _invalid(f"deux joueurs ont {{item!r}} dans {field.key}")',
                    f"    held_{field.key}.add(item)",
                ]
        return lines

    def check_end(self) -> list[str]:
        lines = []
        for field in self._of(Scope.GAME):
            got = f'state.get("{field.key}")'
            if field.players is not None:
                lines += [
                    f'if count != {field.players} and "{field.key}" in state:',
                    f'    _invalid("{field.key} n’existe qu’à {field.players} joueurs")',
                ]
            lines.append(self._check(field, got, repr(field.key)))
            if field.never_owned:
                lines += [
                    f"for item in {got} or {{}}:",
                    "    if item in owners:",
                    f'        _invalid(f"{{item}} est à la fois dans {field.key} et parmi les routes d’un joueur")',
                ]
            if field.phase is not None:
                # A pending record waits; a list of choices is not empty.
                said = "attend" if field.shape is Shape.PENDING else "n’est pas vide"
                lines += [
                    f"if (phase == {field.phase!r}) != bool({got}):",
                    f'    _invalid("{field.key} {said} si et seulement si la phase est {field.phase}")',
                ]
        lines += self._conserved() + self._spaces()
        for field in self.fields:
            if any(other.numbered_by == field.key for other in self.fields):
                taken = f'(state.get("{field.key}") or {{}}).get(item, 0)'
                lines += [
                    f"for item, numbers in numbered_{field.key}.items():",
                    f"    if numbers and max(numbers) > {taken}:",
                    f'        _invalid(f"le numéro {{max(numbers)}} de {{item}} est détenu, mais {field.key} n’en compte que {{{taken}}}")',
                ]
        return lines
