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
from ..mechanisms.marks import BoardMark, MarkKind
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
# A label laid on a route (a company's initials): its font size, its box's padding and height.
BADGE_FONT = 6.0
BADGE_PADDING = 1.6
BADGE_HEIGHT = 7.6
# Its colours, one per label in the order the marks give them (dark, for white letters).
BADGE_COLORS = (
    "#7b2d26",
    "#1f4e79",
    "#2e6b30",
    "#6b3f8a",
    "#8a5a00",
    "#00666b",
    "#9c2f6f",
    "#3d3d8f",
    "#4d4d4d",
)
# A number beside a place (its tokens at set-up): a disc this wide, this far from the dot.
PLACE_BADGE_RADIUS = 5.0
PLACE_BADGE_FONT = 6.5
# A region: the area within this distance of its cities, tinted; neighbours differ in tint.
REGION_REACH = 16.0
REGION_TINTS = ("#f2d0b8", "#c9e2c0", "#c9d5f0", "#ecc8e0", "#efe6a6", "#c8eaea")

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
class Area:
    """A region's tinted area: a polygon drawn with a wide round stroke, or a disc."""

    points: str  # the polygon's corners, or "" for a disc at (x, y)
    x: str
    y: str
    fill: str
    key: str  # the region's name


@dataclass(frozen=True, slots=True, kw_only=True)
class Badge:
    """A label in a box (``round`` False: a company's initials on a route) or a number in a disc."""

    x: str  # the box's left, or the disc's centre
    y: str  # the box's top, or the disc's centre
    width: str
    height: str
    text: str
    text_x: str
    text_y: str
    text_width: str
    size: str  # the font's
    fill: str
    round: bool
    key: str  # the route or place it marks


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
    regions: tuple[Area, ...] = ()  # tinted areas, drawn under everything
    route_lines: tuple[str, ...] = ()  # dotted lines along special tracks, as SVG path data
    badges: tuple[Badge, ...] = ()  # labels on routes and numbers beside places
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
def picture(board: Board, marks: tuple[BoardMark, ...] = ()) -> Picture | None:
    """Every shape of the board picture; None when the spec places no city. ``marks``: what
    the mechanisms draw besides (``mechanisms.marks``): crosses on a route's spaces after its
    ferry's locomotives, labels on routes, dotted special tracks, numbers beside places, regions.

    Cached: the editions that share a board (the five USA ones) lay it out once per build.
    """
    if not board.places:
        return None
    xy = project({p.name: (p.latitude, p.longitude) for p in board.places}, DRAWING)
    arrows = _arrow_points(board, xy)
    offsets = _offsets(board)
    spaces, locomotives, segments, crosses = [], [], [], []
    crossed: dict[str, int] = {}
    for mark in marks:
        if mark.kind is MarkKind.CROSSES:
            for target in mark.targets:
                crossed[target] = crossed.get(target, 0) + mark.count
    tracks = {}
    for route in board.routes:
        start = xy[route.a]
        end = arrows[route.endpoint][:2] if route.endpoint else xy[route.b]
        track = _track(route, start, end, offsets.get(route.id, 0.0))
        tracks[route.id] = track
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
    countries = _country_anchors(board, arrows)
    for name, (x, y) in countries.items():
        key = f"pays:{name}"
        labels.append(_label(key, x, y, 2.0, COUNTRY_FONT_SIZE))
        kinds[key], sizes[key] = "country", COUNTRY_FONT_SIZE
    dots = [Dot(x=x, y=y, radius=DOT_RADIUS + 1) for city, (x, y) in xy.items() if city in board.cities]
    dots += [Dot(x=x, y=y, radius=ARROW_SIZE) for x, y, _, _ in arrows.values()]
    badges = _route_badges(board, marks, tracks)
    places = {**countries, **{city: xy[city] for city in board.cities if city in xy}}
    place_badges = _place_badges(marks, places)
    badges += place_badges
    # The names keep clear of the numbers beside the places.
    dots += [Dot(x=float(b.x), y=float(b.y), radius=PLACE_BADGE_RADIUS + 0.5) for b in place_badges]
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
        regions=_regions(board, marks, xy),
        route_lines=tuple(
            _line_path(tracks[target])
            for mark in marks
            if mark.kind is MarkKind.ROUTE_LINE
            for target in mark.targets
            if target in tracks
        ),
        badges=tuple(badges),
    )


def _route_badges(board: Board, marks: tuple[BoardMark, ...], tracks: dict[str, list]) -> list[Badge]:
    """The labels laid on routes, each label's colour its own. The labels of one route are a
    row along its middle; the tracks of a double route share one row, between them, of the
    labels any of them bears."""
    colors: dict[str, str] = {}
    labels_on: dict[str, list[str]] = {}
    for mark in marks:
        if mark.kind is MarkKind.ROUTE_BADGE:
            colors.setdefault(mark.label, BADGE_COLORS[len(colors) % len(BADGE_COLORS)])
            for target in mark.targets:
                labels_on.setdefault(target, []).append(mark.label)
    grouped = {track.id: tuple(t.id for t in group) for group in board.track_groups() for track in group}
    rows: dict[tuple[str, ...], list[str]] = {}
    for route in board.routes:
        if route.id in labels_on and route.id in tracks:
            row = rows.setdefault(grouped.get(route.id, (route.id,)), [])
            row += [label for label in labels_on[route.id] if label not in row]
    badges = []
    for group, labels in rows.items():
        lines = [_drawn_line(tracks[route]) for route in group if route in tracks]
        x1, y1 = sum(line.x1 for line in lines) / len(lines), sum(line.y1 for line in lines) / len(lines)
        x2, y2 = sum(line.x2 for line in lines) / len(lines), sum(line.y2 for line in lines) / len(lines)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        widths = [text_width(label, BADGE_FONT) + 2 * BADGE_PADDING for label in labels]
        along = -(sum(widths) + (len(widths) - 1)) / 2  # the row centred on the route's middle
        for label, width in zip(labels, widths, strict=True):
            centre = (length / 2 + along + width / 2) / length
            x, y = x1 + (x2 - x1) * centre, y1 + (y2 - y1) * centre
            along += width + 1
            badges.append(
                Badge(
                    x=_n(x - width / 2),
                    y=_n(y - BADGE_HEIGHT / 2),
                    width=_n(width),
                    height=_n(BADGE_HEIGHT),
                    text=label,
                    text_x=_n(x - width / 2 + BADGE_PADDING),
                    text_y=_n(y + BADGE_FONT * 0.36),
                    text_width=_n(width - 2 * BADGE_PADDING),
                    size=_n(BADGE_FONT),
                    fill=colors[label],
                    round=False,
                    key=group[0],
                )
            )
    return badges


def _country_anchors(board: Board, arrows: dict) -> dict[str, tuple[float, float]]:
    """Where a country's name and marks go: beyond the middle of its arrows."""
    anchors = {}
    for country in board.countries:
        own = [
            arrows[f"{country.name}#{k}"]
            for k in range(1, country.arrows + 1)
            if f"{country.name}#{k}" in arrows
        ]
        if own:
            anchors[country.name] = (
                sum(a[0] + a[2] * ARROW_SIZE * 2 for a in own) / len(own),
                sum(a[1] + a[3] * ARROW_SIZE * 2 for a in own) / len(own),
            )
    return anchors


def _place_badges(marks: tuple[BoardMark, ...], places: dict[str, tuple[float, float]]) -> list[Badge]:
    """The numbers beside places, up and to the right of each."""
    badges = []
    reach = (DOT_RADIUS + PLACE_BADGE_RADIUS + 0.8) / math.sqrt(2)
    for mark in marks:
        if mark.kind is not MarkKind.PLACE_BADGE:
            continue
        width = text_width(mark.label, PLACE_BADGE_FONT)
        for target in mark.targets:
            if target not in places:
                continue
            x, y = places[target][0] + reach, places[target][1] - reach
            badges.append(
                Badge(
                    x=_n(x),
                    y=_n(y),
                    width=_n(PLACE_BADGE_RADIUS),
                    height=_n(PLACE_BADGE_RADIUS),
                    text=mark.label,
                    text_x=_n(x - width / 2),
                    text_y=_n(y + PLACE_BADGE_FONT * 0.36),
                    text_width=_n(width),
                    size=_n(PLACE_BADGE_FONT),
                    fill="#1b1b1b",
                    round=True,
                    key=target,
                )
            )
    return badges


def _regions(
    board: Board, marks: tuple[BoardMark, ...], xy: dict[str, tuple[float, float]]
) -> tuple[Area, ...]:
    """Each region's area, tinted so that two regions a route joins never share a tint (the
    first tint no neighbour drawn before it has, in the marks' order)."""
    regions = [mark for mark in marks if mark.kind is MarkKind.REGION]
    region_of = {city: index for index, mark in enumerate(regions) for city in mark.targets}
    neighbours: dict[int, set[int]] = {index: set() for index in range(len(regions))}
    for route in board.routes:
        a, b = region_of.get(route.a), region_of.get(route.b)
        if a is not None and b is not None and a != b:
            neighbours[a].add(b)
            neighbours[b].add(a)
    tints: dict[int, int] = {}
    areas = []
    for index, mark in enumerate(regions):
        taken = {tints[other] for other in neighbours[index] if other in tints}
        tints[index] = next(tint for tint in range(len(REGION_TINTS) + len(taken)) if tint not in taken)
        fill = REGION_TINTS[tints[index] % len(REGION_TINTS)]
        points = [xy[city] for city in mark.targets if city in xy]
        if not points:
            continue
        hull = _hull(points)
        if len(hull) == 1:
            areas.append(Area(points="", x=_n(hull[0][0]), y=_n(hull[0][1]), fill=fill, key=mark.label))
        else:
            areas.append(Area(points=_polygon(hull), x="0", y="0", fill=fill, key=mark.label))
    return tuple(areas)


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull of some points, counter-clockwise (Andrew's monotone chain)."""
    ordered = sorted(set(points))
    if len(ordered) <= 2:
        return ordered

    def turn(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for point in ordered:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], point) <= 0:
            lower.pop()
        lower.append(point)
    for point in reversed(ordered):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], point) <= 0:
            upper.pop()
        upper.append(point)
    return lower[:-1] + upper[:-1]


# How each kind of mark looks, in French, before its meaning in the board's legend.
_SEEN_AS = {
    MarkKind.CROSSES: "croix sur une case",
    MarkKind.ROUTE_BADGE: "« {label} » sur une route",
    MarkKind.ROUTE_LINE: "ligne pointillée au milieu d’une route",
    MarkKind.PLACE_BADGE: "nombre dans un disque près d’un lieu",
    MarkKind.REGION: "zone teintée",
}


def legend(marks: tuple[BoardMark, ...]) -> tuple[str, ...]:
    """The legend of the marks, as the board draws them: « croix sur une case : une montagne »,
    one line for marks that look and mean the same, in the marks' order."""
    lines = (
        f"{_SEEN_AS[mark.kind].format(label=mark.label)} : {mark.meaning}" for mark in marks if mark.meaning
    )
    return tuple(dict.fromkeys(lines))


def _kept(badge: Badge, counts: Mapping[str, int]) -> bool:
    return not badge.round or counts.get(badge.key, 0) > 0


def _recounted(badge: Badge, counts: Mapping[str, int]) -> Badge:
    """A place's number as it is now, centred where its mark's was."""
    if not badge.round:
        return badge
    text = str(counts[badge.key])
    width = text_width(text, float(badge.size))
    return replace(badge, text=text, text_x=_n(float(badge.x) - width / 2), text_width=_n(width))


def _line_path(track: list) -> str:
    line = _drawn_line(track)
    return f"M{_n(line.x1)} {_n(line.y1)}L{_n(line.x2)} {_n(line.y2)}"


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


def emit_board(board: Board, title: str, marks: tuple[BoardMark, ...] = ()) -> str | None:
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
    counts: Mapping[str, int] | None = None,
) -> str:
    """The SVG of a laid-out board; for a game in progress, ``claimed`` colours the
    spaces of each route taken (route id → colour), ``stations`` marks cities (city →
    colour), ``selected`` outlines one route and ``counts`` writes the number beside a place
    as it is now (the tokens left on it; none at 0) in place of its mark's."""
    claimed = claimed or {}
    if counts is not None:
        drawn = replace(
            drawn, badges=tuple(_recounted(badge, counts) for badge in drawn.badges if _kept(badge, counts))
        )
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
            region_reach=_n(REGION_REACH * 2),
            region_radius=_n(REGION_REACH),
        )
    )
