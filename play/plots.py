"""The tournament's picture: score distributions per bot and the routes taken most."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen

import matplotlib.pyplot as plt  # noqa: E402

from .tournament import BotSummary, Tally  # noqa: E402


def plot_tournament(tally: Tally, summaries: list[BotSummary], path: Path) -> Path:
    figure, (scores_axis, routes_axis) = plt.subplots(1, 2, figsize=(13, 5))
    for summary in summaries:
        scores = tally.bots[summary.bot].scores  # score -> how many times
        scores_axis.hist(
            list(scores),
            weights=list(scores.values()),
            bins=30,
            alpha=0.5,
            label=f"{summary.bot} (moyenne {summary.mean_score:.0f})",
        )
    scores_axis.set_title("Scores finaux par bot")
    scores_axis.set_xlabel("points")
    scores_axis.set_ylabel("parties")
    scores_axis.legend()
    top = tally.taken.most_common(20)
    routes_axis.barh(
        [route for route, _ in reversed(top)], [count / tally.games for _, count in reversed(top)]
    )
    routes_axis.set_title("Routes les plus prises (part des parties)")
    routes_axis.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None}, format="png")
    plt.close(figure)
    return path


def plot_balance(tally, path: Path) -> Path:
    """Score distribution per seat, and each ticket's completion rate (``tally``: a balance.BalanceTally)."""
    figure, (scores_axis, tickets_axis) = plt.subplots(1, 2, figsize=(13, 5))
    for seat, scores in enumerate(tally.seat_scores):
        scores_axis.hist(
            list(scores), weights=list(scores.values()), bins=30, alpha=0.5, label=f"siège {seat + 1}"
        )
    scores_axis.set_title("Scores finaux par siège")
    scores_axis.set_xlabel("points")
    scores_axis.legend()
    rates = sorted((tally.done[ticket] / tally.kept[ticket], ticket) for ticket in tally.kept)
    tickets_axis.barh([ticket for _, ticket in rates], [rate for rate, _ in rates])
    tickets_axis.set_title("Tickets réussis (part des fois où ils sont gardés)")
    tickets_axis.tick_params(axis="y", labelsize=5)
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None}, format="png")
    plt.close(figure)
    return path
