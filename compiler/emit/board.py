"""Stage 6d: the board picture (``plateau.svg``), drawn from the IR.

The cities' places are projected (``projection``), the routes laid as rows of
spaces between them, and the names placed where they cover nothing
(``label_layout``). This module computes every shape; the template only
prints them. Numbers are written with one decimal, shapes in spec order: the
picture is byte-identical on every build.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache

import jinja2

from ..ir import Board, Route
from . import template_environment
from .label_layout import Dot, Label, Segment, clipped_length, leader, place_labels
from .projection import Box, project

# The board is projected into this box; names may reach a little beyond it.
DRAWING = Box(left=0.0, top=0.0, right=1000.0, bottom=680.0)
MARGIN = 8.0
FONT_SIZE = 12.0
COUNTRY_FONT_SIZE = 13.0
DOT_RADIUS = 4.5
SPACE_WIDTH = 6.5
SPACE_GAP = 1.6
# The tracks of a double route lie this far on either side of the line between the cities;
# a triple route's middle track lies on it, the others twice as far.
DOUBLE_OFFSET = SPACE_WIDTH / 2 + 0.9
# A border arrow drawn at its crossing, but never closer to its city than this.
ARROW_MIN_DISTANCE = 34.0
ARROW_SIZE = 6.0
# The box a line of text takes, in ems: a little above the font's ascent plus descent.
LINE_HEIGHT = 1.2
BASELINE = 0.95

COLORS = {
    "red": "#d7262b",
    "blue": "#2466c2",
    "green": "#2f9a44",
    "yellow": "#f3cd1f",
    "orange": "#f08a1c",
    "black": "#262626",
    "white": "#f7f7f2",
    "pink": "#e78ac3",
    "gray": "#a3a3a3",
}
COLOR_FALLBACK = "#a3a3a3"
TUNNEL_OUTLINE = ("#000", "1.2")
# On the playtest page: a route taken is drawn as its owner's train (each space filled with the
# owner's colour, a bold dark outline and a white window), the route chosen outlined.
CLAIMED_OUTLINE = ("#111", "2.2")
SELECTED_OUTLINE = ("#000", "2.4")
TRAIN_WINDOW = 1.7  # the radius of the white window of each wagon
CROSS_ARM = 2.2  # half the width of the cross on a marked space (a mountain)

# Widths of DejaVu Sans glyphs in ems, by family of letters (accents ignored); the
# text is drawn at exactly the width computed here (SVG ``textLength``), so a
# browser's boxes are the layout's whatever font it has.
_WIDTHS = {
    **dict.fromkeys("il.,:;'!|", 0.30),
    **dict.fromkeys("jIJ", 0.33),
    **dict.fromkeys(" ", 0.32),
    **dict.fromkeys("frt()-–", 0.40),
    **dict.fromkeys("szc", 0.53),
    **dict.fromkeys("mw", 0.98),
    **dict.fromkeys("MW", 0.88),
    **dict.fromkeys("LF", 0.58),
    **dict.fromkeys("ABCDGHKNOQRUVXY", 0.72),
}


def text_width(text: str, size: float) -> float:
    """The width ``text`` is drawn at, in drawing units."""
    total = 0.0
    for char in text:
        base = unicodedata.normalize("NFD", char)[0]
        if base in _WIDTHS:
            total += _WIDTHS[base]
        else:
            total += 0.66 if base.isupper() else 0.62
    return round(total * size, 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class Shape:
    """One space of a route, a border arrow: a closed polygon."""

    points: str
    fill: str
    tunnel: bool = False
    route: str = ""
    outline: tuple[str, str] | None = None  # stroke colour and width, when not the default
    centre: tuple[str, str] = ("0", "0")  # where a claimed space's window is drawn


@dataclass(frozen=True, slots=True, kw_only=True)
class Text:
    x: str
    y: str
    width: str
    text: str
    kind: str  # "city" or "country"
    size: str
    key: str  # the city (or country) named


@dataclass(frozen=True, slots=True, kw_only=True)
class Picture:
    left: str
    top: str
    width: str
    height: str
    spaces: tuple[Shape, ...]
    locomotives: tuple[tuple[str, str], ...]
    arrows: tuple[Shape, ...]
    dots: tuple[tuple[str, str, str], ...]  # (city, x, y)
    leaders: tuple[tuple[str, str, str, str], ...]
    texts: tuple[Text, ...]
    # Names with a route drawn under them, and how much of it (units of length): a halo keeps
    # them readable, and the layout places as few as it can there.
    under_routes: tuple[tuple[str, float], ...] = ()
    # A cross on each space a mechanism marks (a mountain), as SVG path data.
    crosses: tuple[str, ...] = ()
    radius: str = f"{DOT_RADIUS:.1f}"

    @property
    def view_box(self) -> str:
        return f"{self.left} {self.top} {self.width} {self.height}"


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _polygon(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _arrow_points(
    board: Board, xy: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float, float, float]]:
    """Each placed arrow: where it is drawn and the unit direction it points (away from its city)."""
    drawn = {}
    for route in board.routes:
        if route.endpoint is None or route.endpoint in drawn or route.endpoint not in xy:
            continue
        (cx, cy), (ax, ay) = xy[route.a], xy[route.endpoint]
        length = math.hypot(ax - cx, ay - cy)
        ux, uy = ((ax - cx) / length, (ay - cy) / length) if length else (0.0, -1.0)
        distance = max(length, ARROW_MIN_DISTANCE)
        drawn[route.endpoint] = (cx + ux * distance, cy + uy * distance, ux, uy)
    return drawn


def _track(route: Route, start: tuple[float, float], end: tuple[float, float], offset: float) -> list:
    """The spaces of one track: (polygon corners, centre) for each."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy, ux
    trim = DOT_RADIUS + 1.5
    usable = max(length - 2 * trim, route.length * 2.0)
    space = max((usable - (route.length - 1) * SPACE_GAP) / route.length, 1.0)
    first = (length - usable) / 2
    spaces = []
    for index in range(route.length):
        along = first + space / 2 + index * (space + SPACE_GAP)
        cx = x1 + ux * along + nx * offset
        cy = y1 + uy * along + ny * offset
        corners = [
            (
                cx + sx * ux * space / 2 + sy * nx * SPACE_WIDTH / 2,
                cy + sx * uy * space / 2 + sy * ny * SPACE_WIDTH / 2,
            )
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        spaces.append((corners, (cx, cy)))
    return spaces


def _offsets(board: Board) -> dict[str, float]:
    """How far each track lies beside the line between its cities: doubles and triples side by side."""
    offsets = {}
    for tracks in board.track_groups():
        for index, track in enumerate(tracks):
            offsets[track.id] = (index - (len(tracks) - 1) / 2) * 2 * DOUBLE_OFFSET
    return offsets


@cache
def picture(board: Board, marks: tuple[tuple[str, int], ...] = ()) -> Picture | None:
    """Every shape of the board picture; None when the spec places no city. ``marks``: how many
    spaces of a route carry a cross (its mountains), after its ferry's locomotives.

    Cached: the editions that share a board (the five USA ones) lay it out once per build.
    """
    if not board.places:
        return None
    xy = project({p.name: (p.latitude, p.longitude) for p in board.places}, DRAWING)
    arrows = _arrow_points(board, xy)
    offsets = _offsets(board)
    spaces, locomotives, segments, crosses = [], [], [], []
    crossed = dict(marks)
    for route in board.routes:
        start = xy[route.a]
        end = arrows[route.endpoint][:2] if route.endpoint else xy[route.b]
        track = _track(route, start, end, offsets.get(route.id, 0.0))
        fill = COLORS.get(route.color, COLOR_FALLBACK)
        for index, (corners, (cx, cy)) in enumerate(track):
            outline = TUNNEL_OUTLINE if route.tunnel else None
            spaces.append(
                Shape(
                    points=_polygon(corners),
                    fill=fill,
                    tunnel=route.tunnel,
                    route=route.id,
                    outline=outline,
                    centre=(_n(cx), _n(cy)),
                )
            )
            if index < route.ferry:
                locomotives.append((_n(cx - 3.0), _n(cy - 2.5)))
            elif index < route.ferry + crossed.get(route.id, 0):
                arm = CROSS_ARM
                crosses.append(
                    f"M{_n(cx - arm)} {_n(cy - arm)}L{_n(cx + arm)} {_n(cy + arm)}"
                    f"M{_n(cx - arm)} {_n(cy + arm)}L{_n(cx + arm)} {_n(cy - arm)}"
                )
        segments.append(_drawn_line(track))
    arrow_shapes = []
    for name, (x, y, ux, uy) in arrows.items():
        corners = [
            (x + ux * ARROW_SIZE, y + uy * ARROW_SIZE),
            (x - ux * ARROW_SIZE / 2 - uy * ARROW_SIZE, y - uy * ARROW_SIZE / 2 + ux * ARROW_SIZE),
            (x - ux * ARROW_SIZE / 2 + uy * ARROW_SIZE, y - uy * ARROW_SIZE / 2 - ux * ARROW_SIZE),
        ]
        arrow_shapes.append(Shape(points=_polygon(corners), fill="#5b5b5b", route=name))
    labels, kinds, sizes = [], {}, {}
    for city in board.cities:
        if city in xy:
            x, y = xy[city]
            labels.append(_label(city, x, y, DOT_RADIUS, FONT_SIZE))
            kinds[city], sizes[city] = "city", FONT_SIZE
    for country in board.countries:
        own = [
            arrows[f"{country.name}#{k}"]
            for k in range(1, country.arrows + 1)
            if f"{country.name}#{k}" in arrows
        ]
        if own:
            x = sum(a[0] + a[2] * ARROW_SIZE * 2 for a in own) / len(own)
            y = sum(a[1] + a[3] * ARROW_SIZE * 2 for a in own) / len(own)
            key = f"pays:{country.name}"
            labels.append(_label(key, x, y, 2.0, COUNTRY_FONT_SIZE))
            kinds[key], sizes[key] = "country", COUNTRY_FONT_SIZE
    dots = [Dot(x=x, y=y, radius=DOT_RADIUS + 1) for city, (x, y) in xy.items() if city in board.cities]
    dots += [Dot(x=x, y=y, radius=ARROW_SIZE) for x, y, _, _ in arrows.values()]
    boxes = place_labels(labels, segments, dots, DRAWING)
    under_routes = []
    for label in labels:
        covered = sum(clipped_length(segment, boxes[label.key]) for segment in segments)
        if covered > 1.0:
            under_routes.append((label.key.removeprefix("pays:"), round(covered, 1)))
    texts, leaders = [], []
    for label in labels:
        box = boxes[label.key]
        size = sizes[label.key]
        text = label.key.removeprefix("pays:")
        texts.append(
            Text(
                x=_n(box.left),
                y=_n(box.top + BASELINE * size),
                width=_n(box.width),
                text=text,
                kind=kinds[label.key],
                size=_n(size),
                key=text,
            )
        )
        line = leader(label, box)
        if line is not None:
            leaders.append((_n(line.x1), _n(line.y1), _n(line.x2), _n(line.y2)))
    extent = _extent([*boxes.values()], spaces_xy=[xy[c] for c in board.cities if c in xy], arrows=arrows)
    return Picture(
        left=_n(extent.left),
        top=_n(extent.top),
        width=_n(extent.width),
        height=_n(extent.height),
        spaces=tuple(spaces),
        locomotives=tuple(locomotives),
        arrows=tuple(arrow_shapes),
        dots=tuple((c, _n(xy[c][0]), _n(xy[c][1])) for c in board.cities if c in xy),
        leaders=tuple(leaders),
        texts=tuple(texts),
        under_routes=tuple(under_routes),
        crosses=tuple(crosses),
    )


def _drawn_line(track: list) -> Segment:
    """The whole drawn length of a track, from the outer edge of its first space to that of its
    last (a route of one long space is as long as the others, not a point at its centre)."""
    first, last = track[0][0], track[-1][0]
    ax, ay = (first[0][0] + first[3][0]) / 2, (first[0][1] + first[3][1]) / 2
    bx, by = (last[1][0] + last[2][0]) / 2, (last[1][1] + last[2][1]) / 2
    return Segment(x1=ax, y1=ay, x2=bx, y2=by, half_width=SPACE_WIDTH / 2)


def _label(key: str, x: float, y: float, clearance: float, size: float) -> Label:
    text = key.removeprefix("pays:")
    return Label(
        key=key, x=x, y=y, clearance=clearance, width=text_width(text, size), height=LINE_HEIGHT * size
    )


def _extent(boxes: list[Box], spaces_xy: list[tuple[float, float]], arrows: dict) -> Box:
    xs = [x for x, _ in spaces_xy] + [a[0] for a in arrows.values()]
    ys = [y for _, y in spaces_xy] + [a[1] for a in arrows.values()]
    reach = DOT_RADIUS + ARROW_SIZE + MARGIN
    return Box(
        left=min([b.left for b in boxes] + [x - reach for x in xs]) - MARGIN,
        top=min([b.top for b in boxes] + [y - reach for y in ys]) - MARGIN,
        right=max([b.right for b in boxes] + [x + reach for x in xs]) + MARGIN,
        bottom=max([b.bottom for b in boxes] + [y + reach for y in ys]) + MARGIN,
    )


@cache
def markup_environment() -> jinja2.Environment:
    """Templates of SVG and HTML: every printed value escaped."""
    return template_environment(autoescape=True)


def emit_board(board: Board, title: str, marks: tuple[tuple[str, int], ...] = ()) -> str | None:
    """``plateau.svg``: the board picture; None when the spec places no city."""
    drawn = picture(board, marks)
    return None if drawn is None else render_board(drawn, title)


def render_board(
    drawn: Picture,
    title: str,
    *,
    claimed: Mapping[str, str] | None = None,
    stations: Mapping[str, str] | None = None,
    selected: str | None = None,
    marked: Iterable[str] = (),
) -> str:
    """The SVG of a laid-out board; for a game in progress, ``claimed`` colours the
    spaces of each route taken (route id → colour), ``stations`` marks cities (city →
    colour) and ``selected`` outlines one route."""
    claimed = claimed or {}
    spaces = tuple(
        replace(space, fill=claimed[space.route], outline=CLAIMED_OUTLINE, tunnel=False)
        if space.route in claimed
        else space
        for space in drawn.spaces
    )
    if selected:
        spaces = tuple(replace(s, outline=SELECTED_OUTLINE) if s.route == selected else s for s in spaces)
    windows = tuple((*space.centre, space.route) for space in drawn.spaces if space.route in claimed)
    marks = tuple((x, y, stations[city]) for city, x, y in drawn.dots if stations and city in stations)
    wanted = set(marked)
    rings = tuple((x, y, city) for city, x, y in drawn.dots if city in wanted)
    return (
        markup_environment()
        .get_template("plateau.svg.j2")
        .render(
            picture=replace(drawn, spaces=spaces),
            title=title,
            stations=marks,
            windows=windows,
            window_radius=f"{TRAIN_WINDOW:.1f}",
            rings=rings,
        )
    )
