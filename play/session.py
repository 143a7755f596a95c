"""A playtest game: one engine game, its seats (people or bots), its record.

Pure Python, no web: the server (``web``) keeps sessions and turns requests into
these calls. A record is plain JSON — edition, the spec's hash, seed, seats and
every action in order — and replaying it rebuilds the game exactly: undo is a
replay without the last action.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import secrets
import stat
import threading
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aventuriers.compiler.french import os_reason

from .bots import Bot, make_bot
from .describe import describe, drawn_blind
from .state_fields import declared

RECORD_VERSION = 1
# How many of the last actions the page tells.
LOG_LENGTH = 12


def spec_hash(engine_source: str) -> str:
    """The fingerprint of a compiled spec: its generated engine, which every file of the
    ``extends`` chain determines."""
    return "sha256:" + hashlib.sha256(engine_source.encode("utf-8")).hexdigest()


class RecordError(Exception):
    """A record that cannot be replayed; the message says why, in French."""


@dataclass(slots=True)
class Session:
    """One game being played: the engine's game and who plays each seat."""

    engine: types.ModuleType
    edition: str  # what `aventuriers serve` was given: a shipped name or a spec path
    spec_hash: str
    seed: int
    seats: list[str]  # "human" or a bot name, by seat
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    actions: list[dict] = field(default_factory=list)
    # (seat, what they did as everyone saw it, as they saw it themselves: the card a blind draw gave)
    log: list[tuple[int, str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    game: Any = None
    bots: dict[int, Bot] = field(default_factory=dict)
    flash: str | None = None  # a refusal to show on the next page
    revealed: int | None = None  # the seat whose hand the screen last showed, people sharing one screen
    touched: float = field(default_factory=time.monotonic)  # when someone last asked for this game

    def __post_init__(self) -> None:
        if self.game is None:
            self.game = self.engine.new_game(len(self.seats), self.seed)
        self.bots = {seat: make_bot(name) for seat, name in enumerate(self.seats) if name != "human"}

    @property
    def humans(self) -> list[int]:
        return [seat for seat, name in enumerate(self.seats) if name == "human"]

    def is_human_turn(self) -> bool:
        return not self.game.is_over() and self.seats[self.game.current_player] == "human"

    def is_covered(self) -> bool:
        """Several people at one screen: the next one's hand stays hidden until they ask for it."""
        return self.is_human_turn() and len(self.humans) > 1 and self.revealed != self.viewer()

    def screen_observation(self) -> dict:
        """What the screen (and ``state.json``) may show: the viewer's observation, and while it
        is covered, the viewer's own record and team only as any other team sees them."""
        seat = self.viewer()
        observation = self.game.observation(seat)
        if not self.is_covered():
            return observation
        team = self.engine.SIDE_SIZE
        outsider = next(other for other in range(len(self.seats)) if other // team != seat // team)
        public = self.game.observation(outsider)
        observation["players"][seat] = public["players"][seat]
        if "teams" in observation:
            observation["teams"][seat // team] = public["teams"][seat // team]
        # What a mechanism keeps for the whole game and shows its owner only (a card drawn blind),
        # as the other seats see it.
        for kept in declared(self.engine, len(self.seats)):
            if kept["scope"] == "game" and kept.get("seen", "all") != "all" and kept["key"] in observation:
                observation[kept["key"]] = public.get(kept["key"])
        return observation

    def viewer(self) -> int:
        """The seat the page shows: the human to play, else the last human who played."""
        if self.is_human_turn():
            return self.game.current_player
        for entry in reversed(self.actions):
            if self.seats[entry["seat"]] == "human":
                return entry["seat"]
        return self.humans[0] if self.humans else 0

    def _play(self, seat: int, action: dict) -> None:
        """Apply ``action`` for ``seat``; IllegalAction leaves everything as it was."""
        before = self.game.observation(seat)
        self.game.apply(action)
        plain = copy.deepcopy(dict(action))
        self.actions.append({"seat": seat, "action": plain})
        self.log.append(log_entry(self.engine, seat, plain, before, self.game.observation(seat)))
        del self.log[:-LOG_LENGTH]

    def play_human(self, action: dict) -> None:
        if not self.is_human_turn():
            raise NotYourTurn()
        seat = self.game.current_player
        self._play(seat, action)
        self.revealed = seat

    def reveal(self) -> None:
        """The person to play has the screen: their hand and tickets may show."""
        if self.is_human_turn():
            self.revealed = self.game.current_player

    def advance(self, *, limit: int = 10_000) -> int:
        """Let the bots play until a person is to play or the game ends; how many moves they made."""
        moves = 0
        while not self.game.is_over() and not self.is_human_turn() and moves < limit:
            seat = self.game.current_player
            rng = random.Random(self.seed * 1_000_003 + len(self.actions))
            action = self.bots[seat].choose(
                self.engine, self.game.observation(seat), self.game.legal_actions(), rng
            )
            self._play(seat, action)
            moves += 1
        return moves

    def can_undo(self) -> bool:
        """A person's last turn can be taken back while no one has played after it (the bots
        wait for the person to confirm it), and only by that person: once another person's
        turn has come, the screen is theirs."""
        if not self.actions or self.seats[self.actions[-1]["seat"]] != "human":
            return False
        return not self.is_human_turn() or self.game.current_player == self.actions[-1]["seat"]

    def undo(self) -> None:
        """Take back the person's whole last turn: every action of that seat since another played."""
        if not self.can_undo():
            raise NothingToUndo()
        seat, kept = self.actions[-1]["seat"], len(self.actions)
        while kept and self.actions[kept - 1]["seat"] == seat:
            kept -= 1
        rebuilt = replay(self.engine, self.actions[:kept], players=len(self.seats), seed=self.seed)
        self.game, self.actions, self.log = rebuilt.game, rebuilt.actions, rebuilt.log

    def record(self, *, with_actions: bool = True) -> dict:
        head = {
            "format": RECORD_VERSION,
            "edition": self.edition,
            "engine_edition": self.engine.EDITION,
            "spec_hash": self.spec_hash,
            "seed": self.seed,
            "seats": list(self.seats),
            "finished": self.game.is_over(),
        }
        return {**head, "actions": copy.deepcopy(self.actions)} if with_actions else head

    def save(self, folder: Path) -> Path:
        """Write the record as ``folder/<id>.json``, replacing the previous one only when complete;
        a write that fails (a full disk) leaves the previous record and no partial file."""
        target = folder / record_name(self.id)
        partial = folder / f".{record_name(self.id)}.partiel"
        # One action a line: readable, and quick to write after every move.
        record = self.record(with_actions=False)
        actions = self.actions  # written as they are: no copy needed to serialise them
        head = json.dumps(record, ensure_ascii=False)[:-1]
        # Key order kept: a payment's cards go to the discard pile in the order they are listed.
        lines = ",\n".join(json.dumps(action, ensure_ascii=False) for action in actions)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial.write_text(f'{head}, "actions": [\n{lines}\n]}}\n', encoding="utf-8")
            os.replace(partial, target)
        except OSError:
            partial.unlink(missing_ok=True)
            raise
        return target

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """A change (moves, an undo) that takes effect whole or not at all: when it, or saving
        it, raises, the game, its actions and its log are as they were before."""
        before = (self.game.copy(), list(self.actions), list(self.log), self.revealed)
        try:
            yield
        except BaseException:
            self.game, self.actions, self.log, self.revealed = before
            raise


def record_name(game_id: str) -> str:
    return f"partie-{game_id}.json"


def _short(value: Any) -> str:
    """A value of a record as a message shows it: cut short, whatever its depth."""
    try:
        text = repr(value)
    except RecursionError:
        return "…"
    return text if len(text) <= 40 else text[:39] + "…"


class NotYourTurn(Exception):
    pass


class NothingToUndo(Exception):
    pass


@dataclass(slots=True)
class _Replayed:
    game: Any
    actions: list[dict]
    log: list[tuple[int, str, str]]


def log_entry(
    engine: types.ModuleType, seat: int, action: dict, before: dict, after: dict
) -> tuple[int, str, str]:
    """One line of the last moves: (seat, as everyone saw it, as the player saw it), from the
    player's observations before and after the action."""
    public = describe(engine, action, before["market"])
    if action.get("type") != "draw_card":
        return seat, public, public
    return (
        seat,
        public,
        describe(engine, action, before["market"], own=True, drawn=drawn_blind(engine, before, after)),
    )


def replay(engine: types.ModuleType, actions: list[dict], *, players: int, seed: int) -> _Replayed:
    """The game after ``actions`` (each ``{"seat", "action"}``), from a new game of that seed."""
    game = engine.new_game(players, seed)
    done: list[dict] = []
    log: list[tuple[int, str, str]] = []
    for index, entry in enumerate(actions):
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict):
            raise RecordError(f"action {index + 1} : une action est un objet « seat », « action »")
        seat = game.current_player
        if entry.get("seat") != seat:
            raise RecordError(
                f"action {index + 1} : le siège {_short(entry.get('seat'))} joue, mais c’est au tour de {seat}"
            )
        before = game.observation(seat)
        try:
            game.apply(entry["action"])
        except engine.IllegalAction as error:
            raise RecordError(f"action {index + 1} refusée : {error.message}") from None
        done.append(copy.deepcopy(entry))
        log.append(log_entry(engine, seat, entry["action"], before, game.observation(seat)))
    return _Replayed(game=game, actions=done, log=log[-LOG_LENGTH:])


# A record of 10,000 actions takes about 1 MB; a larger file is no record of a game.
MAX_RECORD_BYTES = 64 * 2**20


def read_record(path: Path) -> dict:
    """The JSON object of a record file: a regular file (never a device, a FIFO or a folder),
    of bounded size, UTF-8 with or without a byte-order mark."""
    try:
        kind = os.stat(path).st_mode
        if not stat.S_ISREG(kind):
            raise RecordError("ce n’est pas un fichier ordinaire (dossier, FIFO ou périphérique)")
        if os.stat(path).st_size > MAX_RECORD_BYTES:
            raise RecordError(f"fichier trop grand pour une partie (au plus {MAX_RECORD_BYTES // 2**20} Mo)")
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(os_reason(error)) from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"fichier trop grand pour une partie (au plus {MAX_RECORD_BYTES // 2**20} Mo)")
    try:
        record = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RecordError("ce n’est pas du texte UTF-8") from None
    except RecursionError:
        raise RecordError("JSON imbriqué trop profondément pour être une partie") from None
    except ValueError:
        raise RecordError("ce n’est pas du JSON") from None
    if not isinstance(record, dict):
        raise RecordError("un enregistrement de partie est un objet JSON")
    return record


def record_edition(record: dict, path: Path, shipped: dict[str, Path]) -> str:
    """The spec a record names: a shipped edition (``shipped``: name → its spec), or the file name
    of a spec lying beside the record. Never another path: a record is data, it does not choose
    what is read."""
    named = record.get("edition")
    if not isinstance(named, str) or not named:
        raise RecordError("l’enregistrement ne dit pas son édition (--edition)")
    if named in shipped:
        return str(shipped[named])
    beside = path.parent / Path(named.replace("\\", "/")).name
    if beside.suffix == ".aventuriers" and beside.is_file():
        return str(beside)
    raise RecordError(
        f"l’édition « {named[:80]} » n’est ni une édition livrée ni une spec posée à côté de la partie "
        "(--edition pour la donner)"
    )


def check_record(record: Any, engine: types.ModuleType, engine_hash: str) -> None:
    """A record this engine can replay: its shape, its edition, its spec's hash, its seats."""
    if not isinstance(record, dict):
        raise RecordError("un enregistrement de partie est un objet JSON")
    for key, kind in (("seed", int), ("seats", list), ("actions", list), ("spec_hash", str)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"champ « {key} » manquant ou mal formé")
    seats = record["seats"]
    low, high = engine.PLAYERS
    team = engine.SIDE_SIZE
    if not low <= len(seats) <= high or len(seats) % team or not all(isinstance(seat, str) for seat in seats):
        raise RecordError(
            f"« seats » donne {len(seats)} sièges ; « {engine.EDITION} » se joue de {low} à {high}"
            + (f", par équipes de {team}" if team > 1 else "")
        )
    if record.get("engine_edition") != engine.EDITION:
        raise RecordError(
            f"partie de l’édition « {record.get('engine_edition')} », pas de l’édition « {engine.EDITION} »"
        )
    if record["spec_hash"] != engine_hash:
        raise RecordError(
            "la spec a changé depuis cette partie (empreinte différente) : elle ne se rejoue pas à l’identique"
        )
