"""What the mechanisms draw on the board (``mechanisms.marks``): each mark a spec's rules
declare is on the printed board and in its legend, drawn by the board alone."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree
from collections import Counter

import pytest
from aventuriers.compiler.build import compile_ir, loader
from aventuriers.compiler.emit.board import legend, picture, render_board
from aventuriers.compiler.emit.document import legend as sheet_legend
from aventuriers.compiler.mechanisms import board_marks
from aventuriers.compiler.mechanisms.marks import BoardMark, MarkKind

from .test_board import drawn_boxes

SVG = "{http://www.w3.org/2000/svg}"


def edition_ir(name: str):
    editions = loader()
    return compile_ir(editions.path_of(name), editions)


def drawn_svg(name: str) -> ElementTree.Element:
    edition = edition_ir(name)
    return ElementTree.fromstring(render_board(picture(edition.board, board_marks(edition)), edition.title))


def test_each_company_s_initials_are_on_the_routes_bearing_its_logo() -> None:
    """Pennsylvania: one label per company on each route (a double route's tracks share a row)."""
    edition = edition_ir("pennsylvania")
    shares = next(rule for rule in edition.rules if type(rule).__name__ == "Shares")
    group_of = {t.id: tuple(x.id for x in g) for g in edition.board.track_groups() for t in g}
    expected = Counter()
    for company in shares.companies:
        for row in {group_of.get(route, (route,)) for route in company.routes}:
            expected[company.id.upper(), row[0]] += 1
    root = drawn_svg("pennsylvania")
    badges = root.find(f".//{SVG}g[@class='badges']")
    boxes = badges.findall(f"{SVG}rect")
    texts = [text.text for text in badges.findall(f"{SVG}text")]
    drawn = Counter(zip(texts, (box.get("data-route") for box in boxes), strict=True))
    assert drawn == expected
    assert len(set(box.get("fill") for box in boxes)) == len(shares.companies)  # a colour each
    assert "« PRR » sur une route : la Pennsylvania Railroad" in legend(board_marks(edition))


def test_the_tokens_of_each_place_are_beside_it_and_no_name_covers_them() -> None:
    """Germany: the passengers each city or country gets at set-up, in a disc beside it."""
    edition = edition_ir("germany")
    tokens = next(rule for rule in edition.rules if type(rule).__name__ == "Tokens")
    drawn = picture(edition.board, board_marks(edition))
    discs = {badge.key: badge for badge in drawn.badges if badge.round}
    assert {key: badge.text for key, badge in discs.items()} == {
        place: str(count) for place, count in tokens.on
    }
    for name, box in drawn_boxes(drawn).items():
        for badge in discs.values():
            x, y, r = float(badge.x), float(badge.y), float(badge.width)
            nearest_x = min(max(x, box.left), box.right)
            nearest_y = min(max(y, box.top), box.bottom)
            assert (nearest_x - x) ** 2 + (nearest_y - y) ** 2 >= r * r, (name, badge.key)


def test_each_region_is_tinted_and_neighbours_never_share_a_tint() -> None:
    """Italy: every region's cities in one area; two regions a route joins differ in tint."""
    edition = edition_ir("italy")
    regions = next(rule for rule in edition.rules if type(rule).__name__ == "Regions").regions
    drawn = picture(edition.board, board_marks(edition))
    tint = {area.key: area.fill for area in drawn.regions}
    assert set(tint) == {region.name for region in regions}
    region_of = {city: region.name for region in regions for city in region.cities}
    joined = {
        frozenset((region_of[route.a], region_of[route.b]))
        for route in edition.board.routes
        if route.a in region_of and route.b in region_of and region_of[route.a] != region_of[route.b]
    }
    assert joined and all(len({tint[name] for name in pair}) == 2 for pair in joined)
    assert legend(board_marks(edition)) == ("zone teintée : les villes d’une région",)


def test_the_public_routes_are_dotted_and_mountains_crossed() -> None:
    japan = edition_ir("japan")
    public = next(rule for rule in japan.rules if type(rule).__name__ == "PublicRoutes")
    assert len(picture(japan.board, board_marks(japan)).route_lines) == len(public.routes)
    asia = edition_ir("legendary-asia")
    crosses = sum(mark.count * len(mark.targets) for mark in board_marks(asia))
    assert len(picture(asia.board, board_marks(asia)).crosses) == crosses > 0
    assert legend(board_marks(asia)) == ("croix sur une case : une montagne",)


@pytest.mark.parametrize(
    ("edition", "line"),
    [
        ("pennsylvania", "«\u00a0PRR\u00a0» sur une route\u00a0: la Pennsylvania Railroad."),
        ("germany", "Nombre dans un disque près d’un lieu\u00a0: ses voyageurs au début de la partie."),
        ("italy", "Zone teintée\u00a0: les villes d’une région."),
        ("japan", "Ligne pointillée au milieu d’une route\u00a0: les voies rapides (trains rapides)."),
        ("legendary-asia", "Croix sur une case\u00a0: une montagne."),
    ],
)
def test_the_sheet_s_legend_says_what_each_mark_means(edition: str, line: str) -> None:
    """The printed sheet's legend, in French typography (a no-break space before the colon)."""
    assert line in sheet_legend(edition_ir(edition))


def test_a_board_without_marks_draws_none() -> None:
    edition = edition_ir("usa-2025")
    assert board_marks(edition) == ()
    drawn = picture(edition.board, ())
    assert (drawn.badges, drawn.regions, drawn.route_lines, drawn.crosses) == ((), (), (), ())
    root = ElementTree.fromstring(render_board(drawn, edition.title))
    assert {g.get("class") for g in root.iter(f"{SVG}g")}.isdisjoint({"badges", "regions", "special-tracks"})


@pytest.mark.parametrize(
    ("mark", "message"),
    [
        (dict(kind=MarkKind.REGION, targets=()), "a board mark (region) needs at least one target"),
        (dict(kind=MarkKind.ROUTE_BADGE, targets=("a-b",)), "a route_badge mark writes a label"),
        (dict(kind=MarkKind.CROSSES, targets=("a-b",), count=0), "a mark crosses at least one space"),
    ],
)
def test_a_mark_that_draws_nothing_is_refused(mark: dict, message: str) -> None:
    with pytest.raises(ValueError) as error:
        BoardMark(**mark)
    assert str(error.value) == message


def played_until(name: str, reached, seed: int = 3):
    """A game of the edition's engine played at random until ``reached(observation)``."""
    from .engines import engine

    module = engine(name)
    rng = random.Random(seed)
    game = module.new_game(module.PLAYERS[0], seed)
    while not game.is_over():
        if reached(game.observation(0)):
            return module, game.observation(0)
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    raise AssertionError(f"{name}: never reached")


def test_the_page_draws_the_state_its_fields_declare_drawn() -> None:
    """The page's board reads the fields declared drawn, naming no mechanism: the tokens left
    on each place (a place emptied shows none), stations, public routes in their builder's colour."""
    from aventuriers.play.page import PLAYER_COLORS, _drawn_state

    module, seen = played_until("germany", lambda o: any(p["tokens"]["passengers"] for p in o["players"]))
    pieces, counts = _drawn_state(module, seen, {})
    on_board = seen["tokens"]["passengers"]
    assert counts == {place: sum(kinds.values()) for place, kinds in on_board.items()} and pieces == {}
    edition = edition_ir("germany")
    root = ElementTree.fromstring(
        render_board(picture(edition.board, board_marks(edition)), edition.title, counts=counts)
    )
    discs = root.find(f".//{SVG}g[@class='badges']")
    places = [circle.get("data-place") for circle in discs.findall(f"{SVG}circle")]
    numbers = [text.text for text in discs.findall(f"{SVG}text")]
    assert dict(zip(places, numbers, strict=True)) == {place: str(n) for place, n in counts.items() if n}
    tokens = next(rule for rule in edition.rules if type(rule).__name__ == "Tokens")
    assert sum(counts.values()) < sum(count for _, count in tokens.on)  # some are taken

    module, seen = played_until("europe", lambda o: any(p["stations"] for p in o["players"]))
    pieces, counts = _drawn_state(module, seen, {})
    expected = {city: PLAYER_COLORS[seat] for seat, p in enumerate(seen["players"]) for city in p["stations"]}
    assert pieces == expected and counts is None

    module, seen = played_until("japan", lambda o: bool(o["public_routes"]))
    claimed: dict[str, str] = {}
    _drawn_state(module, seen, claimed)
    assert claimed == {route: PLAYER_COLORS[seat] for route, seat in seen["public_routes"].items()}
