"""What `aventuriers serve` checks before any page: a local service's manners.

An ASGI middleware around the app:

- **Hosts and origins.** The server answers only to the names it is reached by on
  this machine (the address it listens on, and the loopback names), so a page of
  another site whose name was pointed at 127.0.0.1 (DNS rebinding) is refused; a
  request a browser sends from any page but this server's own never changes
  anything: its ``Origin`` must be this server's scheme, name and port (a page of
  another server of this machine is another origin), and its ``Sec-Fetch-Site``
  must say ``same-origin``.
- **Bodies bounded while they are read**, whatever their framing (``Content-Length``
  or chunked): past ``MAX_BODY_BYTES`` the request is answered 413 and the app never
  runs; what is kept in memory is never more than that.
- **Headers every answer carries**: no framing by another page, no type sniffing,
  no referrer to other sites.

Refusals are short French texts, as plain text or JSON as the client asks.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from aventuriers.compiler.french import typo

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 64_000
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
# Listening on every address: the names it is reached by cannot be known in advance.
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # "no-referrer" would make the page's own forms say "Origin: null"
)

# An Origin header as RFC 6454 (§7) writes it, ``scheme "://" host [ ":" port ]``, and nothing
# else: no user info, path, query, fragment or space, which a looser URL parser would take or
# skip (``http://127.0.0.1:8000@evil.example`` is evil.example). Case is the URL's own
# (schemes and hosts are case-insensitive), the port checked for its range below.
ORIGIN = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.-]*)://(?P<host>\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(?P<port>[0-9]{1,5}))?",
    re.ASCII | re.IGNORECASE,
)
DEFAULT_PORTS = {"http": 80, "https": 443}
# What a browser says of a request a page of this very origin sends, or a person's own
# (typed, bookmarked); "same-site" is a page of another port or name of this machine.
OWN_FETCH_SITES = ("same-origin", "none")

FOREIGN_HOST = typo("Adresse refusée : ce serveur ne répond qu’à son propre nom (127.0.0.1 ou localhost).")
FOREIGN_ORIGIN = typo("Requête refusée : elle vient de la page d’un autre site.")
TOO_LARGE = typo("Requête trop grande.")
UNREADABLE_LENGTH = typo("Requête mal formée : longueur illisible.")


def host_name(value: str) -> str:
    """The name of a ``Host`` header or of an origin's authority, without its port: ``[::1]:8000`` → ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def parsed_origin(value: str) -> tuple[str, str, int] | None:
    """An ``Origin`` header's scheme, host and port: lower case, an IPv6 address without its
    brackets and written short, the scheme's default port when none is said; None when it is not
    exactly an origin (``null`` included)."""
    found = ORIGIN.fullmatch(value)
    if found is None:
        return None
    scheme, host = found["scheme"].lower(), found["host"].lower()
    if host.startswith("["):
        try:
            host = ipaddress.IPv6Address(host[1:-1]).compressed
        except ValueError:
            return None
    port = int(found["port"]) if found["port"] is not None else DEFAULT_PORTS.get(scheme)
    if port is None or not 1 <= port <= 65_535:
        return None
    return scheme, host, port


class Guard:
    """The middleware: ``allowed`` are the host names the server answers to (any when None)."""

    def __init__(self, app: App, *, host: str = "127.0.0.1", max_body: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_body = max_body
        self.allowed: frozenset[str] | None = (
            None if host in WILDCARD_ADDRESSES else frozenset({host_name(host), *LOOPBACK_NAMES})
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
        wants_json = "application/json" in headers.get("accept", "")
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            await _answer(send, *refusal, wants_json)
            return
        body = await self.bounded_body(scope["method"], headers, receive)
        if isinstance(body, tuple):
            await _answer(send, *body, wants_json)
            return
        await self.app(scope, _replaying(body, receive), _with_headers(send))

    def refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if self.allowed is not None and host_name(host) not in self.allowed:
            return 421, FOREIGN_HOST
        if scope["method"] in SAFE_METHODS:
            return None
        # Neither header: no browser's request (every browser sends an Origin with a POST), so
        # no other page's either; a script on this machine is let through, as it always was.
        origin = headers.get("origin")
        if origin is not None and not self.own_origin(origin, host, scope):
            return 403, FOREIGN_ORIGIN
        site = headers.get("sec-fetch-site")
        if site is not None and site not in OWN_FETCH_SITES:
            return 403, FOREIGN_ORIGIN
        return None

    def own_origin(self, origin: str, host: str, scope: Scope) -> bool:
        """Whether ``origin`` is this server's: its scheme, the port it is bound to (the socket's,
        not what the Host header claims), and a name the Host check answers to (under a wildcard
        address, the name the request was sent to).

        ``null`` never is: a browser says it for a sandboxed frame, a ``data:`` or ``file:`` page,
        a POST redirected from another site, or a page of another site whose referrer policy is
        ``no-referrer``; this server's own pages post to themselves under ``same-origin``
        (SECURITY_HEADERS), for which browsers send the real origin."""
        parsed = parsed_origin(origin)
        server = scope.get("server")
        if parsed is None or not server or server[1] is None:
            return False  # nothing to compare with (a Unix socket): no page can be shown to be ours
        scheme, name, port = parsed
        names = self.allowed if self.allowed is not None else {host_name(host)}
        return scheme == scope.get("scheme", "http") and port == server[1] and name in names

    async def bounded_body(
        self, method: str, headers: dict[str, str], receive: Receive
    ) -> bytes | tuple[int, str]:
        """The whole body, read here and never past the bound; or the refusal."""
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                return 400, UNREADABLE_LENGTH
            if int(declared) > self.max_body:
                return 413, TOO_LARGE
        if method in SAFE_METHODS and declared is None and "transfer-encoding" not in headers:
            return b""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return bytes(body)
            body += message.get("body", b"")
            if len(body) > self.max_body:
                return 413, TOO_LARGE
            if not message.get("more_body", False):
                return bytes(body)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """The request's body again, read once already; then whatever the connection says next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sending


async def _answer(send: Send, status: int, text: str, wants_json: bool) -> None:
    if wants_json:
        body, kind = json.dumps({"error": text}, ensure_ascii=False).encode("utf-8"), b"application/json"
    else:
        body, kind = (text + "\n").encode("utf-8"), b"text/plain; charset=utf-8"
    headers: Iterable[tuple[bytes, bytes]] = [
        (b"content-type", kind),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": list(headers)})
    await send({"type": "http.response.body", "body": body})


def header_timed_protocol(seconds: float) -> type:
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request head has not arrived
    within ``seconds`` (uvicorn has no such timeout: half-open connections would otherwise
    hold their socket for ever, and a thousand of them starve the server)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderTimedH11(H11Protocol):
        deadline: Any = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self.disarm()  # a request is being served: its head has come
            elif self.deadline is None:
                self.arm()  # part of a next request's head: it too must come in time

        def connection_lost(self, exc: Exception | None) -> None:
            self.disarm()
            super().connection_lost(exc)

        def arm(self) -> None:
            self.disarm()
            self.deadline = self.loop.call_later(seconds, self.too_slow)

        def disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def too_slow(self) -> None:
            self.deadline = None
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

    return HeaderTimedH11
