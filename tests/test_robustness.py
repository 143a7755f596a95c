"""Whatever a rule author types, the compiler answers with located errors, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aventuriers.compiler.cli import main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

TINY = (Path(__file__).resolve().parent / "specs" / "broken" / "tiny.aventuriers").read_text(encoding="utf-8")
LINES = TINY.splitlines()
FRAGMENTS = ["{", "}", "[", "]", ":", "..", '"', "'", "-3", "99999", "yes", "route", "ticket", "\t", "é", "#"]

edit = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, len(LINES) - 1), st.just("")),
    st.tuples(st.just("insert"), st.integers(0, len(LINES) - 1), st.sampled_from(FRAGMENTS)),
    st.tuples(st.just("replace"), st.integers(0, len(LINES) - 1), st.text(max_size=12)),
    st.tuples(st.just("duplicate"), st.integers(0, len(LINES) - 1), st.just("")),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(edit, min_size=1, max_size=4))
def test_edited_specs_get_answers_not_tracebacks(edits, tmp_path_factory, capsys) -> None:
    lines = list(LINES)
    for kind, index, text in edits:
        index %= len(lines) or 1
        if not lines:
            lines = [text]
        elif kind == "delete":
            del lines[index]
        elif kind == "insert":
            position = len(lines[index]) // 2
            lines[index] = lines[index][:position] + text + lines[index][position:]
        elif kind == "replace":
            lines[index] = text
        else:
            lines.insert(index, lines[index])
    folder = tmp_path_factory.mktemp("spec")
    spec = folder / "tiny.aventuriers"
    spec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status = main(["check", str(spec)])
    err = capsys.readouterr().err
    assert status in (0, 1)
    assert "Traceback" not in err
    if status == 1:
        assert ": E3" in err or ": S1" in err or ": V2" in err


# Statements of every key the schema knows (and some it does not), at every depth, with
# arguments of every shape: the fuzz reaches each statement's own checks, `without` included.
SCHEMA = json.loads(
    # The whole published schema: the core keys and every mechanism's.
    (Path(__file__).resolve().parent.parent / "generated" / "schema.json").read_text(encoding="utf-8")
)


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    if node.get("type") == "array":
        return _resolve(node.get("items", {}))
    return node


def _keys(node: dict) -> list[str]:
    return sorted(_resolve(node).get("properties", {}))


NAMES = ["red", "gray", "locomotive", "yes", "no", "longest_path", "globetrotter", "fewest_stations", "bonus"]
NAMES += ["route", "ticket", "stations", "tunnel_example", "decision", "board", "madrid-pamplona-black", "x"]
scalar = st.one_of(
    st.integers(-3, 30).map(str),
    st.sampled_from(["0", "1000", "1001", "999999999", "1" + "0" * 12, "9" * 4400]),
    st.sampled_from(NAMES),
    st.text(max_size=8).map(lambda text: '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.tuples(st.integers(0, 12), st.integers(0, 12)).map(lambda pair: f"{pair[0]}..{pair[1]}"),
)
value = st.recursive(
    scalar, lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"), max_leaves=5
)
argument = st.one_of(
    value, st.tuples(st.sampled_from(NAMES + ["deal", "keep", "size", "points"]), value).map(": ".join)
)


@st.composite
def statement(draw, node: dict, depth: int = 0) -> str:
    key = draw(st.sampled_from(_keys(node) + ["unknown_key"]))
    arguments = draw(st.lists(argument, max_size=3))
    line = " ".join([key, *arguments])
    child = _resolve(_resolve(node).get("properties", {}).get(key, {}))
    if depth < 2 and child.get("properties") and draw(st.booleans()):
        inner = draw(st.lists(statement(child, depth + 1), max_size=3))
        line += " {\n" + "".join(f"  {text}\n" for text in inner) + "}"
    return line


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    base=st.sampled_from(["europe", "usa-2025"]),
    statements=st.lists(statement(SCHEMA), min_size=1, max_size=5),
)
def test_statements_of_every_schema_key_get_answers(base, statements, tmp_path_factory, capsys) -> None:
    spec = tmp_path_factory.mktemp("spec") / "fuzz.aventuriers"
    spec.write_text(f"edition fuzz\nextends {base}\n" + "\n".join(statements) + "\n", encoding="utf-8")
    status = main(["check", str(spec)])
    err = capsys.readouterr().err
    assert status in (0, 1)
    assert "Traceback" not in err


# An abstract base may leave any key to its children, so a statement it writes half is checked
# only once whole: each key of the schema, written with nothing inside, gets an answer.
@pytest.mark.parametrize("key", _keys(SCHEMA))
def test_abstract_bases_may_leave_any_statement_half_written(key, tmp_path, capsys) -> None:
    spec = tmp_path / "fuzz.aventuriers"
    for text in (f"{key} x", f"{key} x {{}}", f"{key} {{}}"):
        spec.write_text(f"edition fuzz\nextends europe\nabstract\n{text}\n", encoding="utf-8")
        status = main(["check", str(spec)])
        err = capsys.readouterr().err
        assert status in (0, 1), text
        assert "Traceback" not in err, text


# Whole shipped specs with a few words replaced: the structure stays, the values go wrong, so the
# semantic checks, the merge and the variant edits see what a careless author writes.
SHIPPED = sorted((Path(__file__).resolve().parent.parent / "editions").glob("*.aventuriers"))
VARIANT_FILES = sorted((Path(__file__).resolve().parent / "variants").glob("*.aventuriers"))
REPLACEMENTS = NAMES + [
    "0",
    "-1",
    "8",
    "99",
    "1001",
    '"Paris"',
    '"Nowhere"',
    "[]",
    "[1, 2]",
    "1..9",
    "9..1",
    "{",
    "}",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    source=st.sampled_from(SHIPPED + VARIANT_FILES),
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(REPLACEMENTS)), min_size=1, max_size=3),
)
def test_shipped_specs_with_words_replaced_get_answers(source, edits, tmp_path_factory, capsys) -> None:
    lines = source.read_text(encoding="utf-8").splitlines()
    words = [
        (row, column)
        for row, line in enumerate(lines)
        if not line.lstrip().startswith("#")
        for column in range(len(line.split()))
    ]
    for position, replacement in edits:
        row, column = words[position % len(words)]
        parts = lines[row].split()
        parts[column] = replacement
        lines[row] = " ".join(parts)
    folder = tmp_path_factory.mktemp("spec")
    spec = folder / source.name
    spec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status = main(["check", str(spec)])
    err = capsys.readouterr().err
    assert status in (0, 1)
    assert "Traceback" not in err


# The mechanisms that came after the first fuzz (teams, jokers, tickets with targets, countries,
# positions) and the values that multiply an engine's work, on the editions that use them: every
# answer is a located diagnostic, within a bound of time and memory per spec.
TEST_EDITIONS = Path(__file__).resolve().parent / "specs" / "broken"
# Mostly values the schema takes, so that the semantic checks and the engine's own bounds are reached.
NUMBER = st.sampled_from(["1", "2", "2", "3", "3", "4", "5", "7", "24", "100", "1000", "0", "-1"])
PLACE = st.sampled_from(
    ['"Atlanta"', '"Boston"', '"Xland"', '"Yland"', '"Xland#1"', '"Xland#3"', '"Fr#ance"', '""', '"Nowhere"']
)
POSITION = st.sampled_from(["48.86, 2.35", "33.7, -84.4", "-91.0, 0.0", "0.0, 181.5", "12.5", "1.0,1.0"])


def choice(*names: str) -> st.SearchStrategy[str]:
    return st.sampled_from([*names, "x"])


MECHANISM_LINES = st.one_of(
    st.builds(
        "teams {} face_up_locomotive: {} share_at_setup: {} share_at_draw: {}".format,
        NUMBER,
        choice("holder", "hand"),
        NUMBER,
        NUMBER,
    ),
    st.builds("turn {{\n  share_tickets {}\n}}".format, NUMBER),
    st.builds(
        "turn {{\n  draw_tickets draw: {} keep_at_least: {} rejected: out_of_game\n}}".format, NUMBER, NUMBER
    ),
    st.builds(
        "setup {{\n  tickets deal: {} keep_at_least: {} rejected: shuffled_under\n}}".format, NUMBER, NUMBER
    ),
    st.builds("tunnels reveal: {}".format, NUMBER),
    st.builds("joker {} pays: {}".format, choice("tunnel", "locomotive"), choice("tunnels", "all")),
    st.builds("stations count: {} cost: [{}, {}] unused_points: 4".format, NUMBER, NUMBER, NUMBER),
    st.builds("end {{\n  trains_of {}\n}}".format, choice("team", "player")),
    st.builds("score_example {{\n  players {}\n}}".format, NUMBER),
    st.builds(
        "tickets {{\n  ticket {} {{\n    target {} {}\n    target {} {}\n  }}\n}}".format,
        PLACE,
        PLACE,
        NUMBER,
        PLACE,
        NUMBER,
    ),
    st.builds(
        "board {{\n  city {} at: {}\n  country {} arrows: {}\n  arrow {} at: {}\n  route {} {} {} red\n}}".format,
        PLACE,
        POSITION,
        PLACE,
        NUMBER,
        PLACE,
        POSITION,
        PLACE,
        PLACE,
        NUMBER,
    ),
)
# Far above what any spec takes (the largest shipped edition checks in about 0.5 s and 60 MB),
# far below what an unbounded action index took (54 s and 3.96 GB for `tunnels reveal: 1000`).
CHECK_SECONDS = 20
CHECK_MEGABYTES = 400


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    base=st.sampled_from(["asia-equipes", "switzerland", "europe", "usa-mega", "pays", "destinations"]),
    lines=st.lists(MECHANISM_LINES, min_size=1, max_size=3),
)
def test_the_mechanisms_fuzzed_get_bounded_answers(base, lines, tmp_path_factory, capsys) -> None:
    import time
    import tracemalloc

    folder = tmp_path_factory.mktemp("spec")
    for name in ("tiny", "pays", "destinations"):
        (folder / f"{name}.aventuriers").write_text(
            (TEST_EDITIONS / f"{name}.aventuriers").read_text(encoding="utf-8"), encoding="utf-8"
        )
    spec = folder / "fuzz.aventuriers"
    spec.write_text(f"edition fuzz\nextends {base}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    tracemalloc.start()
    started = time.perf_counter()
    try:
        status = main(["check", str(spec)])
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    err = capsys.readouterr().err
    assert status in (0, 1), err
    assert "Traceback" not in err
    assert elapsed < CHECK_SECONDS and peak < CHECK_MEGABYTES, (elapsed, peak, lines)
