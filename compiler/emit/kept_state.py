"""The bookkeeping of the state fields the core keeps for a mechanism (issue 38, §1).

A mechanism that declares a field ``derived`` writes no slot, set-up, copy, ``to_dict``,
``from_dict``, ``observation`` or shape check of its own: the pure engine gets them from here,
one line per field and section, from the declaration alone. The field lives in one attribute
of the game (``_<key>``; ``_players_<key>`` for a player's field whose key a game field has
too; ``_team_<key>`` for a team's) in the form ``to_dict`` writes it (per player or team: a list
by seat or team; by index where declared ``indexed``, as the core keeps its own hands), so a
mechanism's rules read and change it there; a field kept only at some number of players is None
in other games.
Fields under one key's paths (a set of tokens each) share the key's attribute, a mapping from
each path to its field; choices of several kinds share one list (`kept_forms.Kept`).

What a shape means, and so what each section does with it, is one table (`kept_forms.SHAPES`);
the checks ``from_dict`` runs are the engine's `_check_*` helpers, printed only where a field
needs them (`kept_checks`); what a field's value means beyond its shape (a pending record's
cards held by the player) is still its mechanism's check, after these. The native core keeps
the same fields from the same declarations (`native_kept`), but those whose native form is
their mechanism's own (a tunnel's claim in its C fields, tokens by place and kind), which its
native part loads and writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mechanisms.state import Scope, Seen, Shape, StateField
from .kept_checks import KeptChecks
from .kept_forms import INDEX_TABLES, INDEXED, SHAPES, Kept, forms_of, kept_groups, type_of


@dataclass(frozen=True, slots=True)
class KeptState(KeptChecks):
    """The lines each section of the pure engine prints for the core-kept fields, in the order
    the mechanisms declare them."""

    @staticmethod
    def of(declared: list[StateField]) -> KeptState:
        kept = tuple(field for field in declared if field.derived)
        for field in kept:
            # Keys and phases become attribute names and words of messages: identifiers only (ids
            # from a spec reach the engine as literals, never as names).
            if field.keys and field.shape is not Shape.PENDING:
                raise ValueError(f"{field.key!r}: a pending record, and it alone, lists its keys")
            if field.shape is Shape.PENDING and not field.keys and not field.over:
                raise ValueError(f"{field.key!r}: a pending record lists its keys, or the ids it may be")
            if not field.key.isidentifier() or not (field.phase or "x").isidentifier():
                raise ValueError(
                    f"a kept field's key and phase are identifiers, not {field.key!r}, {field.phase!r}"
                )
            if (
                (field.shape not in SHAPES and not (field.indexed and field.shape in INDEXED))
                or (field.seen is Seen.SIZES and (field.shape, field.scope) != (Shape.PILES, Scope.GAME))
                or (field.shape is Shape.CHOICES and field.scope is not Scope.GAME)
            ):
                raise ValueError(
                    f"the core cannot keep {field.key!r} yet ({field.shape.value}, {field.scope.value})"
                )
        return KeptState(kept, kept_groups(kept))

    def constants(self) -> list[str]:
        """The ids of each field that lists its own (the others range over an engine's table);
        under paths or matched choices, a mapping from each path or set to them. A value
        printed once is named again by the constants that share it (a set's places)."""
        named: dict[str, str] = {}
        lines = []

        def constant(name: str, value: str) -> None:
            if value not in named:
                named[value] = name
                lines.append(f"{name} = {value}")
            else:
                lines.append(f"{name} = {named[value]}")

        for kept in self.groups:
            field = kept.field
            if field.shape is Shape.COUNT or (field.shape is Shape.PENDING and field.keys):
                continue
            tags = kept.paths or tuple(m.match[1] for m in kept.members if m.match)
            if tags:
                entries = ", ".join(
                    f"{tag!r}: {m.over if isinstance(m.over, str) else repr(tuple(m.over))}"
                    for tag, m in zip(tags, kept.members, strict=True)
                )
                constant(kept.constant("IDS"), f"{{{entries}}}")
                if field.shape is Shape.GRID:
                    entries = ", ".join(
                        f"{tag!r}: {tuple(m.by)!r}" for tag, m in zip(tags, kept.members, strict=True)
                    )
                    constant(kept.constant("BY"), f"{{{entries}}}")
                continue
            if not isinstance(field.over, str):
                constant(kept.constant("IDS"), repr(tuple(field.over)))
            if field.shape is Shape.GRID:
                constant(kept.constant("BY"), repr(tuple(field.by)))
        return lines

    def _value(self, kept: Kept, which: str, v: str) -> str:
        """The expression of a section's form of the attribute whose value is `v` (or, to load,
        the record's value `v`): a mapping from each path to its field's form, where there are paths."""
        if not kept.paths:
            return self._form(kept, kept.field, which, v)
        parts = []
        for member in kept.members:
            tag = repr(member.path[0])
            inner = f"({v} or {{}}).get({tag})" if which == "load" else f"{v}[{tag}]"
            parts.append(f"{tag}: {self._form(kept, member, which, inner)}")
        return "{" + ", ".join(parts) + "}"

    def _form(self, kept: Kept, field: StateField, which: str, v: str) -> str:
        forms = forms_of(field)
        text = (
            forms.positive
            if which == "record" and field.positive and forms.positive
            else getattr(forms, which)
        )
        keys = kept.choice_keys if field.shape is Shape.CHOICES else field.keys
        table, index = INDEX_TABLES.get(field.over, ("", "")) if isinstance(field.over, str) else ("", "")
        return text.format(
            ids=kept.ids(field),
            by=kept.by(field),
            start=field.start,
            keys=repr(keys),
            v=v,
            got=v,
            table=table,
            index=index,
        )

    @staticmethod
    def _size(kept: Kept, v: str) -> str:
        """What the others see of a field only its owner sees: its size, under `counted_as`."""
        size = forms_of(kept.field).size
        if size is None:
            raise ValueError(f"{kept.key!r}: the others see no size of a {kept.field.shape.value}")
        return size.format(v=v)

    @staticmethod
    def _got(kept: Kept, source: str) -> str:
        """The field's value in a record being loaded: a count absent is its start, else None."""
        field = kept.field
        if field.shape is Shape.COUNT:
            return f'{source}.get("{field.key}", {field.start})'
        return f'{source}.get("{field.key}")'

    # -- the Game's sections ------------------------------------------------------------------
    def slots(self) -> list[str]:
        return [f'"{kept.slot}",' for kept in self.groups]

    def init(self) -> list[str]:
        lines = []
        for kept in self.groups:
            field = kept.field
            empty = self._value(kept, "empty", "")
            kind = type_of(field)
            if kept.paths:
                kind = f"dict[str, {kind}]"
            if field.scope is not Scope.GAME:
                seats = "players" if field.scope is Scope.PLAYER else "players // TEAM_SIZE"
                scalar = field.shape is Shape.COUNT
                if scalar:
                    empty = f"[{empty}] * ({seats})" if " " in seats else f"[{empty}] * {seats}"
                else:
                    empty = f"[{empty} for _ in range({seats})]"
                kind = f"list[{kind}]"
            if field.players is not None:
                empty = f"{empty} if players == {field.players} else None"
                kind = f"{kind} | None"
            lines.append(f"self.{kept.slot}: {kind} = {empty}")
        return lines

    def copy(self) -> list[str]:
        lines = []
        for kept in self.groups:
            field, mine = kept.field, f"self.{kept.slot}"
            if field.scope is not Scope.GAME and field.shape is Shape.COUNT:
                copied = f"list({mine})"
            elif field.scope is not Scope.GAME:
                copied = f"[{self._value(kept, 'copy', 'value')} for value in {mine}]"
            else:
                copied = self._value(kept, "copy", mine)
            if field.players is not None:
                copied = f"None if {mine} is None else {copied}"
            lines.append(f"game.{kept.slot} = {copied}")
        return lines

    def record_player(self, seat: str = "player") -> list[str]:
        return [
            f'"{kept.key}": {self._value(kept, "record", f"self.{kept.slot}[{seat}]")},'
            for kept in self._of(Scope.PLAYER)
        ]

    def observe_player(self) -> list[str]:
        lines = [
            line
            for kept, line in zip(self._of(Scope.PLAYER), self.record_player("other"), strict=True)
            if kept.field.seen is Seen.ALL
        ]
        if self._of(Scope.TEAM):
            lines.append('"team": other // TEAM_SIZE,')  # whose team's record is `teams[team]`
        return lines + [
            f'"{kept.field.counted_as}": {self._size(kept, f"self.{kept.slot}[other]")},'
            for kept in self._of(Scope.PLAYER)
            if kept.field.counted_as is not None
        ]

    def observe_own(self) -> list[str]:
        return [
            f'record["{kept.key}"] = {self._value(kept, "record", f"self.{kept.slot}[other]")}'
            for kept in self._of(Scope.PLAYER)
            if kept.field.seen is Seen.OWNER
        ]

    def _record_game(self, into: str, seen_only: bool) -> list[str]:
        lines = []
        for kept in self._of(Scope.GAME):
            field, mine = kept.field, f"self.{kept.slot}"
            if seen_only and field.seen is Seen.SIZES:
                # Shown only as the size of each of its lists, under its own key.
                lines.append(
                    f'{into}["{field.shown_as}"] = {{item: len(pile) for item, pile in {mine}.items()}}'
                )
                continue
            if seen_only and field.seen is Seen.OWNER:
                # A game's field only its owner sees is the current player's (a card drawn blind).
                value = self._value(kept, "record", mine)
                lines.append(f'{into}["{field.key}"] = ({value}) if player == self._current else None')
                continue
            line = f'{into}["{field.key}"] = {self._value(kept, "record", mine)}'
            lines += [f"if {mine} is not None:", f"    {line}"] if field.players is not None else [line]
        return lines

    def record_state(self) -> list[str]:
        return self._record_game("state", seen_only=False) + self._record_teams("state", seen_only=False)

    def observe_state(self) -> list[str]:
        return self._record_game("seen", seen_only=True) + self._record_teams("seen", seen_only=True)

    def _record_teams(self, into: str, seen_only: bool) -> list[str]:
        """The teams' records, each with its seats: seen by all, or only the sizes of what its
        own team alone sees, which the observer's team's record then shows whole."""
        teams = self._of(Scope.TEAM)
        if not teams:
            return []
        parts = ['"players": list(range(team * TEAM_SIZE, (team + 1) * TEAM_SIZE))']
        own: list[Kept] = []
        for kept in teams:
            mine = f"self.{kept.slot}[team]"
            if seen_only and kept.field.seen is Seen.OWNER:
                own.append(kept)
                if kept.field.counted_as is not None:
                    parts.append(f'"{kept.field.counted_as}": {self._size(kept, mine)}')
            else:
                parts.append(f'"{kept.key}": {self._value(kept, "record", mine)}')
        lines = [f'{into}["teams"] = [{{{", ".join(parts)}}} for team in range(self.players // TEAM_SIZE)]']
        if own:
            lines.append(f'own_team = {into}["teams"][player // TEAM_SIZE]')
        for kept in own:
            value = self._value(kept, "record", f"self.{kept.slot}[player // TEAM_SIZE]")
            lines.append(f'own_team["{kept.key}"] = {value}')
        return lines

    def load_player(self) -> list[str]:
        return [
            f"game.{kept.slot}[player] = " + self._value(kept, "load", self._got(kept, "record"))
            for kept in self._of(Scope.PLAYER)
        ]

    def load_state(self) -> list[str]:
        lines = []
        if teams := self._of(Scope.TEAM):
            lines.append('for team, record in enumerate(state.get("teams", [])):')
            lines += [
                f"    game.{kept.slot}[team] = " + self._value(kept, "load", self._got(kept, "record"))
                for kept in teams
            ]
        for kept in self._of(Scope.GAME):
            line = f"game.{kept.slot} = " + self._value(kept, "load", self._got(kept, "state"))
            lines += (
                [f"if game.{kept.slot} is not None:", f"    {line}"]
                if kept.field.players is not None
                else [line]
            )
        return lines
