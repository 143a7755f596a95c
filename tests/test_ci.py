"""tests/ci.py: when a run rewrites the golden files, and what CI is; the hook of tests/conftest.py
that fails every skip under CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.ci import rewriting

ROOT = Path(__file__).resolve().parent.parent

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


SKIPPING = {
    "test_module.py": 'import pytest\npytest.importorskip("no_such_module")\n\n\ndef test_never():\n    pass\n',
    "test_tests.py": (
        "import pytest\n\n\n"
        'def test_inside():\n    pytest.importorskip("no_such_module.image")\n\n\n'
        '@pytest.mark.skip(reason="marked")\ndef test_marked():\n    pass\n\n\n'
        "def test_runs():\n    pass\n"
    ),
    # The hooks of tests/conftest.py, in a run of its own.
    "conftest.py": "from tests.conftest import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401\n",
}


def outcomes(folder: Path, environ: dict) -> dict[str, tuple[str, str]]:
    """Each test's (or module's) outcome and what its report says, from a pytest run of `folder`."""
    subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider"),
            *("--continue-on-collection-errors", "--junitxml=report.xml", "."),
        ],
        cwd=folder,
        env=environ,
        capture_output=True,
        check=False,
    )
    found = {}
    for case in ElementTree.parse(folder / "report.xml").iter("testcase"):
        reported = [child for child in case if child.tag in ("failure", "error", "skipped")]
        found[case.get("name")] = (reported[0].tag, reported[0].text) if reported else ("passed", None)
    return found


@pytest.fixture()
def skipping(tmp_path: Path) -> tuple[Path, dict]:
    for name, text in SKIPPING.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    environ = {name: value for name, value in os.environ.items() if name not in QUIET}
    return tmp_path, {**environ, "PYTHONPATH": str(ROOT)}


def test_under_ci_every_skip_fails_with_its_reason(skipping) -> None:
    folder, environ = skipping
    because = "skipped under CI, where every test must run: Skipped: "
    missing = "could not import 'no_such_module{}': No module named 'no_such_module'"
    assert outcomes(folder, {**environ, "AVENTURIERS_CI": "1"}) == {
        "test_module": ("error", because + missing.format("")),
        "test_inside": ("failure", because + missing.format(".image")),
        "test_marked": ("error", because + "marked"),
        "test_runs": ("passed", None),
    }


def test_outside_ci_a_skip_stays_a_skip(skipping) -> None:
    folder, environ = skipping
    found = outcomes(folder, environ)
    assert {name: outcome for name, (outcome, _) in found.items()} == {
        "test_module": "skipped",
        "test_inside": "skipped",
        "test_marked": "skipped",
        "test_runs": "passed",
    }
