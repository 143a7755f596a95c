"""Team play (issue 10; seed 004): what the conformance files cannot say.

The Asia rules on a board with tunnels printing 4, 5 and 6
(`tests/specs/broken/equipes-tunnels.aventuriers`, which extends the shipped
`asia-team`), tunnel surcharges paid from the team's holder, player counts that
make no teams, and the compiler's checks of team declarations.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from aventuriers.compiler.build import compile_edition, compile_ir, loader
from aventuriers.compiler.emit.example import load_engine
from aventuriers.compiler.emit.native_core import unsupported

from tests.conformance_runner import run_case
from tests.engines import engine, play_random

SPEC = Path(__file__).resolve().parent / "specs" / "broken" / "equipes-tunnels.aventuriers"

CASES = yaml.safe_load(
    """
- name: a tunnel printing 4 turns over four cards, and the surcharge may come from the holder
  given:
    deck: [red, blue, red, locomotive, white]
    discard: []
    market: [white, white, pink, pink, orange]
    players: {0: {hand: {red: 2}}, 1: {hand: {red: 5}}, 2: {hand: {}}, 3: {hand: {}}}
    teams: {0: {holder: {red: 3, locomotive: 1}}}
  steps:
    - play: {type: claim_route, route: ava-bima, cards: {red: 2}, holder_cards: {red: 1}}
    - expect:
        phase: tunnel
        deck: [white]
        tunnel: {revealed: [red, blue, red, locomotive], surcharge: 3, cards: {red: 2}, holder_cards: {red: 1}}
    - legal:
        - {type: pay_tunnel, cards: {}, holder_cards: {red: 2, locomotive: 1}}
        - {type: abandon_tunnel}
    - refuse: {type: pay_tunnel, cards: {red: 3}}
      code: not_enough_cards
    - refuse: {type: pay_tunnel, cards: {}, holder_cards: {red: 3}}
      code: not_enough_holder_cards
    - play: {type: pay_tunnel, cards: {}, holder_cards: {red: 2, locomotive: 1}}
    - expect:
        phase: turn
        current_player: 1
        players: {0: {routes: [ava-bima], hand: {red: 0}}, 1: {hand: {red: 5}}}
        teams: {0: {holder: {red: 0, locomotive: 0}}}

- name: a tunnel printing 5 turns over five cards
  given:
    deck: [blue, locomotive, red, blue, green, pink]
    discard: []
    players: {0: {hand: {blue: 6}}}
  steps:
    - play: {type: claim_route, route: bima-cebu, cards: {blue: 3}}
    - expect: {deck: [pink], tunnel: {revealed: [blue, locomotive, red, blue, green], surcharge: 3, holder_cards: {}}}

- name: a tunnel printing 6 turns over six cards; giving up returns the cards to hand and holder
  given:
    deck: [green, green, locomotive, blue, red, yellow, white]
    discard: []
    players: {0: {hand: {green: 2}}}
    teams: {0: {holder: {green: 1}}}
  steps:
    - play: {type: claim_route, route: cebu-davao, cards: {green: 2}, holder_cards: {green: 1}}
    - expect: {deck: [white], tunnel: {surcharge: 3}}
    - legal: [{type: abandon_tunnel}]
    - play: {type: abandon_tunnel}
    - expect: {phase: turn, current_player: 1, players: {0: {routes: [], hand: {green: 2}}}, teams: {0: {holder: {green: 1}}}}

- name: a tunnel without its own number turns over the edition's four
  given:
    deck: [black, black, black, black, white]
    discard: []
    players: {0: {hand: {black: 4}}}
  steps:
    - play: {type: claim_route, route: bima-fuzhou, cards: {black: 4}}
    - expect: {deck: [white], tunnel: {surcharge: 4}}

- name: paid with locomotives only, only revealed locomotives count; an empty deck costs nothing
  given:
    deck: [red, locomotive, red, red]
    discard: []
    players: {0: {hand: {locomotive: 2}}, 1: {hand: {yellow: 3}}}
    teams: {0: {holder: {locomotive: 2}}}
  steps:
    - play: {type: claim_route, route: ava-bima, cards: {locomotive: 2}, holder_cards: {locomotive: 1}}
    - expect: {tunnel: {surcharge: 1, color: locomotive}}
    - legal:
        - {type: pay_tunnel, cards: {}, holder_cards: {locomotive: 1}}
        - {type: abandon_tunnel}
    - play: {type: pay_tunnel, cards: {}, holder_cards: {locomotive: 1}}
    - expect: {deck: [], current_player: 1}
    - play: {type: claim_route, route: davao-enshi, cards: {yellow: 3}}
    - expect: {players: {1: {routes: [davao-enshi]}}, current_player: 2}
"""
)


@pytest.fixture(scope="module")
def tunnels_engine():
    result = compile_edition(SPEC, loader())
    return load_engine(result.engine_source, result.edition.module_name)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_team_tunnels(tunnels_engine, case: dict) -> None:
    run_case(tunnels_engine, {"players": 4, **case})


def test_random_team_games_with_tunnels_keep_every_invariant(tunnels_engine) -> None:
    for seed in range(100):
        assert play_random(tunnels_engine, 4, seed, check_every_step=True).winners()


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_players_who_make_no_teams_are_refused_in_french(players: int) -> None:
    asia = engine("asia-equipes")
    with pytest.raises(ValueError) as refused:
        asia.new_game(players, 0)
    if players == 5:
        assert (
            str(refused.value)
            == "asia-equipes se joue en équipes de 2\u00a0: 5 joueurs ne forment pas deux équipes entières"
        )


def test_random_team_games_exercise_every_team_action() -> None:
    """The random games of test_properties go through every team decision; this shows they occur."""
    asia = engine("asia-equipes")
    seen: dict[str, int] = {}
    for seed in range(40):
        game = asia.new_game(4 + 2 * (seed % 2), seed)
        chooser = random.Random(seed)
        while not game.is_over():
            action = chooser.choice(game.legal_actions())
            kind = action["type"]
            if kind == "claim_route" and action["holder_cards"] and action["cards"]:
                kind = "claim_from_both"
            elif kind == "draw_card":
                kind = f"draw_to_{action.get('to', 'be_placed')}"
            elif kind == "place_card":
                kind = f"place_in_{action['to']}"
            seen[kind] = seen.get(kind, 0) + 1
            game.apply(action)
        teams = game.team_scores()
        assert [player for team in teams for player in team["players"]] == list(range(game.players))
        assert all(player in teams[player // 2]["players"] for player in game.winners())
    for kind in (
        "claim_from_both",
        "draw_to_hand",
        "draw_to_holder",
        "draw_to_be_placed",
        "place_in_hand",
        "place_in_holder",
        "share_tickets",
        "keep_tickets",
    ):
        assert seen.get(kind, 0) > 0, f"no {kind} in 40 random games: {seen}"


def test_a_card_drawn_blind_is_sampled_for_those_who_have_not_seen_it() -> None:
    """mcts rebuilds whole games from one seat's view: the drawer's card is the one it saw; for
    the others, a card among those they have not seen."""
    from aventuriers.play.mcts import determinise

    asia = engine("asia-equipes")
    game = asia.new_game(4, 9)
    while game.to_dict()["phase"] != "turn":
        game.apply(game.legal_actions()[0])
    game.apply({"type": "draw_card", "source": "deck"})
    drawer = game.current_player
    for seat in range(4):
        seen = game.observation(seat)
        sampled = asia.Game.from_dict(determinise(asia, seen, random.Random(seat)))
        assert sampled.observation(seat) == seen
        assert sampled.to_dict()["phase"] == "place_card"
        if seat == drawer:
            assert sampled.to_dict()["drawn_card"] == game.to_dict()["drawn_card"]


def test_the_serve_page_places_the_card_it_shows(tmp_path) -> None:
    pytest.importorskip("starlette")
    from aventuriers.play.serve_command import served_edition
    from aventuriers.play.web import create_app
    from starlette.testclient import TestClient

    served = served_edition("asia-equipes", ["greedy", "greedy", "greedy"], None)
    client = TestClient(create_app(served), follow_redirects=False, base_url="http://127.0.0.1:8000")
    game_id = client.post("/games", data={"humans": "1", "seed": "3"}).headers["location"].rsplit("/", 1)[-1]
    session = served.games[game_id]
    while session.game.to_dict()["phase"] != "turn" or not session.is_human_turn():
        if session.is_human_turn():
            session.play_human(session.game.legal_actions()[0])
        else:
            session.advance()
    session.play_human({"type": "draw_card", "source": "deck"})
    drawn = session.game.to_dict()["drawn_card"]
    page = client.get(f"/games/{game_id}").text
    form = asia_card_form(drawn)
    # The card its drawer sees, as the engine declares it, and where it may go, as declared too.
    assert f"carte piochée à l’aveugle, à placer\u00a0: {form}" in page
    assert (
        "Met la carte piochée en main" in page
        and "Met la carte piochée pour le porte-cartes de l’équipe" in page
    )
    # The other seats never see it.
    other = session.game.observation((session.game.current_player + 1) % 4)
    assert other["drawn_card"] is None


def asia_card_form(color: str) -> str:
    from aventuriers.compiler.french import card_forms

    return card_forms()[color][0]


def test_a_team_edition_never_seats_a_single_team(tmp_path, capsys) -> None:
    """Issue 20, §2: `players 2..5` with teams of two passed `check`, and a 2-player game was one
    team that always won; `simulate --players 3` ended in a traceback."""
    from aventuriers.compiler.cli import main

    spec = tmp_path / "duo.aventuriers"
    spec.write_text("edition duo\nextends asia-equipes\nplayers 2..5\n", encoding="utf-8")
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "duo.aventuriers:3:9: E309: à 2 joueurs, il n’y a pas deux équipes de 2" in err
    assert "« players 4..5 »" in err
    for players in ("3", "5"):
        assert main(["simulate", "asia-equipes", "--games", "1", "--players", players]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and f"asia-equipes se joue à 4 ou 6 joueurs, pas à {players}." in err


def test_the_native_engine_plays_team_play_and_says_what_it_does_not_play_yet(tmp_path) -> None:
    """asia-equipes has a native engine (its draws, splits and shares counted in C); team play
    with tunnels has none yet (a surcharge split between the hand and the holder), and the
    native build says so, in French."""
    editions = loader()
    assert unsupported(compile_ir(editions.path_of("asia-equipes"), editions)) is None
    spec = tmp_path / "asie-tunnels.aventuriers"
    spec.write_text(
        'edition asie-tunnels\nextends asia-equipes\ntitle "Asie, en équipes, avec des tunnels"\n'
        "tunnels reveal: 4\n"
    )
    assert (
        unsupported(compile_ir(spec, loader())) == "il ne joue pas encore le jeu en équipes avec les tunnels"
    )


def test_a_covered_screen_hides_the_card_drawn_blind() -> None:
    """People sharing a screen: while it is covered, the card the current player drew blind is
    shown as any other seat sees it (the declared field is its owner's alone)."""
    from aventuriers.play.session import Session

    asia = engine("asia-equipes")
    session = Session(
        engine=asia,
        edition="asia-equipes",
        spec_hash="",
        seed=3,
        seats=["human", "random", "human", "random"],
    )
    while session.game.to_dict()["phase"] != "turn" or session.game.current_player != 0:
        if session.is_human_turn():
            session.play_human(session.game.legal_actions()[0])
        else:
            session.advance()
    session.play_human({"type": "draw_card", "source": "deck"})
    assert session.game.to_dict()["drawn_card"] is not None
    session.revealed = 0
    assert session.screen_observation()["drawn_card"] == session.game.to_dict()["drawn_card"]
    session.revealed = None
    assert session.is_covered() and session.screen_observation()["drawn_card"] is None


def _holding_both_tracks(first: int, second: int) -> dict:
    """An asia-equipes state, four players, where seats `first` and `second` hold the two tracks
    of Ankara – Baghdad."""
    state = engine("asia-equipes").new_game(4, 1).to_dict()
    for seat, route in ((first, "ankara-baghdad-pink"), (second, "ankara-baghdad-white")):
        record = state["players"][seat]
        record["routes"] = [route]
        record["trains"] -= 3
        record["score"] += 4
    return state


def test_a_state_where_one_team_holds_both_tracks_of_a_double_route_is_refused() -> None:
    """from_dict asks the game's own rule (`_holds_sibling`): at four the twin is closed to the
    whole team, so teammates may not hold both tracks, while two opponents may."""
    game = engine("asia-equipes").Game
    with pytest.raises(ValueError) as refused:
        game.from_dict(_holding_both_tracks(0, 1))
    assert (
        str(refused.value)
        == "état impossible pour asia-equipes\u00a0: deux voies de la route 'ankara-baghdad-pink' sont prises"
    )
    restored = game.from_dict(_holding_both_tracks(0, 2))
    assert restored.to_dict()["players"][2]["routes"] == ["ankara-baghdad-white"]


def test_a_tunnel_paid_from_a_broken_holder_is_refused_for_the_teams_records(tunnels_engine) -> None:
    """Tunnels' class checks a waiting tunnel before team play's checks the teams (the
    registry's order): with the teams' records broken, the message is team play's."""
    for seed in range(200):
        game, rng = tunnels_engine.new_game(4, seed), random.Random(seed)
        while not game.is_over() and game.to_dict()["phase"] != "tunnel":
            game.apply(rng.choice(game.legal_actions()))
        if game.to_dict()["phase"] == "tunnel":
            break
    state = game.to_dict()
    assert state["phase"] == "tunnel"
    tunnels_engine.Game.from_dict(state)  # as played: accepted
    state["teams"] = "oops"
    with pytest.raises(ValueError) as refused:
        tunnels_engine.Game.from_dict(state)
    assert (
        str(refused.value)
        == "état impossible pour equipes-tunnels\u00a0: teams doit être une liste de 2 équipes"
    )
