"""The engines' typed API: the TypedDicts each engine prints are what it really returns, and a
type checker understands them.

(a) Every record of random games (states, observations, score records, legal actions, the
entries of ACTIONS, ROUTES and TICKETS) of every shipped edition, and of the example variants
that add mechanisms, conforms to its engine's types: no key undeclared, every required key
there, each value of its declared type. (b) ``mypy --strict --disallow-any-expr`` passes on a
small bot written against two generated engines, with no error inside the engines either, so no
``Any`` reaches the bot's code; (c) the same bot with a misspelt key and a wrong type fails.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Union

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from .engines import EDITIONS, engine, seat_counts
from .test_variant_edits import MECHANISM_VARIANTS as EDITED_VARIANTS

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "tests" / "variants"
# The example variants that bring mechanisms no shipped edition combines so, and the triple routes.
MECHANISM_VARIANTS = (*EDITED_VARIANTS, "usa-voies-triples")


class Mismatch(AssertionError):
    pass


_KEYS: dict[Any, tuple[dict[str, Any], set[str]]] = {}


def keys(hint: Any, module: types.ModuleType) -> tuple[dict[str, Any], set[str]]:
    """A TypedDict's keys with their types, and those it requires (read once per TypedDict)."""
    if hint not in _KEYS:
        # Postponed annotations leave `__required_keys__` counting every key: read NotRequired here.
        fields = typing.get_type_hints(hint, globalns=vars(module), include_extras=True)
        required = {key for key, field in fields.items() if typing.get_origin(field) is not NotRequired}
        _KEYS[hint] = fields, required
    return _KEYS[hint]


def conform(value: object, hint: Any, module: types.ModuleType, where: str) -> None:
    """Raise Mismatch unless `value` is of the type `hint` (TypedDict, list, dict, tuple, Literal,
    a union, int, str, bool, None), nested values included; `where` names it in the message."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        raise Mismatch(f"{where}: typed Any")
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            raise Mismatch(f"{where}: {type(value).__name__}, not a {hint.__name__}")
        fields, required = keys(hint, module)
        undeclared = sorted(set(value) - set(fields))
        missing = sorted(required - set(value))
        if undeclared or missing:
            raise Mismatch(f"{where}: {hint.__name__} has {undeclared} undeclared, lacks {missing}")
        for key, item in value.items():
            field = fields[key]
            if typing.get_origin(field) is NotRequired:
                field = typing.get_args(field)[0]
            conform(item, field, module, f"{where}.{key}")
    elif origin is Literal:
        if not any(type(value) is type(allowed) and value == allowed for allowed in args):
            raise Mismatch(f"{where}: {value!r} is none of {len(args)} literals ({args[:3]}…)")
    elif origin in (Union, types.UnionType):
        failures = []
        for alternative in args:
            try:
                conform(value, alternative, module, where)
                return
            except Mismatch as failure:
                failures.append(str(failure))
        raise Mismatch(f"{where}: no alternative fits: {failures}")
    elif origin is list:
        if not isinstance(value, list):
            raise Mismatch(f"{where}: {type(value).__name__}, not a list")
        for index, item in enumerate(value):
            conform(item, args[0], module, f"{where}[{index}]")
    elif origin is tuple:
        if not isinstance(value, tuple):
            raise Mismatch(f"{where}: {type(value).__name__}, not a tuple")
        items = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
        if len(items) != len(value):
            raise Mismatch(f"{where}: {len(value)} items, not {len(items)}")
        for index, (item, item_hint) in enumerate(zip(value, items, strict=True)):
            conform(item, item_hint, module, f"{where}[{index}]")
    elif origin is dict:
        if not isinstance(value, dict):
            raise Mismatch(f"{where}: {type(value).__name__}, not a dict")
        for key, item in value.items():
            conform(key, args[0], module, f"{where} (key)")
            conform(item, args[1], module, f"{where}[{key!r}]")
    elif hint is None or hint is type(None):
        if value is not None:
            raise Mismatch(f"{where}: {value!r}, not None")
    elif hint in (int, str, bool):
        if type(value) is not hint:  # a bool is no int here, nor an int a bool
            raise Mismatch(f"{where}: {type(value).__name__}, not {hint.__name__}")
    else:
        raise TypeError(f"{where}: the checker does not know {hint!r}")


def check_tables(module: types.ModuleType) -> None:
    for route_id, record in module.ROUTES.items():
        conform(route_id, module.RouteId, module, "ROUTES (key)")
        conform(record, module.RouteRecord, module, f"ROUTES[{route_id!r}]")
    for ticket_id, record in module.TICKETS.items():
        conform(ticket_id, module.TicketId, module, "TICKETS (key)")
        conform(record, module.TicketRecord, module, f"TICKETS[{ticket_id!r}]")
    for entry in module.ACTIONS:
        conform(entry, module.ActionEntry, module, f"ACTIONS[{entry.id}]")


def check_games(module: types.ModuleType, games: int, every: int) -> None:
    """Random games of `module`, their records checked every `every` steps and at the end."""
    counts = seat_counts(module)
    for seed in range(games):
        players = counts[seed % len(counts)]
        game = module.new_game(players, seed)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % every == 0 or game.is_over():
                conform(game.to_dict(), module.State, module, f"seed {seed} step {step}: state")
                for player in range(players):
                    conform(game.observation(player), module.Observation, module, f"observation({player})")
                for action in game.legal_actions():
                    conform(action, module.Action, module, f"seed {seed} step {step}: legal action")
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
            step += 1
        for record in game.scores():
            conform(record, module.ScoreRecord, module, f"seed {seed}: scores()")
        if hasattr(game, "team_scores"):
            for record in game.team_scores():
                conform(record, module.TeamScore, module, f"seed {seed}: team_scores()")


def test_the_checker_refuses_what_the_types_do_not_say() -> None:
    module = engine("europe")
    state = module.new_game(2, 1).to_dict()
    conform(state, module.State, module, "state")
    for broken, said in (
        ({**state, "curent_player": 0}, "undeclared"),
        ({key: value for key, value in state.items() if key != "tunnel"}, re.escape("lacks ['tunnel']")),
        ({**state, "phase": "lunch"}, "none of"),
        ({**state, "turns_played": True}, "bool, not int"),
        ({**state, "players": [{**state["players"][0], "stations": ["Atlantis"]}]}, "none of"),
    ):
        with pytest.raises(Mismatch, match=said):
            conform(broken, module.State, module, "state")


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_record_of_a_shipped_engine_conforms_to_its_types(edition: str) -> None:
    module = engine(edition)
    check_tables(module)
    check_games(module, games=1, every=12)


@pytest.mark.parametrize("name", MECHANISM_VARIANTS)
def test_every_record_of_a_variant_with_mechanisms_conforms_to_its_types(name: str) -> None:
    result = compile_edition(VARIANTS / f"{name}.aventuriers", loader())
    module = load_engine(result.engine_source, result.edition.module_name)
    check_tables(module)
    check_games(module, games=1, every=12)


# -- mypy on a bot -------------------------------------------------------------------------

BOT = '''
"""A greedy bot, as a bot author writes it against the engine's types."""

import random
import re

from aventuriers.generated.{package} import (
    ACTIONS,
    ROUTES,
    TICKETS,
    Action,
    ClaimRoute,
    Game,
    IllegalAction,
    Observation,
    ScoreRecord,
    State,
    measured,
    new_game,
)


def length(claim: ClaimRoute) -> int:
    return ROUTES[claim["route"]]["length"]


def longest_claim(game: Game) -> Action | None:
    claims = [action for action in game.legal_actions() if action["type"] == "claim_route"]
    return max(claims, key=length) if claims else None


def hand_size(observation: Observation) -> int:
    own = observation["players"][observation["player"]]
    return sum(own.get("hand", {{}}).values())


def play(seed: int) -> list[ScoreRecord]:
    rng = random.Random(seed)
    game = new_game(players=2, seed=seed)
    try:
        game.apply({{"type": "draw_card", "source": "deck"}})
    except IllegalAction as refusal:
        code: str = refusal.code
        message: str = refusal.message
        assert code and message
    while not game.is_over():
        action = longest_claim(game) if hand_size(game.observation(game.current_player)) > 6 else None
        if action is not None:
            game.apply(action)
        elif game.legal_count() > 3:
            game.apply(game.legal_at(rng.randrange(game.legal_count())))
        else:
            game.apply_id(game.sample_id(rng))
    state: State = game.to_dict()
    again = Game.from_dict(state)
    mask: bytes = again.action_mask()
    ids: list[int] = again.legal_action_ids()
    assert len(mask) == len(ACTIONS) and not ids
    copy = game.copy()
    copy.playout(rng)
    winners: list[int] = game.winners()
    points = sum(TICKETS[entry["ticket"]].get("points", 0) for entry in game.scores()[0]["tickets_completed"])
    paths = [measured(record, "longest_trail") for record in game.scores()]
    first = state["players"][0]
    print(winners, points, paths, first["trains"], len(first["routes"]), state["phase"])
    return game.scores()
'''

TEAM_BOT = """

from aventuriers.generated.{package} import TeamScore


def team_totals(game: Game) -> list[int]:
    records: list[TeamScore] = game.team_scores()
    observation = game.observation(0)
    holders = [team.get("holder", {{}}) for team in observation["teams"]]
    print(holders, observation["last_card_to"])
    return [record["total"] for record in records]
"""

# Each mistake, and the words of mypy's error that say it was seen.
MISTAKES = (
    ('print(state["curent_player"])', 'TypedDict "State" has no key "curent_player"'),
    ('total: str = game.scores()[0]["total"]', 'expression has type "int", variable has type "str"'),
    ('game.apply({"type": "draw_card", "sorce": "deck"})', "Argument 1"),
    ('game.apply({"type": "claim_route", "route": "nowhere", "cards": {}})', 'TypedDict item "route"'),
)

# mypy's options for the engines' own code: its defaults (the engines are typed where they meet
# a caller; inside, their tables and records are plain dicts). The bot gets --strict and
# --disallow-any-expr, so an Any coming out of an engine into its code is an error.
CONFIG = """
[mypy]
strict = True
disallow_any_expr = True
warn_unused_configs = True

[mypy-aventuriers.*]
disallow_any_expr = False
disallow_untyped_defs = False
disallow_incomplete_defs = False
disallow_untyped_calls = False
disallow_any_generics = False
disallow_subclassing_any = False
warn_return_any = False
no_implicit_reexport = False
strict_equality = False
extra_checks = False
# Its read-only containers' ignores are for other settings than these.
warn_unused_ignores = False
"""


def lay_out(folder: Path, packages: list[str]) -> None:
    """The installed package as mypy finds it in a wheel (it does not follow the editable
    install's import hook): `aventuriers` with its marker, `generated` and the engines."""
    package = folder / "aventuriers"
    (package / "generated").mkdir(parents=True)
    # The package's own __init__ (the PettingZoo entry point) is not the engines' API.
    (package / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(ROOT / "play" / "root" / "py.typed", package / "py.typed")
    shutil.copy(ROOT / "generated" / "__init__.py", package / "generated" / "__init__.py")
    for name in packages:
        target = package / "generated" / name
        target.mkdir()
        for file in ("__init__.py", "engine.py"):
            shutil.copy(ROOT / "generated" / name / file, target / file)


def mypy(folder: Path, *bots: str) -> subprocess.CompletedProcess:
    (folder / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    # Warm across runs: the engines' analysis is most of the time (7 s cold, under 1 s warm).
    cache = Path(tempfile.gettempdir()) / "aventuriers-mypy-cache"
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(cache), *bots],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def bots(folder: Path, mistake: str | None = None) -> list[str]:
    files = []
    for package, extra in (("usa_2025", ""), ("asia_equipes", TEAM_BOT)):
        source = BOT.format(package=package) + extra.format(package=package)
        if mistake is not None:
            source += "\n\ndef mistaken(game: Game, state: State) -> None:\n" + textwrap.indent(
                mistake, "    "
            )
        name = f"bot_{package}.py"
        (folder / name).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
        files.append(name)
    return files


def test_mypy_strict_understands_a_bot_written_against_the_engines(tmp_path: Path) -> None:
    lay_out(tmp_path, ["usa_2025", "asia_equipes"])
    result = mypy(tmp_path, *bots(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found in 2 source files" in result.stdout


@pytest.mark.parametrize(("mistake", "error"), MISTAKES)
def test_mypy_catches_a_bot_s_mistake(tmp_path: Path, mistake: str, error: str) -> None:
    lay_out(tmp_path, ["usa_2025", "asia_equipes"])
    result = mypy(tmp_path, *bots(tmp_path, mistake))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line for line in result.stdout.splitlines() if ": error:" in line]
    # The mistake, seen in each bot, and nothing in the engines.
    assert all(line.startswith("bot_") for line in lines), result.stdout
    for bot in ("bot_usa_2025.py", "bot_asia_equipes.py"):
        assert any(line.startswith(bot) and error in line for line in lines), result.stdout
