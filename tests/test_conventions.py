"""The command line's conventions: misuse exits 2, every closed choice says « vouliez-vous dire »,
a path is named without a line it does not have, progress only on a terminal, outputs refused
where a build would refuse them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from aventuriers.compiler.cli import main

COMMAND = [sys.executable, "-m", "aventuriers.compiler.cli"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["sheet", "usa-2025", "--fromat", "md"], "vouliez-vous dire « --format » ?"),
        (["sheet", "usa-2025", "--format", "mdd"], "vouliez-vous dire « md » ?"),
        (
            ["simulate", "usa-2025", "--bots", "gready,greedy", "--players", "2"],
            "vouliez-vous dire « greedy » ?",
        ),
        (["tournament", "usa-2025", "--bots", "greedy,randon"], "vouliez-vous dire « random » ?"),
        (["simulate", "usa-2025", "--games", "0"], "--games : il faut au moins 1"),
        (["simulate", "usa-2025", "--games", "x"], "--games : un nombre entier est attendu, pas « x »"),
        (["frobnicate"], "« frobnicate » n’est pas un choix possible pour COMMANDE"),
        (["chekc", "x"], "vouliez-vous dire « check » ?"),
        (
            ["simulate", "usa-2025", "--players", "7", "--games", "1"],
            "usa-2025 se joue de 2 à 5 joueurs, pas à 7.",
        ),
        (
            ["simulate", "usa-2025", "--players", "2", "--bots", "greedy"],
            "--bots donne 1 bot pour 2 joueurs.",
        ),
        (
            ["balance", "usa-2025", "--players", "9", "--games", "1"],
            "usa-2025 se joue de 2 à 5 joueurs, pas à 9.",
        ),
    ],
)
def test_a_misuse_exits_2_with_its_usage_and_a_french_message(
    argv, said, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        status = main(argv)
    except SystemExit as stopped:
        status = stopped.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("utilisation : aventuriers"), err
    assert said in err and "Traceback" not in err


def test_the_hint_of_a_misspelt_bot_is_a_line_of_its_own(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "usa-2025", "--bots", "gready"])
    assert capsys.readouterr().err.endswith(
        "aventuriers simulate: erreur : --bots : bot inconnu : « gready » (random, greedy, mcts)\n"
        "      = aide : vouliez-vous dire « greedy » ?\n"
    )


def test_a_misspelt_edition_is_named_without_a_line_or_column(capsys) -> None:
    assert main(["sheet", "usa2025"]) == 1
    assert capsys.readouterr().err == (
        "usa2025: E312: fichier introuvable\n      = aide : vouliez-vous dire « usa-2025 » ?\n\n"
        "1 erreur(s), 0 avertissement(s)\n"
    )


def test_version_and_help_answer(capsys) -> None:
    for argv in (["--version"], ["--help"]):
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("aventuriers ") and "commandes" in out


def test_simulate_writes_no_progress_where_the_output_is_not_a_terminal(tmp_path) -> None:
    run = subprocess.run(
        [*COMMAND, "simulate", "usa-2025", "--games", "3", "--players", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and "parties par seconde" in run.stdout


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "link"])
def test_a_sheet_is_never_written_into_a_fifo_a_device_a_folder_or_a_link(kind, tmp_path) -> None:
    """Refused at once (E313), like a build's outputs: a FIFO opened for writing would block."""
    target = tmp_path / "fiche.md"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/null")
    elif kind == "folder":
        target.mkdir()
    else:
        (tmp_path / "elsewhere.md").write_text("mine\n", encoding="utf-8")
        target.symlink_to(tmp_path / "elsewhere.md")
    run = subprocess.run(
        [*COMMAND, "sheet", "usa-2025", "-o", str(target)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1
    assert run.stderr.startswith(f"{target}: E313: la sortie serait écrite dans un"), run.stderr
    assert "rien n’a été écrit" in run.stderr
    if kind == "link":
        assert (tmp_path / "elsewhere.md").read_text(encoding="utf-8") == "mine\n"


def test_a_chromium_named_wrongly_is_named(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("AVENTURIERS_CHROMIUM", "/nonexistent/chromium")
    assert main(["sheet", "usa-2025", "--format", "pdf", "-o", str(tmp_path / "f.pdf")]) == 1
    assert capsys.readouterr().err == (
        "aventuriers sheet : PDF impossible : AVENTURIERS_CHROMIUM nomme « /nonexistent/chromium », qui "
        "n’est ni un fichier ni un programme du PATH : corrigez le chemin, ou retirez la variable pour "
        "chercher Chromium sur le PATH\n"
    )
    assert not (tmp_path / "f.pdf").exists()
