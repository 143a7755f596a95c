"""The map projection of the board picture: latitude and longitude to drawing units.

One function, pure: an equirectangular projection whose standard parallel is
the board's middle latitude (east-west distances are true there, and within a
few per cent over a board's height), scaled and centred to fit a drawing box.
The boards are printed art, not maps, so a simple projection that keeps every
city's bearing to its neighbours is all the picture needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Box:
    """A rectangle in drawing units; y grows downwards, as in SVG."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def overlaps(self, other: Box) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def overlap_area(self, other: Box) -> float:
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return width * height if width > 0 and height > 0 else 0.0

    def grown(self, margin: float, vertical: float | None = None) -> Box:
        """The box widened by ``margin`` on each side, and heightened by ``vertical`` (the same
        margin unless told)."""
        vertical = margin if vertical is None else vertical
        return Box(
            left=self.left - margin,
            top=self.top - vertical,
            right=self.right + margin,
            bottom=self.bottom + vertical,
        )

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x <= self.right and self.top <= y <= self.bottom


def project(places: dict[str, tuple[float, float]], box: Box) -> dict[str, tuple[float, float]]:
    """Each place's ``(latitude, longitude)`` in decimal degrees to ``(x, y)`` inside ``box``.

    North is up and east is right; one scale for both axes (shapes are kept),
    as large as fits ``box``, the board centred in it. Longitudes are taken as
    they are: no board crosses the 180th meridian.
    """
    if not places:
        return {}
    latitudes = [latitude for latitude, _ in places.values()]
    middle = (min(latitudes) + max(latitudes)) / 2
    stretch = math.cos(math.radians(middle))
    flat = {name: (longitude * stretch, -latitude) for name, (latitude, longitude) in places.items()}
    xs = [x for x, _ in flat.values()]
    ys = [y for _, y in flat.values()]
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    scales = [size / extent for size, extent in ((box.width, span_x), (box.height, span_y)) if extent > 0]
    scale = min(scales) if scales else 1.0
    offset_x = box.left + (box.width - span_x * scale) / 2 - min(xs) * scale
    offset_y = box.top + (box.height - span_y * scale) / 2 - min(ys) * scale
    return {name: (x * scale + offset_x, y * scale + offset_y) for name, (x, y) in flat.items()}
