"""The sketches of later editions parse; the IR compares without spans."""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.build import loader
from aventuriers.compiler.frontend.parse import parse
from aventuriers.compiler.frontend.positions import SourceFile
from aventuriers.compiler.ir import Range, Route
from aventuriers.compiler.ir.build import build
from aventuriers.compiler.mechanisms import bonus_rows

SKETCHES = sorted((Path(__file__).resolve().parent.parent / "spec" / "sketches").glob("*.aventuriers"))


def test_there_is_a_sketch_per_later_edition() -> None:
    assert {path.stem for path in SKETCHES} == {"europe", "switzerland", "usa-1910", "asia-team"}


@pytest.mark.parametrize("sketch", SKETCHES, ids=lambda path: path.stem)
def test_every_sketch_parses(sketch: Path) -> None:
    tree = parse(SourceFile.read(sketch))
    assert len(tree.children) > 5


def test_ir_built_by_hand_equals_the_compiled_ir() -> None:
    editions = loader()
    document, _ = editions.load(editions.path_of("usa-classic"))
    edition = build(document)
    assert edition.players == Range(min=2, max=5)
    route = next(r for r in edition.board.routes if r.id == "boston-new-york-red")
    assert route == Route(
        id="boston-new-york-red", a="Boston", b="New York", length=2, color="red", double_group=4
    )
    assert route.span is not None and route.span.source.name == "editions/usa-base.aventuriers"
    assert edition.setup.tickets_dealt == 3 and edition.tickets.printed == 30


def test_keyed_items_keep_the_spans_of_the_file_that_declared_them() -> None:
    editions = loader()
    document, _ = editions.load(editions.path_of("usa-big-cities"))
    edition = build(document)
    decision = next(d for d in edition.decisions if d.id == "big_cities_bonus")
    assert decision.span.source.name == "editions/usa-big-cities.aventuriers"
    assert decision.span.line > 1
    longest = next(b for b in bonus_rows(edition) if b.id == "longest_path")
    assert longest.span.source.name == "editions/usa-base.aventuriers"
    document, _ = editions.load(editions.path_of("usa-mega"))
    mega = build(document)
    globetrotter = next(b for b in bonus_rows(mega) if b.id == "globetrotter")
    assert globetrotter.span.source.name == "editions/usa-1910-box.aventuriers"
    assert globetrotter.span.line > 1
    # A keyed list the parent does not have at all (usa-classic declares no decision).
    ties = next(d for d in mega.decisions if d.id == "globetrotter_ties")
    assert ties.span.source.name == "editions/usa-1910-box.aventuriers"
    assert ties.span.line > 1
