"""Label placement for the board picture: city names that never overlap.

Each label may sit in one of a fixed list of places around its city (east,
west, the four diagonals, north, south; close first, then farther out). A
place costs what it covers: another label (forbidden in practice), another
city's dot, the spaces of the routes, the area outside the board. The layout
starts greedy, the most crowded cities first, then moves one label at a time
to its cheapest place given all the others until nothing moves. Everything is
deterministic: fixed candidate order, ties kept by that order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .projection import Box

# Distances from the edge of the city's dot to the label, nearest first.
RINGS = (2.0, 7.0, 14.0, 24.0, 36.0)
# Directions from the city, preferred first: beside it reads best, above and below last;
# then the same places slid along the city's side (by a share of the label's size).
DIRECTIONS = (
    (1, 0, 0.0, 0.0),
    (-1, 0, 0.0, 0.0),
    (1, -1, 0.0, 0.0),
    (1, 1, 0.0, 0.0),
    (-1, -1, 0.0, 0.0),
    (-1, 1, 0.0, 0.0),
    (0, -1, 0.0, 0.0),
    (0, 1, 0.0, 0.0),
    (1, 0, 0.0, -0.4),
    (1, 0, 0.0, 0.4),
    (-1, 0, 0.0, -0.4),
    (-1, 0, 0.0, 0.4),
    (0, -1, -0.35, 0.0),
    (0, -1, 0.35, 0.0),
    (0, 1, -0.35, 0.0),
    (0, 1, 0.35, 0.0),
)
DIAGONAL = 0.7071
# Labels keep this much air between them, so that boxes measured by a browser
# (rounded, with the font's own ascent) still do not touch: LABEL_GAP above and below,
# LABEL_SPACE beside. Two names side by side on one line need more than a word space
# between them (0.32 em), or they read as one name (« Little Rock Atlanta »): one em.
LABEL_GAP = 1.5
LABEL_SPACE = 12.0

COST_LABEL = 10_000.0  # any overlap with another label
COST_LEADER = 1_000.0  # a label's leader line drawn across another label
COST_LABEL_AREA = 50.0  # per unit of area overlapped
COST_DOT = 600.0  # covering another city
COST_ROUTE = 30.0  # per unit of route length under the label
COST_OUTSIDE = 0.2  # per unit of area outside the board’s frame (the picture grows to hold it)
COST_RING = 12.0  # per ring away from the city
COST_DIRECTION = 0.5  # per step down the list of directions

MAX_PASSES = 30
# Labels this far from their city get a thin line back to it (its leader).
LEADER_FROM = 12.0
LEADER_HALF_WIDTH = 0.3


@dataclass(frozen=True, slots=True, kw_only=True)
class Label:
    key: str
    x: float
    y: float
    clearance: float  # the radius of the city's dot
    width: float
    height: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Segment:
    """A drawn stretch of route: its centre line and half its width."""

    x1: float
    y1: float
    x2: float
    y2: float
    half_width: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Dot:
    x: float
    y: float
    radius: float


def candidates(label: Label) -> list[Box]:
    """Every place the label may take, in order of preference."""
    boxes = []
    for ring in RINGS:
        distance = label.clearance + ring
        for dx, dy, slide_x, slide_y in DIRECTIONS:
            step = DIAGONAL if dx and dy else 1.0
            x, y = label.x + dx * distance * step, label.y + dy * distance * step
            left = x if dx > 0 else x - label.width if dx < 0 else x - label.width / 2
            top = y if dy > 0 else y - label.height if dy < 0 else y - label.height / 2
            left, top = left + slide_x * label.width, top + slide_y * label.height
            boxes.append(Box(left=left, top=top, right=left + label.width, bottom=top + label.height))
    return boxes


def leader(label: Label, box: Box) -> Segment | None:
    """The line drawn from the edge of the city's dot to the nearest point of its label's
    box, when the label sits far enough from the city to need one."""
    nx = min(max(label.x, box.left), box.right)
    ny = min(max(label.y, box.top), box.bottom)
    distance = ((nx - label.x) ** 2 + (ny - label.y) ** 2) ** 0.5
    if distance - label.clearance < LEADER_FROM:
        return None
    ux, uy = (nx - label.x) / distance, (ny - label.y) / distance
    return Segment(
        x1=label.x + ux * label.clearance,
        y1=label.y + uy * label.clearance,
        x2=nx,
        y2=ny,
        half_width=LEADER_HALF_WIDTH,
    )


def clipped_length(segment: Segment, box: Box) -> float:
    """How much of the segment, widened by its half width, runs inside ``box`` (Liang–Barsky)."""
    dx, dy = segment.x2 - segment.x1, segment.y2 - segment.y1
    return _clipped(segment.x1, segment.y1, dx, dy, (dx * dx + dy * dy) ** 0.5, segment.half_width, box)


def _clipped(x1: float, y1: float, dx: float, dy: float, length: float, half_width: float, box: Box) -> float:
    low, high = 0.0, 1.0
    for p, q in (
        (-dx, x1 - (box.left - half_width)),
        (dx, (box.right + half_width) - x1),
        (-dy, y1 - (box.top - half_width)),
        (dy, (box.bottom + half_width) - y1),
    ):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            if t > low:
                low = t
        elif t < high:
            high = t
        if low > high:
            return 0.0
    return (high - low) * length


def _covered_dots(left: float, top: float, right: float, bottom: float, dots: list[tuple[float, ...]]) -> int:
    """How many of the dots (x, y, radius²) the box reaches into."""
    count = 0
    for x, y, radius_squared in dots:
        nearest_x = min(max(x, left), right)
        nearest_y = min(max(y, top), bottom)
        if (nearest_x - x) ** 2 + (nearest_y - y) ** 2 < radius_squared:
            count += 1
    return count


def _outside(box: Box, frame: Box) -> float:
    inside = box.overlap_area(frame)
    return box.width * box.height - inside


def _stretch(s: Segment) -> tuple[float, ...]:
    """What `_clipped` needs of a segment, then the extent of its widened stretch (east, west,
    south, north), each worked out once rather than for every box it is measured against."""
    dx, dy = s.x2 - s.x1, s.y2 - s.y1
    return (
        s.x1,
        s.y1,
        dx,
        dy,
        (dx * dx + dy * dy) ** 0.5,
        s.half_width,
        max(s.x1, s.x2) + s.half_width,
        min(s.x1, s.x2) - s.half_width,
        max(s.y1, s.y2) + s.half_width,
        min(s.y1, s.y2) - s.half_width,
    )


def _static_costs(
    label: Label, boxes: list[Box], segments: list[Segment], dots: list[Dot], frame: Box
) -> list[float]:
    reach = label.clearance + RINGS[-1] + label.width + label.height
    area = Box(left=label.x - reach, top=label.y - reach, right=label.x + reach, bottom=label.y + reach)
    near_segments = [
        _stretch(s)
        for s in segments
        if max(s.x1, s.x2) >= area.left
        and min(s.x1, s.x2) <= area.right
        and max(s.y1, s.y2) >= area.top
        and min(s.y1, s.y2) <= area.bottom
    ]
    near_dots = [
        (d.x, d.y, d.radius**2) for d in dots if area.contains(d.x, d.y) and (d.x, d.y) != (label.x, label.y)
    ]
    costs = []
    for index, box in enumerate(boxes):
        ring, direction = divmod(index, len(DIRECTIONS))
        cost = ring * COST_RING + direction * COST_DIRECTION + _outside(box, frame) * COST_OUTSIDE
        left, top, right, bottom = box.left, box.top, box.right, box.bottom
        cost += COST_DOT * _covered_dots(left, top, right, bottom, near_dots)
        covered = 0.0
        for x1, y1, dx, dy, length, half_width, east, west, south, north in near_segments:
            if east > left and west < right and south > top and north < bottom:
                covered += _clipped(x1, y1, dx, dy, length, half_width, box)
        cost += COST_ROUTE * covered
        costs.append(cost)
    return costs


def _label_cost(box: Box, others: list[Box]) -> float:
    cost = 0.0
    left, top, right, bottom = box.left, box.top, box.right, box.bottom
    for other in others:
        # Most pairs are far apart: compare edges before measuring any area.
        if other.left >= right or other.right <= left or other.top >= bottom or other.bottom <= top:
            continue
        cost += COST_LABEL + box.overlap_area(other) * COST_LABEL_AREA
    return cost


def _crosses(line: tuple[float, ...], box: Box) -> bool:
    """Whether a stretched line (`_stretch`) runs through ``box``."""
    x1, y1, dx, dy, length, half_width, east, west, south, north = line
    if east <= box.left or west >= box.right or south <= box.top or north >= box.bottom:
        return False
    return _clipped(x1, y1, dx, dy, length, half_width, box) > 0.0


def _leader_cost(
    box: Box, line: tuple[float, ...] | None, others: list[Box], lines: list[tuple[float, ...]]
) -> float:
    """What a place costs in leaders: its own drawn across another label, another's across it."""
    crossings = sum(_crosses(line, other) for other in others) if line is not None else 0
    crossings += sum(_crosses(other, box) for other in lines)
    return crossings * COST_LEADER


def place_labels(labels: list[Label], segments: list[Segment], dots: list[Dot], frame: Box) -> dict[str, Box]:
    """The box of each label (by key), as few overlaps with anything as the candidates allow."""
    options = [candidates(label) for label in labels]
    fixed = [
        _static_costs(label, boxes, segments, dots, frame)
        for label, boxes in zip(labels, options, strict=True)
    ]
    # Labels that can ever touch: their widest candidate areas meet.
    reach = [label.clearance + RINGS[-1] + label.width + LABEL_SPACE for label in labels]
    neighbours = [
        [
            j
            for j, other in enumerate(labels)
            if j != i
            and abs(other.x - label.x) <= reach[i] + reach[j]
            and abs(other.y - label.y) <= reach[i] + reach[j] + label.height
        ]
        for i, label in enumerate(labels)
    ]
    leaders = []
    for label, boxes in zip(labels, options, strict=True):
        lines = (leader(label, box) for box in boxes)
        leaders.append([None if line is None else _stretch(line) for line in lines])
    chosen: list[int | None] = [None] * len(labels)

    def best(i: int) -> int:
        placed = [j for j in neighbours[i] if chosen[j] is not None]
        spaced = [options[j][chosen[j]].grown(LABEL_SPACE, LABEL_GAP) for j in placed]
        plain = [options[j][chosen[j]] for j in placed]
        lines = [line for j in placed if (line := leaders[j][chosen[j]]) is not None]
        costs = [
            fixed[i][k] + _label_cost(box, spaced) + _leader_cost(box, leaders[i][k], plain, lines)
            for k, box in enumerate(options[i])
        ]
        return min(range(len(costs)), key=costs.__getitem__)

    order = sorted(range(len(labels)), key=lambda i: (-len(neighbours[i]), labels[i].key))
    for i in order:
        chosen[i] = best(i)
    for _ in range(MAX_PASSES):
        moved = False
        for i in order:
            choice = best(i)
            if choice != chosen[i]:
                chosen[i], moved = choice, True
        if not moved:
            break
    return {label.key: options[i][chosen[i] or 0] for i, label in enumerate(labels)}


def overlapping_pairs(boxes: dict[str, Box]) -> list[tuple[str, str]]:
    """The pairs of keys whose boxes overlap (what the tests and the picture's check count)."""
    keys = sorted(boxes)
    return [(a, b) for index, a in enumerate(keys) for b in keys[index + 1 :] if boxes[a].overlaps(boxes[b])]
