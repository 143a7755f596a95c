"""`aventuriers tournament`: bots against bots, with a progress bar, a table, and raw results.

Registered by the command line of ``compiler.cli``; the engine comes from a shipped
edition (imported) or a spec file (compiled, its source handed to every worker). What a
tournament needs (rich, the bots, the workers) is imported when one runs, so that the command
line's `--help` costs none of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from aventuriers.compiler.arguments import EDITION_HELP, UsageError, refusal
from aventuriers.compiler.french import amount, number

from .engines import EngineRef, player_counts, plays_with

if TYPE_CHECKING:
    from rich.table import Table

    from .tournament import BotSummary


def bot_list(text: str) -> list[str]:
    """`--bots`: bot names separated by commas, each one a bot `make_bot` knows."""
    from .bots import BotNameError, make_bot

    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        try:
            make_bot(name)
        except BotNameError as error:
            raise refusal(error.message, error.hint) from None
    if not names:
        raise refusal("il faut au moins un bot")
    return names


def add_tournament(commands: argparse._SubParsersAction, positive) -> None:
    command = commands.add_parser(
        "tournament", help="faire jouer des bots entre eux et comparer leurs résultats"
    )
    command.add_argument("edition", metavar="EDITION", help=EDITION_HELP)
    command.add_argument(
        "--bots",
        type=bot_list,
        required=True,
        metavar="B,B,…",
        help="un bot par siège : random, greedy, mcts[:N|:Ns][:greedy|:guided]",
    )
    command.add_argument("--games", type=positive, default=100, metavar="N", help="nombre de parties")
    command.add_argument(
        "--seed", type=int, default=0, metavar="S", help="graine de la partie 0 (la partie i : S + i)"
    )
    command.add_argument(
        "--workers", type=positive, default=1, metavar="K", help="processus sur cette machine"
    )
    command.add_argument("--ray", metavar="ADRESSE", help="grappe Ray (« auto » en démarre une locale)")
    command.add_argument("--out", metavar="DOSSIER", help="écrire DOSSIER/games.jsonl et DOSSIER/scores.png")
    command.set_defaults(run=command_tournament)


def command_tournament(args: argparse.Namespace) -> int:
    import json

    from rich.console import Console

    from .describe import track_name
    from .tournament import Tally, stream

    workers = checked_workers(args.workers, args.ray)
    if workers is None:
        return 1
    results = results_folder(args.out, ["games.jsonl", "scores.png"]) if args.out else None
    if results is False:
        return 1
    reference = EngineRef.of(args.edition)
    if reference is None:
        return 1
    engine = reference.load()
    players = len(args.bots)
    if not plays_with(engine, players):
        raise UsageError(
            f"{engine.EDITION} se joue {player_counts(engine)}, pas à {players} "
            f"({amount(len(args.bots), 'bot donné', 'bots donnés')})."
        )
    tally = Tally()
    lines = results.temporary("games.jsonl").open("w", encoding="utf-8") if results else None
    try:
        with progress_bar(engine.EDITION, args.games) as advance:
            for record in stream(
                reference, args.bots, args.games, seed=args.seed, workers=workers, ray_address=args.ray
            ):
                tally.add(record)
                if lines:
                    lines.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
                advance()
    except BaseException:
        if results:
            lines.close()
            results.discard()
        raise
    summaries = tally.summaries()
    console = Console()
    for shown in tables(engine.EDITION, args.games, summaries):
        console.print(shown)
    if results:
        lines.close()
        try:
            from .plots import plot_tournament
        except ImportError:
            print("(pas de graphique : il demande matplotlib, pip install -e '.[plot]')", file=sys.stderr)
        else:
            names = {route: track_name(engine, route) for route in engine.ROUTES}
            plot_tournament(tally, summaries, results.temporary("scores.png"), names)
        written = results.commit()
        print("écrit : " + ", ".join(str(path) for path in written))
    return 0


def checked_workers(requested: int, ray: str | None) -> int | None:
    """The processes to use (capped at the processors, said when capped); None when ``--ray``
    cannot run here (said why)."""
    if ray:
        from .scale import EXPOSED, MISSING, local_ray_refusal, ray_available

        if not ray_available():
            print(f"aventuriers : {MISSING}", file=sys.stderr)
            return None
        if ray == "auto":
            refusal = local_ray_refusal()
            if refusal:
                print(f"aventuriers : {refusal}", file=sys.stderr)
                return None
            print(EXPOSED, file=sys.stderr)
        return requested
    from .tournament import usable_workers

    usable = usable_workers(requested)
    if usable < requested:
        print(
            f"--workers {requested} ramené à {usable} : cette machine a {usable} processeur"
            f"{'s' if usable > 1 else ''}",
            file=sys.stderr,
        )
    return usable


def results_folder(out: str, names: list[str]):
    """Where the results go, checked before the first game; False when refused (said why)."""
    from aventuriers.compiler.diagnostics import CompileError, render_all
    from aventuriers.compiler.write import Results

    try:
        return Results(Path(out), names)
    except CompileError as error:
        print(render_all(error.diagnostics), file=sys.stderr)
        return False


@contextmanager
def progress_bar(edition: str, games: int) -> Iterator[Callable[[], None]]:
    """A progress bar on standard error when it is a terminal (nothing where the output is a
    file or a pipe); yields the call that counts one game."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task(edition, total=games)
        yield lambda: progress.advance(task, 1)


def tables(edition: str, games: int, summaries: list[BotSummary]) -> tuple[Table, Table]:
    """The results in two tables that fit an 80-column terminal: one line per bot in each."""
    from rich import box
    from rich.table import Table

    results = Table(
        title=f"{edition} : {amount(games, 'partie', 'parties')}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for heading in (
        "bot",
        "sièges",
        "victoires",
        "IC 95\u00a0%",
        "score",
        "écart type",
        "tickets",
        "actions",
    ):
        results.add_column(heading, justify="left" if heading == "bot" else "right", no_wrap=True)
    for summary in summaries:
        results.add_row(
            summary.bot,
            str(summary.seats),
            f"{number(100 * summary.win_rate, 1)}\u00a0%",
            f"{number(100 * summary.win_low)}–{number(100 * summary.win_high)}\u00a0%",
            number(summary.mean_score, 1),
            number(summary.spread, 1),
            number(summary.tickets, 2),
            number(summary.turns),
        )
    lengths = sorted({length for summary in summaries for length in summary.routes_by_length}, key=int)
    routes = Table(
        title="Routes prises par partie, selon leur longueur",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    routes.add_column("bot", no_wrap=True)
    for length in lengths:
        routes.add_column(amount(int(length), "case", "cases"), justify="right", no_wrap=True)
    for summary in summaries:
        routes.add_row(summary.bot, *(number(summary.routes_by_length.get(n, 0.0), 1) for n in lengths))
    return results, routes
