"""The tournament's picture: score distributions per bot and the routes taken most."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen

import matplotlib.pyplot as plt  # noqa: E402

from .tournament import BotSummary  # noqa: E402


def plot_tournament(records: list[dict], summaries: list[BotSummary], path: Path) -> Path:
    figure, (scores_axis, routes_axis) = plt.subplots(1, 2, figsize=(13, 5))
    for summary in summaries:
        scores = [
            record["scores"][seat]
            for record in records
            for seat, bot in enumerate(record["bots"])
            if bot == summary.bot
        ]
        scores_axis.hist(
            scores, bins=30, alpha=0.5, label=f"{summary.bot} (moyenne {summary.mean_score:.0f})"
        )
    scores_axis.set_title("Scores finaux par bot")
    scores_axis.set_xlabel("points")
    scores_axis.set_ylabel("parties")
    scores_axis.legend()
    taken = Counter(route for record in records for route in record["routes_taken"])
    top = taken.most_common(20)
    routes_axis.barh(
        [route for route, _ in reversed(top)], [count / len(records) for _, count in reversed(top)]
    )
    routes_axis.set_title("Routes les plus prises (part des parties)")
    routes_axis.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)
    return path


def plot_balance(records: list[dict], engine, path: Path) -> Path:
    """Score distribution per seat, and each ticket's completion rate."""
    figure, (scores_axis, tickets_axis) = plt.subplots(1, 2, figsize=(13, 5))
    seats = len(records[0]["scores"])
    for seat in range(seats):
        scores_axis.hist(
            [record["scores"][seat] for record in records], bins=30, alpha=0.5, label=f"siège {seat + 1}"
        )
    scores_axis.set_title("Scores finaux par siège")
    scores_axis.set_xlabel("points")
    scores_axis.legend()
    kept: Counter = Counter()
    done: Counter = Counter()
    for record in records:
        for results in record["ticket_results"]:
            for ticket, completed in results:
                kept[ticket] += 1
                done[ticket] += completed
    rates = sorted((done[ticket] / kept[ticket], ticket) for ticket in kept)
    tickets_axis.barh([ticket for _, ticket in rates], [rate for rate, _ in rates])
    tickets_axis.set_title("Tickets réussis (part des fois où ils sont gardés)")
    tickets_axis.tick_params(axis="y", labelsize=5)
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)
    return path
