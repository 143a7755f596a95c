"""What a mechanism is: one rule family of the language, owned by one folder.

A mechanism brings, from its folder: the schema fragment of its statements
(``schema.json``), the IR it builds from a merged document, its semantic checks,
its class (``engine/game.py.j2``: a subclass of the game below it overriding the core's
methods it changes, ``super()`` for the rest; where a rule changes the core's, write an
override there first), its engine parts for what is still code at a place of the core's
text (``engine/HOOK.py.j2``, each printed at the engine's hook point
of that name, only into engines whose spec uses it), its native engine's parts
(``native/game.pyx.j2``, overriding the blocks of ``NATIVE_BLOCKS``), the terms it
adds to the engine's expressions (``EXPRESSIONS``) and conditions (``CONDITIONS``, in both
engines), what it declares for the core to derive (its state, ``state.StateField``; its score
lines; its board marks, ``marks.BoardMark``), its French sentences for each section
of the rule sheet, its facts for the differences page, and its fixtures
(``fixtures/``). What it can declare it does not write: its state's bookkeeping (a field
``derived``), its actions' handlers (``action_handlers``), its native phases' options
(``native_phase_options``). The registry (``compiler.mechanisms.REGISTRY``) lists them in the
order their parts are emitted and their classes stacked.

A mechanism imports only what sits below the mechanisms (the IR and its ids, the action
space, French, diagnostics, ``emit.escape`` and ``emit.worked``), this module, the folders of
the mechanisms it builds on, and ``used`` to ask what the other mechanisms an edition uses
say; never a stage nor the registry (``tests/test_layers.py``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.escape import cite
from ..ir.ids import assign_ids, slug
from .marks import BoardMark
from .state import StateField

if TYPE_CHECKING:
    import types

    from ..frontend.positions import Span
    from ..ir import Edition, Route

# The engine's hook points, in the order they appear in an engine.
HOOKS = (
    "route_ends",  # `_ROUTE_ENDS` (each route's two nodes) and what goes with it, in place of the core's
    "tables",  # module constants and tables, after the board's tables
    "functions",  # module functions, before the action index (which may call them)
    "index_draws",  # in the index of every action: the card draws (`tables`; replaces the core's)
    "index_claim",  # in the index: the claims of a `route_id` paying `payment` (replaces the core's)
    "index_turn",  # in the index of every action, after the claims and before the ticket choices
    "index_keep",  # in the index: the ticket choices keeping `kept` of `offered` (replaces the core's)
    "index_actions",  # in the index of every action (`add`, `tables`): more actions
    "action_tables",  # module constants, the tables of the action index (`_TABLES`) by name
    "claim_hand",  # in the enumeration of claims: the `hand` that pays them (replaces the core's)
    "claim_payments",  # in the enumeration of claims, per open `route`: its legal claims (replaces the core's)
    "route_claims",  # in the enumeration of claims, after one open `route`'s (`actions[first:]`): more of its claims
    "claim_actions",  # after the enumeration of claims: more claims (`actions`, `hand`, `trains`)
    "claim_check",  # in `apply` of a claim, once the route is known, before the payment
    "payment_check",  # in `apply` of a claim, once its cards are known to be held (`payment`)
    "claim_settle",  # in `apply` of a paid claim (`route`): settle it otherwise than by taking it
    "methods",  # methods of `Game`, after the core's rules
)

# The file of a mechanism's ``engine`` folder that holds its class (`Mechanism.game_part`): what
# it changes of a method of the core's game is an override of that method, `super()` for the rest.
GAME_CLASS = "game"

# The file of a mechanism's ``native`` folder that holds its part of the native engine
# (`Mechanism.native_part`): its overrides of the blocks of the core's template.
NATIVE_CLASS = "game"

# The blocks of the native engine's template (`native/core.pyx.j2`) a mechanism's native part
# overrides, in the order they appear in `engine_core.pyx`. Those that "replace the core's" hold
# the core's code, which the override prints with `super()` where it keeps it; the others are
# empty in the core, and an override prints `super()` first (what the mechanisms before it in the
# registry add) and then its own. The native engine's class stays one `@cython.final` class, so
# that the C compiler inlines its methods: its mechanisms override at compile time.
NATIVE_BLOCKS = (
    "defs",  # compile-time constants (DEF), after the core's
    "tables",  # module-level C tables, after the core's
    "action_ids",  # in `_load_ids`: the ids of the draws, claims and ticket choices (replaces the core's)
    "load_ids",  # in `_load_ids`, after the core's ids (`index`, `paid`, `jokers`, `route`, `color`)
    "state",  # fields of the `State` struct, after the core's
    "end_turn",  # in `end_turn`, before the last round is checked
    "round_trains",  # `round_trains`: the trains the last round's start counts (returns; replaces the core's)
    "draw_deck",  # `draw_deck`: a card drawn from the deck (replaces the core's)
    "draw_market",  # `draw_market`, once the face-up `card` is taken and replaced (replaces the core's)
    "bar",  # `bar`: the count of open routes `holder`'s track bars (replaces the core's)
    "holds_sibling",  # `holds_sibling`: whether `player` may not take `route` for another track (replaces)
    "payer",  # `payer`: the cards the current player's claims are paid from (returns; replaces)
    "shape_claims",  # `shape_claims`: the claims of one route of a shape (returns; replaces the core's)
    "route_claim",  # `route_claim`: the k-th claim of one route (`route_out[0] = -1`, its id in `paid_out`; replaces)
    "claim",  # in `Game.claim`, before the route is taken (`route`, `paid`: LOCOMOTIVE for jokers only, `jokers`)
    "claim_pays",  # in `Game.claim`: the cards paid and the route taken (replaces the core's)
    "route_taken",  # in `take`, once the route is taken and the market tended: what the claim reaches
    "claim_choice",  # in `finish_claim`: where a choice the claim leaves waits, its phase set and `return`
    "methods",  # methods of `Game`, after the core's claims
    "keep_count",  # `keep_count`: how many ticket choices are legal (returns; replaces the core's)
    "kept_mask",  # `kept_mask`: the k-th ticket choice, as its KEEP_BITS (returns; replaces the core's)
    "keep_allowed",  # `keep_allowed`: whether the choice `mask` is legal (returns; replaces the core's)
    "ticket_kept",  # in `keep_kept`, for each `ticket` kept (at `at`): `continue` keeps it elsewhere
    "ticket_given_back",  # in `keep_kept`, for each `ticket` given back (`policy`): `continue` sends it elsewhere
    "setup_kept",  # in `keep_kept`, once every player has chosen at set-up
    "draw_count",  # in `count_turn`: how many card draws are legal, to `draws` (replaces the core's)
    "draw_play",  # in `Game.play`: the k-th card draw played (replaces the core's)
    "draw_id",  # in `id_counted`: the id of the k-th card draw (returns; replaces the core's)
    "route_list",  # in `list_claims`: the ids of one `route`'s claims to `out + listed` (replaces the core's)
    "draw_list",  # in `list_ids`: the ids of the card draws to `out + listed` (replaces the core's)
    "play_id",  # in `play_id`: `elif kind == …` branches for its own kinds of action
    "keep_action",  # in `keep_action`: the ticket choice `mask` as listed (returns; replaces the core's)
    "names_match",  # in `names_match`: whether its listed `action` names what its id `index` counts (returns)
    "listed_action",  # in `listed_action`: its ACTIONS[index] as listed (returns)
    "score_player",  # in `scores`, per `player`, its `network` (`roots`, `sizes`) made: its `lines` and their points (`added`)
    "ticket_result",  # in `scores`, per `ticket` of `player`: `entry` and `done` where it judges the ticket (else None)
    "set_up",  # in `set_up`, once the core has dealt (`players`): its state as a new game has it
    "load",  # in `Game.load`: its state read from the pure engine's `game`
    "write",  # in `_write`: its state written into the pure engine's `game` (`core`)
)

# The engine's expressions a mechanism may add terms to, with the core value of each.
EXPRESSIONS = {
    "claim_trains": "length",  # the trains a claim takes from the player (the route is `route`)
    "claim_owed": "0",  # the cards of any colour a claim still owes once its cards are laid
    # the cards of any colour a claim of `route` costs besides its own, known from the route
    # alone: a route whose claim the hand cannot pay so is not listed
    "claim_extra_cards": "0",
    "claim_covered": "0",  # the spaces of a claim left to sets of cards (its cards pay the others)
    "ferry_covered": "0",  # the locomotives of a ferry left to sets of cards
    "least_jokers": "0",  # the jokers a claim of `route` lays at least (a ferry's locomotives)
    "claim_paid": "payment",  # what a paid claim passes on to the taking of its route (the cards laid)
    "initial_scores": "[0] * players",  # where the score markers start (a mechanism may replace it)
    "score_meaning": "les points de ses routes",  # what a record's score must be, in from_dict's French message
}

# The engine's conditions a mechanism may add terms to (each term must hold too), in the pure
# engine (`Mechanism.conditions`) and the native one (`Mechanism.native_conditions`, C over
# `self.s`). None holds a term of the core's: an edition without terms prints none of them.
CONDITIONS = (
    "may_draw_cards",  # whether the current player may draw a train card now (a hand's limit)
    "spares_trains",  # whether the claims `Mechanism.spared_trains` names take fewer trains now
)


def places_by_id(data: dict[str, Any], *, countries: bool) -> dict[str, str]:
    """The board's cities (and its countries, with ``countries``) of a merged document, by the
    id a spec names them with (the slug of their name: ``salt-lake-city``)."""
    board = data.get("board", {})
    names = [city["name"] for city in board.get("city", [])]
    if countries:
        names += [country["name"] for country in board.get("country", [])]
    return {slug(name): name for name in names}


def ends_name(route: Route) -> str:
    """A route by its two ends, as the sheet names it: « Ancona – Trieste »."""
    return f"{route.a} – {route.b}"


def route_ids(data: dict[str, Any]) -> list[str]:
    """The board's routes of a merged document, by the id a spec names them with, in board order
    (``new-york-washington-orange``; twins told apart by colour, else by rank)."""
    return assign_ids(data.get("board", {}).get("route", []), by_color=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    """One line of the differences page: a section, a label, a French value; `without`, what the
    label says in an edition without the mechanism that states the fact (« les deux dans la
    main » for the cards a team player draws), so that its coming or going reads as a change."""

    section: str
    label: str
    value: str
    without: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusRow:
    """A row of the engine's bonus table (``BONUSES``): the most of a measure scores the points."""

    id: str
    title: str
    measure: str  # a measure the engine's `measured` reads: longest_trail, completed_tickets…
    points: int
    example: str  # the score example's sentence of the measure ({player}, {value})
    span: Span | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionWords:
    """A kind of turn a mechanism adds: its name in the list of actions, its subsection."""

    name: str  # « construire une gare »
    title: str  # « Construire une gare »
    paragraphs: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreLine:
    """One named part of a player's total in ``scores()``: its French label and where its points are
    in the record (``path``): a number (``points``, 0 when absent), the numbers of a mapping added up
    however deep (``sum``), or the ``points`` of each entry of a list or mapping (``each``); ``sign``
    -1 for points taken away. A score's lines add up to its total."""

    label: str
    path: tuple[str, ...]
    reads: str = "points"
    sign: int = 1

    def record(self) -> dict[str, Any]:
        found: dict[str, Any] = {"label": self.label, "path": self.path, "reads": self.reads}
        if self.sign != 1:
            found["sign"] = self.sign
        return found


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionSentence:
    """How the game's log says an action, in French, without its subject (« construit une gare à
    Wien avec 1 carte rouge »). In ``text``, ``{field}`` is the action's field: as written, or its
    French from ``names``; ``{field:cards}`` the cards it lays; ``{field:payment}`` its whole
    payment; ``{field:count}`` a number (a list's length) with ``counts``' words for none, one and
    more; ``{field:tickets}`` tickets, named in the text for the player who holds them, counted
    as ``count`` in the others'. Braces of a spec's own string are doubled (``sentence_text``). As
    a clause added to a core action's sentence: only when the action has the field ``present``,
    holds something under ``filled`` (not empty, not zero), or ``when`` its field has that value.
    A clause of a ticket choice whose ``filled`` field lists some of the tickets kept gives the
    ``legend`` of the boxes that pick them on the play page (« Au porte-cartes de l’équipe »)."""

    text: str
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    counts: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    present: str | None = None
    filled: str | None = None
    when: tuple[str, Any] | None = None
    legend: str | None = None

    def record(self) -> dict[str, Any]:
        found: dict[str, Any] = {"text": self.text}
        for key in ("names", "counts", "present", "filled", "when", "legend"):
            value = getattr(self, key)
            if value:
                found[key] = value
        return found


def sentence_text(text: str) -> str:
    """A spec's string inside an ``ActionSentence``'s text: its braces said as braces."""
    return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetWords:
    """The French a mechanism adds to each section of the rule sheet (whole sentences)."""

    material: tuple[str, ...] = ()  # items of « Matériel », without the final punctuation
    material_last: tuple[str, ...] = ()  # the same, after the tickets (« la carte bonus … »)
    setup_first: tuple[str, ...] = ()  # steps of « Mise en place », before the first player is chosen
    setup: tuple[str, ...] = ()  # steps of « Mise en place », after the first player is chosen
    gains: tuple[str, ...] = ()  # what scores at the end, for « But du jeu » (« le « Grand Tour » »)
    gains_last: tuple[str, ...] = ()  # the same, said after the bonus cards (« 4 points par gare… »)
    # How tickets are dealt at set-up, and drawn in a turn, in place of the core's sentences.
    setup_tickets: str | None = None
    draw_tickets: str | None = None
    # How a ticket is completed, in place of the core's sentence ({ends}: « ses deux villes »).
    ticket_joined: str | None = None
    score_start: bool = False  # it says where the score markers start (not on zero)
    claim: tuple[str, ...] = ()  # paragraphs of « Prendre une route », after the points table
    actions: tuple[ActionWords, ...] = ()  # kinds of turn, after the core's in « Le tour »
    scoring: tuple[str, ...] = ()  # paragraphs of « Dernier tour et victoire », before the winner
    # When the last round starts, in place of the core's sentence (an end trigger of its own), and
    # the summary's line that says it.
    last_round: str | None = None
    last_round_summary: str | None = None
    mistakes: tuple[str, ...] = ()  # items of « Erreurs fréquentes »
    decisions: tuple[str, ...] = ()  # items of « Quand la règle ne dit rien »
    summary: tuple[str, ...] = ()  # lines of the one-page summary
    formula: tuple[str, ...] = ()  # terms of the summary's score formula (« + 4 par gare non construite »)
    # Sections of its own, after the score example: (title, paragraphs, table rows or ()).
    sections: tuple[tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = ()
    # Where the game is played by sides of several players (team play), the sentences that say so
    # in place of the core's, which speak of one player.
    sides: SideWords | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SideWords:
    """The French of a game played by sides of several players (teams), in place of the core's."""

    trains_item: str  # the trains in « Matériel » (« 45 wagons par joueur (90 par équipe)… »)
    goal: tuple[str, ...]  # the paragraphs of « But du jeu »
    setup_trains: str  # the first step of « Mise en place » (trains and score markers)
    setup_tickets: str  # the tickets dealt at set-up, before what is done with those given back
    section: tuple[str, tuple[str, ...]]  # its own section before « Le tour »: title, paragraphs
    draw: tuple[str, ...]  # paragraphs of « Piocher des cartes », before the market's reset
    doubles: tuple[str, ...]  # sentences on double routes, after the core's
    claim: tuple[str, ...]  # paragraphs of « Prendre une route », before the mechanisms'
    tickets_kept: str  # a sentence after the tickets kept in a ticket draw, or ""
    last_round: tuple[str, ...]  # « Dernier tour et victoire », before the mechanisms' paragraphs
    winner: str  # « L’équipe au plus gros total gagne. »
    opponent: str  # who the score example's opponent is (« l’équipe adverse »)
    total_of: str  # whose total the score example gives ({player}: « l’équipe de {player} »)
    shared_tickets: (
        str  # who holds the side's shared tickets in the example (« Le porte-cartes de son équipe »)
    )
    summary: tuple[str, ...]  # lines of the summary, after the tickets given back
    formula_head: str  # the summary's score formula begins so (« Par équipe : routes »)


def citation(rules: tuple[Any, ...]) -> str:
    """The spec lines of a mechanism's rules, for the docstrings and comments of its engine parts."""
    return ", ".join(cite(rule.span) for rule in rules)


@dataclass(frozen=True, slots=True, kw_only=True)
class Attribute:
    """A working attribute of the engine's game that no state field records as the core keeps
    it: the core prints its slot and its start in `Game.__init__`, as the engine's own, and a
    fixed one's copy. Its mechanism's class copies, records and loads the others (`copy`,
    `to_dict`, `_restore`). One that
    only the mechanism's class reads may live in that class instead (its `__slots__`, its
    `__init__` after `super()`); one the parts printed in the core read is declared here."""

    name: str  # the attribute, `_tunnel`
    type: str  # its annotation, as the engine spells it
    start: str  # its value when the game is made, Python over `players`
    why: str  # the comment above its start, a sentence (what it holds)
    fixed: bool = False  # never changed once the game is made: a copy shares it (the core's copy)

    def __post_init__(self) -> None:
        if not (self.name.startswith("_") and self.name.isidentifier()):
            raise ValueError(f"{self.name!r}: a game's working attribute is a private identifier")


@dataclass(frozen=True, slots=True)
class EnginePart:
    """A part printed at a hook point; its template sees the mechanism's view as ``m``."""

    template: str
    view: Any


@dataclass(frozen=True, slots=True, kw_only=True)
class ApiTypes:
    """What a mechanism adds to the types of the engine's API (the TypedDicts of
    ``compiler.emit.api_types``), each type written as the generated engine spells it: the core's
    names (``RouteId``, ``TicketId``, ``City``, ``Color``, ``Cards``, ``Place``…), those it
    declares here, ``NotRequired[…]`` where a record may lack the key.
    """

    # The keys it adds to records of others (the core's ``State``, ``PlayerState``,
    # ``Observation``, ``ObservedPlayer``, ``ScoreRecord``, ``TicketResult``, ``RouteRecord``,
    # ``TicketRecord``, an action's record such as ``ClaimRoute``, or another mechanism's): record
    # -> key -> type. A record the edition lacks is skipped; a key the core declares is replaced.
    fields: dict[str, dict[str, str]] = field(default_factory=dict)
    # Its own records (TypedDicts): name -> key -> type.
    records: dict[str, dict[str, str]] = field(default_factory=dict)
    # Its own actions: type -> field -> type (the `type` field is implied).
    actions: dict[str, dict[str, str]] = field(default_factory=dict)
    # Those of its records that are entries of ``ACTIONS`` though not actions (choices by position).
    entries: tuple[str, ...] = ()
    # Its own type aliases (a ``Literal`` of its names): name -> type.
    aliases: dict[str, str] = field(default_factory=dict)


def literal(values: Any) -> str:
    """A ``Literal`` type of names of an edition (ids, kinds), each through ``repr``."""
    return "Literal[" + ", ".join(repr(value) for value in dict.fromkeys(values)) + "]"


class Mechanism:
    """The base of every mechanism; each method has the neutral default."""

    name: ClassVar[str]
    french: ClassVar[str]  # what it is called in French (« les tunnels »), for the build's messages
    # Whether the native playout core plays its rules (or it only sets up and scores, which a
    # playout never meets); where it is False, an edition using it has no native core yet.
    native: ClassVar[bool] = False
    # Whether the native engine also deals and scores it without the pure engine: its set-up
    # and scoring are the core's tables, or its native parts `set_up` (its state in a new game)
    # and `score_player` (its lines of a player's record, their points, and the network the
    # tickets are judged on). Where it is False, a native game is dealt and scored by the pure
    # engine's code on the same state.
    native_scoring: ClassVar[bool] = False
    # The kinds of action and the phases its native parts add (`KIND_…`, and phases by the
    # pure engine's name: {"tunnel": "TUNNEL"}).
    native_kinds: ClassVar[tuple[str, ...]] = ()
    native_phases: ClassVar[dict[str, str]] = {}
    # The phase (by the pure engine's name) in which each player's choice of tickets at set-up
    # begins, where one of its own comes before the choice (ticket mix: how many from each
    # deck); one mechanism of an edition at most says one.
    setup_choice_phase: ClassVar[str | None] = None
    # Whether a claim may leave it a choice to make before the turn ends (its class overrides
    # `_claim_choice`, which the core then calls in `_finish_claim`).
    leaves_claim_choices: ClassVar[bool] = False
    # How many more masks of positions a ticket choice of its native engine carries besides
    # the tickets kept (team play: those shared), each OFFERED_MOST bits wide.
    native_keep_marks: ClassVar[int] = 0
    # The IR classes of its rules, found in `Edition.rules`.
    rule_types: ClassVar[tuple[type, ...]] = ()
    folder: ClassVar[Path]
    # The top-level statement its rules are written in, which ``without`` drops whole by
    # default (None: the mechanism's own ``without`` says what it drops).
    statement: ClassVar[str | None] = None
    # The keys its schema fragment adds to `score_example` that name tickets (checked like its own).
    example_tickets: ClassVar[tuple[str, ...]] = ()
    # The public names its engine parts define (part of the engine's API where it is used).
    exports: ClassVar[tuple[str, ...]] = ()
    # The keys, records and actions it adds to the types of the engine's API (see `api_types`).
    api: ClassVar[ApiTypes] = ApiTypes()

    @classmethod
    @cache
    def schema(cls) -> dict[str, Any]:
        path = cls.folder / "schema.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    # -- front end -------------------------------------------------------
    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        """Its rules, as IR, from a merged document that passed every check."""
        return ()

    def check(self, checker: Any) -> None:
        """Its semantic checks on the merged document (``checker.data``), reported with
        ``checker.report(code, message, path, hint)``."""

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[[dict, tuple, list[int]], None]
    ) -> tuple[str, ...] | None:
        """``without KIND`` of one of its kinds: drop it from ``data`` (in place) and say
        which top-level keys were touched; None when the edition has nothing to drop.
        ``keep_items(data, path, indices)`` keeps some items of a list, their spans following.
        By default, its whole `statement`."""
        if self.statement is None or not data.get(self.statement):
            return None
        data.pop(self.statement)
        return (self.statement,)

    # -- what an edition uses --------------------------------------------
    def rules(self, edition: Edition) -> tuple[Any, ...]:
        return tuple(rule for rule in edition.rules if isinstance(rule, self.rule_types))

    def used(self, edition: Edition) -> bool:
        return bool(self.rules(edition))

    def rule(self, edition: Edition) -> Any:
        """Its one rule, for a mechanism an edition declares at most once (stations, tunnels…)."""
        return self.rules(edition)[0]

    def properties_used(self, edition: Edition) -> tuple[str, ...]:
        """The route properties its rules give a meaning to."""
        return ()

    # -- engine ------------------------------------------------------------
    def engine_view(self, edition: Edition) -> Any:
        return None

    def parts(self, edition: Edition) -> dict[str, EnginePart]:
        """Its parts of the engine by hook point (`HOOKS`): the files of its ``engine`` folder."""
        return self._parts_in("engine", HOOKS, "py.j2", edition)

    def game_part(self, edition: Edition) -> EnginePart | None:
        """Its class in the engine (``engine/game.py.j2``): the body of a subclass of the game
        below it (the core's, or another mechanism's), printed between the core's class and the
        public ``Game``, in the registry's order. It overrides the core's methods it changes,
        calling ``super()`` for what it keeps; its ``__slots__`` name its own state."""
        if f"{GAME_CLASS}.py.j2" not in _files_in(self.folder / "engine"):
            return None
        return EnginePart(
            template=f"{self.folder.name}/engine/{GAME_CLASS}.py.j2", view=self.engine_view(edition)
        )

    @property
    def class_name(self) -> str:
        """The name of its class in an engine: ``_TicketMixGame`` for ``ticket_mix``."""
        return "_" + "".join(word.title() for word in self.folder.name.split("_")) + "Game"

    def _parts_in(
        self, folder: str, hooks: tuple[str, ...], suffix: str, edition: Edition
    ) -> dict[str, EnginePart]:
        view = self.engine_view(edition)
        present = _files_in(self.folder / folder)
        return {
            hook: EnginePart(template=f"{self.folder.name}/{folder}/{hook}.{suffix}", view=view)
            for hook in hooks
            if f"{hook}.{suffix}" in present
        }

    def replacements(self, edition: Edition) -> dict[str, str]:
        """Engine expressions (`EXPRESSIONS`) it replaces whole (where the score markers start)."""
        return {}

    def exports_for(self, edition: Edition) -> tuple[str, ...]:
        """The public names its parts define in this edition's engine."""
        return self.exports

    def api_types(self, edition: Edition) -> ApiTypes:
        """What it adds to the types of this edition's engine API (`api`, unless some depend on
        the edition's rules)."""
        return self.api

    def expressions(self, edition: Edition) -> dict[str, str]:
        """Terms it adds to the engine's expressions (`EXPRESSIONS`)."""
        return {}

    def conditions(self, edition: Edition) -> dict[str, str]:
        """Terms it adds to the engine's conditions (`CONDITIONS`), as Python over `self`."""
        return {}

    def native_conditions(self, edition: Edition) -> dict[str, str]:
        """The same terms in the native engine, as Cython over `self.s` (the game's `State`)."""
        return {}

    def native_part(self, edition: Edition) -> EnginePart | None:
        """Its part of the native engine (``native/game.pyx.j2``): a child of the template below
        it (the core's, or the part of the mechanism before it in the registry), whose blocks
        override the core's (`NATIVE_BLOCKS`); each block sees its view as ``m``."""
        if f"{NATIVE_CLASS}.pyx.j2" not in _files_in(self.folder / "native"):
            return None
        return EnginePart(
            template=f"{self.folder.name}/native/{NATIVE_CLASS}.pyx.j2", view=self.engine_view(edition)
        )

    def scores_natively(self, edition: Edition) -> bool:
        """Whether the native engine deals and scores it in this edition (`native_scoring`,
        unless a rule of it the native scoring lacks is used)."""
        return self.native_scoring

    def plays_natively(self, edition: Edition) -> bool:
        """Whether the native engine plays its rules in this edition (`native`, unless a rule of
        it the native engine lacks is used)."""
        return self.native

    def native_gap(self, edition: Edition) -> str:
        """What the native engine does not play yet where `plays_natively` is False, in French
        (« les tunnels »), for the build's message."""
        return self.french

    def set_aside(self, edition: Edition, route: Any) -> int:
        """The trains a claim of ``route`` takes besides its length (the native engine's table)."""
        return 0

    def shape_mark(self, edition: Edition, route: Any) -> int:
        """A number setting ``route``'s claims apart from those of other routes of its length
        and payment, where its native parts list them otherwise (shares: the companies whose
        logos it bears), 0 where they do not. Where it marks routes, its native methods define
        `claim_times(shape)`, how many times over a route of the shape lists its claims now, and
        `claim_variant(claim, times)`, the id of a claim listed the `times`-th time over; one
        mechanism of an edition at most marks routes."""
        return 0

    def attributes(self, edition: Edition) -> tuple[Attribute, ...]:
        """Its working attributes of the game that the core makes (`Attribute`)."""
        return ()

    def spared_trains(self, edition: Edition, route: Any) -> int:
        """The trains a claim of ``route`` takes fewer while its ``spares_trains`` condition holds
        (a public route built with a piece of a shared supply; the native engine's table)."""
        return 0

    def claim_points(self, edition: Edition, route: Any) -> int:
        """The points a claim of ``route`` scores besides the route's own (the native engine's table)."""
        return 0

    def joker_kinds(self, edition: Edition) -> tuple[str, ...]:
        """The kinds of route its rule lets the joker pay, and no other ("tunnels", "ferries"):
        empty where it does not limit the joker (one mechanism of an edition at most does)."""
        return ()

    def least_jokers(self, edition: Edition, route: Any) -> int:
        """The jokers a claim of ``route`` lays at least (the native engine's table of the
        engine's ``least_jokers`` expression)."""
        return 0

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:
        """The actions its engine parts add to the action index (`ir.action_space.Part`, by statement)."""
        return []

    def side_size(self, edition: Edition) -> int:
        """How many players play together as one side (a team), scoring and winning together."""
        return 1

    def side_name(self, edition: Edition) -> str | None:
        """The French name of a side of several players (« Équipe »), for the score pad's columns."""
        return None

    def card_draws(self, edition: Edition, core: int) -> int:
        """How many card draws its index lists, where the core lists `core` (one per source)."""
        return core

    def keep_ways(self, edition: Edition, size: int) -> int:
        """How many actions its index lists for each choice keeping `size` tickets."""
        return 1

    def phases(self, edition: Edition) -> tuple[str, ...]:
        """The phases of a game its parts add (a tunnel waiting for its surcharge)."""
        return ()

    def native_more_claims(self, edition: Edition) -> tuple[str, str] | None:
        """Claims of its own the native core lists after its own (a second deck's cards laid, a
        set of cards paying a route): the method of its native parts walking them, and the
        table of their ids by the row it returns. ``walk(-1, NULL)`` counts them, ``walk(-1,
        out)`` writes their ids to `out` and counts them, ``walk(k, NULL)`` is the row of the
        k-th; the core plays each by its id (`play_id`). None where it has none."""
        return None

    def native_turn_actions(self, edition: Edition) -> tuple[str, str, str | None] | None:
        """Its kinds of action in a turn, which the native core counts, finds, lists and plays
        after its own ticket draw (in the registry's order): the methods of its native parts
        counting those legal now (a `long`; the core asks in a turn only), giving the id of the
        k-th, and writing all their ids to an array, returning how many (None: the core writes
        them one by one). The core plays the k-th by its id (`play_id`). None where it has none."""
        return None

    def native_phase_options(self, edition: Edition) -> dict[str, tuple[str, str]]:
        """Each of its phases the native core plays: the method of its native parts writing the
        ids of the phase's legal actions to an array (returning how many), and how many there are
        at most (a C expression). The core counts, finds, lists and plays them from it; its
        guided policy plays the first listed."""
        return {}

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        """Each kind of action it adds: the game's method that plays it, the fields it needs
        besides "type", and those it may have (`_HANDLERS`)."""
        return {}

    def route_record(self, edition: Edition, route: Route) -> dict[str, Any]:
        """The keys it adds to a route's record in the engine's ``ROUTES`` (``tunnel``, ``reveal``)."""
        return {}

    def bonus_rows(self, edition: Edition) -> tuple[BonusRow, ...]:
        """Its rows of the engine's bonus table, awarded at the end to the best of each measure."""
        return ()

    def engine_helpers(self, edition: Edition) -> frozenset[str]:
        """The core's optional helpers its parts call (``payments``: every way to pay N cards of one
        colour from a hand; ``ticket_kinds``: each ticket's kind in ``TICKETS``)."""
        return frozenset()

    def messages(self, edition: Edition) -> dict[str, str]:
        """Its illegal-move messages by stable code, French ({JOKER}/{JOKERS}: the joker card)."""
        return {}

    def pays_from_shared(self, edition: Edition) -> bool:
        """Whether its players also pay from cards they share (a team's holder): a claim's payment
        is then `own` and `shared` (the engine's helpers `_joined`, `_affordable`, `_split_ways`,
        `_require_holder`), and every other payment (a tunnel's surcharge) splits the same way."""
        return False

    def action_fields(self, edition: Edition) -> dict[str, tuple[str, ...]]:
        """The optional fields it adds to the core's actions, by action type (a card's place)."""
        return {}

    def double_rule_fields(self, edition: Edition) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
        """The fields it adds to each rule of ``DOUBLE_ROUTE_RULES``: what each says (in the
        engine's comment) and its value for an IR ``DoubleRule``."""
        return ()

    def tiebreaks(self, edition: Edition) -> dict[str, tuple[str, str]]:
        """Its criteria of ``tiebreak``: the engine's key of a player's ``result`` (more wins), and
        the French of the sheet (« le moins de gares construites »)."""
        return {}

    def borrowed_routes(self, edition: Edition) -> str | None:
        """What it calls the routes of others a player may use for tickets, in French after « Les
        routes » (« empruntées par une gare »); None when it lends none."""
        return None

    def owes_cards(self, edition: Edition) -> bool:
        """Whether a claim may owe cards of any colour, given one by one after it (`pay_card`)."""
        return False

    def board_marks(self, edition: Edition) -> tuple[BoardMark, ...]:
        """What its rules put on the board (``marks.BoardMark``): drawn on the sheet's board
        and the page's, each with what it means for the board's legend."""
        return ()

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        """The parts of a player's total it adds in ``scores()`` (``ScoreLine``)."""
        return ()

    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        """The log's sentence of each action it adds, by the action's type."""
        return {}

    def action_clauses(self, edition: Edition) -> dict[str, tuple[ActionSentence, ...]]:
        """What it adds to the sentence of a core action (by its type), when the action says so."""
        return {}

    def payment_words(self, edition: Edition) -> tuple[tuple[str, str, str], ...]:
        """Cards of its own a payment may lay besides the train cards: (the action's field, one
        card's French, several cards' French)."""
        return ()

    def payment_sources(self, edition: Edition) -> tuple[tuple[str, str], ...]:
        """Train cards a payment may lay from somewhere else than the hand: (the action's field,
        where they come from in French, « du porte-cartes »)."""
        return ()

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        """The fields it keeps in the game's state (``state.StateField``), as the engine's
        ``STATE_FIELDS`` carries them: what the env's vector and the tests' invariants read."""
        return ()

    # -- worked examples -----------------------------------------------------
    def lay_routes(
        self, edition: Edition, engine: types.ModuleType, record: dict, routes: tuple[str, ...], seat: int
    ) -> None:
        """Complete a player's record of a hand-built position (``Game.to_dict`` shape) once the
        core has laid ``routes`` (their trains, their table points): what its rules add."""

    def lay_example(self, edition: Edition, state: dict) -> None:
        """Lay its part of the score example's position (the `to_dict` of a new game, with the
        example's routes and tickets): its own state in `state`."""

    def side_results(self, edition: Edition, game: Any) -> list[dict] | None:
        """The results the example ranks, when the sides are not the players (team play)."""
        return None

    def shared_tickets(self, edition: Edition, result: dict) -> tuple[list[dict], list[dict]]:
        """The score entries of the tickets a side holds together (completed, failed) in `result`."""
        return [], []

    def example_track(self, edition: Edition, result: dict) -> list[tuple[str, int, int]]:
        """What its rules put on the score track during the example's claims, from the player's
        ``scores()`` record: what scored (« ses 3 montagnes »), its points and the trains it took
        beyond the routes' spaces. The example counts them in the track's figure, where the
        rule scores them, not at the end."""
        return []

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        """What it adds to the score example, from the player's ``scores()`` record: sentences
        (without the sum) and the points each adds to the running total."""
        return []

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: types.ModuleType) -> SheetWords:
        return SheetWords()

    def score_rows(self, edition: Edition) -> list[str]:
        """Rows of the printable score pad, before « Total »."""
        return []

    def facts(self, edition: Edition) -> list[Fact]:
        return []

    def claim_notes(self, edition: Edition, route: Route) -> list[str]:
        """What a claim of the route costs or gains besides its cards, in French, as the play page
        shows it beside the route (« 1 wagon de plus, mis de côté »)."""
        return []

    def route_words(self, edition: Edition, route: Route) -> list[str]:
        """What it says of one route in the differences page's list of changed routes."""
        return []


@cache
def _files_in(folder: Path) -> frozenset[str]:
    """The names of the files in one of a mechanism's folders, read once a process (a compile
    asks for them hundreds of times; the compiler's own files do not change under it)."""
    try:
        return frozenset(entry.name for entry in os.scandir(folder) if entry.is_file())
    except OSError:
        return frozenset()
