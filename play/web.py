"""`aventuriers serve`: play any spec in the browser against bots (Starlette on uvicorn).

Server-rendered pages and plain HTML forms; a little JavaScript (``static/app.js``)
turns a click on the board into a choice of route or city and lets the bots move
after a short pause. Every asset is served by the app. The server never runs
anything it receives: an action is JSON, parsed and handed to the engine, which
checks it like any other (a refused one changes nothing and its French message is
shown). Games live in this process, each behind its own lock.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from aventuriers.compiler.french import typo
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .guard import Guard
from .page import game_page, home_page, message_page, ticket_choice_action
from .session import NothingToUndo, NotYourTurn, Session, record_name

STATIC = Path(__file__).resolve().parent / "web" / "static"
# A bound on what one process keeps: past it, a finished game is forgotten first (its record stays
# on disk), then one nobody has played for IDLE_SECONDS; when every game is being played, a new
# one waits (503).
MAX_GAMES = 500
IDLE_SECONDS = 30 * 60
# A bound on the records folder: past it, the records of finished games go first, oldest first,
# then those of games this server no longer plays; never a game being played.
MAX_RECORDS = 5_000


class Refusal(HTTPException):
    """A request this app refuses, with its reason in French."""


@dataclass(slots=True)
class Served:
    """What `aventuriers serve` plays: one compiled edition, and how new games are seated."""

    engine: types.ModuleType
    edition: str
    spec_hash: str
    title: str
    board: object | None  # the compiler's board picture (emit.board.Picture), None without positions
    bots: list[str]
    records: Path | None = None
    host: str = "127.0.0.1"  # the address it listens on: the names it answers to (see guard)
    games: dict[str, Session] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    max_games: int = MAX_GAMES
    max_records: int = MAX_RECORDS

    def new_session(self, humans: int, seed: int | None) -> Session:
        seats = ["human"] * humans + list(self.bots)
        # No one can guess a game's seed, hence its deck, from the games before it.
        seed = secrets.randbits(63) if seed is None else seed
        session = Session(
            engine=self.engine, edition=self.edition, spec_hash=self.spec_hash, seed=seed, seats=seats
        )
        with self.lock:
            if len(self.games) >= self.max_games and not self.forget_one():
                raise Refusal(503, FULL)
            self.games[session.id] = session
        try:
            self.save(session)
        except OSError:
            with self.lock:
                del self.games[session.id]
            raise Refusal(503, NOT_SAVED) from None
        self.prune_records()
        return session

    def forget_one(self) -> bool:
        """Make room for a game: the finished game played longest ago, else the game idle longest
        if it has been idle IDLE_SECONDS; False when every game is being played."""
        finished = [session for session in self.games.values() if session.game.is_over()]
        if finished:
            del self.games[min(finished, key=lambda session: session.touched).id]
            return True
        idle = min(self.games.values(), key=lambda session: session.touched)
        if time.monotonic() - idle.touched >= IDLE_SECONDS:
            del self.games[idle.id]
            return True
        return False

    def session(self, game_id: str) -> Session:
        session = self.games.get(game_id)
        if session is None:
            raise Refusal(404, "Partie inconnue : elle n’existe pas, ou plus, sur ce serveur.")
        session.touched = time.monotonic()
        return session

    def save(self, session: Session) -> None:
        if self.records is not None:
            session.save(self.records)

    def prune_records(self) -> None:
        """Keep the records folder within ``max_records`` files."""
        if self.records is None:
            return
        with self.lock:
            live = {record_name(game_id) for game_id in self.games}
            names = [path for path in self.records.glob("partie-*.json") if path.name not in live]
            excess = len(names) + len(live) - self.max_records
            if excess <= 0:
                return
            ranked = sorted(names, key=lambda path: (not _finished(path), _modified(path)))
            for path in ranked[:excess]:
                path.unlink(missing_ok=True)


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def _back(session: Session, request: Request, auto: str | None = None) -> Response:
    if _wants_json(request):
        # Short: a client that wants the legal actions asks state.json.
        return JSONResponse(progress_of(session))
    query = "?auto=0" if auto == "0" else ""
    return RedirectResponse(f"/games/{session.id}{query}", status_code=303)


def progress_of(session: Session) -> dict:
    return {
        "game": session.id,
        "actions": len(session.actions),
        "human_turn": session.is_human_turn(),
        "over": session.game.is_over(),
        "can_undo": session.can_undo(),
    }


def state_of(session: Session) -> dict:
    """What a client needs to play the seat to move: its observation and legal actions; while
    the screen is covered (people sharing it), nothing of that seat's own game."""
    game = session.game
    covered = session.is_covered()
    playing = session.is_human_turn() and not covered
    return {
        "game": session.id,
        "seat": session.viewer(),
        "human_turn": session.is_human_turn(),
        "covered": covered,
        "over": game.is_over(),
        "observation": session.screen_observation(),
        "legal_actions": [dict(action) for action in game.legal_actions()] if playing else [],
        "can_undo": session.can_undo(),
        "actions": len(session.actions),
    }


async def _form(request: Request) -> dict[str, str]:
    """The form's fields; the body was read and bounded by the guard (``guard.MAX_BODY_BYTES``),
    so a multipart form is parsed in memory, and its files are refused."""
    try:
        form = await request.form(max_files=0, max_fields=MAX_FIELDS)
    except HTTPException:
        raise Refusal(400, "Formulaire illisible.") from None
    return {key: value for key, value in form.items() if isinstance(value, str)}


def create_app(served: Served) -> Starlette:
    async def home(request: Request) -> Response:
        return HTMLResponse(home_page(served))

    async def new_game(request: Request) -> Response:
        form = await _form(request)
        humans = _integer(form.get("humans", "1"), "humans")
        seed = _integer(form["seed"], "seed") if form.get("seed") else None
        players = humans + len(served.bots)
        low, high = served.engine.PLAYERS
        team = served.engine.SIDE_SIZE
        if humans < 1 or not low <= players <= high or players % team:
            raise Refusal(400, f"{players} joueurs : cette édition se joue de {low} à {high}.")
        session = served.new_session(humans, seed)
        return RedirectResponse(f"/games/{session.id}", status_code=303)

    async def show(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        error, session.flash = session.flash, None
        return HTMLResponse(game_page(served, session, dict(request.query_params), error=error))

    async def state(request: Request) -> Response:
        return JSONResponse(state_of(served.session(request.path_params["game"])))

    async def act(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        form = await _form(request)
        if form.get("choice") == "keep_tickets":  # the checkboxes of the ticket choice
            seat = session.game.current_player
            pending = session.game.observation(seat)["players"][seat].get("pending_tickets", [])
            action = ticket_choice_action(served.engine, form, pending)
            return _change(session, request, form, lambda: session.play_human(action))
        try:
            action = json.loads(form.get("action", ""))
        except (ValueError, RecursionError):  # not JSON, or nested past what the parser follows
            action = None
        if not isinstance(action, dict):
            return _refused(session, request, 400, UNREADABLE)
        return _change(session, request, form, lambda: session.play_human(action))

    async def advance(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        form = await _form(request)

        def run() -> None:
            with session.lock, session.all_or_nothing():
                session.advance()
                served.save(session)

        # In a worker thread: a slow bot (mcts) holds its own game, never the server.
        try:
            await run_in_threadpool(run)
        except OSError:
            return _refused(session, request, 503, NOT_SAVED, form.get("auto"))
        served.prune_records()
        return _back(session, request, form.get("auto"))

    async def undo(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        form = await _form(request)
        return _change(session, request, form, session.undo)

    def _change(
        session: Session, request: Request, form: dict[str, str], change: Callable[[], None]
    ) -> Response:
        """A person's change to the game, under its lock and saved; a refusal changes nothing."""
        try:
            with _held(session), session.all_or_nothing():
                change()
                served.save(session)
        except OSError:  # not saved: not played either
            return _refused(session, request, 503, NOT_SAVED, form.get("auto"))
        except Busy:
            return _refused(session, request, 409, BUSY, form.get("auto"))
        except NotYourTurn:
            return _refused(session, request, 409, NOT_YOUR_TURN, form.get("auto"))
        except NothingToUndo:
            return _refused(session, request, 409, NOTHING_TO_UNDO, form.get("auto"))
        except served.engine.IllegalAction as error:
            return _refused(session, request, 422, error.message, form.get("auto"))
        return _back(session, request, form.get("auto"))

    async def reveal(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        form = await _form(request)
        session.reveal()
        return _back(session, request, form.get("auto"))

    async def record(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        if not session.game.is_over():
            # Its seed and actions would tell every hidden card, the bots' hands and the deck's order.
            raise Refusal(409, RECORD_AFTER_THE_END)
        body = json.dumps(session.record(), ensure_ascii=False, indent=1) + "\n"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="partie-{session.id}.json"'},
        )

    def _refused(
        session: Session, request: Request, status: int, message: str, auto: str | None = None
    ) -> Response:
        if _wants_json(request):
            return JSONResponse({"error": message, **progress_of(session)}, status_code=status)
        if status in (409, 422, 503):
            # A move refused from the page: shown on the page it comes back to, so that
            # a reload never posts it again.
            session.flash = message
            return _back(session, request, auto)
        return HTMLResponse(
            game_page(served, session, dict(request.query_params), error=message), status_code=status
        )

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if isinstance(error, Refusal):
            text = error.detail
        else:  # Starlette's own (an unknown path, a wrong method), said in French
            text = {404: "Page introuvable.", 405: "Méthode non permise."}.get(
                error.status_code, "Requête refusée."
            )
        if _wants_json(request):
            return JSONResponse({"error": text}, status_code=error.status_code)
        return HTMLResponse(message_page(text), status_code=error.status_code)

    routes = [
        Route("/", home),
        Route("/games", new_game, methods=["POST"]),
        Route("/games/{game:str}", show),
        Route("/games/{game:str}/state.json", state),
        Route("/games/{game:str}/record.json", record),
        Route("/games/{game:str}/action", act, methods=["POST"]),
        Route("/games/{game:str}/advance", advance, methods=["POST"]),
        Route("/games/{game:str}/undo", undo, methods=["POST"]),
        Route("/games/{game:str}/reveal", reveal, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error})
    return Guard(app, host=served.host)


BUSY = typo("Les bots jouent encore : réessaie dans un instant.")
FULL = typo(f"Le serveur tient déjà {MAX_GAMES} parties en cours : réessaie quand l’une d’elles sera finie.")
NOT_SAVED = typo("La partie n’a pas pu être enregistrée (disque plein ?) : rien n’a été joué.")
RECORD_AFTER_THE_END = typo(
    "La partie se télécharge une fois finie : avant, son enregistrement dirait les cartes cachées."
)
MAX_FIELDS = 20
UNREADABLE = typo("Action illisible : elle doit être un objet JSON.")
NOT_YOUR_TURN = typo("Ce n’est pas à une personne de jouer : les bots jouent.")
NOTHING_TO_UNDO = typo("Rien à annuler : un autre joueur a joué depuis ton dernier coup.")


class Busy(Exception):
    """The game is in the bots' hands (its lock is held): a person's request waits for nothing."""


@contextmanager
def _held(session: Session) -> Iterator[None]:
    """The game's lock, taken at once or not at all: the event loop never waits on a bot."""
    if not session.lock.acquire(blocking=False):
        raise Busy()
    try:
        yield
    finally:
        session.lock.release()


def _integer(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise Refusal(400, f"« {name} » doit être un nombre entier.") from None


_FINISHED = re.compile(rb'"finished": true[,}]')


def _finished(record: Path) -> bool:
    """Whether a record says its game ended (its first line holds everything but the actions)."""
    try:
        with record.open("rb") as file:
            return bool(_FINISHED.search(file.readline(4096)))
    except OSError:
        return False


def _modified(record: Path) -> float:
    try:
        return record.stat().st_mtime
    except OSError:
        return 0.0
