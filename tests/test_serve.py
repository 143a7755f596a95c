"""`aventuriers serve` without a browser: requests, refusals, undo, records and replay."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from aventuriers.compiler.cli import main  # noqa: E402
from aventuriers.play.describe import ticket_name  # noqa: E402
from aventuriers.play.serve_command import default_bots, served_edition  # noqa: E402
from aventuriers.play.session import RecordError, Session, check_record, replay  # noqa: E402
from aventuriers.play.web import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from tests.engines import COVER, engine  # noqa: E402

JSON = {"accept": "application/json"}
# The server answers only to its own names (see play/guard.py).
LOCAL = "http://127.0.0.1:8000"


def new_game(client, seed: int = 7) -> str:
    response = client.post("/games", data={"humans": "1", "seed": str(seed)})
    assert response.status_code == 303
    return response.headers["location"].rsplit("/", 1)[-1]


def state(client, game: str) -> dict:
    response = client.get(f"/games/{game}/state.json")
    assert response.status_code == 200
    return response.json()


def play(client, game: str, action: dict, **extra):
    return client.post(f"/games/{game}/action", data={"action": json.dumps(action), **extra}, headers=JSON)


def finish(client, game: str, rng: random.Random, *, pages: bool = False) -> None:
    """Random legal moves for the person, the bots' answers, to the end of the game (with
    ``pages``, the page is drawn at each kind of step the game has not shown yet, its phase, whose
    turn and the kinds of action offered, and every 25th step)."""
    drawn: set = set()
    for step in range(2_000):
        current = state(client, game)
        kind = (
            (current.get("observation") or {}).get("phase"),
            current["human_turn"],
            frozenset(action["type"] for action in current["legal_actions"]),
        )
        if pages and (kind not in drawn or step % 25 == 0):
            drawn.add(kind)
            page = client.get(f"/games/{game}")
            assert page.status_code == 200 and "Traceback" not in page.text
        if current["over"]:
            break
        if not current["human_turn"]:
            assert client.post(f"/games/{game}/advance", headers=JSON).status_code == 200
            continue
        response = play(client, game, rng.choice(current["legal_actions"]))
        assert response.status_code == 200, response.text
    assert state(client, game)["over"]


def test_the_home_page_and_a_new_game(client) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "Nouvelle partie" in home.text
    game = new_game(client)
    page = client.get(f"/games/{game}")
    assert page.status_code == 200
    assert "À toi de jouer" in page.text and "<svg" in page.text and "data-route=" in page.text
    assert 'src="/static/app.js"' in page.text and "http://" not in page.text.replace('xmlns="http://', "")
    assert (
        client.get("/static/app.js").status_code == 200 and client.get("/static/style.css").status_code == 200
    )


def test_unknown_game_is_404_in_french(client) -> None:
    for path in ("/games/nope", "/games/nope/state.json", "/games/nope/record.json"):
        response = client.get(path)
        assert response.status_code == 404 and "Partie inconnue" in response.text
    assert client.post("/games/nope/action", data={"action": "{}"}).status_code == 404


@pytest.mark.parametrize("body", ["", "not json", "[1, 2]", '"claim"', "{" * 50])
def test_a_malformed_action_is_400_and_changes_nothing(client, body: str) -> None:
    game = new_game(client)
    before = state(client, game)
    response = client.post(f"/games/{game}/action", data={"action": body}, headers=JSON)
    assert response.status_code == 400 and "Action illisible" in response.json()["error"]
    assert state(client, game) == before


def test_a_crafted_action_is_checked_by_the_engine(client, usa) -> None:
    game = new_game(client)
    before = state(client, game)
    crafted = {"type": "keep_tickets", "tickets": ["__import__('os').system('id')"]}
    response = play(client, game, crafted)
    assert response.status_code == 422
    assert response.json()["error"]  # the engine's French message
    assert state(client, game) == before
    # From the page: back to the page, which shows the engine's message once.
    html = client.post(f"/games/{game}/action", data={"action": json.dumps(crafted)})
    assert html.status_code == 303
    shown = client.get(f"/games/{game}")
    assert 'id="error"' in shown.text and str(escape(response.json()["error"])) in shown.text
    assert 'id="error"' not in client.get(f"/games/{game}").text


def test_a_whole_game_by_requests_and_its_replay(client, usa, tmp_path, capsys) -> None:
    game = new_game(client, seed=3)
    finish(client, game, random.Random(3))
    page = client.get(f"/games/{game}")
    assert "Partie terminée" in page.text
    record = client.get(f"/games/{game}/record.json")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    data = record.json()
    session = usa.games[game]
    rebuilt = replay(usa.engine, data["actions"], players=len(data["seats"]), seed=data["seed"])
    assert rebuilt.game.to_dict() == session.game.to_dict()
    # The saved record, replayed by the command.
    saved = usa.records / f"partie-{game}.json"
    assert json.loads(saved.read_text(encoding="utf-8")) == data
    assert main(["replay", str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"{len(data['actions'])} actions rejouées" in out and "Gagnant(s)" in out
    for score in session.game.scores():
        assert (
            f"Joueur {score['player'] + 1} ({data['seats'][score['player']]}) : {score['total']} points"
            in out
        )


def test_undo_takes_back_the_last_human_action_only(client) -> None:
    game = new_game(client)
    first = state(client, game)
    keep = first["legal_actions"][0]
    assert play(client, game, keep).status_code == 200
    after = state(client, game)
    assert after["can_undo"] and after["actions"] == 1
    assert client.post(f"/games/{game}/undo", headers=JSON).status_code == 200
    assert state(client, game) == first
    assert client.post(f"/games/{game}/undo", headers=JSON).status_code == 409
    assert play(client, game, keep).status_code == 200
    assert client.post(f"/games/{game}/advance", headers=JSON).status_code == 200
    assert not state(client, game)["can_undo"]  # the bots have played since


def test_games_do_not_mix(client) -> None:
    one, two = new_game(client, seed=1), new_game(client, seed=1)
    assert one != two
    before = state(client, two)
    assert play(client, one, state(client, one)["legal_actions"][0]).status_code == 200
    assert state(client, two) == before


def test_a_bots_turn_refuses_a_person(client) -> None:
    game = new_game(client)
    assert play(client, game, state(client, game)["legal_actions"][0]).status_code == 200
    current = state(client, game)
    if not current["human_turn"]:
        response = play(client, game, {"type": "draw_card", "source": "deck"})
        assert response.status_code == 409


def test_a_refused_replay_says_why(usa, tmp_path, capsys) -> None:
    session = Session(
        engine=usa.engine, edition="usa-2025", spec_hash=usa.spec_hash, seed=5, seats=["human", "greedy"]
    )
    session.play_human(session.game.legal_actions()[0])
    record = session.record()
    check_record(record, usa.engine, usa.spec_hash)
    with pytest.raises(RecordError, match="empreinte"):
        check_record(record, usa.engine, "sha256:autre")
    broken = dict(record, actions=[{"seat": 0, "action": {"type": "pass"}}])
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "action 1 refusée" in capsys.readouterr().err


def test_default_bots_make_a_playable_table() -> None:
    from aventuriers.generated import asia_equipes, usa_2025

    assert default_bots(usa_2025) == ["greedy", "greedy"]
    assert len(default_bots(asia_equipes)) == 3


def test_a_variant_file_is_served(tmp_path) -> None:
    spec = tmp_path / "cinq-tickets.aventuriers"
    spec.write_text(
        'edition cinq-tickets\nextends usa-2025\ntitle "USA 2025, cinq tickets"\n'
        "setup {\n  tickets deal: 5 keep_at_least: 3 rejected: shuffled_under\n}\n",
        encoding="utf-8",
    )
    served = served_edition(str(spec), None, None)
    assert served.bots == ["greedy", "greedy"]
    client = TestClient(create_app(served), follow_redirects=False, base_url=LOCAL)
    game = new_game(client)
    assert len(state(client, game)["observation"]["players"][0]["pending_tickets"]) == 5
    finish(client, game, random.Random(5))
    assert "Partie terminée" in client.get(f"/games/{game}").text


def test_fifty_concurrent_games_move_without_error() -> None:
    """The load benchmark, bounded: 50 games at once on 127.0.0.1, three actions each, no
    pause; it exits 1 on any error (its timings are the benchmark's, in the README)."""
    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_serve.py"
    run = subprocess.run(
        [sys.executable, str(bench), "--games", "50", "--actions", "3", "--think", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "50 concurrent games" in run.stdout and "; 0 errors" in run.stdout


# The editions that between them use every mechanism (tests/engines.py).
@pytest.mark.parametrize("edition", COVER)
def test_every_mechanism_plays_through_the_pages(edition: str) -> None:
    """Tunnels, stations, countries, tunnel cards, team holders, mountains, the Grand Tour, sets of
    cards paid one by one, shares and the dummy shareholder's choices, public routes, two decks of
    tickets, a second deck of cards: whole games, every page drawn."""
    # One bot where the edition is played by two (shorter games; team play needs its four).
    two = engine(edition).PLAYERS[0] <= 2
    served = served_edition(edition, ["greedy"] if two else None, None)
    client = TestClient(create_app(served), follow_redirects=False, base_url=LOCAL)
    game = new_game(client, seed=2)
    finish(client, game, random.Random(2), pages=True)
    html = client.get(f"/games/{game}").text
    assert "Partie terminée" in html and 'class="winner"' in html
    assert ('id="team"' in html) == (edition == "asia-equipes")


def test_a_person_never_waits_on_the_bots_lock(client, usa) -> None:
    """While a game's bots are thinking (its lock held), a person's request is answered at once."""
    game = new_game(client)
    before = state(client, game)
    session = usa.games[game]
    with session.lock:
        response = play(client, game, before["legal_actions"][0])
        assert response.status_code == 409 and "Les bots jouent encore" in response.json()["error"]
        assert client.post(f"/games/{game}/undo", headers=JSON).status_code == 409
    assert state(client, game) == before


def test_oversized_and_malformed_requests_are_refused_in_french(client) -> None:
    game = new_game(client)
    big = client.post(f"/games/{game}/action", data={"action": "x" * 70_000})
    assert big.status_code == 413 and "Requête trop grande" in big.text
    assert client.post("/games", data={"humans": "deux"}).status_code == 400
    assert "se joue de" in client.post("/games", data={"humans": "9"}).text


def test_people_sharing_a_screen_each_see_only_their_own_game(usa) -> None:
    client = TestClient(create_app(usa), follow_redirects=False, base_url=LOCAL)
    response = client.post("/games", data={"humans": "2", "seed": "4"})
    game = response.headers["location"].rsplit("/", 1)[-1]
    session = usa.games[game]
    assert session.seats == ["human", "human", "greedy", "greedy"]
    covered = client.get(f"/games/{game}").text
    assert 'id="cover"' in covered and 'id="hand"' not in covered and 'id="actions"' not in covered
    assert "Joueur 1" in covered and "voir mon jeu" in covered
    assert client.post(f"/games/{game}/reveal").status_code == 303
    shown = client.get(f"/games/{game}").text
    assert 'id="hand"' in shown and 'id="actions"' in shown and 'id="cover"' not in shown
    offered = session.game.observation(0)["players"][0]["pending_tickets"]
    assert any(escape(ticket_name(usa.engine, ticket)) in shown for ticket in offered)
    assert play(client, game, state(client, game)["legal_actions"][0]).status_code == 200
    # The second person's turn: the screen hides their game (and the first one's) until they ask.
    page = client.get(f"/games/{game}").text
    assert 'id="cover"' in page and "Joueur 2" in page
    assert not any(escape(ticket_name(usa.engine, ticket)) in page for ticket in offered)
    client.post(f"/games/{game}/reveal")
    assert 'id="hand"' in client.get(f"/games/{game}").text


def test_the_next_person_at_the_screen_cannot_undo_the_previous_one(usa) -> None:
    client = TestClient(create_app(usa), follow_redirects=False, base_url=LOCAL)
    game = client.post("/games", data={"humans": "2", "seed": "4"}).headers["location"].rsplit("/", 1)[-1]
    client.post(f"/games/{game}/reveal")
    assert play(client, game, state(client, game)["legal_actions"][0]).status_code == 200
    # Joueur 2's turn now: Joueur 1's choice is no longer anyone's to take back.
    assert not state(client, game)["can_undo"]
    assert client.post(f"/games/{game}/undo", headers=JSON).status_code == 409
    assert "Annuler mon tour" not in client.get(f"/games/{game}").text


def test_a_claim_waiting_for_cards_says_how_many_on_the_page() -> None:
    """Nordic Countries: a ferry paid with a set of any cards waits for them, one `pay_card` each."""
    served = served_edition("nordic-countries", None, None)
    client = TestClient(create_app(served), follow_redirects=False, base_url=LOCAL)
    for seed in range(20):
        game = new_game(client, seed=seed)
        rng = random.Random(seed)
        for _ in range(2_000):
            current = state(client, game)
            if current["over"]:
                break
            if not current["human_turn"]:
                client.post(f"/games/{game}/advance", headers=JSON)
                continue
            if any(action["type"] == "pay_card" for action in current["legal_actions"]):
                html = client.get(f"/games/{game}").text
                assert "attend encore" in html and "de n’importe quelle couleur" in html
                assert "pour sa route" in html  # each card a button of its own
                return
            play(client, game, rng.choice(current["legal_actions"]))
    raise AssertionError("no game of 20 reached a claim waiting for cards")
