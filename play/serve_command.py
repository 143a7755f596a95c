"""`aventuriers serve EDITION|FILE` and `aventuriers replay RECORD`."""

from __future__ import annotations

import argparse
import contextlib
import errno
import socket
import sys
from pathlib import Path

from aventuriers.compiler.arguments import EDITION_HELP
from aventuriers.compiler.french import os_reason

from .commands import bot_list
from .engines import plays_with

DEFAULT_PORT = 8000
DEFAULT_RECORDS = "parties"
# A request's head must arrive within this time; past it the connection is closed.
HEADER_SECONDS = 10
# Connections and requests at once: past it, new requests get 503 (uvicorn's bound).
MAX_CONCURRENCY = 1_000


def add_serve(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser(
        "serve", help="jouer une édition ou une variante dans le navigateur, contre des bots"
    )
    serve.add_argument("edition", metavar="EDITION", help=EDITION_HELP)
    serve.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"port (par défaut {DEFAULT_PORT})"
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADRESSE",
        help="adresse d’écoute (par défaut 127.0.0.1 : cette machine seulement)",
    )
    serve.add_argument(
        "--bots", type=bot_list, metavar="B,B,…", help="les bots de chaque partie (par défaut greedy,greedy)"
    )
    serve.add_argument(
        "--records",
        default=DEFAULT_RECORDS,
        metavar="DOSSIER",
        help=f"où enregistrer chaque partie en JSON (par défaut ./{DEFAULT_RECORDS})",
    )
    serve.set_defaults(run=command_serve)
    replay = commands.add_parser("replay", help="rejouer une partie enregistrée par « serve »")
    replay.add_argument("record", metavar="PARTIE", help="le fichier JSON d’une partie enregistrée")
    replay.add_argument(
        "--edition", metavar="EDITION", help="l’édition ou la spec, si elle a changé de place"
    )
    replay.set_defaults(run=command_replay)


def port_number(text: str) -> int:
    """A TCP port of the command line, 1 to 65535: the system would take 0 as any free port and
    fold a larger number into that range (99999 is 34463), so the address announced would not be
    the one served."""
    if text.isascii() and text.isdigit() and 1 <= int(text) <= 65_535:
        return int(text)
    raise argparse.ArgumentTypeError(f"un port est un nombre entier de 1 à 65535, pas « {text} »")


def default_bots(engine) -> list[str]:
    """Two greedy bots, or as many as make the edition playable with one person."""
    for count in range(2, 8):
        if plays_with(engine, count + 1):
            return ["greedy"] * count
    return ["greedy"]


def served_edition(edition: str, bots: list[str] | None, records: Path | None, host: str = "127.0.0.1"):
    """The compiled edition ready to serve; None when the spec does not compile (errors printed)."""
    from aventuriers.compiler.compiling import compile_one
    from aventuriers.compiler.emit.board import picture
    from aventuriers.compiler.emit.example import load_engine
    from aventuriers.compiler.mechanisms import board_marks

    from .session import spec_hash
    from .web import Served

    result = compile_one(edition)
    if result is None:
        return None
    engine = load_engine(result.engine_source, result.edition.module_name)
    return Served(
        engine=engine,
        edition=edition,
        spec_hash=spec_hash(result.engine_source),
        title=f"{result.edition.game} — {result.edition.title}",
        board=picture(result.edition.board, board_marks(result.edition)),
        bots=bots if bots is not None else default_bots(engine),
        records=records,
        host=host,
    )


def command_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        print("aventuriers serve : uvicorn manque (pip install -e '.[serve]')", file=sys.stderr)
        return 1
    from .guard import header_timed_protocol
    from .web import create_app

    records = Path(args.records)
    problem = writable_folder(records)
    if problem:
        print(f"aventuriers serve : {args.records} : {problem}", file=sys.stderr)
        return 1
    served = served_edition(args.edition, args.bots, records, args.host)
    if served is None:
        return 1
    try:
        # Bound here, so that a port in use is one French error before anything is announced.
        listening = listening_socket(args.host, args.port)
    except OSError as error:
        print(
            f"aventuriers serve : impossible d’écouter sur {url_host(args.host)}:{args.port} : {bind_reason(error)}",
            file=sys.stderr,
        )
        other = args.port + 1 if args.port < 65_535 else args.port - 1
        if error.errno == errno.EADDRINUSE:
            print(f"      = aide : un autre port, par exemple « --port {other} »", file=sys.stderr)
        elif error.errno in (errno.EACCES, errno.EPERM) and args.port < 1024:
            print(
                "      = aide : les ports sous 1024 sont réservés à l’administrateur ; "
                f"un autre port, par exemple « --port {DEFAULT_PORT} »",
                file=sys.stderr,
            )
        return 1
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"attention : le serveur écoute sur {args.host}, d’autres machines peuvent le joindre",
            file=sys.stderr,
        )
    # The port the socket holds, not the one asked for: what is announced is what is served.
    port = listening.getsockname()[1]
    print(
        f"« {served.title} » sur http://{url_host(args.host)}:{port}/ (bots : {', '.join(served.bots)}) ; "
        f"parties enregistrées dans {args.records}/ ; Ctrl+C pour arrêter.",
        file=sys.stderr,
    )
    _more_open_files()
    # Keep-alive longer than a person thinks: a connection closed under a request is an error.
    config = uvicorn.Config(
        create_app(served),
        host=args.host,
        port=port,
        log_level="warning",
        timeout_keep_alive=60,
        http=header_timed_protocol(HEADER_SECONDS),
        limit_concurrency=MAX_CONCURRENCY,
    )
    with listening:
        uvicorn.Server(config).run(sockets=[listening])
    return 0


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (IPv4 or IPv6, as the host says); raises OSError."""
    family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    listening = socket.socket(family, kind, protocol)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError:
        listening.close()
        raise
    return listening


def bind_reason(error: OSError) -> str:
    """Why the server cannot listen, in French; a name that resolves to nothing is said so."""
    if isinstance(error, socket.gaierror):
        return "nom inconnu (ni une adresse IP, ni un nom que cette machine sait trouver)"
    return os_reason(error)


def url_host(host: str) -> str:
    """A host as a URL writes it: an IPv6 address in brackets (``http://[::1]:8000/``)."""
    return f"[{host}]" if ":" in host else host


def writable_folder(folder: Path) -> str | None:
    """Why records cannot be written in ``folder`` (in French), or None: it is made if
    missing, and a small file is written and removed there, so that a full or read-only
    disk is told at start-up, not after a move."""
    probe = folder / ".aventuriers-essai"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"0" * 4096)
        probe.unlink()
    except OSError as error:
        with contextlib.suppress(OSError):
            probe.unlink(missing_ok=True)
        return f"on ne peut pas y enregistrer les parties ({os_reason(error)})"
    return None


def _more_open_files() -> None:
    """As many sockets as the system lets this process hold: each connection takes one."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65_536)
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):
        pass


def command_replay(args: argparse.Namespace) -> int:
    from aventuriers.compiler.build import loader

    from .session import RecordError, check_record, read_record, record_edition, replay

    editions = loader()
    shipped = {name: editions.path_of(name) for name in editions.available()}
    try:
        record = read_record(Path(args.record))
        edition = args.edition or record_edition(record, Path(args.record), shipped)
    except RecordError as error:
        print(f"aventuriers replay : {args.record} : {error}", file=sys.stderr)
        return 1
    served = served_edition(edition, [], None)
    if served is None:
        return 1
    try:
        check_record(record, served.engine, served.spec_hash)
        replayed = replay(served.engine, record["actions"], players=len(record["seats"]), seed=record["seed"])
    except RecordError as error:
        print(f"aventuriers replay : {args.record} : {error}", file=sys.stderr)
        return 1
    game = replayed.game
    print(f"{len(replayed.actions)} actions rejouées ({served.title}, graine {record['seed']}).")
    if game.is_over():
        for score in game.scores():
            print(
                f"Joueur {score['player'] + 1} ({record['seats'][score['player']]}) : {score['total']} points"
            )
        print("Gagnant(s) : " + ", ".join(f"Joueur {seat + 1}" for seat in game.winners()))
    else:
        print(f"Partie en cours : au tour du joueur {game.current_player + 1}.")
    return 0
