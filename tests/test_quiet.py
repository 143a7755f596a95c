"""A quiet tool (issue 21, §1): a shipped edition's warnings are its maintainers' business, shown
to `check` and `build` of that edition (or with --verbose), never to someone printing a sheet."""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.cli import main


@pytest.mark.parametrize(
    "command",
    [
        ["sheet", "usa-2025"],
        ["sheet", "asia-equipes"],
        ["simulate", "asia-equipes", "--games", "1", "--players", "4"],
        ["simulate", "usa-2025", "--games", "1", "--players", "2"],
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_using_a_shipped_edition_prints_no_warning(command, capsys) -> None:
    assert main(command) == 0
    err = capsys.readouterr().err
    assert "W40" not in err and "avertissement" not in err, err


def test_verbose_shows_them(capsys) -> None:
    assert main(["sheet", "usa-2025", "--verbose"]) == 0
    assert "W401: la règle imprime 33 tickets, mais 30 sont listés" in capsys.readouterr().err


def test_check_and_build_of_a_shipped_edition_show_its_warnings(tmp_path: Path, capsys) -> None:
    assert main(["check", "usa-2025", "asia-equipes"]) == 0
    err = capsys.readouterr().err
    assert "W401" in err and "W403" in err
    # French apostrophes in the spec's own words, as in every message.
    assert "W403: plateau de remplacement : le plateau de l’Asie en équipes n’est publié nulle part" in err
    assert "l'Asie" not in err.split("\n")[0]


def test_a_variant_sees_its_own_warnings_not_its_parents(tmp_path: Path, capsys) -> None:
    quiet = tmp_path / "cinq.aventuriers"
    quiet.write_text("edition cinq\nextends usa-2025\nsetup {\n  train_cards 5\n}\n", encoding="utf-8")
    assert main(["check", str(quiet)]) == 0
    assert "W401" not in capsys.readouterr().err
    own = tmp_path / "compte.aventuriers"
    own.write_text("edition compte\nextends usa-2025\ntickets {\n  printed 40\n}\n", encoding="utf-8")
    assert main(["sheet", str(own)]) == 0
    err = capsys.readouterr().err
    assert "compte.aventuriers:4:11: W401: la règle imprime 40 tickets, mais 30 sont listés" in err, err


def test_a_change_of_a_ticket_s_fields_does_not_own_the_parent_s_count(tmp_path: Path, capsys) -> None:
    """W401 is a variant's own where its statements change how many tickets are listed: a
    ticket removed, not a ticket whose kind changes."""
    kind = tmp_path / "genre.aventuriers"
    kind.write_text(
        "edition genre\nextends usa-2025\nchange ticket seattle-new-york kind: long\n", encoding="utf-8"
    )
    assert main(["check", str(kind)]) == 0
    assert "W401" not in capsys.readouterr().err
    fewer = tmp_path / "moins.aventuriers"
    fewer.write_text("edition moins\nextends usa-2025\nwithout ticket denver-el-paso\n", encoding="utf-8")
    assert main(["check", str(fewer)]) == 0
    err = capsys.readouterr().err
    assert "moins.aventuriers:3:1: W401: la règle imprime 33 tickets, mais 29 sont listés" in err, err


def test_the_readme_s_first_command_prints_the_sheet_and_nothing_else(capsys) -> None:
    import re
    import shlex

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)\n", readme).group(1)
    command = shlex.split(first.split("&&")[-1])
    assert command[:2] == ["aventuriers", "sheet"], first
    assert main(command[1:]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("# Les Aventuriers du Rail — USA, notice 2025\n")
