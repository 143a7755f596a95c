"""Broken specs: each fixture's whole rendered error output is compared.

``tests/specs/broken/NAME.aventuriers`` is checked with ``aventuriers check``;
``NAME.expected`` holds exactly what it must print (set
``AVENTURIERS_UPDATE_EXPECTED=1`` with ``-n 0`` to rewrite them after a deliberate change:
see tests/ci.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.cli import main
from aventuriers.compiler.diagnostics import CompileError
from aventuriers.compiler.frontend.resolve import EditionLoader

from tests.ci import rewriting, rewritten

BROKEN = Path(__file__).resolve().parent / "specs" / "broken"
# The valid specs beside the broken ones: tiny, the base the broken fixtures extend, and
# the test editions of single mechanisms (tickets with targets, countries, tunnel cards).
VALID = ("tiny", "destinations", "pays", "cartes-tunnel", "tunnels-imprimes", "equipes-tunnels")
# Each mechanism's broken specs live in its own folder (compiler/mechanisms/NAME/fixtures/).
MECHANISMS = Path(__file__).resolve().parent.parent / "compiler" / "mechanisms"
FIXTURES = sorted(path for path in BROKEN.glob("*.aventuriers") if path.stem not in VALID) + sorted(
    MECHANISMS.glob("*/fixtures/*.aventuriers")
)


@pytest.mark.parametrize("spec", FIXTURES, ids=lambda path: f"{path.parent.parent.name}/{path.stem}")
def test_whole_error_output(spec: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    status = main(["check", spec.relative_to(Path.cwd()).as_posix()])
    output = capsys.readouterr()
    expected_path = spec.with_suffix(".expected")
    assert status == 1
    assert output.out == ""
    assert "Traceback" not in output.err
    if rewriting():
        expected_path.write_text(output.err, encoding="utf-8")
        rewritten(expected_path)
    assert output.err == expected_path.read_text(encoding="utf-8")


def test_the_small_test_base_is_valid(capsys) -> None:
    assert main(["check", str(BROKEN / "tiny.aventuriers")]) == 0


def test_a_warning_does_not_fail_the_check(capsys) -> None:
    assert main(["check", "editions/usa-2025.aventuriers"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(
        "editions/usa-2025.aventuriers:13:11: W401: la règle imprime 33 tickets, mais 30 sont"
    )
    assert err.endswith("0 erreur(s), 1 avertissement(s)\n")


def test_compile_error_carries_every_diagnostic() -> None:
    loader = EditionLoader(BROKEN.parent.parent.parent / "editions", BROKEN.parent.parent.parent)
    with pytest.raises(CompileError) as failure:
        loader.load(BROKEN / "cities.aventuriers")
    codes = [d.code.value for d in failure.value.diagnostics]
    assert codes.count("E301") == 3 and "E302" in codes
