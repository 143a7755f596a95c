"""The command line in French, with the help people expect (issue 21, §2)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from aventuriers.compiler.cli import main
from aventuriers.play.serve_command import listening_socket


def test_the_editions_are_listed_one_line_each(capsys) -> None:
    assert main(["editions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [
        "asia-equipes",
        "europe",
        "switzerland",
        "usa-1910",
        "usa-2025",
        "usa-big-cities",
        "usa-classic",
        "usa-mega",
    ]
    assert lines[0].endswith(
        "Asie, en équipes (plateau de l’Asie légendaire)\u00a0: 4 ou 6 joueurs\u202f; plateau de remplacement"
    )
    assert lines[2].endswith("Suisse\u00a0: 2 ou 3 joueurs")


def test_a_misspelt_option_is_suggested(capsys) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["sheet", "usa-2025", "--fromat", "md"])
    assert exit_status.value.code == 1
    err = capsys.readouterr().err
    assert err.endswith(
        "aventuriers sheet: erreur : arguments inconnus : --fromat md\n"
        "      = aide : vouliez-vous dire « --format » ?\n"
    ), err
    assert err.startswith("utilisation : aventuriers sheet ")


def test_help_describes_arguments_in_french_with_defaults(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert "une édition livrée (« aventuriers editions » les liste) ou un" in out
    assert "nombre de parties (par défaut\u00a0: 100)" in out
    assert "graine de la première partie (par défaut\u00a0: 0)" in out
    with pytest.raises(SystemExit):
        main(["diff", "--help"])
    assert "utilisation : aventuriers diff [-h] [-v] AVANT APRÈS" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    out = capsys.readouterr().out
    assert "--out DOSSIER" in out and "DIR" not in out and "FILE" not in out


def test_output_to_a_file_is_confirmed_and_dash_is_standard_output(tmp_path: Path, capsys) -> None:
    target = tmp_path / "fiche.md"
    assert main(["sheet", "usa-2025", "-o", str(target)]) == 0
    assert capsys.readouterr().err == f"{target} : la fiche de « usa-2025 » (Markdown).\n"
    assert target.read_text(encoding="utf-8").startswith("# Les Aventuriers du Rail — USA, notice 2025")
    assert main(["sheet", "usa-2025", "--format", "html", "-o", str(tmp_path / "f.html")]) == 0
    assert "(HTML, imprimable en A4)" in capsys.readouterr().err
    assert main(["sheet", "usa-2025", "-o", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out == target.read_text(encoding="utf-8") and captured.err == ""


def test_system_errors_are_in_french(tmp_path: Path, capsys) -> None:
    assert main(["sheet", "usa-2025", "-o", str(tmp_path / "nowhere" / "x.md")]) == 1
    assert (
        capsys.readouterr().err
        == f"aventuriers sheet : {tmp_path / 'nowhere' / 'x.md'} : chemin introuvable\n"
    )
    assert main(["replay", str(tmp_path / "nothere.json")]) == 1
    assert "chemin introuvable" in capsys.readouterr().err


def test_serve_on_a_port_in_use_is_one_french_error(tmp_path: Path, capsys) -> None:
    taken = listening_socket("127.0.0.1", 0)
    taken.listen()
    port = taken.getsockname()[1]
    try:
        status = main(["serve", "usa-2025", "--port", str(port), "--records", str(tmp_path / "parties")])
    finally:
        taken.close()
    assert status == 1
    assert capsys.readouterr().err == (
        f"aventuriers serve : impossible d’écouter sur 127.0.0.1:{port} : adresse déjà utilisée (un autre "
        "programme écoute sur ce port)\n"
        f"      = aide : un autre port, par exemple « --port {port + 1} »\n"
    )
    with listening_socket("127.0.0.1", 0) as free:
        assert free.family == socket.AF_INET
