"""`aventuriers balance`: greedy bots play an edition (or a variant) and a short French
report says how it plays: which tickets are completed, which routes are taken, whether
the first player has an edge, how far apart the scores are (Markdown and a PNG)."""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

from aventuriers.compiler.emit.escape import markdown_text

from .engines import EngineRef, plays_with
from .tournament import run, wilson


def add_balance(commands: argparse._SubParsersAction, positive) -> None:
    command = commands.add_parser(
        "balance", help="faire jouer des bots gloutons et écrire un bilan de l’équilibre"
    )
    command.add_argument("edition", metavar="EDITION|FICHIER")
    command.add_argument("--games", type=positive, default=200, metavar="N", help="nombre de parties")
    command.add_argument(
        "--players", type=positive, metavar="J", help="nombre de joueurs (par défaut le plus petit possible)"
    )
    command.add_argument(
        "--workers", type=positive, default=1, metavar="K", help="processus sur cette machine"
    )
    command.add_argument(
        "--out", metavar="DIR", default="bilan", help="dossier du bilan (par défaut ./bilan)"
    )
    command.set_defaults(run=command_balance)


def command_balance(args: argparse.Namespace) -> int:
    reference = EngineRef.of(args.edition)
    if reference is None:
        return 1
    engine = reference.load()
    players = args.players or engine.PLAYERS[0]
    if not plays_with(engine, players):
        print(f"{engine.EDITION} ne se joue pas à {players} joueurs.", file=sys.stderr)
        return 1
    records = run(reference, ["greedy"] * players, args.games, workers=args.workers)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    picture = None
    try:
        from .plots import plot_balance
    except ImportError:
        print("(pas de graphique : il demande matplotlib, pip install -e '.[plot]')", file=sys.stderr)
    else:
        picture = plot_balance(records, engine, out / "bilan.png")
    text = report(engine, records, players, picture.name if picture else None)
    (out / "bilan.md").write_text(text, encoding="utf-8")
    print(f"écrit : {out / 'bilan.md'}" + (f", {picture}" if picture else ""))
    return 0


def report(engine, records: list[dict], players: int, picture: str | None) -> str:
    games = len(records)
    kept: Counter[str] = Counter()
    done: Counter[str] = Counter()
    for record in records:
        for seat_results in record["ticket_results"]:
            for ticket, completed in seat_results:
                kept[ticket] += 1
                done[ticket] += completed
    rates = sorted(((done[t] / kept[t], kept[t], t) for t in kept), reverse=True)
    taken = Counter(route for record in records for route in record["routes_taken"])
    first = sum(0 in record["winners"] for record in records)
    low, high = wilson(first, games)
    winners = [max(record["scores"]) for record in records]
    margins = [
        sorted(record["scores"])[-1] - sorted(record["scores"])[-2]
        for record in records
        if len(record["scores"]) > 1
    ]
    all_scores = [score for record in records for score in record["scores"]]
    lines = [
        f"# Bilan d’équilibre : {markdown_text(engine.TITLE)}",  # the spec's title is text, not markup
        "",
        f"{games} parties à {players} joueurs, tous joués par le bot glouton (`aventuriers balance`).",
        "",
        "## Scores",
        "",
        f"- Score moyen : {statistics.fmean(all_scores):.1f} (écart type {statistics.pstdev(all_scores):.1f}).",
        f"- Score du gagnant : {statistics.fmean(winners):.1f} en moyenne ; écart avec le deuxième : "
        f"{statistics.fmean(margins):.1f} en moyenne, médiane {statistics.median(margins):.0f}."
        if margins
        else "",
        f"- Le premier joueur gagne {100 * first / games:.1f} % des parties (intervalle à 95 % : "
        f"{100 * low:.1f}–{100 * high:.1f} %), pour {100 / players:.1f} % attendus à chances égales.",
        "",
        "## Tickets",
        "",
        "| ticket | gardé | réussi |",
        "| --- | --- | --- |",
        *(f"| {ticket} | {count} | {100 * rate:.0f} % |" for rate, count, ticket in rates[:10]),
        "| … | | |",
        *(f"| {ticket} | {count} | {100 * rate:.0f} % |" for rate, count, ticket in rates[-10:]),
        "",
        f"Tickets jamais gardés : {', '.join(sorted(set(engine.TICKETS) - set(kept))) or 'aucun'}.",
        "",
        "## Routes les plus prises",
        "",
        *(f"- {route} : {100 * count / games:.0f} % des parties" for route, count in taken.most_common(10)),
        "",
        f"Routes jamais prises : {', '.join(sorted(set(engine.ROUTES) - set(taken))) or 'aucune'}.",
        "",
    ]
    if picture:
        lines += [f"![Scores et tickets]({picture})", ""]
    return "\n".join(line for line in lines if line is not None) + "\n"
