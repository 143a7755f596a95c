"""A score's declared lines (`SCORE_LINES`) add up to its total, for every edition (issue 38, §1)."""

from __future__ import annotations

import random

import pytest
from aventuriers.play.describe import ticket_name
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


@pytest.mark.parametrize("edition", ["pennsylvania", "asia-equipes"])
def test_the_end_of_a_game_shows_each_score_line_by_line_and_every_ticket(edition: str) -> None:
    """The page's last screen: each player's declared lines with their points, and each ticket
    they held revealed, done or failed; read from the engine's declaration, naming no mechanism."""
    pytest.importorskip("starlette")
    from aventuriers.compiler.french import typo
    from aventuriers.play.page import game_page
    from aventuriers.play.serve_command import served_edition
    from aventuriers.play.session import Session
    from markupsafe import escape

    served = served_edition(edition, ["greedy"], None)
    module = served.engine
    seats = ["human"] + ["random"] * (seat_counts(module)[0] - 1)
    session = Session(engine=module, edition=edition, spec_hash=served.spec_hash, seed=4, seats=seats)
    chooser = random.Random(4)
    while not session.game.is_over():
        session.game.apply(chooser.choice(session.game.legal_actions()))
    page = game_page(served, session, {})
    final = page[page.index('<section id="final">') : page.index("</aside>")]
    for score in session.game.scores():
        lines = breakdown(module, score)
        assert len(lines) == len(module.SCORE_LINES)
        for label, points in lines:
            shown = f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"
            assert f"<tr><th>{escape(typo(label[:1].upper() + label[1:]))}</th><td>{shown}</td></tr>" in final
        for entry in score["tickets_completed"]:
            assert (
                f"{escape(ticket_name(module, entry['ticket']))}&nbsp;: réussi (+{entry['points']})" in final
            )
        for entry in score["tickets_failed"]:
            assert (
                f"{escape(ticket_name(module, entry['ticket']))}&nbsp;: manqué (−{entry['points']})" in final
            )
    assert final.count('class="final-score"') == len(seats)
