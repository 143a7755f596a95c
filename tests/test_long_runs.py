"""Tournaments and balance runs that take hours are protected before the first game (issue 19, §4):
their outputs follow a build's rules, their games stream, their workers fit the machine."""

from __future__ import annotations

import itertools
import json

import pytest
from aventuriers.compiler.cli import main
from aventuriers.play import commands, tournament
from aventuriers.play.tournament import batches, stream, usable_workers

USA = "aventuriers.generated.usa_2025"


@pytest.fixture()
def no_games(monkeypatch):
    """A run that would start playing is a failure of the check before it."""

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the output was checked")

    # tournament and balance import the stream of games when they run: both find this one.
    monkeypatch.setattr(tournament, "stream", refuse)


def test_a_tournament_never_overwrites_a_file_it_did_not_write(tmp_path, capsys, no_games) -> None:
    out = tmp_path / "etude"
    out.mkdir()
    (out / "games.jsonl").write_text("mes parties\n", encoding="utf-8")
    assert main(["tournament", "usa-2025", "--bots", "random,random", "--games", "2", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "E313" in err and "rien n’a été écrit" in err
    assert (out / "games.jsonl").read_text(encoding="utf-8") == "mes parties\n"


@pytest.mark.parametrize("command", ["tournament", "balance"])
def test_outputs_through_a_link_or_onto_a_file_are_refused_before_any_game(
    tmp_path, capsys, no_games, command
):
    target = tmp_path / "ailleurs"
    target.mkdir()
    link = tmp_path / "lien"
    link.symlink_to(target)
    a_file = tmp_path / "fichier"
    a_file.write_text("x", encoding="utf-8")
    extra = ["--bots", "random,random"] if command == "tournament" else []
    for out in (link, a_file):
        assert main([command, "usa-2025", *extra, "--games", "2", "--out", str(out)]) == 1
        assert "E313" in capsys.readouterr().err
    assert list(target.iterdir()) == [] and a_file.read_text(encoding="utf-8") == "x"
    inside = tmp_path / "dossier"  # an earlier run's folder, whose result was replaced by a link
    inside.mkdir()
    name = "bilan.md" if command == "balance" else "games.jsonl"
    (inside / ".aventuriers-resultats").write_text(f"{name}\n", encoding="utf-8")
    (inside / name).symlink_to(a_file)
    assert main([command, "usa-2025", *extra, "--games", "2", "--out", str(inside)]) == 1
    assert "lien symbolique" in capsys.readouterr().err and a_file.read_text(encoding="utf-8") == "x"


def test_a_tournament_replaces_its_own_results_and_leaves_no_temporary_file(tmp_path, capsys) -> None:
    out = tmp_path / "etude"
    for games in (3, 2):
        command = [
            "tournament",
            "usa-2025",
            "--bots",
            "random,random",
            "--games",
            str(games),
            "--out",
            str(out),
        ]
        assert main(command) == 0
        lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == games and json.loads(lines[0])["game"] == 0
    assert sorted(path.name for path in out.iterdir()) == [
        ".aventuriers-resultats",
        "games.jsonl",
        "scores.png",
    ]
    capsys.readouterr()


def test_balance_refuses_a_build_folder_and_a_build_refuses_its_folder(tmp_path, capsys) -> None:
    built = tmp_path / "generated"
    assert main(["build", "usa-2025", "--out", str(built)]) == 0
    assert main(["balance", "usa-2025", "--games", "2", "--out", str(built)]) == 1
    bilan = tmp_path / "bilan"
    assert main(["balance", "usa-2025", "--games", "2", "--out", str(bilan)]) == 0
    assert main(["build", "usa-2025", "--out", str(bilan)]) == 1
    assert (bilan / "bilan.md").is_file()
    capsys.readouterr()


def test_games_stream_whatever_their_number() -> None:
    """A billion games: the batches are made as they are asked for, and the first record comes
    before the second batch is even made (once, every batch was listed in memory first)."""
    chunks = batches(10**9, 10)
    assert next(chunks) == list(range(10)) and next(chunks)[0] == 10
    first = list(itertools.islice(stream(USA, ["random", "random"], 10**9, seed=1), 3))
    assert [record["game"] for record in first] == [0, 1, 2]
    with_workers = stream(USA, ["random", "random"], 10**9, seed=1, workers=2, batch_size=2)
    assert [record["game"] for record in itertools.islice(with_workers, 3)] == [0, 1, 2]
    with_workers.close()


def test_the_stream_gives_the_games_of_one_process() -> None:
    alone = tournament.run(USA, ["greedy", "random"], 6, seed=3)
    assert list(stream(USA, ["greedy", "random"], 6, seed=3, workers=2, batch_size=1)) == alone


def test_workers_are_capped_at_the_processors(capsys, monkeypatch) -> None:
    monkeypatch.setattr(tournament.os, "cpu_count", lambda: 2)
    assert usable_workers(128) == 2 and usable_workers(1) == 1
    assert commands.checked_workers(128, None) == 2
    assert "--workers 128 ramené à 2 : cette machine a 2 processeurs" in capsys.readouterr().err


def test_ray_without_its_extra_is_said_in_french(capsys, monkeypatch, no_games) -> None:
    monkeypatch.setattr("aventuriers.play.scale.ray_available", lambda: False)
    assert main(["tournament", "usa-2025", "--bots", "random,random", "--games", "2", "--ray", "auto"]) == 1
    assert "l’extra « scale »" in capsys.readouterr().err


def test_a_local_ray_without_its_token_is_refused(capsys, monkeypatch, no_games) -> None:
    monkeypatch.setattr("aventuriers.play.scale.ray_available", lambda: True)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    assert main(["tournament", "usa-2025", "--bots", "random,random", "--games", "2", "--ray", "auto"]) == 1
    assert "sans mot de passe" in capsys.readouterr().err
