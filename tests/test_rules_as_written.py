"""Rules exactly as the texts say them, and examples and checks that agree with them (issue 20, §2)."""

from __future__ import annotations

from pathlib import Path

from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.example import load_engine

from .test_strict_inputs import check


def compiled_variant(folder: Path, name: str, body: str):
    """A variant written to ``folder``, compiled, with its engine loaded."""
    spec = folder / f"{name}.aventuriers"
    spec.write_text(f"edition {name}\n{body}", encoding="utf-8")
    compiled = compile_edition(spec, loader())
    return spec, compiled, load_engine(compiled.engine_source, name)


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
        "Les cartes visibles ne sont jamais renouvelées, quel que soit le nombre de locomotives parmi elles."
        in compiled.sheet
    )
    assert "défausse-les toutes" not in compiled.sheet.split("## Annexe")[0]
    assert main(["diff", "usa-2025", str(spec)]) == 0
    assert (
        "Marché renouvelé à partir de\u00a0: jamais (au lieu de trois locomotives visibles)"
        in capsys.readouterr().out
    )


NEW_BOARD = (
    """edition v
extends usa-classic
without cities
without routes
board {
  city "Aa"
  city "Bb"
  city "Cc"
  route "Aa" "Bb" 2 red
  route "Bb" "Cc" 3 blue
  route "Aa" "Cc" 4 gray
}
tickets {
"""
    + "".join(
        f'  ticket "{a}" "{b}" {points}\n'
        for a, b, points in [("Aa", "Cc", 5), ("Bb", "Cc", 4), ("Aa", "Bb", 3)] * 5
    )
    + "}\n"
)


def test_a_new_board_is_not_blamed_on_the_parent(tmp_path, capsys) -> None:
    """Issue 20, §3: the inherited counts of the lists a variant replaces no longer apply, and the
    inherited score example that no longer fits is one error at the variant's board."""
    status, err = check(tmp_path, NEW_BOARD, capsys=capsys)
    assert status == 1
    assert "E305" not in err
    assert (
        "v.aventuriers:5:1: E308: l’exemple de score hérité nomme 14 routes ou tickets absents de cette "
        "édition : « denver-omaha », « chicago-omaha », « chicago-pittsburgh-black », "
        "« denver-salt-lake-city-red » …\n"
        "    5 | board {\n"
        "      | ^^^^^\n"
        "      = aide : « without score_example », ou un exemple de score de cette édition ; la valeur héritée "
        "est en editions/usa-classic.aventuriers:22\n"
    ) in err.replace(str(loader().root) + "/", ""), err
    assert err.count("E308") == 1
    assert check(tmp_path, NEW_BOARD + "without score_example\n", capsys=capsys)[0] == 0


def test_a_variant_adds_a_city_and_a_route_and_moves_a_city(tmp_path, capsys) -> None:
    """Issue 20, §3: one `route` line once replaced the whole inherited board without a word."""
    spec, compiled, engine = compiled_variant(
        tmp_path,
        "plus",
        'extends usa-2025\nboard {\n  city "Nouvelle Ville" at: 40.0, -100.0\n'
        '  route "Nouvelle Ville" "Denver" 2 red\n}\nchange city denver at: 39.0, -105.0\n',
    )
    assert len(engine.ROUTES) == 101 and "nouvelle-ville-denver" in engine.ROUTES
    board = compiled.edition.board
    assert len(board.cities) == 37
    assert next(place for place in board.places if place.name == "Denver").latitude == 39.0
    assert main(["diff", "usa-2025", str(spec)]) == 0
    assert "Route ajoutée\u00a0: Nouvelle Ville – Denver." in capsys.readouterr().out
    alone = 'edition seul\nextends usa-2025\nwithout routes\nboard {\n  route "Denver" "Omaha" 4 pink\n}\n'
    status, err = check(tmp_path, alone + "without score_example\n", name="seul", capsys=capsys)
    assert "E305" not in err  # the inherited counts of the replaced list are gone


def test_a_most_to_keep_is_played_and_said(tmp_path, capsys) -> None:
    """Issue 20, §3: « keep at most », a switch published editions need."""
    spec, compiled, engine = compiled_variant(
        tmp_path,
        "garde",
        "extends usa-2025\nsetup {\n  tickets deal: 4 keep_at_least: 2 keep_at_most: 3 "
        "rejected: shuffled_under\n}\nturn {\n  draw_tickets draw: 3 keep_at_least: 1 keep_at_most: 1 "
        "rejected: under_chosen_order\n}\n",
    )
    assert engine.SETUP_KEEP_AT_MOST == 3 and engine.DRAW_KEEP_AT_MOST == 1
    game = engine.new_game(2, 3)
    kept_sizes = {len(action["tickets"]) for action in game.legal_actions()}
    assert kept_sizes == {2, 3}
    pending = game.to_dict()["players"][0]["pending_tickets"]
    try:
        game.apply({"type": "keep_tickets", "tickets": pending})
    except engine.IllegalAction as refused:
        assert refused.code == "too_many_tickets" and refused.message == "Tu peux garder au plus 3 tickets."
    else:
        raise AssertionError("four tickets kept of a most of three")
    assert "Chacun en garde de deux à trois, en secret." in compiled.sheet
    assert "et garde-en exactement un." in compiled.sheet
    wrong = spec.read_text(encoding="utf-8").replace("keep_at_most: 3", "keep_at_most: 1")
    status, err = check(tmp_path, wrong.replace("edition garde", "edition v"), capsys=capsys)
    assert status == 1 and "« keep_at_most » vaut 1 : il faut au moins « keep_at_least » (2)" in err
