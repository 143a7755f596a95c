"""tests/ci.py: when a run rewrites the golden files, and what CI is."""

from __future__ import annotations

import pytest

from tests.ci import rewriting

QUIET = ("CI", "AVENTURIERS_CI", "PYTEST_XDIST_WORKER")


@pytest.fixture()
def environment(monkeypatch):
    """A run neither under CI nor on an xdist worker, whatever this one is; `set` changes it."""
    for name in QUIET:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch.setenv


@pytest.mark.parametrize("value", ["", "0"])
def test_unset_or_0_compares(environment, value: str) -> None:
    environment("AVENTURIERS_UPDATE_EXPECTED", value)
    assert rewriting() is False


def test_1_rewrites(environment) -> None:
    environment("AVENTURIERS_UPDATE_EXPECTED", "1")
    assert rewriting() is True


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"AVENTURIERS_UPDATE_EXPECTED": "yes"},
            "AVENTURIERS_UPDATE_EXPECTED='yes': set it to 1 to rewrite the golden files, or leave it unset",
        ),
        (
            {"AVENTURIERS_UPDATE_EXPECTED": "1", "AVENTURIERS_CI": "1"},
            "AVENTURIERS_UPDATE_EXPECTED=1 under CI: CI compares the golden files, it never rewrites them",
        ),
        (
            {"AVENTURIERS_UPDATE_EXPECTED": "1", "CI": "true"},
            "AVENTURIERS_UPDATE_EXPECTED=1 under CI: CI compares the golden files, it never rewrites them",
        ),
        (
            {"AVENTURIERS_UPDATE_EXPECTED": "1", "PYTEST_XDIST_WORKER": "gw0"},
            "AVENTURIERS_UPDATE_EXPECTED=1 on xdist workers, which would race on the files: run with -n 0",
        ),
    ],
    ids=["other value", "ci/run", "ci service", "xdist"],
)
def test_a_rewrite_is_refused(environment, settings: dict, message: str) -> None:
    for name, value in settings.items():
        environment(name, value)
    with pytest.raises(pytest.fail.Exception) as refused:
        rewriting()
    assert str(refused.value) == message
