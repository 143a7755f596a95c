"""House rules a new author could not write before (issue 38, §6), each a mechanism in its own
folder: a race to points (``end { race N }``, ``compiler/mechanisms/race``), a fixed number of
rounds (``end { rounds N }``, ``compiler/mechanisms/rounds``), kept tickets face up
(``face_up_tickets yes``, ``compiler/mechanisms/face_up_tickets``) and a hand limit
(``hand_limit N``, ``compiler/mechanisms/hand_limit``), tickets scored the moment they are
completed (``score_tickets_at_once yes``, ``compiler/mechanisms/tickets_at_once``). Their variants beside the others
(``tests/variants/``) carry their cases, accepted and refused; here: the cases, on the pure and
the native engine, the states ``from_dict`` refuses, the sheet's and the differences' French,
``without``, and random games that end by the rule."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
import yaml
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.example import load_engine
from aventuriers.compiler.native import missing_toolchain

from .conformance_runner import run_case, start_state
from .engines import load_native

VARIANTS = Path(__file__).resolve().parent / "variants"
HOUSE_RULES = {
    "usa-course": "race",
    "europe-douze-tours": "rounds",
    "usa-tickets-visibles": "face_up_tickets",
    "usa-main-limitee": "hand_limit",
    "usa-tickets-aussitot": "score_tickets_at_once",
}
# What is gone from an engine once a variant of the house rule drops it (`without`).
GONE = {
    "race": "RACE_POINTS",
    "rounds": "ROUNDS",
    "face_up_tickets": "Kept tickets lie face up",
    "hand_limit": "HAND_LIMIT",
    "score_tickets_at_once": "tickets_scored",
}


def compiled(name: str):
    result = compile_edition(VARIANTS / f"{name}.aventuriers", loader())
    return result, load_engine(result.engine_source, result.edition.module_name)


def cases(name: str) -> list[dict]:
    return yaml.safe_load((VARIANTS / f"{name}.yaml").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_a_house_rule_plays_its_cases(name: str) -> None:
    _, engine = compiled(name)
    for case in cases(name):
        run_case(engine, case)


@pytest.mark.parametrize(
    ("name", "given", "message"),
    [
        (
            "usa-course",
            # 15 + 15 + 7 + 2 + 1 points of routes: 40, at the start of a turn no round's end awaits.
            {
                "players": {
                    0: {
                        "routes": [
                            "calgary-winnipeg",
                            "duluth-helena",
                            "calgary-helena",
                            "atlanta-charleston",
                            "atlanta-nashville",
                        ]
                    }
                }
            },
            "état impossible pour usa-course\u00a0: un score atteint 40 points\u00a0: la partie finit avec ce tour de table",
        ),
        (
            "europe-douze-tours",
            {"turns_played": 24},
            "état impossible pour europe-douze-tours\u00a0: chaque joueur a joué 12 tours\u00a0: la partie est finie",
        ),
        (
            "usa-tickets-aussitot",
            {"players": {0: {"tickets": ["denver-el-paso"], "tickets_scored": ["denver-el-paso"]}}},
            "état impossible pour usa-tickets-aussitot\u00a0: players[0].score doit valoir 4, les points de ses "
            "routes et de ses tickets déjà marqués, pas 0",
        ),
        (
            "usa-tickets-aussitot",
            {"players": {0: {"tickets_scored": ["denver-el-paso"], "score": 4}}},
            "état impossible pour usa-tickets-aussitot\u00a0: players[0].tickets_scored doit être des tickets "
            "gardés, chacun une fois",
        ),
        (
            "usa-main-limitee",
            {"players": {1: {"hand": {"red": 6, "blue": 5}}}},
            "état impossible pour usa-main-limitee\u00a0: players[1] tient plus de 10 cartes Wagon, la limite de main",
        ),
        (
            "usa-main-limitee",
            {"phase": "second_card", "cards_drawn": 1, "players": {0: {"hand": {"red": 6, "blue": 4}}}},
            "état impossible pour usa-main-limitee\u00a0: une main de 10 cartes Wagon ne pioche pas de seconde carte",
        ),
    ],
)
def test_a_state_past_the_rule_s_end_is_refused(name: str, given: dict, message: str) -> None:
    _, engine = compiled(name)
    with pytest.raises(ValueError) as error:
        engine.Game.from_dict(start_state(engine, {"name": "past the end", "given": given}))
    assert str(error.value) == message


def test_the_sheet_and_the_differences_say_the_race() -> None:
    result, engine = compiled("usa-course")
    assert engine.RACE_POINTS == 40
    rules, annex = result.sheet.split("## Annexe")
    assert (
        "Course aux points\u00a0: dès qu’un joueur atteint 40 points sur la piste de score (les points "
        "marqués en cours de partie\u202f; les tickets ne comptent qu’à la fin), on termine le tour de "
        "table, jusqu’au dernier joueur dans l’ordre du tour, et la partie s’arrête. Si le dernier tour "
        "a déjà commencé, la partie s’arrête à la première de ces deux fins." in rules
    )
    assert "- Fin\u00a0: le tour de table où un joueur atteint 40 points, ou le dernier tour." in rules
    assert (
        "- Course aux points\u00a0: fin du tour de table où un score atteint 40 points (au lieu de la "
        "seule fin par les wagons)." in annex
    )


def test_the_sheet_and_the_differences_say_the_rounds() -> None:
    result, engine = compiled("europe-douze-tours")
    assert engine.ROUNDS == 12
    rules, annex = result.sheet.split("## Annexe")
    assert (
        "Partie en douze tours de table\u00a0: la partie s’arrête quand chaque joueur a joué douze "
        "tours (passer compte pour un tour), même s’il reste des wagons à tous\u202f; le dernier tour, "
        "s’il commence avant, l’arrête plus tôt." in rules
    )
    assert "- Nombre de tours\u00a0: douze tours de table au plus (au lieu d’aucune limite)." in annex


@pytest.mark.parametrize(("name", "mechanism"), sorted(HOUSE_RULES.items()))
def test_without_the_house_rule_the_parent_s_game_comes_back(tmp_path, name: str, mechanism: str) -> None:
    # A variant extends one beside it: the house rule's own, copied.
    (tmp_path / f"{name}.aventuriers").write_text(
        (VARIANTS / f"{name}.aventuriers").read_text(encoding="utf-8")
    )
    spec = tmp_path / "sans.aventuriers"
    spec.write_text(f'edition sans\nextends {name}\ntitle "Sans"\nwithout {mechanism}\n', encoding="utf-8")
    result = compile_edition(spec, loader())
    engine = load_engine(result.engine_source, result.edition.module_name)
    assert GONE[mechanism] in compile_edition(VARIANTS / f"{name}.aventuriers", loader()).engine_source
    assert GONE[mechanism] not in result.engine_source
    game = engine.new_game(2, 1)
    assert "tickets" not in game.observation(1)["players"][0]  # hidden again


def test_random_games_end_by_the_house_rules() -> None:
    """A race: no turn of a round after the one a score reached 40 in; rounds: never more than
    twelve turns each, and a game stopped by them leaves trains to everyone."""
    _, race = compiled("usa-course")
    _, rounds = compiled("europe-douze-tours")
    by_rounds = 0
    for seed in range(30):
        players = 2 + seed % 3
        game, rng, reached = race.new_game(players, seed), random.Random(seed), None
        while not game.is_over():
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
            state = game.to_dict()
            if reached is None and max(p["score"] for p in state["players"]) >= 40:
                reached = (state["turns_played"] - (state["phase"] != "over")) // players
            if reached is not None and not game.is_over():
                assert state["turns_played"] < (reached + 1) * players, seed
        game, rng = rounds.new_game(players, seed), random.Random(seed)
        while not game.is_over():
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        state = game.to_dict()
        assert state["turns_played"] <= 12 * players
        by_rounds += state["turns_played"] == 12 * players
    assert by_rounds > 20  # twelve rounds are short: most games end by them


def test_face_up_tickets_change_what_is_seen_and_nothing_else() -> None:
    """Every seat sees every kept ticket, never one offered or given back; the game itself plays
    as the parent's (the same random games, state by state), the search's sampled games look the
    same from the seat, and every record keeps to the engine's types."""
    from aventuriers.generated import usa_2025
    from aventuriers.play.mcts import determinise

    from .test_typed_api import check_games

    result, engine = compiled("usa-tickets-visibles")
    rules, annex = result.sheet.split("## Annexe")
    assert (
        "Les tickets gardés se posent face visible devant soi, pour toute la partie\u00a0: chacun voit "
        "ceux des autres. Ceux qu’on pioche restent cachés jusqu’au choix, et ceux qu’on rend, cachés, "
        "retournent sous la pioche." in rules
    )
    assert "- Tickets gardés\u00a0: face visible, vus de tous (au lieu de cachés)." in annex
    for seed in range(12):
        players = 2 + seed % 4
        game, parent, rng = (
            engine.new_game(players, seed),
            usa_2025.new_game(players, seed),
            random.Random(seed),
        )
        while not game.is_over():
            state = game.to_dict()
            assert {**state, "edition": None} == {**parent.to_dict(), "edition": None}
            for seat in range(players):
                seen = game.observation(seat)
                for other, record in enumerate(seen["players"]):
                    assert record["tickets"] == state["players"][other]["tickets"]
                    assert ("pending_tickets" in record) == (other == seat)
                if seat == game.current_player:
                    sampled = engine.Game.from_dict(determinise(engine, seen, random.Random(seed)))
                    assert sampled.observation(seat) == seen
            actions = game.legal_actions()
            action = actions[rng.randrange(len(actions))]
            game.apply(action)
            parent.apply(action)
    check_games(engine, games=2, every=6)


def test_the_hand_limit_is_said_and_kept_in_random_games() -> None:
    """No hand ever holds more than ten cards, a full hand is never offered a draw, and the
    refusal says why in French; the sheet says the rule."""
    result, engine = compiled("usa-main-limitee")
    rules, annex = result.sheet.split("## Annexe")
    assert (
        "Limite de main\u00a0: personne ne tient plus de dix cartes Wagon. Avec dix cartes Wagon en main, "
        "on ne pioche pas de carte\u00a0: on prend une route, on pioche des tickets, ou l’on passe si rien "
        "d’autre n’est possible. Si la première carte piochée remplit la main, on ne pioche pas la seconde."
        in rules
    )
    assert "- Cartes Wagon en main\u00a0: dix cartes Wagon au plus (au lieu d’aucune limite)." in annex
    full = 0
    for seed in range(20):
        players = 2 + seed % 4
        game, rng = engine.new_game(players, seed), random.Random(seed)
        while not game.is_over():
            state = game.to_dict()
            hands = [sum(player["hand"].values()) for player in state["players"]]
            assert max(hands) <= 10, seed
            actions = game.legal_actions()
            if hands[game.current_player] == 10 and state["phase"] == "turn":
                full += 1
                assert not any(action["type"] == "draw_card" for action in actions)
                with pytest.raises(engine.IllegalAction) as error:
                    game.apply({"type": "draw_card", "source": "deck"})
                assert error.value.message == (
                    "Ta main a déjà dix cartes Wagon, le plus qu’elle puisse tenir\u00a0: tu ne peux pas piocher."
                )
            game.apply(actions[rng.randrange(len(actions))])
    assert full > 0  # random play fills hands


def test_tickets_scored_at_once_keep_the_track_and_the_end_s_count() -> None:
    """At every step the track is the routes' points and the scored tickets'; at the end the
    tickets completed are exactly those scored, counted once; the search's sampled games deal
    each seat the tickets it has shown; the sheet says the rule."""
    from aventuriers.play.mcts import determinise

    result, engine = compiled("usa-tickets-aussitot")
    assert (
        "Tickets marqués aussitôt\u00a0: à la fin du tour où tes routes relient les deux villes d’un de tes "
        "tickets (ou où tu gardes un ticket déjà relié), tu le montres et tu avances ton marqueur de ses "
        "points." in result.sheet
    )
    scored_some = 0
    for seed in range(16):
        players = 2 + seed % 4
        game, rng = engine.new_game(players, seed), random.Random(seed)
        while not game.is_over():
            state = game.to_dict()
            for player in state["players"]:
                route_points = sum(engine.ROUTE_POINTS[engine.ROUTES[r]["length"]] for r in player["routes"])
                shown = sum(engine.TICKETS[t]["points"] for t in player["tickets_scored"])
                assert player["score"] == route_points + shown, seed
                assert set(player["tickets_scored"]) <= set(player["tickets"])
            seat = game.current_player
            seen = game.observation(seat)
            sampled = engine.Game.from_dict(determinise(engine, seen, random.Random(seed)))
            assert sampled.observation(seat) == seen
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        state = game.to_dict()
        for result_of, player in zip(game.scores(), state["players"], strict=True):
            completed = [entry["ticket"] for entry in result_of["tickets_completed"]]
            assert sorted(completed) == sorted(player["tickets_scored"]), seed
            scored_some += len(completed)
    assert scored_some > 0
    from .test_typed_api import check_games

    check_games(engine, games=1, every=8)  # `tickets_scored` in the records, of its declared type


# -- the native engines -------------------------------------------------------------------------

LACKING = missing_toolchain()
# CI requires the toolchain (AVENTURIERS_NATIVE_TESTS=required): there a missing one fails.
SKIPPED = LACKING is not None and os.environ.get("AVENTURIERS_NATIVE_TESTS") != "required"


@pytest.fixture(scope="module")
def natives(tmp_path_factory) -> dict:
    """Each house rule's variant built with `--native`, its native engine loaded."""
    found = {}
    for name in sorted(HOUSE_RULES):
        out = tmp_path_factory.mktemp(name) / "generated"
        assert main(["build", str(VARIANTS / f"{name}.aventuriers"), "--out", str(out), "--native"]) == 0
        module = load_native(out / name.replace("-", "_"), f"house_{name.replace('-', '_')}")
        assert module is not None, f"{name}: no native engine built"
        found[name] = module
    return found


@pytest.mark.slow
@pytest.mark.skipif(SKIPPED, reason=f"pas de construction native ici : {LACKING}")
@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_the_native_engine_plays_the_house_rule_as_the_pure_one(natives, name: str) -> None:
    native = natives[name]
    for case in cases(name):
        run_case(native, case)
    _, pure = compiled(name)
    for seed in range(20):
        players = 2 + seed % 3
        fast, slow = native.new_game(players, seed), pure.new_game(players, seed)
        rng = random.Random(seed)
        while not slow.is_over():
            assert fast.to_dict() == slow.to_dict(), seed
            actions = slow.legal_actions()
            action = actions[rng.randrange(len(actions))]
            fast.apply(action)
            slow.apply(action)
        assert fast.is_over() and fast.to_dict() == slow.to_dict()
        # Dealt and scored in C too (`native_scoring`): the same records, key by key.
        assert json.dumps(fast.scores()) == json.dumps(slow.scores()) and fast.winners() == slow.winners()
        # Random playouts from the start, in C and in Python: the same games.
        first, second = native.new_game(players, seed), pure.new_game(players, seed)
        first.playout(random.Random(seed))
        second.playout(random.Random(seed))
        assert first.to_dict() == second.to_dict(), seed
        # The guided policy, in C, keeps the rules: every game it ends is one the engine takes back.
        beside = native._pure  # the engine the native one was built with
        guided = beside.new_game(players, seed)
        native.guided_rollout(guided, random.Random(seed), 12)
        assert guided.is_over()
        pure.Game.from_dict(guided.to_dict())
