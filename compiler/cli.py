"""The `aventuriers` command: check, build, sheet, diff, simulate (and play's tournament, balance)."""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import tempfile
import time
import types
from pathlib import Path

from .arguments import EDITION_HELP, FrenchParser, version
from .build import (
    DEFAULT_OUT,
    GENERATED_PACKAGE,
    CompiledEdition,
    compile_edition,
    compile_ir,
    edition_path,
    loader,
    module_clashes,
    output_files,
    shipped_editions,
)
from .diagnostics import CompileError, Diagnostic, render_all, unique
from .emit.diff import emit_diff
from .emit.example import load_engine
from .emit.native_core import unsupported
from .french import amount, number, players_phrase, typo
from .frontend.resolve import EditionLoader
from .mechanisms import side_size
from .native import build_native, missing_toolchain, toolchain_refused
from .pdf import PdfError, print_pdf
from .write import differences, os_reason, read_manifest, write_all

# `--verbose`: the warnings of shipped editions too, whatever the command (set by `main`).
_verbose = False


def _report(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
    if diagnostics:
        print(render_all(diagnostics), file=sys.stderr)


def _for_the_user(warnings: list[Diagnostic], editions: EditionLoader, named: list[str]) -> list[Diagnostic]:
    """The warnings this user can act on: a shipped edition's are its maintainers' business,
    shown only to a `check` or `build` naming that edition (or with --verbose)."""
    if _verbose:
        return warnings
    shipped = {editions.display_name(editions.path_of(name)) for name in editions.available()}
    asked = set()
    for name in named:
        try:
            asked.add(editions.display_name(edition_path(name, editions)))
        except CompileError:
            pass  # an unknown name: said among the errors
    return [w for w in warnings if w.span.source.name not in shipped or w.span.source.name in asked]


def _compile_all(
    names: list[str], editions: EditionLoader, *, playable: bool = False, maintaining: bool = False
) -> tuple[list[CompiledEdition], bool]:
    """Compile every named edition, reporting every error of every file before giving up.

    With ``playable``, an abstract base is an error (E314), and so are two
    editions whose engines would share a module name (E315). With ``maintaining``
    (`check`, `build`), the warnings of the shipped editions named are shown too.
    """
    compiled: list[CompiledEdition] = []
    failed: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for name in names:
        try:
            result = compile_edition(edition_path(name, editions), editions, playable=playable)
        except CompileError as error:
            failed.extend(error.diagnostics)
            continue
        if result is not None:
            compiled.append(result)
            warnings.extend(result.warnings)
    if playable:
        failed.extend(module_clashes(compiled))
    _report(unique(failed + _for_the_user(warnings, editions, names if maintaining else [])))
    return compiled, not failed


def command_check(args: argparse.Namespace) -> int:
    editions = loader()
    _, ok = _compile_all(args.files, editions, maintaining=True)
    if ok:
        print(f"{len(args.files)} fichier(s) vérifié(s) : aucune erreur.")
    return 0 if ok else 1


def command_build(args: argparse.Namespace) -> int:
    out_dir = Path(args.out) if args.out else DEFAULT_OUT
    read_manifest(out_dir)  # an unusable output folder is said before any compiling
    lacking = missing_toolchain() if args.native and not args.check else None
    if lacking:
        _report([toolchain_refused(out_dir, lacking).diagnostics[0]])
        print("Construction annulée : rien n’a été écrit.", file=sys.stderr)
        return 1
    editions = loader()
    names = args.editions or shipped_editions(editions)
    compiled, ok = _compile_all(names, editions, playable=True, maintaining=True)
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


def compile_one(name: str) -> CompiledEdition | None:
    """One playable edition compiled (a shipped name or a spec file); its errors printed, else None."""
    compiled, ok = _compile_all([name], loader(), playable=True)
    return compiled[0] if ok else None


def command_sheet(args: argparse.Namespace) -> int:
    result = compile_one(args.edition)
    if result is None:
        return 1
    if args.format == "pdf" and args.output == "-":
        with tempfile.TemporaryDirectory() as folder:
            printed = Path(folder) / "fiche.pdf"
            try:
                print_pdf(result.document(), printed)
            except PdfError as error:
                print(f"aventuriers sheet : PDF impossible : {error}", file=sys.stderr)
                return 1
            sys.stdout.buffer.write(printed.read_bytes())
        return 0
    if args.format == "pdf":
        target = Path(args.output or f"{result.edition.name}.pdf")
        try:
            print_pdf(result.document(), target)
        except (PdfError, OSError) as error:
            reason = error if isinstance(error, PdfError) else f"{target} : {os_reason(error)}"
            print(f"aventuriers sheet : PDF impossible : {reason}", file=sys.stderr)
            return 1
        print(
            f"{_shown(target)} : la fiche imprimable de « {result.edition.name} » (PDF, A4).", file=sys.stderr
        )
        return 0
    text = result.document() if args.format == "html" else result.sheet
    if args.output in (None, "-"):
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"aventuriers sheet : {args.output} : {os_reason(error)}", file=sys.stderr)
        return 1
    kind = "HTML, imprimable en A4" if args.format == "html" else "Markdown"
    print(f"{args.output} : la fiche de « {result.edition.name} » ({kind}).", file=sys.stderr)
    return 0


def command_editions(args: argparse.Namespace) -> int:
    """The shipped editions, one line each: name, title, players, and a stand-in board said."""
    editions = loader()
    rows = []
    for name in shipped_editions(editions):
        edition = compile_ir(edition_path(name, editions), editions, playable=True)
        assert edition is not None
        players = players_phrase(edition.players, side_size(edition))
        line = f"{edition.title} : {players.removeprefix('À ').replace('De ', 'de ', 1)}"
        if edition.board.stand_in:
            line += " ; plateau de remplacement"
        rows.append((name, typo(line)))
    width = max(len(name) for name, _ in rows)
    for name, line in rows:
        print(f"{name.ljust(width)}  {line}")
    return 0


def command_diff(args: argparse.Namespace) -> int:
    editions = loader()
    irs = []
    for name in (args.old, args.new):
        try:
            edition = compile_ir(edition_path(name, editions), editions, playable=True)
        except CompileError as error:
            _report(error.diagnostics)
            return 1
        assert edition is not None
        irs.append(edition)
    sys.stdout.write(emit_diff(*irs))
    return 0


def engine_module(name: str) -> types.ModuleType | None:
    """The committed engine of a shipped edition, or one compiled in memory from a spec file."""
    editions = loader()
    path = edition_path(name, editions)
    if path.parent.resolve() == editions.editions_dir.resolve() and path.exists():
        try:
            return importlib.import_module(f"{GENERATED_PACKAGE}.{path.stem.replace('-', '_')}")
        except ImportError:
            pass
    result = compile_one(name)
    return None if result is None else load_engine(result.engine_source, result.edition.module_name)


def command_simulate(args: argparse.Namespace) -> int:
    engine = engine_module(args.edition)
    if engine is None:
        return 1
    from aventuriers.play.engines import player_counts, plays_with

    if not plays_with(engine, args.players):
        print(f"{engine.EDITION} se joue {player_counts(engine)}, pas à {args.players}.", file=sys.stderr)
        return 1
    chooser = random.Random(args.seed)
    bots = None
    if args.bots:
        from aventuriers.play.bots import make_bot

        if len(args.bots) != args.players:
            print(
                f"--bots donne {amount(len(args.bots), 'bot', 'bots')} pour "
                f"{amount(args.players, 'joueur', 'joueurs')}.",
                file=sys.stderr,
            )
            return 1
        bots = [make_bot(name) for name in args.bots]
    turns = 0
    totals = [0] * args.players
    started = time.perf_counter()
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
        _progress(index + 1, args.games)
    elapsed = time.perf_counter() - started
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
    if not sys.stderr.isatty() and done not in (total,) and done % max(1, total // 10):
        return
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def _bot_list(text: str) -> list[str]:
    from aventuriers.play.commands import bot_list

    return bot_list(text)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("il faut au moins 1")
    return value


def parser() -> argparse.ArgumentParser:
    main = FrenchParser(prog="aventuriers", description="Compilateur des règles des Aventuriers du Rail.")
    main.add_argument(
        "--version",
        action="version",
        version=f"aventuriers {version()}",
        help="afficher la version et quitter",
    )
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
    simulate.add_argument("--games", type=_positive, default=100, metavar="N", help="nombre de parties")
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

    add_tournament(commands, _positive)
    add_balance(commands, _positive)
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
    global _verbose
    args = parser().parse_args(argv)
    _verbose = args.verbose
    try:
        return args.run(args)
    except CompileError as error:
        _report(error.diagnostics)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
