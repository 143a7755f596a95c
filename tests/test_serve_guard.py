"""`aventuriers serve` as a local service should be (issue 19, §3): each case once got through.

Bodies bounded whatever their framing, foreign hosts and origins refused, nothing hidden
told before the game ends, a nested action, a records folder that cannot be written,
half-open connections, and the bounds on games and records.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import json
import random
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from aventuriers.compiler.cli import main  # noqa: E402
from aventuriers.compiler.french import typo  # noqa: E402
from aventuriers.play import serve_command, web  # noqa: E402
from aventuriers.play import session as session_module  # noqa: E402
from aventuriers.play.guard import MAX_BODY_BYTES, header_timed_protocol, host_name  # noqa: E402
from aventuriers.play.serve_command import served_edition, writable_folder  # noqa: E402
from aventuriers.play.web import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

JSON = {"accept": "application/json"}
LOCAL = "http://127.0.0.1:8000"


@pytest.fixture()
def usa(tmp_path):
    return served_edition("usa-2025", ["greedy", "greedy"], tmp_path / "parties")


@pytest.fixture()
def client(usa):
    (usa.records).mkdir()
    return TestClient(create_app(usa), follow_redirects=False, base_url=LOCAL)


def new_game(client, **form) -> str:
    response = client.post("/games", data={"humans": "1", **form})
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[-1]


# §3.1 Bodies


def test_a_chunked_body_past_the_bound_is_refused_while_it_is_read(client, usa) -> None:
    def chunks():
        for _ in range(200):
            yield b"action=" + b"x" * 65_536

    response = client.post(
        "/games", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413 and "Requête trop grande" in response.text
    assert usa.games == {}


def test_the_guard_stops_reading_at_the_bound() -> None:
    """Below the HTTP client: the guard pulls no more of a chunked body than the bound, and the
    app behind it never runs."""
    import asyncio

    from aventuriers.play.guard import Guard

    pulled, called, answer = [], [], []

    async def app(scope, receive, send) -> None:
        called.append(scope)

    async def receive():
        pulled.append(1)
        return {"type": "http.request", "body": b"x" * 10_000, "more_body": len(pulled) < 10_000}

    async def send(message) -> None:
        answer.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"transfer-encoding", b"chunked")],
    }
    # In a thread of its own: the browser tests' driver may hold this thread's event loop.
    worker = threading.Thread(target=asyncio.run, args=(Guard(app)(scope, receive, send),))
    worker.start()
    worker.join()
    assert answer[0]["status"] == 413 and called == []
    assert len(pulled) == MAX_BODY_BYTES // 10_000 + 1  # 70 KB read of 100 MB offered


def test_a_multipart_body_past_the_bound_is_refused_and_a_small_one_is_read(client, usa) -> None:
    big = client.post("/games", files={"humans": ("x.txt", b"1" * (MAX_BODY_BYTES + 1))})
    assert big.status_code == 413 and usa.games == {}
    upload = client.post("/games", files={"humans": ("x.txt", b"1")})
    assert upload.status_code == 400 and usa.games == {}  # a file is no form field
    game = new_game(client)
    fields = client.post(f"/games/{game}/action", files={"action": (None, '{"type": "pass"}')}, headers=JSON)
    assert fields.status_code == 422  # read, then refused by the engine (passing is not legal here)


def test_an_unreadable_length_is_a_400(client) -> None:
    response = client.post("/games", content=b"humans=1", headers={"content-length": "1e3"})
    assert response.status_code == 400
    assert response.text == "Requête mal formée\u00a0: longueur illisible.\n"


# §3.2 Hosts and origins


def test_a_foreign_host_is_refused_whatever_the_request(usa) -> None:
    (usa.records).mkdir()
    rebound = TestClient(create_app(usa), follow_redirects=False, base_url="http://attacker.example:8000")
    assert rebound.get("/").status_code == 421
    assert rebound.post("/games", data={"humans": "1"}).status_code == 421
    assert usa.games == {}
    local = TestClient(create_app(usa), follow_redirects=False, base_url=LOCAL)
    game = new_game(local)
    stolen = rebound.get(f"/games/{game}/state.json", headers=JSON)
    assert stolen.status_code == 421 and "observation" not in stolen.text
    assert "ne répond qu’à son propre nom" in stolen.json()["error"]
    for name in ("http://localhost:8000", "http://[::1]:8000"):
        assert TestClient(create_app(usa), base_url=name).get("/").status_code == 200


def test_a_cross_site_post_changes_nothing(client, usa) -> None:
    for headers in (
        {"origin": "http://attacker.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
    ):
        response = client.post("/games", data={"humans": "1"}, headers=headers)
        assert response.status_code == 403 and "autre site" in response.text
    assert usa.games == {}
    assert client.post("/games", data={"humans": "1"}, headers={"origin": LOCAL}).status_code == 303
    same = client.post("/games", data={"humans": "1"}, headers={"origin": "http://localhost:8000"})
    assert same.status_code == 303 and len(usa.games) == 2


def posted_from(client, origin: str, **headers: str) -> int:
    return client.post("/games", data={"humans": "1"}, headers={"origin": origin, **headers}).status_code


def test_an_origin_is_a_scheme_a_host_and_a_port_all_of_this_server(client, usa) -> None:
    """An origin names one server: another port of this machine is another site, and the origin
    is read as RFC 6454 writes it (``scheme://host[:port]``), nothing around or inside it."""
    for foreign in (
        "http://127.0.0.1:9999",  # another local server's page
        "http://localhost:9999",
        "http://[::1]:9999",
        "http://127.0.0.1",  # no port: 80, not 8000
        "https://127.0.0.1:8000",  # this server speaks http
        "ftp://127.0.0.1:8000",
        "http://127.0.0.1:8000@evil.example",  # user info: the host is evil.example
        "http://evil.example@127.0.0.1:8000",
        "http://127.0.0.1:8000/games",
        "http://127.0.0.1:8000/",
        "http://127.0.0.1:8000?a=1",
        "http://127.0.0.1:8000#a",
        "http://127.0.0.1:8000 ",
        "http:// 127.0.0.1:8000",
        "http://127.0.0.1: 8000",
        "http://127.0.0.1:http",
        "http://127.0.0.1:",
        "http://127.0.0.1:80000",
        "http://127.0.0.1:+8000",
        "http://:8000",
        "http://::1:8000",  # an IPv6 address needs its brackets
        "http://[::1",
        "http://[fe80::1%25lo]:8000",
        "http://EVIL.EXAMPLE:8000",
        "127.0.0.1:8000",
        "http:127.0.0.1:8000",
    ):
        response = client.post("/games", data={"humans": "1"}, headers={"origin": foreign, **JSON})
        assert response.status_code == 403, foreign
        assert response.json()["error"] == typo("Requête refusée : elle vient de la page d’un autre site.")
    assert usa.games == {}
    # The loopback names the Host check answers to are this server's, at its port, in any case.
    for own in (LOCAL, "http://localhost:8000", "http://[::1]:8000", "HTTP://LOCALHOST:8000"):
        assert posted_from(client, own) == 303, own
    assert len(usa.games) == 4


def test_the_port_of_an_origin_is_the_one_the_server_is_bound_to(usa) -> None:
    """Not the one the Host header says: that header is the client's word."""
    (usa.records).mkdir()
    client = TestClient(create_app(usa), follow_redirects=False, base_url=LOCAL)
    assert posted_from(client, "http://127.0.0.1:9999", host="127.0.0.1:9999") == 403
    on_80 = TestClient(create_app(usa), follow_redirects=False, base_url="http://127.0.0.1")
    assert posted_from(on_80, "http://127.0.0.1") == 303  # the default port, said or not
    assert posted_from(on_80, "http://127.0.0.1:80") == 303
    assert posted_from(on_80, "http://127.0.0.1:8000") == 403
    assert len(usa.games) == 2


def test_an_ipv6_server_knows_its_bracketed_origin() -> None:
    served = served_edition("usa-2025", ["greedy", "greedy"], None, host="::1")
    client = TestClient(create_app(served), follow_redirects=False, base_url="http://[::1]:8765")
    assert posted_from(client, "http://[::1]:8765") == 303
    assert posted_from(client, "http://[0:0::1]:8765") == 303  # the same address, written longer
    assert posted_from(client, "http://localhost:8765") == 303
    for foreign in ("http://[::1]:9999", "http://[::1]", "http://::1:8765", "http://[::2]:8765"):
        assert posted_from(client, foreign) == 403, foreign
    assert len(served.games) == 3


def test_on_every_address_an_origin_is_the_name_the_request_was_sent_to() -> None:
    """Listening on 0.0.0.0, any name may reach the server: a page is its own when its origin is
    the name and port the request went to."""
    served = served_edition("usa-2025", ["greedy", "greedy"], None, host="0.0.0.0")
    client = TestClient(create_app(served), follow_redirects=False, base_url="http://192.168.1.5:8000")
    assert posted_from(client, "http://192.168.1.5:8000") == 303
    for foreign in (
        "http://192.168.1.5:9999",
        "http://evil.example:8000",
        "http://127.0.0.1:8000@192.168.1.5",
    ):
        assert posted_from(client, foreign) == 403, foreign
    assert len(served.games) == 1


def test_only_a_page_of_this_very_origin_changes_anything(client, usa) -> None:
    """``Sec-Fetch-Site``: "same-site" is what a page of another port of this machine sends."""
    for site in ("cross-site", "same-site", "something-new"):
        response = client.post("/games", data={"humans": "1"}, headers={"sec-fetch-site": site})
        assert response.status_code == 403 and "autre site" in response.text, site
    assert usa.games == {}
    for site in ("same-origin", "none"):
        response = client.post("/games", data={"humans": "1"}, headers={"sec-fetch-site": site})
        assert response.status_code == 303, site
    assert client.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200  # a link to it


def test_a_real_server_compares_origins_with_the_port_it_listens_on(usa) -> None:
    """Through uvicorn: the port compared is the socket's, not a default of the tests."""
    (usa.records).mkdir()
    with running(usa) as port:
        statuses = {}
        for origin in (f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port % 65535 + 1}", "null"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                connection.request(
                    "POST",
                    "/games",
                    body="humans=1",
                    headers={"origin": origin, "content-type": "application/x-www-form-urlencoded"},
                )
                statuses[origin] = connection.getresponse().status
            finally:
                connection.close()
        assert list(statuses.values()) == [303, 403, 403]
    assert len(usa.games) == 1


def test_every_answer_forbids_framing_and_sniffing(client) -> None:
    for response in (client.get("/"), client.get("/nope"), client.get("/static/app.js")):
        assert response.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"


def test_host_names_are_read_without_their_port() -> None:
    assert host_name("127.0.0.1:8000") == "127.0.0.1"
    assert host_name("[::1]:8000") == "::1" and host_name("LocalHost") == "localhost"
    assert host_name("evil.example:80") == "evil.example"


def test_a_port_is_checked_when_the_command_line_is_read(capsys, monkeypatch, tmp_path) -> None:
    """The system would take 0 as any free port and fold 99999 into 34463: the address announced
    would not be the one served."""
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda *args, **kwargs: pytest.fail("it served"))
    for port in ("99999", "65536", "0", "-1", "abc", "80.5", ""):
        with pytest.raises(SystemExit) as exit:
            main(["serve", "usa-2025", "--port", port, "--records", str(tmp_path / "parties")])
        assert exit.value.code != 0
        err = capsys.readouterr().err
        assert f"--port : un port est un nombre entier de 1 à 65535, pas « {port} »" in err, err
        assert "http://" not in err and "Traceback" not in err
    assert not (tmp_path / "parties").exists()  # refused before anything was done


def test_a_bind_refused_is_one_french_error_and_nothing_announced(tmp_path, capsys, monkeypatch) -> None:
    """As root, port 1 is free to bind: the refusal a person would meet is made here."""
    import uvicorn

    def refused(self, address) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(uvicorn.Server, "run", lambda *args, **kwargs: pytest.fail("it served"))
    monkeypatch.setattr(socket.socket, "bind", refused)
    assert main(["serve", "usa-2025", "--port", "1", "--records", str(tmp_path / "parties")]) == 1
    assert capsys.readouterr().err == (
        "aventuriers serve : impossible d’écouter sur 127.0.0.1:1 : permission refusée\n"
        "      = aide : les ports sous 1024 sont réservés à l’administrateur ; "
        f"un autre port, par exemple « --port {serve_command.DEFAULT_PORT} »\n"
    )


def test_a_host_that_names_no_address_is_one_french_error(tmp_path, capsys, monkeypatch) -> None:
    import uvicorn

    def unknown(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(uvicorn.Server, "run", lambda *args, **kwargs: pytest.fail("it served"))
    monkeypatch.setattr(serve_command.socket, "getaddrinfo", unknown)
    command = ["serve", "usa-2025", "--host", "nulle-part.invalid", "--records", str(tmp_path / "parties")]
    assert main(command) == 1
    assert capsys.readouterr().err == (
        "aventuriers serve : impossible d’écouter sur nulle-part.invalid:8000 : nom inconnu "
        "(ni une adresse IP, ni un nom que cette machine sait trouver)\n"
    )


def test_the_address_announced_is_the_one_listened_on(tmp_path, capsys, monkeypatch) -> None:
    import uvicorn

    served = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets: served.extend(s.getsockname()[:2] for s in sockets)
    )
    with socket.socket(socket.AF_INET6) as probe:
        try:
            probe.bind(("::1", 0))
        except OSError:
            pytest.skip("no IPv6 loopback here")
        port = probe.getsockname()[1]
    assert main(["serve", "usa-2025", "--host", "::1", "--port", str(port), "--records", str(tmp_path)]) == 0
    assert served == [("::1", port)]
    assert f"sur http://[::1]:{port}/ (bots" in capsys.readouterr().err


# §3.3 Hidden information


def test_the_record_is_given_only_once_the_game_is_over(client, usa) -> None:
    game = new_game(client)
    response = client.get(f"/games/{game}/record.json", headers=JSON)
    assert response.status_code == 409 and "seed" not in response.text
    assert "une fois finie" in response.json()["error"]
    assert "record.json" not in client.get(f"/games/{game}").text
    session = usa.games[game]
    with session.lock:
        session.game.playout(random.Random(1))
    finished = client.get(f"/games/{game}/record.json")
    assert finished.status_code == 200 and finished.json()["seed"] == session.seed
    assert finished.json()["finished"] is True


def test_seeds_are_not_guessable(client, usa) -> None:
    games = [new_game(client) for _ in range(4)]
    seeds = [usa.games[game].seed for game in games]
    assert len(set(seeds)) == 4 and not set(seeds) & {0, 1, 2, 3, 4}
    assert usa.games[new_game(client, seed="9")].seed == 9  # a seed asked for is kept


def test_the_state_of_a_covered_screen_tells_nothing_of_that_seat(usa) -> None:
    (usa.records).mkdir()
    client = TestClient(create_app(usa), follow_redirects=False, base_url=LOCAL)
    game = new_game(client, humans="2", seed="4")
    session = usa.games[game]
    covered = client.get(f"/games/{game}/state.json").json()
    assert covered["covered"] is True and covered["legal_actions"] == []
    seat = covered["seat"]
    mine = covered["observation"]["players"][seat]
    assert "hand" not in mine and "tickets" not in mine and "pending_tickets" not in mine
    text = json.dumps(covered)
    for ticket in session.game.observation(seat)["players"][seat]["pending_tickets"]:
        assert ticket not in text
    client.post(f"/games/{game}/reveal")
    shown = client.get(f"/games/{game}/state.json").json()
    assert shown["covered"] is False and "pending_tickets" in shown["observation"]["players"][seat]


def test_team_play_covers_the_team_holder_too() -> None:
    served = served_edition("asia-equipes", ["greedy", "greedy"], None)
    client = TestClient(create_app(served), follow_redirects=False, base_url=LOCAL)
    game = new_game(client, humans="2", seed="3")
    covered = client.get(f"/games/{game}/state.json").json()
    assert covered["covered"] is True
    team = covered["observation"]["teams"][covered["seat"] // 2]
    assert "holder" not in team and "tickets" not in team


# §3.4 Nested actions, records that cannot be written


def test_a_deeply_nested_action_is_a_french_400(client) -> None:
    game = new_game(client)
    deep = "[" * 8_000 + "]" * 8_000  # 48 KB once the form encodes it: within the bound
    response = client.post(f"/games/{game}/action", data={"action": deep}, headers=JSON)
    assert response.status_code == 400 and "Action illisible" in response.json()["error"]


def test_a_move_that_cannot_be_saved_is_not_played(client, usa, monkeypatch) -> None:
    game = new_game(client)
    session = usa.games[game]
    before = client.get(f"/games/{game}/state.json").json()
    saved = (usa.records / f"partie-{game}.json").read_text(encoding="utf-8")

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(session_module.os, "replace", full_disk)
    response = client.post(
        f"/games/{game}/action", data={"action": json.dumps(before["legal_actions"][0])}, headers=JSON
    )
    assert response.status_code == 503 and "rien n’a été joué" in response.json()["error"]
    assert client.get(f"/games/{game}/state.json").json() == before
    assert len(session.actions) == 0
    assert (usa.records / f"partie-{game}.json").read_text(encoding="utf-8") == saved
    assert sorted(path.name for path in usa.records.iterdir()) == [f"partie-{game}.json"]  # no partial file
    monkeypatch.undo()
    played = client.post(
        f"/games/{game}/action", data={"action": json.dumps(before["legal_actions"][0])}, headers=JSON
    )
    assert played.status_code == 200 and len(session.actions) >= 1


def test_a_records_folder_that_cannot_be_written_is_told_at_start_up(tmp_path, capsys) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    assert "un élément du chemin n’est pas un dossier" in writable_folder(blocker / "parties")
    assert writable_folder(tmp_path / "parties") is None and (tmp_path / "parties").is_dir()
    assert list((tmp_path / "parties").iterdir()) == []
    assert main(["serve", "usa-2025", "--records", str(blocker), "--port", "8000"]) == 1
    assert "on ne peut pas y enregistrer les parties" in capsys.readouterr().err


# §3.5 Half-open connections, bounds on games and records


@contextlib.contextmanager
def running(served, **config):
    """``served`` behind a real uvicorn on a free port of 127.0.0.1, for the duration; yields the port."""
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(create_app(served), host="127.0.0.1", port=0, log_level="error", **config)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the server did not start"
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=STARTUP_SECONDS)


# Generous: each is the bound of a wait that ends as soon as its event comes, never a pause.
STARTUP_SECONDS = 30
CLOSING_SECONDS = 30


def test_half_open_connections_are_closed_and_never_starve_the_server(usa) -> None:
    (usa.records).mkdir()
    half_open = []
    with running(usa, http=header_timed_protocol(1.0)) as port:
        try:
            for _ in range(300):
                connection = socket.create_connection(("127.0.0.1", port), timeout=5)
                connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the head never ends
                half_open.append(connection)
            with socket.create_connection(("127.0.0.1", port), timeout=5) as person:
                person.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                assert person.recv(64).startswith(b"HTTP/1.1 200")
            # Each is closed by the server one second after its head began; a loaded machine may
            # take longer to get there, so wait for each close up to one deadline for them all.
            deadline = time.monotonic() + CLOSING_SECONDS
            open_still = 0
            for connection in half_open:
                connection.settimeout(max(deadline - time.monotonic(), 0.001))
                try:
                    open_still += connection.recv(1) != b""
                except TimeoutError:
                    open_still += 1
                except OSError:
                    pass  # reset: closed too
            assert open_still == 0
        finally:
            for connection in half_open:
                connection.close()


def test_new_games_forget_finished_games_first_and_never_one_being_played(client, usa, monkeypatch) -> None:
    usa.max_games = 2
    first, second = new_game(client), new_game(client)
    usa.games[second].game.playout(random.Random(2))
    third = new_game(client)
    assert set(usa.games) == {first, third}  # the finished one went
    full = client.post("/games", data={"humans": "1"}, headers=JSON)
    assert full.status_code == 503 and "parties en cours" in full.json()["error"]
    assert set(usa.games) == {first, third}
    usa.games[first].touched -= web.IDLE_SECONDS + 1
    fourth = new_game(client)
    assert set(usa.games) == {third, fourth}


def test_the_records_folder_is_bounded_finished_games_first(client, usa) -> None:
    usa.max_records = 3
    old = []
    for index, finished in enumerate((True, False, True)):
        path = usa.records / f"partie-ancienne{index}.json"
        path.write_text(json.dumps({"finished": finished})[:-1] + ', "actions": [\n]}\n', encoding="utf-8")
        old.append(path)
    live = new_game(client)
    names = sorted(path.name for path in usa.records.glob("partie-*.json"))
    assert len(names) == 3 and f"partie-{live}.json" in names
    assert not old[0].exists() or not old[2].exists()
    assert old[1].exists()  # an unfinished record outlives the finished ones
    new_game(client)
    new_game(client)
    kept = {path.name for path in usa.records.glob("partie-*.json")}
    assert len(kept) == 3 and all(f"partie-{game}.json" in kept for game in usa.games)
    assert isinstance(Path, type)
