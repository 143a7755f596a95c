"""The printable sheet in a real browser, and its PDF on paper-sized pages.

Playwright drives the system's Chromium (the ``browser`` fixture of conftest.py).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.document import tightened
from aventuriers.compiler.pdf import find_chromium, page_count, print_pdf

from .conftest import artefact, missing
from .engines import EACH_EDITION

# A4 at the browser's 96 dots per inch: the page, and what is left inside the print margins.
A4_WIDTH = round(210 / 25.4 * 96)
A4_PRINTABLE_WIDTH = round((210 - 2 * 14) / 25.4 * 96)


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """The HTML document of an edition, written once in a folder of the module's."""
    folder = tmp_path_factory.mktemp("sheets")
    editions = loader()

    @functools.cache
    def written(name: str) -> Path:
        path = folder / f"{name}.html"
        path.write_text(compile_edition(editions.path_of(name), editions).document(), encoding="utf-8")
        return path

    return written


OVERFLOWING = """
() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) {
      found.push(`${element.tagName} ${box.left.toFixed(1)}..${box.right.toFixed(1)}`);
    }
  }
  return {found, scrollWidth: document.documentElement.scrollWidth, width};
}
"""

CITY_BOXES = """
() => Array.from(document.querySelectorAll('svg text.city')).map(text => {
  const box = text.getBoundingClientRect();
  return [text.textContent, box.left, box.top, box.right, box.bottom];
})
"""


def _overlaps(boxes: list) -> list[tuple[str, str]]:
    pairs = []
    for index, (name, left, top, right, bottom) in enumerate(boxes):
        for other, left2, top2, right2, bottom2 in boxes[index + 1 :]:
            if left < right2 and left2 < right and top < bottom2 and top2 < bottom:
                pairs.append((name, other))
    return pairs


@pytest.mark.parametrize("edition", EACH_EDITION)
def test_the_sheet_in_a_browser(browser, documents, edition: str) -> None:
    page = browser.new_page(viewport={"width": A4_WIDTH, "height": 1123})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "request", lambda request: None if request.url.startswith("file:") else problems.append(request.url)
    )
    page.goto(documents(edition).as_uri())
    page.wait_for_load_state("load")
    screenshot = artefact(f"fiche-{edition}.png")
    page.screenshot(path=str(screenshot), full_page=True)
    assert screenshot.stat().st_size > 10_000

    on_screen = page.evaluate(OVERFLOWING)
    assert on_screen["found"] == [] and on_screen["scrollWidth"] <= on_screen["width"], on_screen
    cities = page.evaluate(CITY_BOXES)
    spec_cities = compile_edition(loader().path_of(edition), loader()).edition.board.cities
    assert sorted(name for name, *_ in cities) == sorted(spec_cities)
    assert _overlaps(cities) == []

    # Printed: the portrait pages' width inside their margins.
    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_PRINTABLE_WIDTH, "height": 1000})
    printed = page.evaluate(OVERFLOWING)
    assert printed["found"] == [] and printed["scrollWidth"] <= printed["width"], printed
    assert _overlaps(page.evaluate(CITY_BOXES)) == []
    assert problems == []
    page.close()


# Europe on paper: four pages of rules, the board (landscape), the tickets, the score sheet.
EUROPE_PAGES = 7
EUROPE_BOARD_PAGE = 5


def _gray_pages(folder: Path) -> list[tuple[int, int, bytes]]:
    """The pages rendered by pdftoppm as binary PGM: (width, height, pixels)."""
    pages = []
    for path in sorted(folder.glob("page-*.pgm")):
        data = path.read_bytes()
        fields = data.split(maxsplit=4)
        assert fields[0] == b"P5"
        width, height = int(fields[1]), int(fields[2])
        pages.append((width, height, fields[4][-width * height :]))
    return pages


def test_the_pdf_of_europe(tmp_path, capsys) -> None:
    if find_chromium() is None:
        missing("Chromium")
    if shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None:
        missing("poppler-utils (pdftoppm, pdftotext)")
    target = tmp_path / "europe.pdf"
    assert main(["sheet", "europe", "--format", "pdf", "-o", str(target)]) == 0
    assert target.read_bytes().startswith(b"%PDF-")
    subprocess.run(["pdftoppm", "-gray", "-r", "24", str(target), str(tmp_path / "page")], check=True)
    pages = _gray_pages(tmp_path)
    assert len(pages) == EUROPE_PAGES
    for number, (width, height, pixels) in enumerate(pages, start=1):
        landscape = number == EUROPE_BOARD_PAGE
        assert (width > height) == landscape, f"page {number}: {width}×{height}"
        inked = sum(1 for value in pixels if value < 160)
        assert inked > 0.005 * width * height, f"page {number} is blank"
    board_text = subprocess.run(
        ["pdftotext", "-f", str(EUROPE_BOARD_PAGE), "-l", str(EUROPE_BOARD_PAGE), str(target), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for city in ("Amsterdam", "Constantinople", "Edinburgh", "Zürich", "Kobenhavn"):
        assert city in board_text
    shutil.copyfile(target, artefact("europe.pdf"))


def _pages_of(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(line for line in info.splitlines() if line.startswith("Pages:")).split()[1])


def test_the_tighter_print_is_kept_only_when_it_has_fewer_pages(tmp_path) -> None:
    """Fifty lines take two pages at 1.5 of leading, one at 1.2: the tighter print is kept;
    a « tighter » one that is longer is not."""
    if find_chromium() is None:
        missing("Chromium")
    if shutil.which("pdfinfo") is None:
        missing("poppler-utils (pdfinfo)")
    lines = "".join(f"<p>Ligne {number}</p>" for number in range(50))

    def page(tight_leading: str) -> str:
        style = (
            "@page { size: A4; margin: 15mm; } p { margin: 0; font-size: 12pt; line-height: 1.5; }"
            f" body.tight p {{ line-height: {tight_leading}; }}"
        )
        return f"<!DOCTYPE html><html><head><style>{style}</style></head><body>{lines}</body></html>"

    target = tmp_path / "serree.pdf"
    print_pdf(page("1.5"), target)
    assert _pages_of(target) == page_count(target.read_bytes()) == 2
    print_pdf(page("1.2"), target, tighter=tightened(page("1.2")))
    assert _pages_of(target) == page_count(target.read_bytes()) == 1
    print_pdf(page("3"), target, tighter=tightened(page("3")))
    assert _pages_of(target) == 2


PART_TITLES = ("Le plateau", "Les tickets", "Feuille de score")
# What a page holds at the least, but the last (the score sheet): the board's names fill one.
PAGE_CHARACTERS = 400


@pytest.mark.parametrize("edition", EACH_EDITION)
def test_no_printed_page_is_nearly_empty(edition: str, tmp_path) -> None:
    """One landscape page, the board's; every page at least a third full (the depth its ink
    reaches), except the last page of a part (the rules, the board, the tickets, the score);
    and no page but the last holds only a few lines (Japan's rules once ended with their
    closing line alone on a page, Asia team play's with three lines)."""
    if find_chromium() is None:
        missing("Chromium")
    if shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None:
        missing("poppler-utils (pdftoppm, pdftotext)")
    target = tmp_path / f"{edition}.pdf"
    assert main(["sheet", edition, "--format", "pdf", "-o", str(target)]) == 0
    subprocess.run(["pdftoppm", "-gray", "-r", "24", str(target), str(tmp_path / "page")], check=True)
    pages = _gray_pages(tmp_path)
    starts, sizes = [], []
    for number in range(1, len(pages) + 1):
        text = subprocess.run(
            ["pdftotext", "-f", str(number), "-l", str(number), str(target), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.lstrip()
        starts.append(text.startswith(PART_TITLES))
        sizes.append(len(text))
    few = {number: size for number, size in enumerate(sizes[:-1], start=1) if size < PAGE_CHARACTERS}
    assert few == {}, f"{edition}: pages of {len(pages)} with under {PAGE_CHARACTERS} characters: {few}"
    assert sum(starts) == len(PART_TITLES), starts
    landscape = [number for number, (width, height, _) in enumerate(pages, start=1) if width > height]
    assert landscape == [starts.index(True) + 1], landscape  # the board's page, and only it
    for number, (width, height, pixels) in enumerate(pages, start=1):
        inked_rows = [row for row in range(height) if min(pixels[row * width : (row + 1) * width]) < 200]
        depth = (inked_rows[-1] + 1) / height if inked_rows else 0.0
        last_of_part = number == len(pages) or starts[number]
        assert depth >= 1 / 3 or last_of_part, f"page {number} of {edition} is {depth:.0%} full"
