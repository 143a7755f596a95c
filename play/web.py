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
import threading
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

from .page import game_page, home_page, message_page
from .session import NothingToUndo, NotYourTurn, Session

STATIC = Path(__file__).resolve().parent / "web" / "static"
# A bound on what one process keeps: past it, the oldest game is forgotten (its record stays on disk).
MAX_GAMES = 500
MAX_FORM_BYTES = 64_000


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
    games: dict[str, Session] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_seed: int = 1

    def new_session(self, humans: int, seed: int | None) -> Session:
        seats = ["human"] * humans + list(self.bots)
        with self.lock:
            if seed is None:
                seed, self.next_seed = self.next_seed, self.next_seed + 1
            session = Session(
                engine=self.engine, edition=self.edition, spec_hash=self.spec_hash, seed=seed, seats=seats
            )
            if len(self.games) >= MAX_GAMES:
                oldest = next(iter(self.games))
                del self.games[oldest]
            self.games[session.id] = session
        self.save(session)
        return session

    def session(self, game_id: str) -> Session:
        session = self.games.get(game_id)
        if session is None:
            raise Refusal(404, "Partie inconnue : elle n’existe pas, ou plus, sur ce serveur.")
        return session

    def save(self, session: Session) -> None:
        if self.records is not None:
            session.save(self.records)


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
    """What a client needs to play the seat to move: its observation and legal actions."""
    game = session.game
    seat = session.viewer()
    return {
        "game": session.id,
        "seat": seat,
        "human_turn": session.is_human_turn(),
        "over": game.is_over(),
        "observation": game.observation(seat),
        "legal_actions": [dict(action) for action in game.legal_actions()] if session.is_human_turn() else [],
        "can_undo": session.can_undo(),
        "actions": len(session.actions),
    }


async def _form(request: Request) -> dict[str, str]:
    length = request.headers.get("content-length") or "0"
    if not length.isdigit():
        raise Refusal(400, "Requête mal formée : longueur illisible.")
    if int(length) > MAX_FORM_BYTES:
        raise Refusal(413, "Requête trop grande.")
    form = await request.form()
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
        team = getattr(served.engine, "TEAM_SIZE", 1)
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
        try:
            action = json.loads(form.get("action", ""))
        except ValueError:
            action = None
        if not isinstance(action, dict):
            return _refused(session, request, 400, UNREADABLE)
        return _change(session, request, form, lambda: session.play_human(action))

    async def advance(request: Request) -> Response:
        session = served.session(request.path_params["game"])
        form = await _form(request)

        def run() -> None:
            with session.lock:
                session.advance()
                served.save(session)

        # In a worker thread: a slow bot (mcts) holds its own game, never the server.
        await run_in_threadpool(run)
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
            with _held(session):
                change()
                served.save(session)
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
        if status in (409, 422):
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
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error})


BUSY = typo("Les bots jouent encore : réessaie dans un instant.")
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
