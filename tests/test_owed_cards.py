"""Cards of any colour a claim owes after its own (issue 22, §2): given one by one (`pay_card`).

A claim effect may cost cards besides the route's (`claim_effect … cards: N`): the claim lays its
cards, the phase becomes `owed_cards`, and each `pay_card` gives one card of any colour the hand
still holds; the last one takes the route. A claim the hand cannot finish is refused at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from .conformance_runner import run_case, start_state

SPEC = """edition cartes-dues
extends usa-2025
title "USA, une carte de plus sur deux routes"
board {
  property extra default: no french: "pont" feminine: no
}
claim_effect extra_card per: extra cards: 1 points: 2
change route chicago-omaha extra: yes
change route houston-new-orleans extra: yes
"""

CASES = [
    {
        "name": "a claim that owes a card waits for it, then takes the route",
        "given": {"players": {0: {"hand": {"blue": 4, "red": 1}}}},
        "steps": [
            {"legal_includes": [{"type": "claim_route", "route": "chicago-omaha", "cards": {"blue": 4}}]},
            {"play": {"type": "claim_route", "route": "chicago-omaha", "cards": {"blue": 4}}},
            {
                "expect": {
                    "phase": "owed_cards",
                    "current_player": 0,
                    "owed_cards": {"route": "chicago-omaha", "cards": {"blue": 4}, "owed": 1, "given": {}},
                }
            },
            {"legal": [{"type": "pay_card", "color": "red"}]},
            {"refuse": {"type": "pay_card", "color": "blue"}, "code": "not_enough_cards"},
            {"refuse": {"type": "draw_card", "source": "deck"}, "code": "must_pay_owed_cards"},
            {"play": {"type": "pay_card", "color": "red"}},
            {
                "expect": {
                    "phase": "turn",
                    "current_player": 1,
                    "owed_cards": None,
                    "players": {0: {"score": 9, "routes": ["chicago-omaha"], "hand": {"blue": 0, "red": 0}}},
                }
            },
            {"scores": {0: {"claim_effects": {"extra_card": 2}}}},
        ],
    },
    {
        "name": "a claim the hand cannot finish is refused",
        "given": {"players": {0: {"hand": {"blue": 4}}}},
        "steps": [
            {
                "refuse": {"type": "claim_route", "route": "chicago-omaha", "cards": {"blue": 4}},
                "code": "not_enough_cards_owed",
            },
            {"legal_excludes": [{"type": "claim_route", "route": "chicago-omaha", "cards": {"blue": 4}}]},
        ],
    },
    {
        # Paid with its own colour alone, the claim takes the route at once, for its length's points;
        # the red card to spare would let a wrongly owed card show as the owed_cards phase.
        "name": "a route without the property owes nothing",
        "given": {"players": {0: {"hand": {"black": 4, "red": 1}}}},
        "steps": [
            {"play": {"type": "claim_route", "route": "denver-kansas-city-black", "cards": {"black": 4}}},
            {
                "expect": {
                    "phase": "turn",
                    "current_player": 1,
                    "owed_cards": None,
                    "players": {
                        0: {
                            "score": 7,
                            "trains": 41,
                            "routes": ["denver-kansas-city-black"],
                            "hand": {"black": 0, "red": 1},
                        }
                    },
                }
            },
            {"scores": {0: {"claim_effects": {"extra_card": 0}}}},
        ],
    },
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spec")
    (folder / "cartes-dues.aventuriers").write_text(SPEC, encoding="utf-8")
    result = compile_edition(folder / "cartes-dues.aventuriers", loader())
    return load_engine(result.engine_source, "cartes_dues")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_owed_cards_cases(engine, case) -> None:
    run_case(engine, case)


def test_a_claim_waiting_for_cards_is_saved_restored_and_seen(engine) -> None:
    game = engine.Game.from_dict(start_state(engine, CASES[0]))
    game.apply({"type": "claim_route", "route": "chicago-omaha", "cards": {"blue": 4}})
    state = game.to_dict()
    assert engine.Game.from_dict(state).to_dict() == state
    assert game.copy().to_dict() == state
    assert game.observation(1)["owed_cards"] == state["owed_cards"]
    state["owed_cards"]["owed"] = 2  # one red card left: it cannot owe two
    with pytest.raises(ValueError, match="owed_cards.owed"):
        engine.Game.from_dict(state)
    state["owed_cards"] = None
    with pytest.raises(ValueError, match="owed_cards"):
        engine.Game.from_dict(state)


def test_random_games_pay_what_they_owe(engine) -> None:
    from .engines import play_random

    for seed in range(20):
        game = play_random(engine, 2 + seed % 4, seed, check_every_step=True)
        assert game.winners()
    assert Path  # the module's own imports stay used
