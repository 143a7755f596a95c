"""The tournament's picture: score distributions per bot and the routes taken most."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen

import matplotlib.pyplot as plt  # noqa: E402
from aventuriers.compiler.french import number  # noqa: E402

from .tournament import BotSummary, Tally  # noqa: E402

# Names on the bars' axis are read on paper: never smaller than this (points, at 100 dpi).
LABEL_SIZE = 9


def plot_tournament(tally: Tally, summaries: list[BotSummary], path: Path, names: dict[str, str]) -> Path:
    """``names``: each route's name as players say it, by id."""
    figure, (scores_axis, routes_axis) = plt.subplots(1, 2, figsize=(13, 6))
    for summary in summaries:
        scores = tally.bots[summary.bot].scores  # score -> how many times
        scores_axis.hist(
            list(scores),
            weights=list(scores.values()),
            bins=30,
            alpha=0.5,
            label=f"{summary.bot} (moyenne {number(summary.mean_score)})",
        )
    scores_axis.set_title("Scores finaux par bot")
    scores_axis.set_xlabel("points")
    scores_axis.set_ylabel("parties")
    scores_axis.legend()
    top = tally.taken.most_common(20)
    routes_axis.barh(
        [names.get(route, route) for route, _ in reversed(top)],
        [count / tally.games for _, count in reversed(top)],
    )
    routes_axis.set_title("Routes les plus prises (part des parties)")
    routes_axis.tick_params(axis="y", labelsize=LABEL_SIZE)
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None}, format="png")
    plt.close(figure)
    return path


def plot_balance(tally, path: Path, names: dict[str, str]) -> Path:
    """Score distribution per seat, and each ticket's completion rate (``tally``: a balance.BalanceTally;
    ``names``: each ticket's name by id). The picture grows with the tickets, one readable line each."""
    height = max(5.0, 0.2 * len(tally.kept) + 1.0)
    figure, (scores_axis, tickets_axis) = plt.subplots(1, 2, figsize=(14, height))
    for seat, scores in enumerate(tally.seat_scores):
        scores_axis.hist(
            list(scores), weights=list(scores.values()), bins=30, alpha=0.5, label=f"siège {seat + 1}"
        )
    scores_axis.set_title("Scores finaux par siège")
    scores_axis.set_xlabel("points")
    scores_axis.legend()
    rates = sorted((tally.done[ticket] / tally.kept[ticket], ticket) for ticket in tally.kept)
    tickets_axis.barh([names.get(ticket, ticket) for _, ticket in rates], [rate for rate, _ in rates])
    tickets_axis.set_title("Tickets réussis (part des fois où ils sont gardés)")
    tickets_axis.tick_params(axis="y", labelsize=LABEL_SIZE)
    tickets_axis.margins(y=0.005)
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None}, format="png")
    plt.close(figure)
    return path
