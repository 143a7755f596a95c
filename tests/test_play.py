"""Bots and tournaments (issue 12): bots see only their seat's view, tournaments give the
same results for any number of workers, records replay, greedy plays every edition."""

from __future__ import annotations

import json
import random

import pytest
from aventuriers.compiler.cli import main
from aventuriers.play.bots import GreedyBot, RandomBot, make_bot
from aventuriers.play.games import play_game, seating
from aventuriers.play.mcts import MctsBot, determinise
from aventuriers.play.tournament import run, summarise, wilson

from tests.engines import EDITIONS, engine, random_position, seat_counts
from tests.test_properties import hidden_changes


def package(edition: str) -> str:
    return f"aventuriers.generated.{edition.replace('-', '_')}"


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("bot", [GreedyBot(), RandomBot(), MctsBot(playouts=12)], ids=lambda bot: bot.name)
def test_a_bot_decides_on_what_its_seat_sees(edition: str, bot) -> None:
    """The same observation gives the same choice, whatever the hidden parts of the game."""
    module = engine(edition)
    for seed in range(6):
        game = random_position(module, seed, 150)
        if game.is_over():
            continue
        seat = game.current_player
        state = game.to_dict()
        other = module.Game.from_dict(hidden_changes(module, state, seat, random.Random(seed)))
        assert other.observation(seat) == game.observation(seat)
        first = bot.choose(module, game.observation(seat), game.legal_actions(), random.Random(1))
        second = bot.choose(module, other.observation(seat), other.legal_actions(), random.Random(1))
        assert first == second
        assert first in game.legal_actions()


def test_seats_turn_from_game_to_game() -> None:
    bots = ["greedy", "random", "mcts"]
    assert [seating(bots, game) for game in range(4)] == [
        ["greedy", "random", "mcts"],
        ["random", "mcts", "greedy"],
        ["mcts", "greedy", "random"],
        ["greedy", "random", "mcts"],
    ]


def test_results_are_the_same_for_any_number_of_workers() -> None:
    bots = ["greedy", "random", "random"]
    one = run(package("usa-2025"), bots, 8, seed=5, batch_size=3)
    two = run(package("usa-2025"), bots, 8, seed=5, workers=2, batch_size=3)
    assert one == two
    assert [record["game"] for record in one] == list(range(8))


def test_a_record_replays_to_the_same_scores() -> None:
    module = engine("europe")
    record = play_game(module, ["greedy", "random"], game=3, seed=10)
    replay = module.new_game(len(record["bots"]), record["seed"])
    for action in record["actions"]:
        replay.apply(action)
    assert replay.is_over()
    assert [score["total"] for score in replay.scores()] == record["scores"]
    assert replay.winners() == record["winners"]
    assert json.loads(json.dumps(record)) == record


def test_greedy_beats_random_and_scores_well() -> None:
    records = run(package("usa-2025"), ["greedy", "random", "random", "random"], 20)
    summaries = {summary.bot: summary for summary in summarise(records)}
    assert summaries["greedy"].win_rate >= 0.9
    assert summaries["greedy"].mean_score > 50 > summaries["random"].mean_score


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_two_hundred_greedy_games_on_every_edition(edition: str) -> None:
    # One process: the test's worker shares the cores with the others already.
    module = engine(edition)
    bots = ["greedy"] * seat_counts(module)[0]
    records = run(package(edition), bots, 200, workers=1, batch_size=50)
    assert len(records) == 200
    assert all(record["winners"] for record in records)
    assert summarise(records)[0].mean_score > 0


def test_wilson_interval() -> None:
    low, high = wilson(95, 100)
    assert 0.88 < low < 0.89 and 0.97 < high < 0.98
    assert wilson(0, 0) == (0.0, 0.0)


def test_tournament_command_writes_games_and_plot(tmp_path, capsys) -> None:
    out = tmp_path / "results"
    assert main(["tournament", "usa-2025", "--bots", "greedy,random", "--games", "4", "--out", str(out)]) == 0
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    record = json.loads(lines[0])
    assert {"game", "seed", "bots", "scores", "winners", "actions"} <= set(record)
    assert record["bots"] == ["greedy", "random"] and json.loads(lines[1])["bots"] == ["random", "greedy"]
    assert "greedy" in capsys.readouterr().out
    assert (out / "scores.png").read_bytes()[:4] == b"\x89PNG"


def test_tournament_refuses_bad_bots_and_seat_counts(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "usa-2025", "--bots", "greedy,clever"])
    assert "clever" in capsys.readouterr().err
    assert (
        main(["tournament", "asia-equipes", "--bots", "greedy,random,random,random,random", "--games", "1"])
        == 2
    )


def test_simulate_with_bots(capsys) -> None:
    assert main(["simulate", "usa-2025", "--games", "3", "--players", "2", "--bots", "greedy,random"]) == 0
    assert "score moyen" in capsys.readouterr().out


def test_unknown_bot_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        make_bot("clever")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sampled_game_looks_the_same_from_the_seat(edition: str) -> None:
    """mcts samples whole games from an observation: each one shows that seat the very same."""
    module = engine(edition)
    for seed in range(15):
        game = random_position(module, seed, 250)
        seat = game.current_player
        seen = game.observation(seat)
        sampled = module.Game.from_dict(determinise(module, seen, random.Random(seed)))
        assert sampled.observation(seat) == seen


def test_a_sampled_game_keeps_the_tickets_the_observation_shows() -> None:
    """Where a rule shows another seat's tickets (the observation writes them), the sampled game
    deals them to that seat, and deals nobody else any of them."""
    module = engine("usa-2025")
    game = random_position(module, 3, 120)
    seen = game.observation(0)
    held = game.to_dict()["players"][1]["tickets"]
    assert held
    seen["players"][1]["tickets"] = list(held)
    for seed in range(10):
        sampled = determinise(module, seen, random.Random(seed))
        assert sampled["players"][1]["tickets"] == held
        module.Game.from_dict(sampled)  # the tickets dealt once each


def test_a_sampled_game_deals_a_seat_the_tickets_a_field_shows_within_them() -> None:
    """A field declared ``within`` a player's tickets and seen by all (tickets a rule scores and
    shows when completed): the sampled game deals them to that seat, among its hidden others."""
    import types

    usa = engine("usa-2025")
    module = types.ModuleType("usa_2025_with_shown_tickets")
    module.__dict__.update(usa.__dict__)
    shown = {
        "key": "tickets_shown",
        "scope": "player",
        "shape": "ids",
        "label": "t",
        "over": "TICKETS",
        "within": "tickets",
    }
    module.STATE_FIELDS = (*usa.STATE_FIELDS, shown)
    game = random_position(usa, 5, 120)
    held = game.to_dict()["players"][1]["tickets"]
    seen = game.observation(0)
    seen["players"][1]["tickets_shown"] = held[:1]
    for seed in range(10):
        sampled = determinise(module, seen, random.Random(seed))
        tickets = sampled["players"][1]["tickets"]
        assert tickets[:1] == held[:1] and len(tickets) == len(held)
        assert held[0] not in sampled["players"][0]["tickets"] + sampled["ticket_deck"]
        usa.Game.from_dict(sampled)


def test_mcts_budgets() -> None:
    assert make_bot("mcts:50").playouts == 50
    assert make_bot("mcts:0.5s").seconds == 0.5
    assert make_bot("mcts:1s:greedy").rollout == "greedy"
    assert make_bot("mcts:1s:guided").rollout == "guided"
    with pytest.raises(ValueError):
        make_bot("mcts:fast")
    module = engine("usa-2025")
    game = module.new_game(2, 4)
    choice = make_bot("mcts:20").choose(module, game.observation(0), game.legal_actions(), random.Random(0))
    assert choice in game.legal_actions()
    # Guided rollouts: the core's where it was built, else the greedy bot's; a legal choice either way.
    choice = make_bot("mcts:8:guided").choose(
        module, game.observation(0), game.legal_actions(), random.Random(0)
    )
    assert choice in game.legal_actions()


def test_balance_writes_a_french_report(tmp_path) -> None:
    out = tmp_path / "bilan"
    assert main(["balance", "usa-2025", "--games", "6", "--players", "3", "--out", str(out)]) == 0
    report = (out / "bilan.md").read_text(encoding="utf-8")
    assert report.startswith("# Bilan d’équilibre\u00a0: Les Aventuriers du Rail — USA, notice 2025")
    assert "6 parties à 3 joueurs" in report and "Le premier joueur gagne" in report
    assert "| ticket | gardé | réussi |" in report and "Routes les plus prises" in report
    assert (out / "bilan.png").read_bytes()[:4] == b"\x89PNG"


def test_balance_of_a_variant_file(tmp_path) -> None:
    out = tmp_path / "bilan"
    assert (
        main(["balance", "tests/variants/usa-sans-miami.aventuriers", "--games", "3", "--out", str(out)]) == 0
    )
    lines = (out / "bilan.md").read_text(encoding="utf-8").splitlines()
    assert not [line for line in lines if line.startswith("| ") and "miami" in line.lower()], (
        "the variant has no Miami ticket"
    )
