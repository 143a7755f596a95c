"""What a mechanism keeps in a game's state, declared once (issue 38, §1).

A mechanism lists its fields (``Mechanism.state_fields``): where ``to_dict()`` writes each
one, its shape, the ids it ranges over, who sees it in ``observation()``, and what holds of
it at every step (a bound, a total conserved with other fields, ids held once, a choice that
waits in one phase). The engine carries the list as plain data (``STATE_FIELDS``), and what
reads engines through their public API derives from it: the PettingZoo vector's slices
(``play.env``) and the invariants the tests check after every step (``tests/engines.py``),
without knowing any mechanism by name.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from .marks import Drawn


class Scope(Enum):
    GAME = "game"  # a key of the state itself
    PLAYER = "player"  # a key of each player's record (`players[seat]`)
    # A key of each team's record (`teams[k]`, whose `players` are its seats): the engine's
    # TEAM_SIZE consecutive seats form a team.
    TEAM = "team"


class Shape(Enum):
    COUNT = "count"  # a whole number
    IDS = "ids"  # a list of ids of `over`
    TALLY = "tally"  # {id of `over`: a number}; an id not listed: 0
    HOLDERS = "holders"  # {id of `over`: a seat}; an id not listed: held by nobody
    NUMBERS = "numbers"  # {id of `over`: [the numbers of the items held]} (shares, numbered as taken)
    GRID = "grid"  # {id of `over`: {id of `by`: a number}}
    CARD = "card"  # one train card's colour, or None
    PILES = "piles"  # {id of `over`: [ticket ids]}: piles of tickets, hidden but their sizes
    CHOICES = "choices"  # [records]: choices waiting for a player, the first one asked now (its `pick`)
    PENDING = "pending"  # a record while something waits to be settled, else None


class Seen(Enum):
    ALL = "all"  # every seat's observation shows it as the state holds it
    OWNER = "owner"  # only its owner's (a player's own record, a team's own record)
    SIZES = "sizes"  # shown only as the size of each of its lists, under `shown_as`


@dataclass(frozen=True, slots=True, kw_only=True)
class StateField:
    """One field a mechanism keeps in the state, as ``to_dict()`` and ``observation()`` write it."""

    key: str
    scope: Scope
    shape: Shape
    label: str  # French, for a reader of the state (« gares posées »)
    path: tuple[str, ...] = ()  # the keys below `key` that lead to the field (a set of tokens' name)
    # The ids it ranges over, in the engine's order: listed, or the name of the engine's table that
    # lists them (its keys, or its items: "COLORS", "CITIES", "TICKETS", "ROUTES").
    over: tuple[str, ...] | str = ()
    by: tuple[str, ...] = ()  # a grid's second ids
    names: tuple[str, ...] = ()  # the French of each id of `over`, where an id is not one to read
    seen: Seen = Seen.ALL
    shown_as: str | None = None  # with Seen.SIZES: the observation's key of the sizes
    # With Seen.OWNER: the key of the same record under which the others' observation shows only
    # its size (a number of cards, of tickets), which the search's sampled games deal anew.
    counted_as: str | None = None
    at_most: int | tuple[int, ...] | None = (
        None  # a bound on a count, a tally's values (per id), a list's length
    )
    start: int = 0  # a count's value when the game is set up (a pile's whole size)
    conserved: tuple[str, int] | None = None  # (group, total): the group's fields always add up to the total
    positive: bool = False  # a tally lists only ids whose number is above 0
    unique: bool = False  # an id is held once across the scope (a city has one station)
    never_owned: bool = False  # its ids are never also a player's routes
    phase: str | None = None  # a choice or a pending record: present exactly in this phase
    pick: str | None = None  # choices: the key of a choice's record that names its id of `over`
    match: tuple[str, str] | None = None  # choices: only those whose (key, value) is this
    holds: str | None = None  # "cards": train cards (in the card count); "tickets": tickets (somewhere)
    numbered_by: str | None = None  # numbers: the game tally of how many of each id were numbered
    spaces_of: str | None = (
        None  # a count equal to the spaces of the routes this holders field gives its seat
    )
    players: int | None = None  # kept only in games of this many players
    keeps_every_ticket: bool = False  # no ticket ever leaves the game while this field is kept
    pile_kinds: bool = False  # piles: pile k holds the tickets of kind k, and the core's deck none of them
    drawn: Drawn | None = None  # what the board draws of it as the game goes on (`marks.Drawn`)
    # A player's ids that are also among those its record holds under this key: some of its
    # kept "tickets" shown to all (those scored the moment they were completed). The search's
    # sampled games deal them to that player; the tests check the inclusion.
    within: str | None = None
    # A pending record's keys, in the order it is written: the core keeps these, and a record
    # being loaded keeps no other (both engines then write the same record).
    keys: tuple[str, ...] = ()
    # The core keeps it (`compiler/emit/kept_state.py`): its slot (`_<key>`, a team's `_team_<key>`), set-up, copy, record,
    # load, observation and shape checks come from this declaration, none from the mechanism.
    derived: bool = False
    # Kept by the core as its own hands and tickets are, by each id's index in its table ("COLORS",
    # "TICKETS"): a list of counts by colour, a list of ticket numbers, a colour's number or None.
    # Read on hot paths (a payment from a team's holder); recorded and loaded by id all the same.
    indexed: bool = False

    def __post_init__(self) -> None:
        wanted = _DRAWN_SHAPES.get(self.drawn)
        if wanted is not None and (self.shape, self.scope) not in wanted:
            raise ValueError(
                f"{self.key}: the board draws {self.drawn.value} from a "
                + " or ".join(f"{scope.value}'s {shape.value}" for shape, scope in wanted)
                + f", not a {self.scope.value}'s {self.shape.value}"
            )
        if self.within is not None and (self.shape, self.scope) != (Shape.IDS, Scope.PLAYER):
            raise ValueError(f"{self.key}: only a player's ids lie within another of its lists")
        if self.counted_as is not None and self.seen is not Seen.OWNER:
            raise ValueError(f"{self.key}: only a field its owner alone sees is counted for the others")
        if self.drawn is not None and self.seen is not Seen.ALL:
            raise ValueError(f"{self.key}: the board draws only what every seat sees")

    def record(self) -> dict[str, Any]:
        """The declaration as the engine carries it: plain data, defaults left out, in field order."""
        found: dict[str, Any] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if value == spec.default or spec.name in ("derived", "indexed"):  # the compiler's business
                continue
            found[spec.name] = value.value if isinstance(value, Enum) else value
        return found


# The shapes (and scopes) the board draws each kind from (`StateField.drawn`).
_DRAWN_SHAPES = {
    Drawn.ROUTES_TAKEN: ((Shape.HOLDERS, Scope.GAME),),
    Drawn.PIECES: ((Shape.IDS, Scope.PLAYER),),
    Drawn.COUNTS: ((Shape.GRID, Scope.GAME), (Shape.TALLY, Scope.GAME)),
}
