"""How the core keeps each shape of a mechanism's state field in the pure engine (issue 38, §1).

`kept_state` prints the sections of the game from this table: a shape's empty value, its copy,
its record, its load from a record and the engine's helper that checks it. The fields declared
under one key of one scope are kept together, in one attribute (`Kept`): a field alone as its
shape says; fields under a key's paths (a set of tokens' name) as a mapping from each path to
its field's value; choices waiting for a player (one field per set they choose among) as one
list of records.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mechanisms.state import Scope, Seen, Shape, StateField


@dataclass(frozen=True, slots=True)
class Forms:
    """How a shape is kept: its empty value, a copy, its record, its load from a record's value
    (``{v}`` the value, ``{ids}`` the ids it ranges over, ``{by}`` a grid's second ids,
    ``{keys}`` a record's keys, ``{start}`` a count's start)."""

    empty: str
    copy: str
    record: str
    load: str  # from ``{got}``, the record's value or None when absent (a count: ``{start}`` then)
    check: str  # the engine's helper that checks a record's value
    positive: str | None = None  # the record of a field that lists only numbers above 0
    size: str | None = None  # what the others see of a field only its owner sees (`counted_as`)


SHAPES: dict[Shape, Forms] = {
    Shape.COUNT: Forms("{start}", "{v}", "{v}", "{got}", "_check_count"),
    Shape.IDS: Forms("[]", "list({v})", "list({v})", "list({got} or [])", "_check_ids", size="len({v})"),
    Shape.TALLY: Forms(
        "dict.fromkeys({ids}, 0)",
        "dict({v})",
        "dict({v})",
        "{{**dict.fromkeys({ids}, 0), **({got} or {{}})}}",
        "_check_tally",
        "{{item: number for item, number in {v}.items() if number}}",
        "sum({v}.values())",
    ),
    # {id: {second id: a number}}: every id recorded, its numbers as a tally.
    Shape.GRID: Forms(
        "{{item: dict.fromkeys({by}, 0) for item in {ids}}}",
        "{{item: dict(numbers) for item, numbers in {v}.items()}}",
        "{{item: dict(numbers) for item, numbers in {v}.items()}}",
        "{{item: {{**dict.fromkeys({by}, 0), **(({got} or {{}}).get(item) or {{}})}} for item in {ids}}}",
        "_check_grid",
        "{{item: {{by: number for by, number in numbers.items() if number}} for item, numbers in {v}.items()}}",
    ),
    Shape.NUMBERS: Forms(
        "{{item: [] for item in {ids}}}",
        "{{item: list(numbers) for item, numbers in {v}.items()}}",
        "{{item: list(numbers) for item, numbers in {v}.items() if numbers}}",
        "{{item: list(({got} or {{}}).get(item, [])) for item in {ids}}}",
        "_check_numbers",
    ),
    # Holders are recorded in the order of their ids, whatever order they were taken in: the
    # same state reads the same, in either engine (the native one keeps a seat per id).
    Shape.HOLDERS: Forms(
        "{{}}",
        "dict({v})",
        "{{item: {v}[item] for item in {ids} if item in {v}}}",
        "dict({got} or {{}})",
        "_check_holders",
    ),
    # A record waiting to be settled (a tunnel's claim), None when nothing waits: its own lists
    # and mappings copied, so that no copy or record shares them (`_pending_copy`).
    Shape.PENDING: Forms(
        "None",
        "_pending_copy({v}, {keys})",
        "_pending_copy({v}, {keys})",
        "_pending_copy({got}, {keys})",
        "_check_pending",
    ),
    # Piles of tickets, top first, hidden but their sizes (a second deck of tickets).
    Shape.PILES: Forms(
        "{{item: [] for item in {ids}}}",
        "{{item: list(pile) for item, pile in {v}.items()}}",
        "{{item: list(pile) for item, pile in {v}.items()}}",
        "{{item: list(({got} or {{}}).get(item, [])) for item in {ids}}}",
        "_check_piles",
    ),
    # Choices waiting for a player, the first asked now: records of the declared keys, in order.
    Shape.CHOICES: Forms(
        "[]",
        "[dict(choice) for choice in {v}]",
        "[dict(choice) for choice in {v}]",
        "[{{key: choice[key] for key in {keys}}} for choice in {got} or []]",
        "_check_choices",
    ),
}


# A field kept by index (`StateField.indexed`), as the core keeps its own hands and tickets:
# ``{table}`` its table's ids in order, ``{index}`` the index of each id.
INDEXED: dict[Shape, Forms] = {
    Shape.TALLY: Forms(
        "[0] * len({table})",
        "list({v})",
        "dict(zip({table}, {v}))",
        "[({got} or {{}}).get(item, 0) for item in {table}]",
        "_check_tally",
        "{{item: number for item, number in zip({table}, {v}) if number}}",
        "sum({v})",
    ),
    Shape.IDS: Forms(
        "[]",
        "list({v})",
        "[{table}[item] for item in {v}]",
        "[{index}[item] for item in {got} or []]",
        "_check_ids",
        size="len({v})",
    ),
    Shape.CARD: Forms(
        "None",
        "{v}",
        "None if {v} is None else {table}[{v}]",
        "None if {got} is None else {index}[{got}]",
        "_check_card",
    ),
}

# The tables a field kept by index may range over: their ids in order, and each id's index.
INDEX_TABLES = {
    "COLORS": ("COLORS", "_COLOR_INDEX"),
    "TICKETS": ("_TICKET_IDS", "_TICKET_INDEX"),
    "ROUTES": ("_ROUTE_IDS", "_ROUTE_INDEX"),
}

INDEXED_TYPES = {Shape.TALLY: "list[int]", Shape.IDS: "list[int]", Shape.CARD: "int | None"}


# What waits may be one id of `over` rather than a record (where the draw's first card went,
# while the second waits): the id, or None.
PENDING_ID = Forms("None", "{v}", "{v}", "{got}", "_check_pending_id")


def forms_of(field: StateField) -> Forms:
    if field.shape is Shape.PENDING and not field.keys:
        return PENDING_ID
    return INDEXED[field.shape] if field.indexed else SHAPES[field.shape]


def type_of(field: StateField) -> str:
    if field.shape is Shape.PENDING and not field.keys:
        return "str | None"
    return INDEXED_TYPES[field.shape] if field.indexed else TYPES[field.shape]


# The type of each shape as the engine keeps it (ids are the ids' strings).
TYPES = {
    Shape.COUNT: "int",
    Shape.IDS: "list[str]",
    Shape.TALLY: "dict[str, int]",
    Shape.GRID: "dict[str, dict[str, int]]",
    Shape.NUMBERS: "dict[str, list[int]]",
    Shape.HOLDERS: "dict[str, int]",
    Shape.PENDING: "dict[str, Any] | None",
    Shape.PILES: "dict[str, list[str]]",
    Shape.CHOICES: "list[dict[str, str]]",
}


@dataclass(frozen=True, slots=True)
class Kept:
    """One attribute of the game the core keeps: the fields declared under one key of one scope."""

    # The game's attribute: `_<key>`; `_players_<key>` where a game field has the key, and a
    # team's `_team_<key>`.
    slot: str
    members: tuple[StateField, ...]

    @property
    def field(self) -> StateField:
        return self.members[0]

    @property
    def key(self) -> str:
        return self.field.key

    @property
    def paths(self) -> tuple[str, ...]:
        """The path below the key of each member, when the members lie under paths."""
        return tuple(member.path[0] for member in self.members) if self.field.path else ()

    @property
    def choice_keys(self) -> tuple[str, ...]:
        """The keys of a choice's record: the key its set is matched by, then its pick."""
        field = self.field
        return ((field.match[0],) if field.match else ()) + (field.pick or "",)

    def constant(self, what: str) -> str:
        return f"{self.slot.upper()}_{what}"

    def ids(self, member: StateField) -> str:
        """The ids a member ranges over: the engine's table, or the constant listing them."""
        if isinstance(member.over, str):
            return member.over
        if self.paths:
            return f"{self.constant('IDS')}[{member.path[0]!r}]"
        return self.constant("IDS")

    def by(self, member: StateField) -> str:
        return f"{self.constant('BY')}[{member.path[0]!r}]" if self.paths else self.constant("BY")


def kept_groups(fields: tuple[StateField, ...]) -> tuple[Kept, ...]:
    """The attributes the core keeps for the fields, in the order they are first declared;
    ValueError where the fields under one key cannot share an attribute."""
    grouped: dict[tuple[Scope, str], list[StateField]] = {}
    for field in fields:
        grouped.setdefault((field.scope, field.key), []).append(field)
    game_keys = {key for scope, key in grouped if scope is Scope.GAME}
    found = []
    for (scope, key), members in grouped.items():
        _check_together(key, members)
        slot = f"_players_{key}" if scope is Scope.PLAYER and key in game_keys else f"_{key}"
        if scope is Scope.TEAM:
            slot = f"_team_{key}"
        found.append(Kept(slot, tuple(members)))
    return tuple(found)


def _check_together(key: str, members: list[StateField]) -> None:
    first = members[0]
    if first.indexed and (first.shape not in INDEXED or first.over not in INDEX_TABLES or first.path):
        raise ValueError(
            f"{key!r}: kept by index only as a tally, ids or a card of {', '.join(INDEX_TABLES)}"
        )
    if first.shape is Shape.CARD and not first.indexed:
        raise ValueError(f"{key!r}: the core keeps a card by its index")
    shared = ("shape", "seen", "players", "phase", "pick")
    if any(getattr(member, name) != getattr(first, name) for member in members for name in shared):
        raise ValueError(f"{key!r}: the fields under one key share their shape, visibility and phase")
    if first.path:
        paths = [member.path for member in members]
        if any(len(path) != 1 for path in paths) or len(set(paths)) != len(paths):
            raise ValueError(f"{key!r}: fields under a key lie each under one path of their own")
        if first.shape in (Shape.COUNT, Shape.PENDING, Shape.CHOICES) or first.seen is Seen.SIZES:
            raise ValueError(f"{key!r}: the core keeps no {first.shape.value} under a path")
        if any(member.unique or member.spaces_of or member.numbered_by for member in members):
            raise ValueError(f"{key!r}: a field under a path holds no id once, no spaces, no numbers")
    elif first.shape is Shape.CHOICES:
        matches = [member.match for member in members]
        if not first.pick or (len(members) > 1 and None in matches) or len({m and m[0] for m in matches}) > 1:
            raise ValueError(f"{key!r}: choices pick an id, and those under one key match one key each")
        if len(set(matches)) != len(matches):
            raise ValueError(f"{key!r}: two kinds of choices match the same value")
    elif len(members) > 1:
        raise ValueError(f"{key!r}: two fields under one key of one scope, and no path tells them apart")
