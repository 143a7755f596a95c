"""`aventuriers balance`: greedy bots play an edition (or a variant) and a short French
report says how it plays: which tickets are completed, which routes are taken, whether
the first player has an edge, how far apart the scores are (Markdown and a PNG)."""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field

from aventuriers.compiler.arguments import EDITION_HELP, UsageError
from aventuriers.compiler.emit.escape import markdown_text
from aventuriers.compiler.french import amount, number, typo

from .commands import checked_workers, progress_bar, results_folder
from .describe import route_name, sibling_tracks, ticket_name, track_name
from .engines import EngineRef, player_counts, plays_with


def add_balance(commands: argparse._SubParsersAction, positive) -> None:
    command = commands.add_parser(
        "balance", help="faire jouer des bots gloutons et écrire un bilan de l’équilibre"
    )
    command.add_argument("edition", metavar="EDITION", help=EDITION_HELP)
    command.add_argument("--games", type=positive, default=200, metavar="N", help="nombre de parties")
    command.add_argument(
        "--players", type=positive, metavar="J", help="nombre de joueurs (par défaut le plus petit possible)"
    )
    command.add_argument(
        "--workers", type=positive, default=1, metavar="K", help="processus sur cette machine"
    )
    command.add_argument(
        "--out", metavar="DOSSIER", default="bilan", help="dossier du bilan (par défaut ./bilan)"
    )
    command.set_defaults(run=command_balance)


def command_balance(args: argparse.Namespace) -> int:
    from .tournament import stream  # the workers: only when a study runs

    workers = checked_workers(args.workers, None)
    results = results_folder(args.out, ["bilan.md", "bilan.png"])
    if results is False or workers is None:
        return 1
    reference = EngineRef.of(args.edition)
    if reference is None:
        return 1
    engine = reference.load()
    players = args.players or engine.PLAYERS[0]
    if not plays_with(engine, players):
        raise UsageError(f"{engine.EDITION} se joue {player_counts(engine)}, pas à {players}.")
    tally = BalanceTally(seats=players)
    with progress_bar(engine.EDITION, args.games) as advance:
        for record in stream(reference, ["greedy"] * players, args.games, workers=workers):
            tally.add(record)
            advance()
    picture = None
    try:
        from .plots import plot_balance
    except ImportError:
        print("(pas de graphique : il demande matplotlib, pip install -e '.[plot]')", file=sys.stderr)
    else:
        names = {ticket: ticket_name(engine, ticket) for ticket in engine.TICKETS}
        picture = plot_balance(tally, results.temporary("bilan.png"), names)
    text = report(engine, tally, "bilan.png" if picture else None)
    results.temporary("bilan.md").write_text(text, encoding="utf-8")
    written = results.commit()
    print("écrit : " + ", ".join(str(path) for path in written))
    return 0


@dataclass(slots=True)
class BalanceTally:
    """What the report needs, gathered game by game (scores counted by value)."""

    seats: int
    games: int = 0
    kept: Counter = field(default_factory=Counter)  # ticket -> times kept
    done: Counter = field(default_factory=Counter)  # ticket -> times completed
    taken: Counter = field(default_factory=Counter)  # route -> games it was taken in
    first_wins: int = 0
    winning_scores: int = 0  # summed
    margins: Counter = field(default_factory=Counter)  # the winner's lead over the second
    scores: Counter = field(default_factory=Counter)
    seat_scores: list[Counter] = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.games += 1
        for seat_results in record["ticket_results"]:
            for ticket, completed in seat_results:
                self.kept[ticket] += 1
                self.done[ticket] += completed
        self.taken.update(record["routes_taken"])
        self.first_wins += 0 in record["winners"]
        ranked = sorted(record["scores"])
        self.winning_scores += ranked[-1]
        if len(ranked) > 1:
            self.margins[ranked[-1] - ranked[-2]] += 1
        self.scores.update(record["scores"])
        while len(self.seat_scores) < len(record["scores"]):
            self.seat_scores.append(Counter())
        for seat, score in enumerate(record["scores"]):
            self.seat_scores[seat][score] += 1


def _mean(counted: Counter) -> float:
    return sum(value * count for value, count in counted.items()) / sum(counted.values())


def _spread(counted: Counter) -> float:
    mean = _mean(counted)
    return math.sqrt(
        sum(count * (value - mean) ** 2 for value, count in counted.items()) / sum(counted.values())
    )


def _median(counted: Counter) -> float:
    return statistics.median(sorted(counted.elements()))  # margins: one small integer a game


def _percent(share: float) -> str:
    return f"{number(100 * share)}\u00a0%"


def _ticket(engine, ticket_id: str) -> str:
    return markdown_text(ticket_name(engine, ticket_id))


def never_taken(engine, taken: Counter, players: int) -> list[str]:
    """The routes no game took, by name. A track closed because its route's other track was taken
    (at a player count whose rule closes it) is no finding: a double route never taken is named once."""
    closes = next(rule[2] for rule in engine.DOUBLE_ROUTE_RULES if rule[0] <= players <= rule[1])
    named: list[str] = []
    seen: set[str] = set()
    for route_id, route in engine.ROUTES.items():
        siblings = sibling_tracks(route)
        if route_id in taken or route_id in seen:
            continue
        if closes and siblings:
            if any(track in taken for track in siblings):
                continue
            seen.update(siblings)
            named.append(markdown_text(route_name(engine, route_id)))
            continue
        named.append(markdown_text(track_name(engine, route_id)))
    return named


def report(engine, tally: BalanceTally, picture: str | None) -> str:
    from .tournament import wilson

    games, players = tally.games, tally.seats
    rates = sorted(((tally.done[t] / tally.kept[t], tally.kept[t], t) for t in tally.kept), reverse=True)
    low, high = wilson(tally.first_wins, games)
    margins = tally.margins
    lines = [
        f"# Bilan d’équilibre : {markdown_text(engine.TITLE)}",  # the spec's title is text, not markup
        "",
        f"{amount(games, 'partie', 'parties')} à {amount(players, 'joueur', 'joueurs')}, "
        f"{'jouée' if games < 2 else 'toutes jouées'} par le bot glouton (`aventuriers balance`).",
        "",
        "## Scores",
        "",
        f"- Score moyen : {number(_mean(tally.scores), 1)} (écart type {number(_spread(tally.scores), 1)}).",
        f"- Score du gagnant : {number(tally.winning_scores / games, 1)} en moyenne ; écart avec le deuxième : "
        f"{number(_mean(margins), 1)} en moyenne, médiane {number(_median(margins))}."
        if margins
        else "",
        f"- Le premier joueur gagne {number(100 * tally.first_wins / games, 1)}\u00a0% des parties (intervalle "
        f"à 95\u00a0% : {number(100 * low, 1)}–{number(100 * high, 1)}\u00a0%), pour "
        f"{number(100 / players, 1)}\u00a0% attendus à chances égales.",
        "",
        "## Tickets",
        "",
        "| ticket | gardé | réussi |",
        "| --- | --- | --- |",
        *(f"| {_ticket(engine, t)} | {count} | {_percent(rate)} |" for rate, count, t in rates[:10]),
        "| … | | |",
        *(f"| {_ticket(engine, t)} | {count} | {_percent(rate)} |" for rate, count, t in rates[-10:]),
        "",
        "Tickets jamais gardés : "
        + (", ".join(_ticket(engine, t) for t in sorted(set(engine.TICKETS) - set(tally.kept))) or "aucun")
        + ".",
        "",
        "## Routes les plus prises",
        "",
        *(
            f"- {markdown_text(track_name(engine, route))} : {_percent(count / games)} des parties"
            for route, count in tally.taken.most_common(10)
        ),
        "",
        "Routes jamais prises : " + (", ".join(never_taken(engine, tally.taken, players)) or "aucune") + ".",
        "",
    ]
    if picture:
        lines += [f"![Scores et tickets]({picture})", ""]
    return typo("\n".join(line for line in lines if line is not None)) + "\n"
