"""The `aventuriers` command: check, build, sheet, diff, simulate (and play's tournament, balance).

A command imports what it uses when it runs, not before: `--help`, `editions` and the answers
the cache holds (see `cache`) cost no compiler. Every module named here at the top is small.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from . import cache, compiling, layout
from .arguments import EDITION_HELP, FrenchParser, UsageError, VersionAction, positive

if TYPE_CHECKING:
    import types


def _remembered(command: str, arguments: list[object], compute: Callable[[cache.Inputs], dict]) -> dict:
    """`compute(inputs)`'s answer (a JSON dict), or the one the cache holds for the same command,
    arguments and inputs. What `compute` writes on standard error is part of the answer: it is
    written again when the answer is recalled."""
    answer = cache.recall(command, [*arguments, compiling.verbose])
    if answer is None:
        inputs, said = cache.Inputs(), io.StringIO()
        try:
            with contextlib.redirect_stderr(said):
                answer = compute(inputs)
        except BaseException:
            sys.stderr.write(said.getvalue())
            raise
        answer["said"] = said.getvalue()
        cache.remember(command, [*arguments, compiling.verbose], inputs, answer)
    sys.stderr.write(str(answer.get("said", "")))
    return answer


def command_check(args: argparse.Namespace) -> int:
    def compute(inputs: cache.Inputs) -> dict:
        from .build import loader

        _, ok = compiling.compile_all(args.files, loader(inputs=inputs), maintaining=True)
        said = f"{len(args.files)} fichier(s) vérifié(s) : aucune erreur.\n" if ok else ""
        return {"status": 0 if ok else 1, "out": said}

    answer = _remembered("check", args.files, compute)
    sys.stdout.write(answer["out"])
    return int(answer["status"])


def command_build(args: argparse.Namespace) -> int:
    from .build import DEFAULT_OUT, loader, output_files, shipped_editions
    from .native import build_native, missing_toolchain, toolchain_refused
    from .write import differences, read_manifest, write_all

    out_dir = Path(args.out) if args.out else DEFAULT_OUT
    read_manifest(out_dir)  # an unusable output folder is said before any compiling
    lacking = missing_toolchain() if args.native and not args.check else None
    if lacking:
        compiling.report([toolchain_refused(out_dir, lacking).diagnostics[0]])
        print("Construction annulée : rien n’a été écrit.", file=sys.stderr)
        return 1
    editions = loader()
    names = args.editions or shipped_editions(editions)
    compiled, ok = compiling.compile_all(names, editions, playable=True, maintaining=True)
    if not ok:
        print("Construction annulée : rien n’a été écrit.", file=sys.stderr)
        return 1
    files = output_files(compiled)
    # A full build owns every file earlier builds wrote there; a partial one only its editions'.
    owned = None if not args.editions else {r.edition.module_name for r in compiled}
    if args.check:
        diff = differences(files, out_dir, owned)
        if diff:
            sys.stdout.write(diff)
            print(
                f"{out_dir} diffère de ce que produisent les specs : lancez `aventuriers build`.",
                file=sys.stderr,
            )
            return 1
        print(f"{_shown(out_dir)} est à jour ({len(compiled)} édition(s)).")
        return 0
    changed = write_all(files, out_dir, owned)
    print(
        f"{len(compiled)} édition(s) construite(s) dans {_shown(out_dir)} ; {len(changed)} fichier(s) modifié(s)."
    )
    if args.native:
        from .emit.native_core import unsupported

        built = build_native(out_dir, [result.edition.module_name for result in compiled])
        print(f"{len(built)} moteur(s) natif(s) compilé(s) par Cython (engine_core).")
        for result in compiled:
            if result.core_source is None:
                # Never in silence: the edition is played by its pure engine.
                why = unsupported(result.edition)
                print(f"{result.edition.name} : pas de moteur natif ({why}) ; le moteur Python le joue.")
    return 0


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    except ValueError:
        return str(path)


def _sheet_text(edition: str, markup: str) -> dict:
    """The sheet of an edition as Markdown (`md`) or the printable HTML (`html`): `status`, and
    `text` and `name` when it compiles. A shipped edition's Markdown is its built `fiche.md`
    while the specs and the compiler are unchanged."""
    module = layout.shipped_module(edition)
    if markup == "md" and module and not compiling.verbose and cache.shipped_record(module) is not None:
        text = (layout.GENERATED / module / "fiche.md").read_text(encoding="utf-8")
        return {"status": 0, "text": text, "name": edition}

    def compute(inputs: cache.Inputs) -> dict:
        result = compiling.compile_one(edition, inputs)
        if result is None:
            return {"status": 1}
        text = result.document() if markup == "html" else result.sheet
        return {"status": 0, "text": text, "name": result.edition.name}

    return _remembered("sheet", [edition, markup], compute)


def command_sheet(args: argparse.Namespace) -> int:
    from .write import check_output_file, os_reason

    to_file = args.output not in (None, "-")
    if to_file:
        check_output_file(Path(args.output))  # a FIFO, a device, a link: refused before compiling
    answer = _sheet_text(args.edition, "html" if args.format == "pdf" else args.format)
    if answer["status"] != 0:
        return int(answer["status"])
    text, name = str(answer["text"]), str(answer["name"])
    if args.format == "pdf":
        return _print_pdf(text, name, args.output)
    if not to_file:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"aventuriers sheet : {args.output} : {os_reason(error)}", file=sys.stderr)
        return 1
    kind = "HTML, imprimable en A4" if args.format == "html" else "Markdown"
    print(f"{args.output} : la fiche de l’édition « {name} » ({kind}).", file=sys.stderr)
    return 0


def _print_pdf(document: str, name: str, output: str | None) -> int:
    import tempfile

    from .emit.document import tightened
    from .pdf import PdfError, print_pdf
    from .write import check_output_file, os_reason

    if output == "-":
        with tempfile.TemporaryDirectory() as folder:
            printed = Path(folder) / "fiche.pdf"
            try:
                print_pdf(document, printed, tighter=tightened(document))
            except PdfError as error:
                print(f"aventuriers sheet : PDF impossible : {error}", file=sys.stderr)
                return 1
            sys.stdout.buffer.write(printed.read_bytes())
        return 0
    target = Path(output or f"{name}.pdf")
    check_output_file(target)
    try:
        print_pdf(document, target, tighter=tightened(document))
    except (PdfError, OSError) as error:
        reason = error if isinstance(error, PdfError) else f"{target} : {os_reason(error)}"
        print(f"aventuriers sheet : PDF impossible : {reason}", file=sys.stderr)
        return 1
    print(f"{_shown(target)} : la fiche imprimable de l’édition « {name} » (PDF, A4).", file=sys.stderr)
    return 0


def edition_line(title: str, players: tuple[int, int], side: int, stand_in: bool) -> str:
    """One line of `aventuriers editions`: the title, the players, a stand-in board said."""
    from types import SimpleNamespace

    from .french import players_phrase, typo

    said = players_phrase(SimpleNamespace(min=players[0], max=players[1]), side)
    line = f"{title} : {said.removeprefix('À ').replace('De ', 'de ', 1)}"
    if stand_in:
        line += " ; plateau de remplacement"
    return typo(line)


def command_editions(args: argparse.Namespace) -> int:
    """The shipped editions, one line each: name, title, players, and a stand-in board said.
    Each is read from its built `edition.json`, or compiled where the specs changed since."""
    rows = []
    for name in layout.playable_specs():
        record = None if compiling.verbose else cache.shipped_record(layout.module_name(name))
        if record is not None:
            low, high = record["players"]
            rows.append(
                (name, edition_line(record["title"], (low, high), record["side"], record["stand_in"]))
            )
            continue
        from .build import compile_ir, edition_path, loader
        from .mechanisms import side_size

        editions = loader()
        edition = compile_ir(edition_path(name, editions), editions, playable=True)
        assert edition is not None
        players = (edition.players.min, edition.players.max)
        rows.append((name, edition_line(edition.title, players, side_size(edition), edition.board.stand_in)))
    width = max(len(name) for name, _ in rows)
    for name, line in rows:
        print(f"{name.ljust(width)}  {line}")
    return 0


def command_diff(args: argparse.Namespace) -> int:
    def compute(inputs: cache.Inputs) -> dict:
        from .build import compile_ir, edition_path, loader
        from .diagnostics import CompileError
        from .emit.diff import emit_diff

        editions = loader(inputs=inputs)
        irs = []
        for name in (args.old, args.new):
            try:
                edition = compile_ir(edition_path(name, editions), editions, playable=True)
            except CompileError as error:
                compiling.report(error.diagnostics)
                return {"status": 1, "out": ""}
            assert edition is not None
            irs.append(edition)
        return {"status": 0, "out": emit_diff(*irs)}

    answer = _remembered("diff", [args.old, args.new], compute)
    sys.stdout.write(answer["out"])
    return int(answer["status"])


def engine_module(name: str) -> types.ModuleType | None:
    """The committed engine of a shipped edition, or one compiled in memory from a spec file."""
    import importlib

    from .emit.example import load_engine

    module = layout.shipped_module(name)
    if module is not None:
        try:
            return importlib.import_module(f"{layout.GENERATED_PACKAGE}.{module}")
        except ImportError:
            pass
    result = compiling.compile_one(name)
    return None if result is None else load_engine(result.engine_source, result.edition.module_name)


def command_simulate(args: argparse.Namespace) -> int:
    import random
    import time

    from aventuriers.play.engines import player_counts, plays_with

    from .french import amount, number

    engine = engine_module(args.edition)
    if engine is None:
        return 1
    if not plays_with(engine, args.players):
        raise UsageError(f"{engine.EDITION} se joue {player_counts(engine)}, pas à {args.players}.")
    chooser = random.Random(args.seed)
    bots = None
    if args.bots:
        from aventuriers.play.bots import make_bot

        if len(args.bots) != args.players:
            raise UsageError(
                f"--bots donne {amount(len(args.bots), 'bot', 'bots')} pour "
                f"{amount(args.players, 'joueur', 'joueurs')}."
            )
        bots = [make_bot(name) for name in args.bots]
    turns = 0
    totals = [0] * args.players
    started = time.perf_counter()
    shown = sys.stderr.isatty()
    for index in range(args.games):
        game = engine.new_game(args.players, args.seed + index)
        while not game.is_over():
            if bots is None:
                game.apply(chooser.choice(game.legal_actions()))
                continue
            seat = game.current_player
            game.apply(bots[seat].choose(engine, game.observation(seat), game.legal_actions(), chooser))
        turns += game.to_dict()["turns_played"]
        for player, score in enumerate(game.scores()):
            totals[player] += score["total"]
        if shown:
            _progress(index + 1, args.games)
    elapsed = time.perf_counter() - started
    if shown:
        print(file=sys.stderr)
    print(
        f"{amount(args.games, 'partie', 'parties')} de {engine.EDITION} à "
        f"{amount(args.players, 'joueur', 'joueurs')} en {number(elapsed, 2)} s"
    )
    print(f"parties par seconde : {number(args.games / elapsed, 1)}")
    print(f"tours par partie (moyenne) : {number(turns / args.games, 1)}")
    means = ", ".join(f"joueur {p + 1} : {number(total / args.games, 1)}" for p, total in enumerate(totals))
    print(f"score moyen : {means}")
    return 0


def _progress(done: int, total: int) -> None:
    """A bar on the terminal, redrawn in place (only ever called when there is one)."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def _bot_list(text: str) -> list[str]:
    from aventuriers.play.commands import bot_list

    return bot_list(text)


def parser() -> argparse.ArgumentParser:
    main = FrenchParser(prog="aventuriers", description="Compilateur des règles des Aventuriers du Rail.")
    main.add_argument("--version", action=VersionAction, help="afficher la version et quitter")
    commands = main.add_subparsers(dest="command", metavar="COMMANDE", title="commandes", required=True)
    check = commands.add_parser("check", help="vérifier des fichiers de spec")
    check.add_argument(
        "files", nargs="+", metavar="FICHIER", help="les fichiers de spec, ou des éditions livrées"
    )
    check.set_defaults(run=command_check)
    build = commands.add_parser(
        "build",
        help="produire les moteurs et les fiches",
        description="Produit les moteurs et les fiches des éditions nommées (par défaut : toutes les "
        "éditions livrées) dans DOSSIER, par défaut ./generated du dossier courant. Une construction ne "
        "remplace et ne retire que les fichiers qu’elle a écrits (liste dans DOSSIER/.aventuriers-build) ; "
        "elle refuse un dossier non vide qui n’en vient pas.",
    )
    build.add_argument(
        "editions",
        nargs="*",
        metavar="EDITION",
        help="les éditions à produire (par défaut toutes les éditions livrées)",
    )
    build.add_argument("--check", action="store_true", help="échouer si DOSSIER n’est pas à jour")
    build.add_argument("--out", metavar="DOSSIER", help="dossier de sortie (par défaut ./generated)")
    build.add_argument(
        "--native",
        action="store_true",
        help="compiler aussi, avec Cython, le moteur natif de chaque édition qu’il couvre (module engine_core) ; pip install -e '.[native]' et un compilateur C",
    )
    build.set_defaults(run=command_build)
    listed = commands.add_parser("editions", help="lister les éditions livrées")
    listed.set_defaults(run=command_editions)
    sheet = commands.add_parser("sheet", help="la fiche de règles en français (Markdown, HTML ou PDF)")
    sheet.add_argument("edition", metavar="EDITION", help=EDITION_HELP)
    sheet.add_argument(
        "--format",
        choices=("md", "html", "pdf"),
        default="md",
        help="md : le texte ; html : un fichier autonome, imprimable en A4 ; pdf : imprimé par Chromium",
    )
    sheet.add_argument(
        "-o",
        "--output",
        metavar="FICHIER",
        help="écrire dans FICHIER, « - » pour la sortie standard (par défaut la sortie standard ; EDITION.pdf pour le PDF)",
    )
    sheet.set_defaults(run=command_sheet)
    diff = commands.add_parser("diff", help="la page « les différences » d’APRÈS par rapport à AVANT")
    diff.add_argument("old", metavar="AVANT", help="l’édition de référence")
    diff.add_argument("new", metavar="APRÈS", help="l’édition qui la change, souvent une variante")
    diff.set_defaults(run=command_diff)
    simulate = commands.add_parser("simulate", help="jouer des parties aléatoires")
    simulate.add_argument("edition", metavar="EDITION", help=EDITION_HELP)
    simulate.add_argument("--games", type=positive, default=100, metavar="N", help="nombre de parties")
    simulate.add_argument("--players", type=int, default=4, metavar="J", help="nombre de joueurs")
    simulate.add_argument(
        "--bots",
        type=_bot_list,
        metavar="B,B,…",
        help="un bot par joueur (random, greedy, mcts) ; par défaut des coups au hasard",
    )
    simulate.add_argument(
        "--seed", type=int, default=0, metavar="GRAINE", help="graine de la première partie"
    )
    simulate.set_defaults(run=command_simulate)
    # Bots, tournaments and balance studies live beside the compiler, in aventuriers.play.
    from aventuriers.play.balance import add_balance
    from aventuriers.play.commands import add_tournament
    from aventuriers.play.serve_command import add_serve

    add_tournament(commands, positive)
    add_balance(commands, positive)
    add_serve(commands)
    for command in commands.choices.values():
        command.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help="montrer aussi les avertissements des éditions livrées",
        )
    return main


def main(argv: list[str] | None = None) -> int:
    from .diagnostics import CompileError

    arguments = parser()
    args = arguments.parse_args(argv)
    compiling.verbose = args.verbose
    try:
        return args.run(args)
    except UsageError as error:
        command = arguments.chosen(args)
        command.print_usage(sys.stderr)
        print(f"{command.prog}: erreur : {error}", file=sys.stderr)
        return 2
    except CompileError as error:
        compiling.report(error.diagnostics)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
