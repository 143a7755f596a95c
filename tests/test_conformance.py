"""Conformance cases, as data files per edition, run against the generated engines.

Cases in the folder of an abstract base (``usa-base``) are rules shared by
every edition that extends it and run against each of them, except where a
file says it ``requires`` what an edition changes (its own folder covers that).
"""

from __future__ import annotations

import functools
import importlib
import json

import pytest
from aventuriers.compiler import layout
from aventuriers.compiler.cache import EDITION_FILE

from tests.conformance_runner import CONFORMANCE, load_cases, mismatch, run_case, unmet_requirement


@functools.cache
def ancestry(edition: str) -> tuple[str, ...]:
    """The editions the generated engine of `edition` was built from by `extends`, itself
    included (its `edition.json`: reading it costs nothing, where loading the specs again at
    every collection cost seconds). An edition that takes a block from another (`board from:`)
    does not play that one's rules: that one is not among them."""
    record = layout.GENERATED / layout.module_name(edition) / EDITION_FILE
    return tuple(json.loads(record.read_text(encoding="utf-8"))["ancestry"])


def editions_under(folder_name: str) -> list[str]:
    """The shipped editions that are, or extend, the edition a folder is named after."""
    return [name for name in layout.playable_specs() if folder_name in ancestry(name)]


def engine_of(edition: str):
    return importlib.import_module(f"aventuriers.generated.{edition.replace('-', '_')}")


def all_cases():
    params = []
    for folder in sorted(path for path in CONFORMANCE.iterdir() if path.is_dir()):
        for edition in editions_under(folder.name):
            for label, case in load_cases(folder):
                if unmet_requirement(engine_of(edition), case["requires"]) is None:
                    params.append(pytest.param(edition, case, id=f"{edition}/{folder.name}/{label}"))
    return params


CASES = all_cases()


@pytest.mark.parametrize(("edition", "case"), CASES)
def test_conformance(edition: str, case: dict) -> None:
    run_case(engine_of(edition), case)


def test_every_case_runs_on_some_edition() -> None:
    """A requirement that no edition meets would silently disable its cases."""
    ran = {(param.values[1]["name"], param.id.split("/")[1]) for param in CASES}
    for folder in sorted(path for path in CONFORMANCE.iterdir() if path.is_dir()):
        for _, case in load_cases(folder):
            assert (case["name"], folder.name) in ran, f"{folder.name}: {case['name']!r} runs nowhere"


def test_every_edition_has_cases() -> None:
    for name in layout.playable_specs():
        assert list((CONFORMANCE / name).glob("*.yaml")), f"no conformance file for {name}"


def test_an_empty_expectation_means_exactly_empty() -> None:
    """`bonuses: {}` lists no key: read as a partial it would match any bonuses at all."""
    assert (
        mismatch({"longest_path": 10}, {}, "bonuses") == "bonuses: expected nothing, got {'longest_path': 10}"
    )
    assert mismatch(["paris-wien"], {}, "tickets") == "tickets: expected nothing, got ['paris-wien']"
    assert mismatch({"red": 1}, [], "hand") == "hand: expected nothing, got {'red': 1}"
    assert mismatch({}, {}) is None
    assert mismatch([], {}) is None
    # A partial that lists keys still ignores the others.
    assert mismatch({"total": 3, "bonuses": {}}, {"bonuses": {}}) is None


RED_ROUTE = {"type": "claim_route", "route": "boston-new-york-red", "cards": {"red": 2}}


def test_a_case_may_not_end_on_a_play_no_step_checks() -> None:
    case = {
        "name": "unchecked",
        "given": {"players": {0: {"hand": {"red": 2}}}},
        "steps": [{"play": RED_ROUTE}],
    }
    with pytest.raises(AssertionError) as raised:
        run_case(engine_of("usa-2025"), case)
    assert str(raised.value) == f"'unchecked' ends on a play ({RED_ROUTE}) that no step checks"


def test_an_excluded_action_must_be_one_the_engine_lists() -> None:
    """Blue cards on a red route are never listed, so their absence from the legal actions proves nothing."""
    blue = {"type": "claim_route", "route": "boston-new-york-red", "cards": {"blue": 2}}
    step = {"legal_excludes": [blue]}
    with pytest.raises(AssertionError) as raised:
        run_case(engine_of("usa-2025"), {"name": "vacuous", "steps": [step]})
    assert str(raised.value) == f"step 1 {step}: {blue} is not an action the engine lists"


def test_a_legal_filter_must_fit_an_action_the_engine_lists() -> None:
    step = {"legal_for": {"type": "claim_route", "route": "boston-new-york"}, "actions": []}
    with pytest.raises(AssertionError) as raised:
        run_case(engine_of("usa-2025"), {"name": "vacuous", "steps": [step]})
    assert str(raised.value) == f"step 1 {step}: no action the engine lists has {step['legal_for']}"


def test_a_refused_action_must_not_be_offered(monkeypatch) -> None:
    """An engine that lists a claim its `apply` refuses (a planted bug) fails the refusal step."""
    engine = engine_of("usa-2025")
    apply = engine.Game.apply

    def refusing(game, action):
        if action == RED_ROUTE:
            raise engine.IllegalAction("double_route_closed", route="Boston – New York", players=2)
        apply(game, action)

    monkeypatch.setattr(engine.Game, "apply", refusing)
    step = {"refuse": RED_ROUTE, "code": "double_route_closed"}
    case = {"name": "offered", "given": {"players": {0: {"hand": {"red": 2}}}}, "steps": [step]}
    with pytest.raises(AssertionError) as raised:
        run_case(engine, case)
    assert str(raised.value) == f"step 1 {step}: refused, yet offered"


def test_a_slot_given_as_true_is_not_the_slot_1_offered() -> None:
    """`True == 1` in Python: compared so, a refused `slot: true` would seem offered."""
    step = {"refuse": {"type": "draw_card", "source": "market", "slot": True}, "code": "bad_slot"}
    run_case(engine_of("usa-2025"), {"name": "bool slot", "steps": [step]})
