"""The native build (issue 11): `aventuriers build --native` compiles an engine with mypyc;
the compiled engine has the same API and plays the same games as the pure one.

Skipped where mypyc is not installed (`pip install -e '.[native]'`; CI installs it).
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path

import pytest
from aventuriers.compiler.cli import main
from aventuriers.compiler.native import mypyc_available
from aventuriers.compiler.write import is_native_artefact
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance_runner import CONFORMANCE, load_cases, run_case, unmet_requirement
from tests.engines import engine, play_random

pytestmark = pytest.mark.skipif(not mypyc_available(), reason="mypyc is not installed")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def native(tmp_path_factory):
    """usa-2025 built and compiled in a folder of its own, loaded as a module."""
    out = tmp_path_factory.mktemp("native") / "generated"
    assert main(["build", "usa-2025", "--out", str(out), "--native"]) == 0
    built = [path for path in (out / "usa_2025").iterdir() if is_native_artefact(path.name)]
    assert len(built) == 1
    spec = importlib.util.spec_from_file_location("engine_native", built[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_native_engine_is_compiled(native) -> None:
    assert Path(native.__file__).suffix in (".so", ".pyd")
    assert native.EDITION == "usa-2025"


def test_500_games_are_the_same_state_by_state(native) -> None:
    pure = engine("usa-2025")
    for seed in range(500):
        players = 2 + seed % 4
        compiled, reference = native.new_game(players, seed), pure.new_game(players, seed)
        chooser = random.Random(seed)
        while not reference.is_over():
            actions = reference.legal_actions()
            assert compiled.legal_actions() == actions
            pick = chooser.randrange(len(actions))
            reference.apply(actions[pick])
            compiled.apply_id(actions[pick].id)
            assert compiled.to_dict() == reference.to_dict()
        assert compiled.scores() == reference.scores() and compiled.winners() == reference.winners()


def test_every_usa_conformance_case_passes_on_the_native_engine(native) -> None:
    ran = 0
    for folder in ("usa-base", "usa-2025"):
        for _, case in load_cases(CONFORMANCE / folder):
            if unmet_requirement(native, case["requires"]) is None:
                run_case(native, case)
                ran += 1
    assert ran > 30


def test_a_refused_action_is_the_same_error(native) -> None:
    game = native.new_game(2, 1)
    before = game.to_dict()
    with pytest.raises(native.IllegalAction) as refused:
        game.apply({"type": "draw_card", "source": "deck"})
    assert refused.value.code == "must_keep_tickets"
    assert game.to_dict() == before
    with pytest.raises(TypeError):
        game.legal_actions()[0]["tickets"] = []


def test_build_check_ignores_a_native_engine(tmp_path, native) -> None:
    out = tmp_path / "generated"
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    shutil.copyfile(native.__file__, out / "usa_2025" / Path(native.__file__).name)
    assert main(["build", "usa-2025", "--out", str(out), "--check"]) == 0


@pytest.mark.parametrize(
    "engine_file", sorted((ROOT / "generated").glob("*/engine.py")), ids=lambda p: p.parent.name
)
def test_every_generated_engine_type_checks_as_mypyc_needs(engine_file: Path) -> None:
    """mypyc compiles only code that type-checks: every shipped engine does."""
    from mypy import api

    stdout, stderr, status = api.run(
        ["--no-error-summary", "--follow-imports=skip", "--no-incremental", str(engine_file)]
    )
    assert status == 0, stdout + stderr


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**63))
def test_invariants_hold_at_every_step_of_native_games(native, players: int, seed: int) -> None:
    play_random(native, players, seed, check_every_step=True)
