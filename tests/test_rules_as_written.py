"""Rules exactly as the texts say them, and examples and checks that agree with them (issue 20, §2)."""

from __future__ import annotations

from pathlib import Path

from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.example import load_engine

from .test_strict_inputs import check


def test_a_tunnel_example_turns_over_as_many_cards_as_its_tunnel(tmp_path, capsys) -> None:
    status, err = check(tmp_path, "edition v\nextends europe\ntunnels reveal: 2\n", capsys=capsys)
    assert status == 1
    assert (
        "v.aventuriers:3:9: E311: l’exemple de tunnel retourne 3 cartes, mais ce tunnel en retourne 2\n"
        "    3 | tunnels reveal: 2\n"
        "      |         ^^^^^^\n"
        "      = aide : un exemple qui retourne 2 cartes, ou « without tunnel_example »\n"
    ) in err, err
    own = "edition v\nextends europe\ntunnel_example madrid-pamplona-black {\n  cards [black, black, black]\n"
    status, err = check(tmp_path, own + "  revealed [red, black]\n}\n", capsys=capsys)
    assert status == 1
    assert (
        "v.aventuriers:5:12: E311: l’exemple de tunnel retourne 2 cartes, mais ce tunnel en retourne 3" in err
    )
    fixed = "edition v\nextends europe\ntunnels reveal: 2\nwithout tunnel_example\n"
    assert check(tmp_path, fixed, capsys=capsys)[0] == 0


def test_a_reset_threshold_above_the_market_is_refused(tmp_path, capsys) -> None:
    status, err = check(
        tmp_path, "edition v\nextends usa-2025\nsetup {\n  market 5 locomotive_reset: 6\n}\n", capsys=capsys
    )
    assert status == 1
    assert (
        "v.aventuriers:4:12: E311: « locomotive_reset » vaut 6, mais le marché n’a que 5 cartes : il ne serait "
        "jamais renouvelé\n"
    ) in err, err
    assert "= aide : « locomotive_reset: never » pour un marché jamais renouvelé" in err


def test_a_market_never_reset_is_played_and_said(tmp_path: Path, capsys) -> None:
    spec = tmp_path / "nordique.aventuriers"
    spec.write_text("edition nordique\nextends usa-2025\nsetup {\n  market 5 locomotive_reset: never\n}\n")
    compiled = compile_edition(spec, loader())
    engine = load_engine(compiled.engine_source, "nordique")
    assert engine.MARKET_LOCOMOTIVE_RESET is None
    state = engine.new_game(2, 1).to_dict()
    for player in state["players"]:
        player["pending_tickets"] = []
    state.update(
        phase="turn",
        deck=["locomotive", "red"],
        discard=[],
        market=["locomotive", "locomotive", "red", "locomotive", "locomotive"],
    )
    game = engine.Game.from_dict(state)
    game.apply({"type": "draw_card", "source": "market", "slot": 2})
    assert game.to_dict()["market"] == ["locomotive"] * 5  # five face-up locomotives stay
    assert (
        "Le marché n’est jamais renouvelé, quel que soit le nombre de locomotives visibles." in compiled.sheet
    )
    assert "défausse-les toutes" not in compiled.sheet.split("## Annexe")[0]
    assert main(["diff", "usa-2025", str(spec)]) == 0
    assert (
        "Marché renouvelé à partir de\u00a0: jamais (au lieu de trois locomotives visibles)"
        in capsys.readouterr().out
    )
