"""`aventuriers serve` played by clicking, in the system's Chromium driven by Playwright.

A whole usa-2025 game against two greedy bots (with a refused claim, an undo and a
reload mid-game), and Europe until the person has claimed a tunnel and built a
station. Screenshots go to ``test-artefacts/``; the ``browser`` fixture is conftest.py's.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from .conftest import artefact

pytest.importorskip("starlette")


def serve(edition: str, bots: list[str], records: Path):
    import uvicorn
    from aventuriers.play.serve_command import served_edition
    from aventuriers.play.web import create_app

    served = served_edition(edition, bots, records)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(served), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    return served, server, f"http://127.0.0.1:{port}"


def state(page, base: str, game: str) -> dict:
    return page.request.get(f"{base}/games/{game}/state.json").json()


def click_and_wait(page, locator) -> None:
    with page.expect_navigation():
        locator.first.click()


def choose_route(page, route: str) -> None:
    """A click on the route's first space on the board (dispatched: a label may lie on it)."""
    with page.expect_navigation():
        page.locator(f'svg polygon[data-route="{route}"]').first.dispatch_event("click")


def human_move(page, base: str, game: str, prefer_tunnel: bool = False) -> None:
    current = state(page, base, game)
    legal = current["legal_actions"]
    kinds = {action["type"] for action in legal}
    if "keep_tickets" in kinds or "pay_tunnel" in kinds or "abandon_tunnel" in kinds:
        buttons = page.locator("#actions form.pay_tunnel button")
        click_and_wait(page, buttons if buttons.count() else page.locator("#actions button"))
        return
    claims = [a for a in legal if a["type"] == "claim_route"]
    if claims:
        chosen = claims[0]["route"]
        if prefer_tunnel:
            tunnels = [
                a["route"]
                for a in claims
                if page.locator(f'svg polygon[data-route="{a["route"]}"][stroke-dasharray]').count()
            ]
            chosen = tunnels[0] if tunnels else chosen
        choose_route(page, chosen)
        click_and_wait(page, page.locator("#route form.action button"))
        return
    deck = page.locator("li.deck form.action button")
    if deck.count():
        click_and_wait(page, deck)
        return
    click_and_wait(page, page.locator("#actions button"))


# A whole game of clicks (a minute and more): the long run's; the tunnel and station game below
# stays in the default run.
@pytest.mark.slow
def test_a_whole_usa_game_by_clicking(browser, tmp_path) -> None:
    served, server, base = serve("usa-2025", ["greedy", "greedy"], tmp_path / "parties")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(base + "/")
        click_and_wait(page, page.locator("#new-game button"))
        game = page.url.rsplit("/", 1)[-1].split("?")[0]
        # The page as a person opens it: after their turn, the bots wait for « Valider », then
        # answer on their own.
        human_move(page, base, game)
        if not state(page, base, game)["human_turn"]:
            assert page.locator("#undo button").inner_text() == "Annuler mon tour"
            click_and_wait(page, page.locator("#advance button:has-text('Valider mon tour')"))
        page.wait_for_selector("#turn:has-text('À toi de jouer')", timeout=15_000)
        assert state(page, base, game)["actions"] >= 3
        page.goto(f"{base}/games/{game}?auto=0")
        refused = undone = reloaded = False
        for step in range(3_000):
            current = state(page, base, game)
            if current["over"]:
                break
            if not current["human_turn"]:
                click_and_wait(page, page.locator("#advance button"))
                continue
            observation = current["observation"]
            taken = {r for p in observation["players"] for r in p["routes"]}
            if not refused and current["legal_actions"][0]["type"] != "keep_tickets":
                claimable = {a["route"] for a in current["legal_actions"] if a["type"] == "claim_route"}
                route = next(r for r in sorted(served.engine.ROUTES) if r not in claimable and r not in taken)
                choose_route(page, route)
                before = state(page, base, game)
                click_and_wait(page, page.locator("#route form.action button"))
                assert page.locator("#error").inner_text().strip()
                assert state(page, base, game) == before
                refused = True
                page.goto(f"{base}/games/{game}?auto=0")
                continue
            if refused and not undone:
                before = state(page, base, game)
                human_move(page, base, game)
                assert state(page, base, game)["can_undo"]
                click_and_wait(page, page.locator("#undo button"))
                assert state(page, base, game) == before
                undone = True
                continue
            if undone and not reloaded and step > 60:
                page.screenshot(path=str(artefact("serve-usa-milieu.png")), full_page=True)
                page.reload()
                assert page.locator("#turn").count() == 1
                reloaded = True
                continue
            human_move(page, base, game)
        assert state(page, base, game)["over"] and refused and undone and reloaded
        assert page.locator("#final").count() == 1
        page.screenshot(path=str(artefact("serve-usa-fin.png")), full_page=True)
        assert problems == []
    finally:
        page.close()
        server.should_exit = True


def test_europe_with_a_tunnel_and_a_station(browser, tmp_path) -> None:
    served, server, base = serve("europe", ["greedy"], tmp_path / "parties")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(base + "/")
        click_and_wait(page, page.locator("#new-game button"))
        game = page.url.rsplit("/", 1)[-1].split("?")[0]
        page.goto(f"{base}/games/{game}?auto=0")
        tunnel = station = False
        for _ in range(600):
            current = state(page, base, game)
            if current["over"] or (tunnel and station):
                break
            if not current["human_turn"]:
                click_and_wait(page, page.locator("#advance button"))
                continue
            me = current["observation"]["players"][current["seat"]]
            stations = [a for a in current["legal_actions"] if a["type"] == "build_station"]
            if stations and not station:
                city = stations[0]["city"]
                with page.expect_navigation():
                    page.locator(f'svg text[data-city="{city}"]').dispatch_event("click")
                click_and_wait(page, page.locator("#city form.action button"))
                station = (
                    city in state(page, base, game)["observation"]["players"][current["seat"]]["stations"]
                )
                continue
            routes_before = set(me["routes"])
            human_move(page, base, game, prefer_tunnel=not tunnel)
            after = state(page, base, game)["observation"]["players"][current["seat"]]
            new = set(after["routes"]) - routes_before
            tunnel = tunnel or any(served.engine.ROUTES[r].get("tunnel") for r in new)
        page.screenshot(path=str(artefact("serve-europe.png")), full_page=True)
        assert tunnel and station
    finally:
        page.close()
        server.should_exit = True
