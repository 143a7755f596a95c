"""The board picture and the printable sheet: projection, label layout, SVG, HTML, the command."""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from aventuriers.compiler.build import compile_edition, compile_ir, loader, shipped_editions
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.board import FONT_SIZE, LINE_HEIGHT, SPACE_WIDTH, picture, text_width
from aventuriers.compiler.emit.document import emit_document
from aventuriers.compiler.emit.label_layout import (
    Dot,
    Label,
    Segment,
    candidates,
    clipped_length,
    leader,
    overlapping_pairs,
    place_labels,
)
from aventuriers.compiler.emit.projection import Box, project
from aventuriers.compiler.mechanisms import board_marks

BROKEN = Path(__file__).resolve().parent / "specs" / "broken"
SVG = "{http://www.w3.org/2000/svg}"
EDITIONS = shipped_editions(loader())
FRAME = Box(left=0.0, top=0.0, right=1000.0, bottom=680.0)


def edition_ir(name: str):
    editions = loader()
    return compile_ir(editions.path_of(name), editions)


def printed(name: str):
    """The board picture as the sheet prints it: with what the mechanisms draw on it."""
    edition = edition_ir(name)
    return picture(edition.board, board_marks(edition))


# --- projection -----------------------------------------------------------------------------


def test_projection_keeps_north_up_east_right_and_fits_the_box() -> None:
    places = {
        "Paris": (48.86, 2.35),
        "Berlin": (52.52, 13.41),
        "Roma": (41.90, 12.50),
        "Lisboa": (38.73, -9.15),
    }
    xy = project(places, FRAME)
    assert xy["Berlin"][1] < xy["Paris"][1] < xy["Roma"][1] < xy["Lisboa"][1]  # north is up
    assert xy["Lisboa"][0] < xy["Paris"][0] < xy["Roma"][0] < xy["Berlin"][0]  # east is right
    for x, y in xy.values():
        assert FRAME.left - 1e-9 <= x <= FRAME.right + 1e-9 and FRAME.top - 1e-9 <= y <= FRAME.bottom + 1e-9
    xs, ys = [x for x, _ in xy.values()], [y for _, y in xy.values()]
    # As large as fits: one axis spans the whole box, and the board is centred on the other.
    assert max(xs) - min(xs) == pytest.approx(FRAME.width) or max(ys) - min(ys) == pytest.approx(FRAME.height)
    assert (min(xs) + max(xs)) / 2 == pytest.approx(FRAME.width / 2)
    assert (min(ys) + max(ys)) / 2 == pytest.approx(FRAME.height / 2)


def test_projection_has_one_scale_true_east_west_at_the_middle_latitude() -> None:
    # Two degrees of longitude at 60° N are as long as one degree of latitude (cos 60° = 1/2).
    xy = project({"a": (59.0, 10.0), "b": (61.0, 10.0), "c": (60.0, 12.0), "d": (60.0, 8.0)}, FRAME)
    north_south = abs(xy["a"][1] - xy["b"][1])
    east_west = abs(xy["c"][0] - xy["d"][0])
    assert east_west == pytest.approx(north_south * 2 * 0.5)


def test_projection_of_one_place_or_none() -> None:
    assert project({}, FRAME) == {}
    assert project({"Solo": (10.0, 10.0)}, FRAME) == {"Solo": (500.0, 340.0)}


# --- label layout ---------------------------------------------------------------------------


def test_candidates_start_beside_the_city_and_never_cover_its_dot() -> None:
    label = Label(key="Zug", x=100.0, y=100.0, clearance=4.0, width=30.0, height=12.0)
    boxes = candidates(label)
    assert boxes[0].left == pytest.approx(106.0) and boxes[0].top == pytest.approx(94.0)  # east, centred
    assert boxes[1].right == pytest.approx(94.0)  # then west
    dot = Dot(x=100.0, y=100.0, radius=4.0)
    assert all(not (box.left < dot.x < box.right and box.top < dot.y < box.bottom) for box in boxes)


def test_clipped_length_counts_the_route_under_a_label() -> None:
    box = Box(left=0.0, top=0.0, right=10.0, bottom=10.0)
    across = Segment(x1=-5.0, y1=5.0, x2=15.0, y2=5.0, half_width=0.0)
    assert clipped_length(across, box) == pytest.approx(10.0)
    beside = Segment(x1=-5.0, y1=20.0, x2=15.0, y2=20.0, half_width=3.0)
    assert clipped_length(beside, box) == 0.0
    assert clipped_length(Segment(x1=-5.0, y1=12.0, x2=15.0, y2=12.0, half_width=3.0), box) > 0


def test_crowded_labels_are_spread_without_overlap() -> None:
    # Nine cities in a tight grid: every label must find its own place.
    labels = [
        Label(key=f"Ville {i}{j}", x=100.0 + 22 * i, y=100.0 + 16 * j, clearance=3.0, width=44.0, height=12.0)
        for i in range(3)
        for j in range(3)
    ]
    dots = [Dot(x=label.x, y=label.y, radius=4.0) for label in labels]
    boxes = place_labels(labels, [], dots, FRAME)
    assert overlapping_pairs(boxes) == []
    for label in labels:
        box = boxes[label.key]
        assert all(not (box.left < dot.x < box.right and box.top < dot.y < box.bottom) for dot in dots), (
            label.key
        )


def test_a_label_moves_off_a_route_when_it_can() -> None:
    label = Label(key="Bern", x=100.0, y=100.0, clearance=4.0, width=30.0, height=12.0)
    east = Segment(x1=100.0, y1=100.0, x2=200.0, y2=100.0, half_width=3.0)
    box = place_labels([label], [east], [], FRAME)["Bern"]
    assert clipped_length(east, box) == 0.0


def drawn_boxes(drawn) -> dict[str, Box]:
    """The box of each name as drawn: its baseline and font size, its forced width."""
    boxes = {}
    for text in drawn.texts:
        size = float(text.size)
        top = float(text.y) - 0.95 * size
        boxes[text.text] = Box(
            left=float(text.x),
            top=top,
            right=float(text.x) + float(text.width),
            bottom=top + LINE_HEIGHT * size,
        )
    return boxes


def test_two_names_on_one_line_keep_an_em_apart() -> None:
    # Two cities on one route, the first with routes to the west too: both names above and to
    # the east would run into one line, « Little Rock Atlanta ».
    labels = [
        Label(key="Little Rock", x=100.0, y=100.0, clearance=4.5, width=64.9, height=14.4),
        Label(key="Atlanta", x=172.0, y=100.0, clearance=4.5, width=44.2, height=14.4),
    ]
    routes = [
        Segment(x1=0.0, y1=100.0, x2=300.0, y2=100.0, half_width=3.25),
        Segment(x1=100.0, y1=100.0, x2=30.0, y2=60.0, half_width=3.25),
        Segment(x1=100.0, y1=100.0, x2=30.0, y2=140.0, half_width=3.25),
    ]
    dots = [Dot(x=label.x, y=label.y, radius=5.5) for label in labels]
    boxes = place_labels(labels, routes, dots, FRAME)
    a, b = boxes["Little Rock"], boxes["Atlanta"]
    shares_a_line = a.top < b.bottom and b.top < a.bottom
    assert not shares_a_line or max(b.left - a.right, a.left - b.right) >= 12.0


def test_a_leader_is_not_drawn_across_another_name() -> None:
    label = Label(key="Bern", x=100.0, y=100.0, clearance=4.0, width=30.0, height=12.0)
    near = Box(left=90.0, top=110.0, right=140.0, bottom=124.0)
    assert leader(label, Box(left=106.0, top=94.0, right=136.0, bottom=106.0)) is None
    far = leader(label, Box(left=100.0, top=130.0, right=130.0, bottom=142.0))
    assert far is not None and clipped_length(far, near) > 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_two_labels_overlap_on_a_shipped_board(edition: str) -> None:
    """Every name keeps clear of every other: never overlapping, and two on one line at least an
    em apart (closer, « Little Rock » and « Atlanta » read as one name)."""
    drawn = printed(edition)
    if drawn is None:
        return
    boxes = drawn_boxes(drawn)
    assert overlapping_pairs(boxes) == []
    keys = sorted(boxes)
    too_close = []
    for index, a in enumerate(keys):
        for b in keys[index + 1 :]:
            one, other = boxes[a], boxes[b]
            if one.top < other.bottom and other.top < one.bottom:
                gap = max(other.left - one.right, one.left - other.right)
                if gap < FONT_SIZE:
                    too_close.append((a, b, round(gap, 1)))
    assert too_close == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_leader_is_drawn_across_a_name(edition: str) -> None:
    drawn = printed(edition)
    if drawn is None:
        return
    crossed = []
    for x1, y1, x2, y2 in drawn.leaders:
        line = Segment(x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), half_width=0.3)
        crossed += [name for name, box in drawn_boxes(drawn).items() if clipped_length(line, box) > 0.5]
    assert crossed == []


# Names a route still runs under after the layout, by board: a dense corner leaves no free
# place. Each is readable on its halo; the list only shrinks.
NAMES_UNDER_ROUTES = {"usa-2025": {"Oklahoma City"}}


@pytest.mark.parametrize("edition", ["usa-2025", "europe", "switzerland", "asia-equipes"])
def test_labels_keep_off_the_routes(edition: str) -> None:
    """Measured on the drawn spaces themselves, each from one end to the other: a name that
    any route runs under (more than one drawing unit of it) is one the layout could not free."""
    drawn = printed(edition)
    spaces = []
    for space in drawn.spaces:
        c = [tuple(map(float, point.split(","))) for point in space.points.split()]
        start = ((c[0][0] + c[3][0]) / 2, (c[0][1] + c[3][1]) / 2)
        end = ((c[1][0] + c[2][0]) / 2, (c[1][1] + c[2][1]) / 2)
        spaces.append(Segment(x1=start[0], y1=start[1], x2=end[0], y2=end[1], half_width=SPACE_WIDTH / 2))
    crossed = set()
    for name, box in drawn_boxes(drawn).items():
        if sum(clipped_length(space, box) for space in spaces) >= 1.0:
            crossed.add(name)
    assert crossed == NAMES_UNDER_ROUTES.get(edition, set())
    assert {name for name, _ in drawn.under_routes} == crossed


def test_every_name_is_drawn_on_a_halo() -> None:
    svg = (Path(__file__).resolve().parent.parent / "generated" / "europe" / "plateau.svg").read_text(
        encoding="utf-8"
    )
    labels = svg.split('<g class="labels"')[1].split(">")[0]
    assert 'paint-order="stroke"' in labels and 'stroke="#fbf7ec"' in labels and 'stroke-width="3"' in labels


def test_text_width_grows_with_the_text() -> None:
    assert text_width("Wien", 12.0) < text_width("Constantinople", 12.0)
    assert text_width("Zürich", 12.0) == text_width("Zurich", 12.0)  # accents take the base letter's width


# --- the SVG ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compiled():
    """A shipped edition compiled, when a test first asks for it."""
    editions = loader()
    return functools.cache(lambda name: compile_edition(editions.path_of(name), editions))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_city_is_text_in_the_svg(compiled, edition: str) -> None:
    result = compiled(edition)
    root = ElementTree.fromstring(result.board_svg)
    texts = [element.text for element in root.iter(f"{SVG}text") if "city" in element.get("class", "")]
    assert sorted(texts) == sorted(result.edition.board.cities)
    countries = [element.text for element in root.iter(f"{SVG}text") if element.get("class") == "country"]
    assert sorted(countries) == sorted(country.name for country in result.edition.board.countries)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_space_is_drawn_in_its_colour(compiled, edition: str) -> None:
    result = compiled(edition)
    root = ElementTree.fromstring(result.board_svg)
    spaces = [p for p in root.iter(f"{SVG}polygon") if p.get("data-route")]
    assert len(spaces) == sum(route.length for route in result.edition.board.routes)
    tunnels = {p.get("data-route") for p in spaces if p.get("stroke-dasharray")}
    assert tunnels == {route.id for route in result.edition.board.routes if route.tunnel}
    locomotives = list(root.iter(f"{SVG}use"))
    assert len(locomotives) == sum(route.ferry for route in result.edition.board.routes)
    arrows = [p for p in root.iter(f"{SVG}polygon") if p.get("data-arrow")]
    assert len(arrows) == sum(country.arrows for country in result.edition.board.countries)


def test_double_routes_lie_side_by_side(compiled) -> None:
    result = compiled("usa-2025")
    root = ElementTree.fromstring(result.board_svg)
    first = {}
    for polygon in root.iter(f"{SVG}polygon"):
        route = polygon.get("data-route")
        if route and route not in first:
            first[route] = polygon.get("points")
    for a, b in [("new-york-washington-orange", "new-york-washington-black")]:
        assert first[a] != first[b]


def test_the_svg_escapes_what_the_spec_says(tmp_path) -> None:
    source = (BROKEN / "tiny.aventuriers").read_text(encoding="utf-8")
    source = source.replace("edition tiny", "edition hostile").replace(
        '"Atlanta"', '"<script>alert(1)</script>"'
    )
    for index, city in enumerate(("<script>alert(1)</script>", "Boston", "Chicago", "Denver")):
        source = source.replace(
            f'  city "{city}"\n', f'  city "{city}" at: {40 + index}.0, {-80 - index * 3}.5\n'
        )
    spec = tmp_path / "hostile.aventuriers"
    spec.write_text(source, encoding="utf-8")
    result = compile_edition(spec, loader())
    assert "<script>" not in result.board_svg and "&lt;script&gt;" in result.board_svg
    ElementTree.fromstring(result.board_svg)  # still well-formed XML
    html = result.document()
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_a_board_without_positions_builds_without_a_picture() -> None:
    result = compile_edition(BROKEN / "tiny.aventuriers", loader())
    assert result.board_svg is None
    assert not any(path.endswith("plateau.svg") for path in result.files)
    assert "Le dessin du plateau manque" in result.document()


# --- the printable HTML -----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_html_is_self_contained(compiled, edition: str) -> None:
    html = compiled(edition).document()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert "@import" not in html and "url(" not in html
    assert html.count("<svg") == 1
    assert "@page plateau" in html and "size: A4 landscape" in html


def test_the_html_lists_every_ticket_and_a_score_row_for_each_bonus(compiled) -> None:
    result = compiled("europe")
    html = result.document()
    assert "Tickets ordinaires (40)" in html and "Tickets longs (6)" in html
    assert 'Lisboa – Danzig</td><td class="points">20' in html
    assert "«\u00a0Chemin le plus long\u00a0» (+10)" in html
    assert "Gares non utilisées (+4 chacune)" in html
    assert html.count("<th>Joueur ") == result.edition.players.max


def test_the_html_of_team_play_scores_teams(compiled) -> None:
    html = compiled("asia-equipes").document()
    assert "<th>Équipe 3</th>" in html and "<th>Joueur" not in html


def test_the_html_of_tickets_to_countries_lists_their_targets(compiled) -> None:
    html = compiled("switzerland").document()
    assert "D’un pays vers les pays voisins (8)" in html


def test_the_rules_are_the_markdown_sheet(compiled) -> None:
    result = compiled("usa-2025")
    html = result.document()
    assert "<h2>Mise en place</h2>" in html and "<table>" in html
    assert html.count("<h2>") == result.sheet.count("\n## ") + 3  # the board, the tickets, the score sheet


def test_emit_document_is_deterministic(compiled) -> None:
    result = compiled("switzerland")
    assert emit_document(result.edition, result.sheet, result.board_svg) == result.document()


# --- the command ------------------------------------------------------------------------------


def test_sheet_formats(tmp_path, capsys) -> None:
    assert main(["sheet", "usa-2025"]) == 0
    assert capsys.readouterr().out.startswith("# Les Aventuriers du Rail")
    assert main(["sheet", "usa-2025", "--format", "html"]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")
    target = tmp_path / "fiche.html"
    assert main(["sheet", "usa-2025", "--format", "html", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_pdf_without_chromium_is_a_clear_error(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("AVENTURIERS_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no browser on it
    target = tmp_path / "europe.pdf"
    assert main(["sheet", "europe", "--format", "pdf", "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert "PDF impossible : Chromium est introuvable" in err and "apt-get install chromium" in err
    assert "Traceback" not in err and not target.exists()


def test_an_unwritable_output_is_a_clear_error(tmp_path, capsys) -> None:
    target = tmp_path / "no-such-folder" / "fiche.html"
    assert main(["sheet", "usa-2025", "--format", "html", "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert "no-such-folder" in err and "Traceback" not in err


# --- a variant's cities -----------------------------------------------------------------------


def _usa_cities() -> str:
    base = (Path(__file__).resolve().parent.parent / "editions" / "usa-base.aventuriers").read_text(
        encoding="utf-8"
    )
    return "".join(line + "\n" for line in base.splitlines() if line.startswith("  city "))


def test_a_variant_that_adds_a_city_places_it_like_the_others(tmp_path) -> None:
    spec = tmp_path / "usa-mexique.aventuriers"
    spec.write_text(
        'edition usa-mexique\nextends usa-2025\ntitle "USA et Mexico"\nboard {\n  expect cities: 37\n'
        + _usa_cities()
        + '  city "Ciudad de México" at: 19.43, -99.13\n}\n',
        encoding="utf-8",
    )
    result = compile_edition(spec, loader())
    root = ElementTree.fromstring(result.board_svg)
    names = [element.text for element in root.iter(f"{SVG}text")]
    assert "Ciudad de México" in names and len(names) == 37


def test_a_variant_city_without_a_position_is_refused(tmp_path, capsys) -> None:
    spec = tmp_path / "usa-mexique.aventuriers"
    spec.write_text(
        "edition usa-mexique\nextends usa-2025\nboard {\n  expect cities: 37\n"
        + _usa_cities()
        + '  city "Ciudad de México"\n}\n',
        encoding="utf-8",
    )
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "E318: 1 lieu du plateau sans position : « Ciudad de México »" in err


def test_tickets_with_targets_have_no_empty_points_column(compiled) -> None:
    html = compiled("switzerland").document()
    tickets = html.split('id="tickets"')[1].split("</section>")[0]
    tables = tickets.split('<table class="tickets">')[1:]
    with_targets = [table for table in tables if "→" in table]
    assert with_targets and all('class="points"' not in table for table in with_targets)
    assert all("Trajet et points de chaque destination" in table for table in with_targets)
    assert any('class="points"' in table for table in tables)  # city-to-city tickets keep theirs


def test_the_score_sheet_has_a_row_for_names(compiled) -> None:
    score = compiled("europe").document().split('id="score"')[1]
    assert '<tr class="names"><th>Nom</th>' in score


def test_the_ticket_count_gap_is_said_in_one_place(compiled) -> None:
    result = compiled("usa-2025")
    assert (
        "- 33 tickets Destination, dont 30 en jeu ici (voir «\u00a0Quand la règle ne dit rien\u00a0»)\u202f;"
        in result.sheet
    )
    assert "La notice compte 33 tickets, mais seuls 30 sont connus avec certitude" in result.sheet
    assert "La règle en compte 33\u00a0: voir «\u00a0Quand la règle ne dit rien\u00a0»." in result.document()
