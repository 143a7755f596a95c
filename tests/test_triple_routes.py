"""Triple routes (issue 20, §3): three tracks between two cities, as Germany and Italy have.

The double-route rule holds for every track of a group: one player never takes two, and where
the rule closes a double route's twin, the first track taken closes both others.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.board import _offsets
from aventuriers.compiler.emit.example import load_engine
from aventuriers.play.bots import route_costs
from aventuriers.play.describe import track_name

from .conformance_runner import run_case, start_state
from .engines import engine as engine_of
from .test_strict_inputs import check

VARIANT = Path(__file__).resolve().parent / "variants" / "usa-voies-triples.aventuriers"
CASES = yaml.safe_load(VARIANT.with_suffix(".yaml").read_text(encoding="utf-8"))["cases"]


@pytest.fixture(scope="module")
def compiled():
    result = compile_edition(VARIANT, loader())
    return result, load_engine(result.engine_source, "usa_voies_triples")


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_triple_route_cases(compiled, case) -> None:
    run_case(compiled[1], case)


def test_each_track_lists_the_other_two(compiled) -> None:
    engine = compiled[1]
    assert engine.ROUTES["boston-new-york-blue"]["siblings"] == [
        "boston-new-york-red",
        "boston-new-york-yellow",
    ]
    assert engine.ROUTES["boston-montreal-3"]["siblings"] == ["boston-montreal-1", "boston-montreal-2"]
    assert engine.ROUTES["boston-montreal-3"]["twin"] == "boston-montreal-1"
    assert engine.ROUTES["atlanta-miami"]["siblings"] == []
    # A board without a triple route keeps its records as they were: "twin" only.
    assert "siblings" not in engine_of("usa-classic").ROUTES["boston-new-york-red"]


def test_a_state_with_two_tracks_of_one_player_is_refused(compiled) -> None:
    engine = compiled[1]
    state = engine.new_game(4, 1).to_dict()
    state["players"][0]["routes"] = ["boston-new-york-red", "boston-new-york-blue"]
    state["players"][0]["trains"] -= 4
    state["players"][0]["score"] += 4
    with pytest.raises(ValueError, match="deux voies de la route"):
        engine.Game.from_dict(state)


def test_the_refusal_says_another_track(compiled) -> None:
    engine = compiled[1]
    message = engine.IllegalAction("double_route_same_player", route="Boston – New York").message
    assert message == "Tu as déjà une autre voie de la route «\u00a0Boston – New York\u00a0»."
    closed = engine.IllegalAction("double_route_closed", route="Boston – New York", players=2).message
    assert closed == "À 2 joueurs, une seule voie de la route «\u00a0Boston – New York\u00a0» peut servir."


def test_the_sheet_counts_and_tells_triple_routes(compiled) -> None:
    sheet = compiled[0].sheet
    assert "par 78 routes, dont 20 routes doubles et 2 routes triples (102 voies en tout)" in sheet
    assert "Un même joueur ne prend jamais deux voies d’une même route double ou triple." in sheet
    assert "À 2 ou 3 joueurs, dès qu’une voie est prise, les autres sont fermées à tous." in sheet
    assert "À 4 ou 5 joueurs, les autres voies restent ouvertes aux autres joueurs." in sheet
    assert "Utiliser plus d’une voie d’une route double ou triple à 2 ou 3 joueurs." in sheet
    assert "l’autre voie" not in sheet.split("## Annexe")[0]


def test_the_differences_show_the_board_not_a_new_rule(capsys) -> None:
    assert main(["diff", "usa-classic", str(VARIANT)]) == 0
    out = capsys.readouterr().out
    assert "- Voies\u00a0: 102 (au lieu de 100)." in out
    assert "Routes ajoutées (2)\u00a0: Boston – New York (bleu) et Boston – Montréal (voie 3)." in out
    assert "Routes doubles" not in out and "- Routes\u00a0:" not in out


def test_three_tracks_are_drawn_side_by_side(compiled) -> None:
    board = compiled[0].edition.board
    offsets = _offsets(board)
    tracks = [offsets[f"boston-montreal-{rank}"] for rank in (1, 2, 3)]
    assert tracks[0] < 0 == tracks[1] < tracks[2] and tracks[0] == -tracks[2]


def test_bots_and_the_page_know_every_track(compiled) -> None:
    engine = compiled[1]
    case = {"players": 2, "seed": 3, "given": {"players": {1: {"routes": ["boston-montreal-3"]}}}}
    game = engine.Game.from_dict(start_state(engine, case))
    costs = route_costs(engine, game.observation(0))
    assert costs["boston-montreal-1"] == costs["boston-montreal-2"] == float("inf")
    assert track_name(engine, "boston-montreal-3") == "Boston – Montréal (voie 3)"
    assert track_name(engine, "boston-new-york-blue") == "Boston – New York (bleue)"


def test_a_group_of_one_or_four_tracks_is_refused(tmp_path, capsys) -> None:
    four = "\n".join(f'  route "Boston" "New York" 2 {color} double: 4' for color in ("blue", "green"))
    body = f"edition v\nextends usa-classic\nboard {{\n{four}\n}}\nchange route atlanta-miami double: 99\n"
    status, err = check(tmp_path, body, capsys=capsys)
    assert status == 1
    assert err == (
        "v.aventuriers:5:37: E303: la route double 4 doit réunir deux ou trois voies (trouvé : 4 voies)\n"
        '    5 |   route "Boston" "New York" 2 green double: 4\n'
        "      |                                     ^^^^^^\n"
        "\n"
        "v.aventuriers:7:28: E303: la route double 99 doit réunir deux ou trois voies (trouvé : 1 voie)\n"
        "    7 | change route atlanta-miami double: 99\n"
        "      |                            ^^^^^^\n"
        "\n"
        "2 erreur(s), 0 avertissement(s)\n"
    ), err
