"""A starting score by seat (issue 20, §3): each seat's marker starts where the spec says, the
engine counts it in every total, and the sheet and the differences page say it."""

from __future__ import annotations

import pytest
from aventuriers.compiler.cli import main

from .engines import check_invariants, play_random
from .test_rules_as_written import compiled_variant
from .test_strict_inputs import check

BODY = "extends usa-2025\nsetup {\n  starting_score [0, 1, 2, 3, 4]\n}\n"


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    return compiled_variant(tmp_path_factory.mktemp("depart"), "depart", BODY)


def test_each_seat_starts_at_its_score_and_counts_it_in_the_total(variant) -> None:
    _, _, engine = variant
    assert engine.STARTING_SCORE == (0, 1, 2, 3, 4)
    game = engine.new_game(3, 5)
    assert [player["score"] for player in game.to_dict()["players"]] == [0, 1, 2]
    scores = game.scores()
    assert [score["starting_score"] for score in scores] == [0, 1, 2]
    assert [score["total"] for score in scores] == [
        score["route_points"]
        + sum(entry["points"] for entry in score["tickets_completed"])
        - sum(entry["points"] for entry in score["tickets_failed"])
        + sum(score["bonuses"].values())
        + seat
        for seat, score in enumerate(scores)
    ]


def test_random_games_keep_the_track_equal_to_start_plus_routes(variant) -> None:
    _, _, engine = variant
    for seed in range(3):
        play_random(engine, 5, seed, check_every_step=True)
    check_invariants(engine, engine.new_game(4, 1))


def test_a_state_without_the_seat_s_start_is_refused(variant) -> None:
    _, _, engine = variant
    state = engine.new_game(2, 1).to_dict()
    state["players"][1]["score"] = 0
    with pytest.raises(ValueError, match=r"players\[1\]\.score doit valoir 1, son score de départ"):
        engine.Game.from_dict(state)


def test_the_sheet_and_the_differences_say_it(variant, capsys) -> None:
    spec, compiled, _ = variant
    sheet = compiled.sheet
    assert (
        "Chaque joueur pose son marqueur de score selon sa place dans l’ordre du tour\u00a0: sur la case 0 pour "
        "le premier joueur, 1 pour le deuxième, 2 pour le troisième, 3 pour le quatrième et 4 pour le "
        "cinquième. Ces points comptent dans son total." in sheet
    )
    assert "pose son marqueur de score sur zéro" not in sheet.split("## Annexe")[0]
    assert main(["diff", "usa-2025", str(spec)]) == 0
    assert (
        "- Score de départ\u00a0: par place dans l’ordre du tour, 0, 1, 2, 3 et 4 (nouveau)."
        in capsys.readouterr().out
    )


def test_a_score_example_from_a_seat_that_starts_above_zero_tells_it(tmp_path) -> None:
    body = "extends usa-2025\nsetup {\n  starting_score [3, 0, 0, 0, 0]\n}\n"
    _, compiled, _ = compiled_variant(tmp_path, "avance", body)
    example = compiled.sheet.split("## Exemple de score")[1].split("\n## ")[0]
    assert "Son marqueur de score est parti de 3, la case de sa place dans l’ordre du tour, soit " in example
    total = int(example.split("Total pour ")[1].split("\u00a0: ")[1].split(" ")[0])
    said = int(example.split("Son marqueur de score est parti de 3")[1].split(" = ")[1].split(".")[0])
    assert said == total


def test_without_starting_score_and_zeros_are_the_plain_game(tmp_path) -> None:
    (tmp_path / "depart.aventuriers").write_text(f"edition depart\n{BODY}", encoding="utf-8")
    _, _, engine = compiled_variant(tmp_path, "sans", "extends depart\nwithout starting_score\n")
    assert not hasattr(engine, "STARTING_SCORE")
    _, _, zeros = compiled_variant(
        tmp_path, "zeros", "extends depart\nsetup {\n  starting_score [0, 0, 0, 0, 0]\n}\n"
    )
    assert not hasattr(zeros, "STARTING_SCORE")


def test_a_starting_score_must_give_every_seat_and_never_a_team(tmp_path, capsys) -> None:
    status, err = check(
        tmp_path, "edition v\nextends usa-2025\nsetup {\n  starting_score [0, 1, 2]\n}\n", capsys=capsys
    )
    assert status == 1
    assert err.startswith(
        "v.aventuriers:4:18: E311: l’édition se joue jusqu’à 5 joueurs : il faut un score de départ par place, "
        "5 valeurs, pas 3\n"
        "    4 |   starting_score [0, 1, 2]\n"
        "      |                  ^^^^^^^^^\n"
        "      = aide : la première valeur pour le premier joueur, et ainsi de suite\n"
    ), err
    status, err = check(
        tmp_path,
        "edition v\nextends asia-equipes\nsetup {\n  starting_score [0, 1, 2, 3, 4, 5]\n}\n",
        capsys=capsys,
    )
    assert status == 1
    assert err.startswith(
        "v.aventuriers:4:18: E311: « starting_score » ne se joue pas en équipes\n"
        "    4 |   starting_score [0, 1, 2, 3, 4, 5]\n"
    ), err
