"""The playtest page as a family sees it (issue 21, §5): claimed routes drawn as trains,
tickets chosen with checkboxes, one link per route, and a board readable on a laptop and a phone."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")

from aventuriers.compiler.emit.board import CLAIMED_OUTLINE, render_board  # noqa: E402
from aventuriers.compiler.french import (
    card_forms,  # noqa: E402
    typo,  # noqa: E402
)
from aventuriers.play.page import (  # noqa: E402
    PLAYER_COLORS,
    TicketPick,
    _claimable,
    _team_view,
    _ticket_choice,
    ticket_choice_action,
)

from .conftest import artefact  # noqa: E402
from .engines import engine as engine_of  # noqa: E402
from .test_serve import JSON, new_game, play, state  # noqa: E402
from .test_serve_browser import serve  # noqa: E402

CARD_COLOURS = {
    "#d7262b",
    "#2466c2",
    "#2f9a44",
    "#f3cd1f",
    "#f08a1c",
    "#262626",
    "#f7f7f2",
    "#e78ac3",
    "#a3a3a3",
}


def test_claimed_routes_are_trains_in_colours_no_card_has(usa) -> None:
    assert not set(PLAYER_COLORS) & CARD_COLOURS
    svg = render_board(usa.board, "t", claimed={"boston-new-york-red": PLAYER_COLORS[1]})
    spaces = re.findall(r'<polygon [^>]*data-route="boston-new-york-red"/>', svg)
    assert spaces and all(f'fill="{PLAYER_COLORS[1]}"' in space for space in spaces)
    assert all(f'stroke="{CLAIMED_OUTLINE[0]}" stroke-width="{CLAIMED_OUTLINE[1]}"' in s for s in spaces)
    assert len(re.findall(r'<circle [^>]*data-route="boston-new-york-red"/>', svg)) == len(spaces)


def test_a_claimed_route_shows_its_owner_s_colour_in_a_browser(usa, browser) -> None:
    """The pixels of a claimed route, drawn by Chromium, are its owner's; open, they are not."""
    from io import BytesIO

    image_module = pytest.importorskip("PIL.Image")
    wanted = tuple(int(PLAYER_COLORS[0][i : i + 2], 16) for i in (1, 3, 5))

    def owner_pixels(claimed: dict) -> tuple[int, int]:
        svg = render_board(usa.board, "t", claimed=claimed)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_content(
            f"<!DOCTYPE html><body style='margin:0'><style>svg{{width:3000px;height:auto}}</style>{svg}"
        )
        box = page.locator('polygon[data-route="denver-kansas-city-black"]').first.bounding_box()
        shot = page.screenshot(
            full_page=True,
            clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]},
        )
        page.close()
        raw = image_module.open(BytesIO(shot)).convert("RGB").tobytes()
        pixels = [raw[i : i + 3] for i in range(0, len(raw), 3)]
        close = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, wanted, strict=True)) < 40)
        return close, len(pixels)

    claimed, total = owner_pixels({"denver-kansas-city-black": PLAYER_COLORS[0]})
    open_route, _ = owner_pixels({})
    # The space's box holds background around a slanted space: a twentieth is many pixels.
    assert open_route == 0 and claimed > 0.05 * total, (claimed, total)


def test_tickets_are_chosen_with_checkboxes_and_ringed_on_the_board(client) -> None:
    game = client.post("/games", data={"humans": "1", "seed": "5"}).headers["location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{game}").text
    pending = client.get(f"/games/{game}/state.json").json()["legal_actions"][0]["tickets"]
    offered = re.findall(r'name="keep\.([a-z0-9-]+)"', page)
    assert offered and set(offered) >= set(pending) and "Garder ces tickets" in page
    assert page.count('data-marked="') >= 2  # the tickets' cities, ringed
    kept = offered[:2]
    response = client.post(
        f"/games/{game}/action",
        data={"choice": "keep_tickets", **{f"keep.{ticket}": "on" for ticket in kept}},
        headers=JSON,
    )
    assert response.status_code == 200, response.text
    me = client.get(f"/games/{game}/state.json").json()
    assert sorted(me["observation"]["players"][0]["tickets"]) == sorted(kept)


def test_a_choice_the_rules_refuse_is_said_in_french(client) -> None:
    game = client.post("/games", data={"humans": "1", "seed": "6"}).headers["location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{game}").text
    first = re.findall(r'name="keep\.([a-z0-9-]+)"', page)[0]
    response = client.post(
        f"/games/{game}/action", data={"choice": "keep_tickets", f"keep.{first}": "on"}, headers=JSON
    )
    assert response.status_code == 422 and "ticket" in json.loads(response.text)["error"]


def test_one_link_per_route_with_its_tracks_said() -> None:
    engine = engine_of("usa-2025")
    links = dict(_claimable(engine, {"boston-new-york-red", "boston-new-york-yellow", "atlanta-miami"}))
    assert links == {
        "atlanta-miami": "Atlanta – Miami",
        "boston-new-york-red": "Boston – New York (rouge ou jaune)",
    }


def test_the_board_reads_on_a_laptop_and_a_phone(browser, tmp_path) -> None:
    served, server, base = serve("usa-2025", ["greedy", "greedy"], tmp_path / "records")
    try:
        for width, height, name in ((1024, 768, "laptop"), (390, 844, "phone")):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(base + "/")
            with page.expect_navigation():
                page.locator("form button").first.click()
            board = page.locator("section.board svg").bounding_box()
            panel = page.locator("aside.panel").bounding_box()
            assert board["width"] >= width - 40, f"{name}: the board is {board['width']} px wide"
            assert panel["y"] >= board["y"] + board["height"] - 1, f"{name}: the panels come after the board"
            if name == "laptop":
                sizes = page.evaluate(
                    "() => Array.from(document.querySelectorAll('svg text.city'))"
                    ".map(t => t.getBoundingClientRect().height)"
                )
                assert min(sizes) >= 11, f"city names {min(sizes):.1f} px high at 1024 px"
            page.screenshot(path=str(artefact(f"serve-{name}.png")), full_page=True)
            page.close()
    finally:
        server.should_exit = True


def at_the_first_turn(client, seed: int) -> str:
    """A game against two bots whose set-up the person has played (the first tickets kept) and
    the bots have answered: the person's first turn."""
    game = new_game(client, seed)
    assert play(client, game, state(client, game)["legal_actions"][0]).status_code == 200
    while not state(client, game)["human_turn"]:
        assert client.post(f"/games/{game}/advance", headers=JSON).status_code == 200
    return game


def test_the_bots_wait_for_valider_and_the_whole_turn_can_be_undone(client) -> None:
    game = at_the_first_turn(client, 9)
    before = state(client, game)
    for _ in range(2):
        legal = state(client, game)["legal_actions"]
        draw = next(a for a in legal if a["type"] == "draw_card" and a["source"] == "deck")
        assert play(client, game, draw).status_code == 200
    page = client.get(f"/games/{game}").text
    assert 'data-bots-to-play="no"' in page and "Valider mon tour" in page and "Annuler mon tour" in page
    assert client.post(f"/games/{game}/undo", headers=JSON).status_code == 200
    assert state(client, game) == before  # both cards of the turn taken back


def test_the_last_moves_read_in_order_and_the_drawer_reads_the_card(client) -> None:
    game = at_the_first_turn(client, 11)
    hand_before = state(client, game)["observation"]["players"][0]["hand"]
    legal = state(client, game)["legal_actions"]
    draw = next(a for a in legal if a["type"] == "draw_card" and a["source"] == "deck")
    assert play(client, game, draw).status_code == 200
    hand_after = state(client, game)["observation"]["players"][0]["hand"]
    (drawn,) = [color for color, count in hand_after.items() if count > hand_before[color]]
    log = client.get(f"/games/{game}").text.split('<section id="log">')[1].split("</ol>")[0]
    moves = re.findall(r"<li>(.*?)</li>", log)
    # The newest move is the last line, and it names the card for the one who drew it.
    assert moves[-1] == f"Joueur 1 (toi) pioche une {card_forms()[drawn][0]}."
    assert moves[0].startswith("Joueur 1 (toi) garde ")


def test_another_seat_s_tickets_are_listed_where_the_observation_shows_them() -> None:
    """A rule that plays tickets face up shows them in the observation: the page lists them
    beside that seat; a seat's own are listed apart, and a hidden hand shows only its count."""
    from aventuriers.play.page import _shown_tickets

    usa = engine_of("usa-2025")
    shown = {"tickets": ["boston-miami", "calgary-phoenix"], "tickets_count": 2}
    assert _shown_tickets(usa, shown, own=False) == [
        "tickets\u00a0: Boston – Miami (12), Calgary – Phoenix (13)"
    ]
    assert _shown_tickets(usa, shown, own=True) == []
    assert _shown_tickets(usa, {"tickets_count": 2}, own=False) == []
    assert _shown_tickets(usa, {"tickets": [], "tickets_count": 0}, own=False) == ["tickets\u00a0: aucun"]


def test_a_choice_s_field_that_picks_tickets_has_its_boxes_under_the_engine_s_legend() -> None:
    """Team play's shared tickets, as any mechanism's field of a ticket choice would be: the
    legend, the rule's clause and the posted field come from the engine's ACTION_WORDS."""
    engine = engine_of("asia-equipes")
    offered = ["perm-tehran", "omsk-astrakhan"]
    choices = [
        {"type": "keep_tickets", "tickets": offered, "share": ["perm-tehran"]},
        {"type": "keep_tickets", "tickets": ["perm-tehran"], "share": []},
    ]
    choice = _ticket_choice(engine, choices)
    assert choice.rule == typo("Garde au moins 1 ticket, dont 1 ticket au porte-cartes de l’équipe.")
    names = ("Perm – Tehran (6)", "Omsk – Astrakhan (6)")
    assert choice.picks == (
        TicketPick(
            field="share",
            legend="Au porte-cartes de l’équipe",
            boxes=((offered[0], names[0], True), (offered[1], names[1], False)),
        ),
    )
    form = {"picks": choice.pick_fields, "keep.perm-tehran": "on", "keep.omsk-astrakhan": "on"}
    form["share.omsk-astrakhan"] = "on"
    wanted = {"type": "keep_tickets", "tickets": offered, "share": ["omsk-astrakhan"]}
    assert ticket_choice_action(engine, form, offered) == wanted
    # A field the engine declares no such clause for is never posted, whatever the form says.
    usa = engine_of("usa-2025")
    assert _ticket_choice(usa, [{"type": "keep_tickets", "tickets": offered}]).picks == ()
    assert ticket_choice_action(usa, {**form, "picks": "share,type"}, offered) == {
        "type": "keep_tickets",
        "tickets": offered,
    }


def test_the_team_panel_shows_what_the_engine_declares_a_team_keeps() -> None:
    """Its own team's holder, cards and tickets, from the team fields of STATE_FIELDS; another
    team's records, which the observation hides, never."""
    engine = engine_of("asia-equipes")
    game = engine.new_game(4, seed=3)
    observation = game.observation(0)
    team = _team_view(engine, observation, 0, card_forms())
    assert team is not None and team.teammates == "Joueur 1, Joueur 2"
    labels = [part.label for part in team.parts]
    assert labels == ["Cartes du porte-cartes de l’équipe", "Tickets du porte-tickets de l’équipe"]
    held = observation["teams"][0]["holder"]
    assert sum(count for _, count, _ in team.parts[0].cards) == sum(held.values())
    assert team.parts[1].empty == "aucun ticket"
    assert (
        _team_view(
            engine_of("usa-2025"), engine_of("usa-2025").new_game(2, seed=3).observation(0), 0, card_forms()
        )
        is None
    )
