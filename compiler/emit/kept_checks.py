"""from_dict's checks of the state fields the core keeps for a mechanism (issue 38, §1).

Printed into the engine's ``_check_state`` from the declarations alone, before the mechanisms'
own checks (`_check_fields`): each field's shape (the engine's `_check_*` helper for it), a list
of ids held once across the players, a choice or record present exactly in its phase, the totals
a group of fields conserves, a count that is the spaces of the routes a field gives its seat,
and numbered items' numbers within the tally that numbers them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mechanisms.state import Scope, Shape, StateField
from .kept_forms import Kept, forms_of


@dataclass(frozen=True, slots=True)
class KeptChecks:
    """The kept fields and their attributes, and the lines ``_check_state`` prints for them;
    `KeptState` adds the other sections."""

    fields: tuple[StateField, ...]
    groups: tuple[Kept, ...]

    def _of(self, scope: Scope) -> tuple[Kept, ...]:
        return tuple(kept for kept in self.groups if kept.field.scope is scope)

    def check_helpers(self) -> set[str]:
        """The engine's `_check_*` helpers the fields need (the others are not printed)."""
        found = {forms_of(field).check for field in self.fields}
        return found | ({"_check_keys"} if any(kept.paths for kept in self.groups) else set())

    def _kept_of(self, field: StateField) -> Kept:
        return next(kept for kept in self.groups if field in kept.members)

    def _check(self, kept: Kept, field: StateField, value: str, where: str) -> str:
        helper, bound, extra = forms_of(field).check, field.at_most, ""
        if field.shape is Shape.NUMBERS:
            tally = next(other for other in self.fields if other.key == field.numbered_by)
            bound = tally.at_most
            extra = f", numbered_{field.numbered_by}"
        elif field.shape is Shape.COUNT:
            return f"{helper}({value}, {where}, {bound!r})"
        elif field.shape is Shape.PENDING and not field.keys:
            return f"{helper}({value}, {where}, {kept.ids(field)})"
        elif field.shape in (Shape.PENDING, Shape.CARD):
            return f"{helper}({value}, {where})"
        elif field.shape is Shape.PILES:
            return f"{helper}({value}, {where}, {kept.ids(field)})"
        elif field.shape is Shape.HOLDERS:
            return f"{helper}({value}, {where}, {kept.ids(field)}, count)"
        elif field.shape is Shape.GRID:
            return f"{helper}({value}, {where}, {kept.ids(field)}, {kept.by(field)}, {bound!r})"
        elif field.shape is Shape.CHOICES:
            return f"{helper}({value}, {where}, {kept.choice_keys!r}, {kept.constant('IDS')})"
        elif field.shape is Shape.IDS:
            extra = f", {field.unique}"
        return f"{helper}({value}, {where}, {kept.ids(field)}, {bound!r}{extra})"

    def _checks(self, kept: Kept, value: str, where: str) -> list[str]:
        """The checks of an attribute's value in a record: its paths' mapping, then each member."""
        if kept.field.shape is Shape.CHOICES or not kept.paths:
            return [self._check(kept, kept.field, value, where), *self._held(kept.field, value)]
        lines = [f"_check_keys({value}, {where}, {kept.paths!r})"]
        for member in kept.members:
            tag = repr(member.path[0])
            # The path is a spec's id: it reaches the message as a literal, never pasted.
            inner_where = f'{where} + "." + {tag}'
            lines.append(self._check(kept, member, f"({value} or {{}}).get({tag})", inner_where))
        return lines

    @staticmethod
    def _held(field: StateField, value: str) -> list[str]:
        """What a field holds, counted with the core's: its train cards with the others in play,
        its tickets once in the whole state. Piles are their mechanism's to count: which pile a
        ticket lies in is its rule."""
        if field.holds == "cards" and field.shape is Shape.TALLY:
            return [
                f"for color, held in ({value} or {{}}).items():",
                "    cards[_COLOR_INDEX[color]] += held",
            ]
        if field.holds == "cards" and field.shape is Shape.CARD:
            return [f"if {value} is not None:", f"    cards[_COLOR_INDEX[{value}]] += 1"]
        if field.holds == "tickets" and field.shape is Shape.IDS:
            return [f"for ticket in {value} or []:", "    _once(ticket, tickets)"]
        if field.holds is not None and field.shape is not Shape.PILES:
            raise ValueError(
                f"{field.key!r}: the core counts the cards of a tally or a card, the tickets of ids"
            )
        return []

    def check_start(self) -> list[str]:
        """Before the players' records: the numbers seen so far of each numbered field, and the
        ids held so far of each list whose ids are held once across the players."""
        return [
            f"numbered_{field.key}: dict[str, set[int]] = {{item: set() for item in {self._kept_of(field).ids(field)}}}"
            for field in self.fields
            if any(other.numbered_by == field.key for other in self.fields)
        ] + [f"held_{kept.key}: set[str] = set()" for kept in self._held_once()]

    def _held_once(self) -> tuple[Kept, ...]:
        return tuple(
            kept for kept in self._of(Scope.PLAYER) if kept.field.shape is Shape.IDS and kept.field.unique
        )

    def check_player(self) -> list[str]:
        lines = []
        for kept in self._of(Scope.PLAYER):
            key = kept.key
            lines += self._checks(kept, f'record.get("{key}")', f'f"{{where}}.{key}"')
            if kept in self._held_once():
                lines += [
                    f'for item in record.get("{key}") or []:',
                    f"    if item in held_{key}:",
                    f'        _invalid(f"deux joueurs ont {{item!r}} dans {key}")',
                    f"    held_{key}.add(item)",
                ]
        return lines

    def check_end(self) -> list[str]:
        lines = []
        for kept in self._of(Scope.GAME):
            field = kept.field
            got = f'state.get("{field.key}")'
            if field.players is not None:
                lines += [
                    f'if count != {field.players} and "{field.key}" in state:',
                    f'    _invalid("{field.key} n’existe qu’à {field.players} joueurs")',
                ]
            lines += self._checks(kept, got, repr(field.key))
            if field.never_owned:
                lines += [
                    f"for item in {got} or {{}}:",
                    "    if item in owners:",
                    f'        _invalid(f"{{item}} est à la fois dans {field.key} et parmi les routes d’un joueur")',
                ]
            if field.phase is not None:
                # A pending record or a card waits; a list of choices is not empty.
                said = "attend" if field.shape in (Shape.PENDING, Shape.CARD) else "n’est pas vide"
                lines += [
                    f"if (phase == {field.phase!r}) != bool({got}):",
                    f'    _invalid("{field.key} {said} si et seulement si la phase est {field.phase}")',
                ]
        lines += self._check_teams() + self._conserved() + self._spaces()
        for field in self.fields:
            if any(other.numbered_by == field.key for other in self.fields):
                taken = f'(state.get("{field.key}") or {{}}).get(item, 0)'
                lines += [
                    f"for item, numbers in numbered_{field.key}.items():",
                    f"    if numbers and max(numbers) > {taken}:",
                    f'        _invalid(f"le numéro {{max(numbers)}} de {{item}} est détenu, mais {field.key} n’en compte que {{{taken}}}")',
                ]
        return lines

    def _check_teams(self) -> list[str]:
        """The teams' records: one per TEAM_SIZE consecutive seats, each naming its seats."""
        teams = self._of(Scope.TEAM)
        if not teams:
            return []
        lines = [
            'teams = state.get("teams")',
            "if not isinstance(teams, list) or len(teams) != count // TEAM_SIZE:",
            '    _invalid(f"teams doit être une liste de {count // TEAM_SIZE} équipes")',
            "for team, record in enumerate(teams):",
            '    where = f"teams[{team}]"',
            "    seats = list(range(team * TEAM_SIZE, (team + 1) * TEAM_SIZE))",
            '    if not isinstance(record, dict) or record.get("players") != seats:',
            '        _invalid(f"{where} doit être un dict dont les joueurs sont {seats}")',
        ]
        for kept in teams:
            key = kept.key
            lines += [
                f"    {line}" for line in self._checks(kept, f'record.get("{key}")', f'f"{{where}}.{key}"')
            ]
        return lines

    def _conserved(self) -> list[str]:
        """Each group of counts that always add up to the same total (a deck between a pile and
        the hands, tokens between the board and the players), where the core keeps every
        count of the group."""
        groups: dict[tuple[str, int], list[StateField]] = {}
        for field in self.fields:
            if field.conserved is not None:
                groups.setdefault(field.conserved, []).append(field)
        lines = []
        for (_, total), members in groups.items():
            terms = [self._term(field) for field in members]
            # Pieces counted by place or kind (tokens) may be left in the box by a position
            # written by hand, as cards may: at most the total. A count or holders cannot.
            exact = all(field.shape in (Shape.COUNT, Shape.HOLDERS) for field in members)
            bound = f"{total}" if exact else f"au plus {total}"
            names = [
                ("players[…]." if field.path and field.scope is Scope.PLAYER else "")
                + ".".join((field.key, *field.path))
                for field in members
            ]
            if any(field.path for field in members):
                # Paths are a spec's ids: the message is a literal, never pasted.
                said = f'{" et ".join(names)!r} + f" font {{conserved}}, quand ils doivent faire {bound}"'
            else:
                said = f'f"{" et ".join(names)} font {{conserved}}, quand ils doivent faire {bound}"'
            lines += [
                f"conserved = {' + '.join(terms)}",
                f"if conserved {'!=' if exact else '>'} {total}:",
                f"    _invalid({said})",
            ]
        return lines

    @staticmethod
    def _term(field: StateField) -> str:
        """A field's part of a conserved total, in the record being checked."""

        def got(source: str) -> str:
            value = f'{source}.get("{field.key}")'
            return f"({value} or {{}}).get({field.path[0]!r})" if field.path else value

        player = field.scope is Scope.PLAYER
        if field.shape is Shape.COUNT:
            if player:
                return f'sum(record.get("{field.key}", {field.start}) for record in players)'
            return f'state.get("{field.key}", {field.start})'
        if field.shape is Shape.HOLDERS and not player:
            return f"len({got('state')} or {{}})"
        if field.shape is Shape.TALLY:
            if player:
                return f"sum(sum(({got('record')} or {{}}).values()) for record in players)"
            return f"sum(({got('state')} or {{}}).values())"
        if field.shape is Shape.GRID and not player:
            return f"sum(sum(numbers.values()) for numbers in ({got('state')} or {{}}).values())"
        raise ValueError(f"the core adds up only counts, holders, tallies and grids, not {field.key!r}")

    def _spaces(self) -> list[str]:
        """A player's count that is the spaces of the routes a holders field gives them."""
        lines = []
        for kept in self._of(Scope.PLAYER):
            field = kept.field
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
