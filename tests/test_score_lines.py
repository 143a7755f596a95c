"""A score's declared lines (`SCORE_LINES`) add up to its total, for every edition (issue 38, §1)."""

from __future__ import annotations

import random

import pytest
from aventuriers.play.score_lines import breakdown

from tests.engines import EDITIONS, engine, seat_counts


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_declared_lines_add_up_to_each_total(edition: str) -> None:
    module = engine(edition)
    for seed in range(3):
        counts = seat_counts(module)
        game, chooser = module.new_game(counts[seed % len(counts)], seed), random.Random(seed)
        fresh = game.scores()  # nobody's routes yet: unused stations, every ticket failed
        while not game.is_over():
            game.apply(chooser.choice(game.legal_actions()))
        records = fresh + game.scores() + (game.team_scores() if hasattr(game, "team_scores") else [])
        for score in records:
            assert sum(points for _, points in breakdown(module, score)) == score["total"], score


def test_a_mechanisms_line_is_read_where_its_points_are() -> None:
    europe = engine("europe")
    lines = dict(breakdown(europe, europe.new_game(2, 1).scores()[0]))
    assert lines["gares non posées"] == europe.STATIONS * europe.UNUSED_STATION_POINTS
