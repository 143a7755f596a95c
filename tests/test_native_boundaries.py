"""Every value that crosses from Python into a native engine is checked where it crosses.

Each entry point of each native engine (`engine_core`) is called with hostile values: a
generator whose `randrange` or `getrandbits` returns anything (negative, past the count, huge,
a bool, a float, a string, an exception, or after a move played on the game under the engine's
feet), positions, ids and players out of range or not integers, players and seeds of every
kind, states and actions written to hurt. Each answer is compared with the pure engine's on
the same state: the same value, or the same exception class (for IllegalAction, the same code
and message), and the same state after. Where the native module has more than the pure engine
(`guided_rollout`, the module's `playout(game, rng)`), the answer is the one its docstring gives.

The probes run in a child process (this file, run as a script), so that a crash is a failure
that names its edition, entry point and value rather than the end of the test run; after a
crash, a new child goes on from the next probe. The default run probes the states of one game
of each edition with some of the values, in a few seconds; the slow one (`-m slow`) those of
six games with every value, and hostile states written from every place of some of them.

The native engines are compiled once from the committed `generated/*/engine_core.pyx` (copied
from the cache when compiled before). Skipped where Cython, a C compiler or Python's headers
are missing, except where AVENTURIERS_NATIVE_TESTS=required (CI).
"""

from __future__ import annotations

import copy
import faulthandler
import importlib
import importlib.machinery
import importlib.util
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(path.parent.name for path in (ROOT / "generated").glob("*/engine_core.pyx"))
# The entry points each edition's probes must reach, so that none is left out in silence.
ENTRY_POINTS = {
    "Game",
    "Game.from_dict",
    "_restored",
    "new_game",
    "sample_id",
    "legal_at",
    "apply_id",
    "apply",
    "observation",
    "playout",
    "module playout",
    "guided_rollout",
    "copy",
    "pickle",
    "deepcopy",
    "legal_actions",
    "legal_action_ids",
    "action_mask",
    "legal_count",
    "scores",
    "winners",
    "to_dict",
    "is_over",
    "current_player",
    "players",
}
# A child running this long is stuck on a probe: it is stopped, and the probe reported.
STUCK_SECONDS = {False: 300, True: 3000}
MASK = (1 << 64) - 1
REPORTED = 400  # the characters of each answer a failure shows


# -- the child: the probes, run in this process ----------------------------------------------


class Count(int):
    """An integer of another type: a position or an id must be `type(value) is int`."""


class Index:
    """Not an integer, though `operator.index` takes it for one."""

    def __index__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "Index()"


class Told:
    """A generator that answers what it is told: `randrange(n)` and `getrandbits(bits)` return
    `value(n)` (raise it, where it is an exception), after `before()` where given (a move played
    on the game being sampled, under the engine's feet). What it was asked is kept."""

    def __init__(self, value: Callable[[int], object], before: Callable[[], object] | None = None):
        self.value, self.before, self.asked = value, before, []

    def randrange(self, n):
        return self._told(n)

    def getrandbits(self, bits):
        return self._told(bits)

    def _told(self, n):
        self.asked.append(n)
        if self.before is not None:
            self.before()
        value = self.value(n)
        if isinstance(value, BaseException):
            raise value
        return value


Values = list[tuple[str, Callable[[int], object]]]


def constants(values: list) -> Values:
    return [(repr(value), lambda _, value=value: value) for value in values]


def integers_around(n: int) -> Values:
    """Integers at and past the edges of `range(n)`, and of C's int, long and 64 bits."""
    values = [0, -1, -2, n - 1, n, n + 1, 2**31 - 1, 2**31, -(2**31) - 1, 2**32, 2**40, -(2**40)]
    values += [2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 2**100, -(2**100)]
    return constants(list(dict.fromkeys(values)))


def not_integers() -> Values:
    values = [True, False, 0.0, 1.0, 1.5, float("nan"), float("inf"), "0", b"0", None, [], (0,), {}]
    return constants(values) + [("Count(0)", lambda _: Count(0)), ("Index()", lambda _: Index())]


def drawn() -> Values:
    """What `randrange(n)` may return: in range, out of it, of another type, an exception."""
    relative = [
        ("n - 1", lambda n: n - 1),
        ("n", lambda n: n),
        ("n + 1", lambda n: n + 1),
        ("-n", lambda n: -n),
        ("Count(n - 1)", lambda n: Count(n - 1)),
        ("ValueError()", lambda n: ValueError("told")),
    ]
    return relative + integers_around(0) + not_integers()


def random_bits() -> Values:
    """What `getrandbits(64)` may return."""
    values = [7, 0, -1, 2**64 - 1, 2**64, 2**64 + 12345, 2**100 + 7, -(2**100), -(2**63), True, False]
    values += [1.5, float("nan"), "", b"", None, []]
    return constants(values) + [
        ("Count(12345)", lambda _: Count(12345)),
        ("KeyError()", lambda _: KeyError("told")),
    ]


def plain(value):
    """An answer as comparable data: a game by its state, an action with its id."""
    if hasattr(value, "to_dict") and hasattr(value, "legal_actions"):
        return ("game", answer(value.to_dict))
    if isinstance(value, dict) and hasattr(value, "id"):
        return ("action", dict(value), value.id)
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def answer(call: Callable[[], object]):
    """What `call()` returns, as data, or the exception it raises: its class, and for
    IllegalAction its code and message."""
    try:
        return ("returned", plain(call()))
    except Exception as error:
        if hasattr(error, "code") and hasattr(error, "message"):
            return ("raised", type(error).__name__, error.code, error.message)
        return ("raised", type(error).__name__)


@dataclass
class Probe:
    """One call of an entry point: `run(engine, game)` on either engine, `game` a copy of the
    state's game in that engine (None: a call without one); `reference(pure, game)`, the pure
    engine's answer where it is not `run` on the pure engine (the same `key`, the same answer)."""

    entry: str
    value: str
    run: Callable
    state: int | None = None
    changes: bool = False  # the call may change the game: its state after is compared too
    reference: Callable | None = None
    key: tuple | None = None


class Edition:
    """An edition's two engines: the native one compiled by the fixture, in a package of its own
    beside the pure one it takes its tables from (`aventuriers.generated`'s own)."""

    def __init__(self, folder: Path, module: str):
        package = f"native_boundaries_{module}"
        holder = importlib.util.module_from_spec(
            importlib.machinery.ModuleSpec(package, None, is_package=True)
        )
        holder.__path__ = [str(folder / module)]
        sys.modules[package] = holder
        sys.modules[f"{package}.engine"] = importlib.import_module(f"aventuriers.generated.{module}.engine")
        built = [path for path in (folder / module).iterdir() if path.name.startswith("engine_core.")]
        built = [path for path in built if path.suffix in (".so", ".pyd")]
        spec = importlib.util.spec_from_file_location(f"{package}.engine_core", built[0])
        self.native = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = self.native
        spec.loader.exec_module(self.native)
        self.pure = sys.modules[f"{package}.engine"]
        self.name = self.pure.EDITION
        low, high = self.pure.PLAYERS
        self.seats = [n for n in range(low, high + 1) if n % getattr(self.pure, "TEAM_SIZE", 1) == 0]

    def states(self, thorough: bool) -> list[dict]:
        """States of random games: the first where each set of kinds of action is legal (each
        phase; a turn with nothing to claim…); one six moves before the end, and the end; from
        six games, with one state in forty besides, when thorough. The games are the native
        engine's (the pure engine's too: test_native.py), for speed; each state is checked by
        the pure engine's `from_dict` before it is probed."""
        found: dict[tuple, dict] = {}
        ends, extra = [], []
        for seed in range(6 if thorough else 1):
            game = self.native.new_game(self.seats[seed % len(self.seats)], seed)
            chooser = random.Random(seed)
            history = []
            while not game.is_over():
                kinds = frozenset(self.pure.ACTIONS[index]["type"] for index in game.legal_action_ids())
                # Tickets are chosen at set-up and after a draw: each phase is probed.
                phase = game.to_dict()["phase"] if "keep_tickets" in kinds else "turn"
                if (kinds, phase) not in found:
                    found[kinds, phase] = game.to_dict()
                elif thorough and len(history) % 40 == 5:
                    extra.append(game.to_dict())
                history.append(game.copy())
                game.apply_id(game.sample_id(chooser))
            ends += [history[-6].to_dict(), game.to_dict()]
        return [*found.values(), *extra, *ends]


@dataclass
class Probes:
    """The probes of one edition. Quick, one value in `step` of each list (`pick`), another one
    at each turn (each state, each edition), so that the states and editions share the values
    out; the playouts and hostile states from one state only (the one before the end, whose
    playouts are short)."""

    edition: Edition
    states: list[dict]
    thorough: bool
    turn: int  # the edition's place among those probed

    def pick(self, values: list, step: int, turn: int = 0) -> list:
        return values if self.thorough else values[(self.turn + turn) % step :: step]

    def __iter__(self) -> Iterator[Probe]:
        pure = self.edition.pure
        before_end = len(self.states) - 2
        for number, state in enumerate(self.states):
            game = pure.Game.from_dict(state)
            yield from self.methods(number)
            yield from self.positions(number, game)
            yield from self.actions(number, game)
            # Playouts and hostile states from a few states (those of a playout cost most).
            if (self.thorough and number % 3 == 0) or number == before_end:
                yield from self.playouts(number)
            if (self.thorough and number % 6 == 0) or number == before_end:
                yield from self.hostile_states(state)
            elif not self.thorough:
                # A mechanism's record of the moment (a tunnel claim, cards owed, a card drawn
                # blind), absent from the end: its places changed.
                over = self.states[-1]
                own = [key for key, value in state.items() if value is not None and over.get(key) is None]
                if own:
                    yield from self.hostile_states(state, own)
        yield from self.new_games()

    def methods(self, number: int) -> Iterator[Probe]:
        """The methods without arguments, and the copies."""
        names = ["legal_actions", "legal_action_ids", "action_mask", "legal_count", "scores", "winners"]
        names += ["to_dict", "is_over", "team_scores"]
        for name in names:
            if hasattr(self.edition.pure.Game, name):
                yield Probe(name, "()", lambda e, g, name=name: getattr(g, name)(), number)
        for name in ("current_player", "players"):
            yield Probe(name, "", lambda e, g, name=name: getattr(g, name), number)
        yield Probe("copy", "()", lambda e, g: g.copy(), number)
        yield Probe("pickle", "dumps, loads", lambda e, g: pickle.loads(pickle.dumps(g)), number)
        yield Probe("deepcopy", "()", lambda e, g: copy.deepcopy(g), number)

    def positions(self, number: int, game) -> Iterator[Probe]:
        """sample_id, legal_at, apply_id, observation: numbers of every kind."""
        pure = self.edition.pure
        for name, value in self.pick(drawn(), 4, number):
            yield Probe("sample_id", name, lambda e, g, value=value: sampled(g, Told(value)), number)

        for name, value in self.pick(drawn(), 9, number):
            # Played meanwhile: the count the engine asked for is not the count any more.
            yield Probe(
                "sample_id",
                f"{name}, a move played meanwhile",
                lambda e, g, value=value: sampled(g, Told(value, lambda: first_move(g))),
                number,
                changes=True,
            )
        for name, value in self.pick(integers_around(game.legal_count()) + not_integers(), 5, number):
            yield Probe("legal_at", name, lambda e, g, value=value: g.legal_at(value(0)), number)
        legal = game.legal_action_ids()
        ids = integers_around(len(pure.ACTIONS)) + not_integers()
        ids += [(f"legal {index}", lambda _, index=index: index) for index in legal[:2]]
        step = max(1, len(pure.ACTIONS) // 7)
        ids += [(f"{index}", lambda _, index=index: index) for index in range(0, len(pure.ACTIONS), step)]
        for name, value in self.pick(ids, 7, number):
            yield Probe(
                "apply_id", name, lambda e, g, value=value: g.apply_id(value(0)), number, changes=True
            )
        for name, value in self.pick(integers_around(game.players) + not_integers(), 11, number):
            yield Probe("observation", name, lambda e, g, value=value: g.observation(value(0)), number)

    def actions(self, number: int, game) -> Iterator[Probe]:
        """apply: what is not an action, entries of ACTIONS, each kind of legal action with each
        field changed in each hostile way, and a legal action's copy of the engine's own class
        with an id that is not its own."""
        pure = self.edition.pure
        written = [None, 3, "pass", [], (), b"", {}, {"type": None}, {"type": 3}, {"type": "??"}]
        written += [{"type": "pass", "??": 1}, [("type", "pass")]]
        for action in self.pick(written, 6, number):
            yield Probe(
                "apply", repr(action), lambda e, g, action=action: g.apply(action), number, changes=True
            )
        step = max(1, len(pure.ACTIONS) // (5 if self.thorough else 2))
        for index in range(0, len(pure.ACTIONS), step):
            yield Probe(
                "apply",
                f"ACTIONS[{index}]",
                lambda e, g, index=index: g.apply(e.ACTIONS[index]),
                number,
                changes=True,
            )
        names = [*pure.COLORS, *list(pure.ROUTES)[:2], *list(pure.TICKETS)[:2]]
        by_kind = defaultdict(list)
        for action in game.legal_actions():
            by_kind[action["type"]].append(dict(action))
        for listed in by_kind.values():
            for action in listed[: 3 if self.thorough else 1]:
                yield Probe(
                    "apply",
                    f"{action}"[:80],
                    lambda e, g, action=action: g.apply(dict(action)),
                    number,
                    changes=True,
                )
                for field, value in action.items():
                    if field == "type":
                        continue
                    for name, hostile in self.pick(
                        changed(value, names, None if self.thorough else 2), 8, number
                    ):
                        wrong = {**action, field: hostile}
                        yield Probe(
                            "apply",
                            f"{action['type']} {field}={name}",
                            lambda e, g, wrong=wrong: g.apply(wrong),
                            number,
                            changes=True,
                        )
        listed = game.legal_actions()
        others = [None, -1, len(pure.ACTIONS), 2**70, "0", True, listed[-1].id if listed else 0]
        for other in self.pick(others, 3, number) if listed else []:
            yield Probe(
                "apply",
                f"{dict(listed[0])} with id {other!r}"[:80],
                lambda e, g, other=other: g.apply(forged(listed[0], other)),
                number,
                changes=True,
            )

    def playouts(self, number: int) -> Iterator[Probe]:
        """playout, the module's playout(game, rng) and guided_rollout: what getrandbits
        returns, late_trains, games that are not this edition's."""
        native, pure = self.edition.native, self.edition.pure
        for name, value in self.pick(random_bits(), 3):
            key = (number, name)
            yield Probe(
                "playout",
                f"getrandbits -> {name}",
                lambda e, g, value=value: played(g, Told(value)),
                number,
                key=key,
            )
            for own in (False, True):
                yield Probe(
                    "module playout",
                    f"{'a pure game' if own else 'a native game'}, getrandbits -> {name}",
                    lambda e, g, value=value, own=own: module_played(native, pure, g, Told(value), own),
                    number,
                    reference=lambda e, g, value=value: played(g, Told(value)),
                    key=key,
                )
            yield Probe(
                "guided_rollout",
                f"getrandbits -> {name}",
                lambda e, g, value=value: guided(native, pure, g, Told(value), 12, False),
                number,
                reference=lambda e, g, value=value: well_guided(native, g, value, 12),
            )
        yield Probe(
            "playout",
            "getrandbits -> 7, a move played meanwhile",
            lambda e, g: played(g, Told(lambda _: 7, lambda: first_move(g))),
            number,
        )
        lates = [12, -1, 0, pure.TRAINS, pure.TRAINS + 1, 2**31, -(2**31) - 1, 2**63, 2**100, -(2**100)]
        lates += [True, 1.5, "3", None, Count(5)]
        for late in self.pick(lates, 4):
            for own in (False, True):
                yield Probe(
                    "guided_rollout",
                    f"{'a pure game' if own else 'a native game'}, late_trains {late!r}",
                    lambda e, g, late=late, own=own: guided(native, pure, g, Told(lambda _: 99), late, own),
                    number,
                    reference=lambda e, g, late=late: well_guided(native, g, lambda _: 99, late),
                )
        for other in self.pick([None, 3, "game", {}, pure.Game, object(), native.Game], 3):
            yield Probe(
                "module playout",
                f"game {other!r}"[:60],
                lambda e, g, other=other: native.playout(other, Told(lambda _: 5)),
                number,
                reference=not_a_game,
            )
            yield Probe(
                "guided_rollout",
                f"game {other!r}"[:60],
                lambda e, g, other=other: native.guided_rollout(other, Told(lambda _: 5), 12),
                number,
                reference=not_a_game,
            )

    def hostile_states(self, state: dict, under: list[str] | None = None) -> Iterator[Probe]:
        """Game.from_dict and unpickling (`_restored`): what is not a state, and this state with
        one place changed in each hostile way (quick: the numbers, the lists, player 0's; those
        `under` these keys only, where given); each state taken, played on."""
        pure = self.edition.pure
        written = [None, 3, "state", [], {}, {"edition": pure.EDITION}, {**state, "edition": "??"}]
        for value in written if under is None else []:
            yield Probe("Game.from_dict", repr(value)[:50], lambda e, g, value=value: e.Game.from_dict(value))
        for path, value in places(state):
            if under is not None and (not path or path[0] not in under):
                continue
            if not self.thorough and not quick_place(path, value):
                continue
            if path and isinstance(path[-1], int) and 0 < path[-1] < len(parent(state, path)) - 1:
                continue  # of a list's cards or names, the first and the last (as any other)
            for name, new in self.pick(changed(value, list(pure.COLORS), None if self.thorough else 2), 4):
                where = ".".join(map(str, path)) or "state"
                wrong = lambda path=path, new=new: replaced(state, path, new)  # noqa: E731
                yield Probe("Game.from_dict", f"{where}={name}", lambda e, g, wrong=wrong: loaded(e, wrong()))
                # Unpickling reads a state as from_dict does: the numbers of the state's own.
                if type(value) is int and len(path) == 1:
                    yield Probe(
                        "_restored", f"{where}={name}", lambda e, g, wrong=wrong: restored(e, wrong())
                    )

    def new_games(self) -> Iterator[Probe]:
        """new_game and Game(players, seed): players and seeds of every kind; every method of a
        game made by Game(players, seed), not dealt."""
        pure = self.edition.pure
        low, high = pure.PLAYERS
        seats = self.edition.seats
        for name, value in self.pick(integers_around(high) + not_integers() + constants([low - 1, low]), 2):
            yield Probe("new_game", f"players {name}", lambda e, g, value=value: e.new_game(value(0), 1))
            reference = None
            if isinstance(value(0), int) and not low <= value(0) <= high:
                # The pure engine's Game takes any number of players (StopIteration past the
                # rules' counts, no end for a huge one); the native one refuses as new_game does.
                reference = lambda e, g, value=value: e.new_game(value(0), 1)  # noqa: E731
            yield Probe(
                "Game", f"players {name}", lambda e, g, value=value: e.Game(value(0), 1), reference=reference
            )
        for name, value in self.pick(integers_around(0) + not_integers(), 3):
            yield Probe("new_game", f"seed {name}", lambda e, g, value=value: e.new_game(seats[0], value(0)))
            yield Probe("Game", f"seed {name}", lambda e, g, value=value: e.Game(seats[0], value(0)))
        yield Probe("Game", "no arguments", lambda e, g: e.Game())
        for players in seats:
            made = f"Game({players}, 3)"
            for name in ("legal_actions", "legal_action_ids", "legal_count", "to_dict", "scores"):
                yield Probe(
                    name, made, lambda e, g, name=name, players=players: getattr(e.Game(players, 3), name)()
                )
            yield Probe(
                "sample_id",
                made,
                lambda e, g, players=players: sampled(e.Game(players, 3), Told(lambda n: 0)),
            )
            yield Probe(
                "playout", made, lambda e, g, players=players: played(e.Game(players, 3), Told(lambda _: 5))
            )
            yield Probe("apply_id", made, lambda e, g, players=players: e.Game(players, 3).apply_id(0))


def forged(action, index):
    """A copy of a legal action, of its own class (read-only, as `legal_actions()` lists them),
    with the id `index` (None: none at all)."""
    copied = type(action)(dict(action))
    for name in ("payment", "shared"):
        if hasattr(action, name):
            setattr(copied, name, getattr(action, name))
    if index is not None:
        copied.id = index
    return copied


def sampled(game, rng: Told):
    """`game.sample_id(rng)`, and what the generator was asked."""
    return answer(lambda: game.sample_id(rng)), rng.asked


def played(game, rng: Told):
    """`game.playout(rng)`: what it answers, the game after, what the generator was asked."""
    return answer(lambda: game.playout(rng)), game.to_dict(), rng.asked


def first_move(game) -> None:
    """Play the game's first legal move (from inside its engine's call to the generator)."""
    if not game.is_over():
        game.apply_id(game.legal_action_ids()[0])


def module_played(native, pure, game, rng: Told, own: bool):
    """The native module's playout(game, rng), on a native game or (`own`) on the pure engine's:
    as `played` (the pure engine's `game.playout(rng)` is the reference)."""
    target = pure.Game.from_dict(game.to_dict()) if own else game
    return answer(lambda: native.playout(target, rng)), target.to_dict(), rng.asked


def guided(native, pure, game, rng: Told, late, own: bool):
    target = pure.Game.from_dict(game.to_dict()) if own else game
    return answer(lambda: native.guided_rollout(target, rng, late)), target.to_dict(), rng.asked


def well_guided(native, game, value, late):
    """What guided_rollout answers, as `guided` shows it: late_trains not an integer refused
    (TypeError) before anything is drawn; then what getrandbits(64) returns taken as `playout`
    takes it (ignored when the game is over; its 64 bits when it is an integer of any size; else
    refused); late_trains as far as trains go (no player has fewer than none, nor more than all)."""
    state = game.to_dict()
    if not isinstance(late, int):
        return ("raised", "TypeError"), state, []
    told = value(64)
    if isinstance(told, BaseException):
        return ("raised", type(told).__name__), state, [64]
    if state["phase"] == "over":
        return ("returned", None), state, [64]
    if not isinstance(told, int):
        return ("raised", "TypeError"), state, [64]
    target = native.Game.from_dict(state)
    native.guided_rollout(target, Told(lambda _: told & MASK), max(-1, min(late, native.TRAINS + 1)))
    return ("returned", None), target.to_dict(), [64]


def not_a_game(engine, game):
    raise TypeError("not a game of this edition")


def changed(value, names: list[str], keys: int | None = None) -> list[tuple[str, object]]:
    """Hostile replacements of one field of an action or one place of a state (of a dict's
    first `keys` entries, or of all)."""
    if type(value) is int:
        found = [value + 1, -1, 2**31, 2**63, 2**64, 2**100, -(2**100), True, float(value), str(value), None]
        found += [Count(value), value - 1]
    elif isinstance(value, str):
        found = ["", 3, None, "??", *names[:2]]
    elif isinstance(value, dict):
        found = [
            {},
            [],
            None,
            {**value, "??": 1},
            {**value, 3: 1},
            {**value, names[0]: 1},
            {names[1]: 1, **value},
        ]
        for key in list(value)[:keys]:
            found += [
                {**value, key: hostile} for hostile in (2**31, -1, 2**63, 2**100, True, 1.5, "1", None, 0)
            ]
    elif isinstance(value, list):
        found = [value + value[:1], [], None, "abc", value[:-1], value[::-1], [3], [None], value * 12]
    elif value is None:
        found = [0, "??", [], {}]
    else:
        found = [None]
    return [(repr(item)[:50], item) for item in found]


def places(value, path=()) -> Iterator[tuple]:
    """Every place in a state, with its value: (path, value)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def quick_place(path: tuple, value) -> bool:
    """The places a quick run changes: the state's own and its records' (player 0's, team 0's,
    a pending claim's), not each card or name of a list."""
    if path and isinstance(path[-1], int) and isinstance(value, str):
        return False
    return len(path) <= 1 or (path[1] == 0 if path[0] in ("players", "teams") else len(path) <= 3)


def parent(state, path: tuple):
    """The dict or list holding the place at `path`."""
    for key in path[:-1]:
        state = state[key]
    return state


def replaced(value, path: tuple, new):
    """`value` with the place at `path` replaced by `new`: the dicts and lists on the way
    copied, the rest shared."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(item, rest, new) if index == head else item for index, item in enumerate(value)]


def loaded(engine, state):
    """`Game.from_dict(state)`, and where it takes the state, what the game says and plays."""
    game = engine.Game.from_dict(state)
    return (
        game,
        answer(game.legal_action_ids),
        answer(lambda: sampled(game.copy(), Told(lambda n: n // 2))),
        answer(lambda: played(game.copy(), Told(lambda _: 3))),
    )


def restored(engine, state):
    """What unpickling a game saved with `state` makes: the native module's `_restored`; the pure
    engine's games pickle their fields, not a state, so its `from_dict` is the reference."""
    return engine._restored(state) if hasattr(engine, "_restored") else engine.Game.from_dict(state)


def outcomes(edition: Edition, probe: Probe, games: list, references: dict) -> tuple:
    """The native engine's answer to a probe and the pure engine's (or the reference's, the same
    for every probe of its `key`), with the states after where the probe changes its game."""
    native_game, pure_game = (None, None) if probe.state is None else (g.copy() for g in games[probe.state])
    native = answer(lambda: probe.run(edition.native, native_game))
    if probe.changes:
        native = (native, answer(native_game.to_dict))
    if probe.key in references:
        return native, references[probe.key]
    pure = answer(lambda: (probe.reference or probe.run)(edition.pure, pure_game))
    if probe.changes:
        pure = (pure, answer(pure_game.to_dict))
    if probe.key is not None:
        references[probe.key] = pure
    return native, pure


def child(folder: Path, module: str, start: int, thorough: bool) -> None:
    """Run the probes of one edition (its engine module) from number `start` on, each announced
    before it runs (a JSON line on stdout, written at once), so that the parent knows which one
    stopped a child, and those whose answers differ reported after they ran."""
    faulthandler.enable()
    out = sys.stdout
    number = 0
    out.write(json.dumps({"setting up": module}) + "\n")
    out.flush()
    edition = Edition(folder, module)
    states = edition.states(thorough)
    games = [(edition.native.Game.from_dict(state), edition.pure.Game.from_dict(state)) for state in states]
    references = {}
    for probe in Probes(edition, states, thorough, MODULES.index(module)):
        if number < start:
            number += 1
            continue
        out.write(
            json.dumps({"start": number, "edition": edition.name, "entry": probe.entry, "value": probe.value})
            + "\n"
        )
        out.flush()  # with the report of the probe before, if it differed
        native, pure = outcomes(edition, probe, games, references)
        if native != pure:
            out.write(
                json.dumps(
                    {"differs": number, "native": repr(native)[:REPORTED], "pure": repr(pure)[:REPORTED]}
                )
                + "\n"
            )
        number += 1
    out.write(json.dumps({"finished": number}) + "\n")


# -- the parent: the tests -------------------------------------------------------------------


def skipped() -> str | None:
    from aventuriers.compiler.native import missing_toolchain

    lacking = missing_toolchain()
    if lacking is None or os.environ.get("AVENTURIERS_NATIVE_TESTS") == "required":
        return None
    return f"pas de construction native ici : {lacking}"


SKIPPED = skipped()
pytestmark = pytest.mark.skipif(SKIPPED is not None, reason=SKIPPED or "")


@pytest.fixture(scope="module")
def engines(tmp_path_factory) -> Callable[[str], Path]:
    """The folder holding an edition's native engine, compiled from `generated/` (or taken from
    the cache) when a test first asks for it: each worker compiles only the engines of its tests."""
    from aventuriers.compiler.native import build_native

    out = tmp_path_factory.mktemp("boundaries")

    def compiled(module: str) -> Path:
        if not (out / module).exists():
            (out / module).mkdir()
            shutil.copyfile(ROOT / "generated" / module / "engine_core.pyx", out / module / "engine_core.pyx")
            build_native(out, [module])
        return out

    return compiled


def run_probes(folder: Path, module: str, thorough: bool) -> tuple[list[str], set[str]]:
    """Every probe of one edition, through as many children as the crashes take: the failures,
    and the entry points probed."""
    failures: dict[str, list[str]] = defaultdict(list)
    probed: dict[str, set[str]] = defaultdict(set)
    start = 0
    edition = module.replace("_", "-")
    for _ in range(100):
        mode = "thorough" if thorough else "quick"
        command = [sys.executable, __file__, str(folder), module, str(start), mode]
        try:
            result = subprocess.run(
                command,
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
                timeout=STUCK_SECONDS[thorough],
            )
            output, returned, errors = result.stdout, result.returncode, result.stderr
        except subprocess.TimeoutExpired as stuck:
            output, returned, errors = stuck.stdout or "", "stuck", ""
            output = output.decode() if isinstance(output, bytes) else output
        started, finished = None, False
        for line in output.splitlines():
            record = json.loads(line)
            if "start" in record:
                started = record
                probed[record["edition"]].add(record["entry"])
            elif "differs" in record:
                failures[started["edition"]].append(
                    f"{started['entry']}({started['value']}): native {record['native']}, pure {record['pure']}"
                )
            elif "setting up" in record:
                started = None
            else:
                finished = True
        if finished and returned == 0:
            return failures[edition], probed[edition]
        if started is None:
            pytest.fail(f"the probes' child stopped outside a probe ({returned}): {errors[-3000:]}")
        if returned == "stuck":
            how = f"no answer in {STUCK_SECONDS[thorough]} s"
        else:
            how = f"signal {-returned}" if returned < 0 else f"exit status {returned}"
        last = " | ".join(errors.strip().splitlines()[-8:])
        failures[started["edition"]].append(
            f"{started['entry']}({started['value']}) stopped the child ({how}): {last}"
        )
        start = started["start"] + 1
    pytest.fail("the probes' child stopped a hundred times")


EDITIONS = [module.replace("_", "-") for module in MODULES]


def probed_well(engines, edition: str, thorough: bool) -> None:
    module = edition.replace("-", "_")
    failures, probed = run_probes(engines(module), module, thorough)
    assert ENTRY_POINTS <= probed, sorted(ENTRY_POINTS - probed)
    assert not failures, f"{len(failures)} probes:\n" + "\n".join(failures[:40])


# A default run compiles one native engine (on a new machine, half a minute each): the first of
# the editions it plays in full (tests.engines.COVER) that has one; `-m slow` the others.
def quick_edition() -> str:
    from tests.engines import COVER  # the parent's: a child, run as a script, has no `tests`

    return next(edition for edition in COVER if edition in EDITIONS)


QUICK = quick_edition() if __name__ != "__main__" else ""


@pytest.mark.parametrize(
    "edition",
    [edition if edition == QUICK else pytest.param(edition, marks=pytest.mark.slow) for edition in EDITIONS],
)
def test_every_entry_point_answers_hostile_values_as_the_pure_engine(engines, edition: str) -> None:
    probed_well(engines, edition, thorough=False)


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_entry_point_answers_every_hostile_value_as_the_pure_engine(engines, edition: str) -> None:
    probed_well(engines, edition, thorough=True)


if __name__ == "__main__":
    child(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4] == "thorough")
