"""Whatever a rule author types, the compiler answers with located errors, never a traceback."""

from __future__ import annotations

from pathlib import Path

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
