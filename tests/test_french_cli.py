"""The command line in French, with the help people expect (issue 21, §2)."""

from __future__ import annotations

import re
import socket
from collections import Counter
from pathlib import Path

import pytest
from aventuriers.compiler.cli import main
from aventuriers.compiler.french import amount, card_forms, number
from aventuriers.play.balance import never_taken
from aventuriers.play.serve_command import listening_socket
from aventuriers.play.session import log_entry

from .conformance_runner import start_state
from .engines import engine as engine_of


def test_the_editions_are_listed_one_line_each(capsys) -> None:
    assert main(["editions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [
        "asia-equipes",
        "europe",
        "germany",
        "india",
        "italy",
        "japan",
        "legendary-asia",
        "nordic-countries",
        "pennsylvania",
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
    assert lines[2].endswith("Allemagne\u00a0: de 2 à 5 joueurs")
    assert lines[4].endswith("Italie\u00a0: de 2 à 5 joueurs")
    assert lines[5].endswith("Japon\u00a0: de 2 à 5 joueurs")
    assert lines[8].endswith("Pennsylvanie\u00a0: de 2 à 5 joueurs")
    assert lines[9].endswith("Suisse\u00a0: 2 ou 3 joueurs")


def test_a_misspelt_option_is_suggested(capsys) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["sheet", "usa-2025", "--fromat", "md"])
    assert exit_status.value.code == 2  # a misuse, as argparse, ruff and gh say it
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
    assert capsys.readouterr().err == f"{target} : la fiche de l’édition « usa-2025 » (Markdown).\n"
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


def test_numbers_as_french_readers_write_them() -> None:
    assert number(-26.84, 1) == "\u221226,8"
    assert number(1234.5, 1) == "1\u202f234,5"
    assert number(389.62) == "390"
    assert amount(1, "carte", "cartes") == "1 carte"
    assert amount(0, "carte", "cartes") == "0 carte"
    assert amount(3, "carte", "cartes") == "3 cartes"


def test_simulate_speaks_french_numbers(capsys) -> None:
    assert main(["simulate", "usa-2025", "--games", "2", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 parties de usa-2025 à 2 joueurs en ")
    numbers = re.findall(r"[-\u2212]?\d+[.,]\d+", out)
    assert numbers and all("." not in found and "-" not in found for found in numbers), out


def test_tournament_tables_fit_80_columns(capsys) -> None:
    assert main(["tournament", "usa-classic", "--bots", "greedy,random,mcts:5", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80, out
    assert "IC 95\u00a0%" in out and "Routes prises par partie, selon leur longueur" in out
    assert "2 cases" in out


def test_balance_names_routes_and_leaves_closed_tracks_out(tmp_path: Path, capsys) -> None:
    assert main(["balance", "usa-classic", "--games", "2", "--out", str(tmp_path / "bilan")]) == 0
    text = (tmp_path / "bilan" / "bilan.md").read_text(encoding="utf-8")
    assert "2 parties à 2 joueurs, toutes jouées par le bot glouton" in text
    never = text.split("Routes jamais prises\u00a0: ")[1].split(".\n")[0]
    assert " – " in never and not re.search(r"[a-z]-[a-z]", never), never
    engine = engine_of("usa-classic")
    taken = Counter({"boston-new-york-red": 1})
    assert "Boston – New York" not in " ".join(never_taken(engine, taken, 2))
    assert "Boston – New York (jaune)" in never_taken(engine, taken, 4)
    untouched = never_taken(engine, Counter(), 2)
    assert untouched.count("Boston – New York") == 1


def test_the_drawer_reads_which_card_the_deck_gave(capsys) -> None:
    engine = engine_of("usa-2025")
    state = start_state(engine, {"players": 2, "seed": 4})
    game = engine.Game.from_dict(state)
    before = game.observation(0)
    game.apply({"type": "draw_card", "source": "deck"})
    seat, public, own = log_entry(
        engine, 0, {"type": "draw_card", "source": "deck"}, before, game.observation(0)
    )
    assert (seat, public) == (0, "pioche une carte")
    hand = game.to_dict()["players"][0]["hand"]
    (drawn,) = [color for color, count in hand.items() if count > state["players"][0]["hand"][color]]
    assert own == f"pioche une {card_forms()[drawn][0]}"


def test_a_misspelt_edition_in_the_python_api_is_suggested() -> None:
    import aventuriers

    with pytest.raises(ValueError, match="édition inconnue « usa-2O25 » ; vouliez-vous dire « usa-2025 » ?"):
        aventuriers.env("usa-2O25")


def test_the_environment_without_the_rl_extra_names_it(monkeypatch) -> None:
    import sys

    import aventuriers

    monkeypatch.setitem(sys.modules, "aventuriers.play.env", None)  # as if pettingzoo were missing
    with pytest.raises(
        ImportError, match=r"aventuriers.env demande l’extra \[rl\].*pip install 'aventuriers\[rl\]'"
    ):
        aventuriers.env("usa-2025")


def test_a_native_build_without_a_c_compiler_says_so_and_writes_nothing(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-here")
    out = tmp_path / "out"
    assert main(["build", "usa-2025", "--native", "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"{out}: E319: la construction native est impossible ici : aucun compilateur C "
        "(no-such-compiler-here introuvable)\n"
        "      = aide : sur Debian ou Ubuntu : sudo apt-get install gcc python3-dev\n"
        "\n"
        "1 erreur(s), 0 avertissement(s)\n"
        "Construction annulée : rien n’a été écrit.\n"
    )
    assert not out.exists()


def test_no_english_metavar_in_any_help(capsys) -> None:
    from aventuriers.compiler.cli import parser

    commands = next(a for a in parser()._actions if a.__class__.__name__ == "_SubParsersAction").choices
    english = {"FILE", "DIR", "OLD", "NEW", "HOST", "RECORD", "OUT"}
    for name, command in commands.items():
        text = command.format_help()
        assert not english & set(re.findall(r"\b[A-Z]{2,}\b", text)), (name, text)


def test_the_balance_picture_gives_each_ticket_a_readable_line(tmp_path: Path) -> None:
    import struct

    from aventuriers.play.balance import BalanceTally
    from aventuriers.play.plots import LABEL_SIZE, plot_balance

    tally = BalanceTally(seats=2)
    tickets = [f"ticket-{n}" for n in range(60)]
    tally.add(
        {
            "ticket_results": [[[t, n % 2 == 0] for n, t in enumerate(tickets)], []],
            "routes_taken": [],
            "winners": [0],
            "scores": [10, 5],
        }
    )
    path = plot_balance(tally, tmp_path / "bilan.png", {t: t.replace("-", " ") for t in tickets})
    _, height = struct.unpack(">II", path.read_bytes()[16:24])
    # At 100 dpi a 9-point name is 12.5 px high: each of the 60 tickets has a line of 20 px.
    assert LABEL_SIZE >= 9 and height >= 60 * 20
