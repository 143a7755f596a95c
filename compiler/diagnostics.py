"""Diagnostics: every error and warning the compiler can report.

Each has a stable code (tests and users may rely on it), a French message, a
span, and an optional hint. Codes by stage:

* ``S1xx`` syntax (parse),
* ``V2xx`` schema (lower and validate),
* ``E3xx`` semantic (resolve),
* ``W4xx`` warnings: the build goes on.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .frontend.positions import Span


class Code(Enum):
    UNEXPECTED_CHARACTER = "S101"
    UNEXPECTED_TOKEN = "S102"
    UNEXPECTED_END = "S103"
    BAD_ESCAPE = "S104"
    UNKNOWN_KEY = "V201"
    MISSING_KEY = "V202"
    WRONG_TYPE = "V203"
    BAD_VALUE = "V204"
    OUT_OF_RANGE = "V205"
    WRONG_ARGUMENTS = "V206"
    DUPLICATE_KEY = "V207"
    SCHEMA = "V299"
    UNKNOWN_CITY = "E301"
    DUPLICATE_NAME = "E302"
    BAD_DOUBLE_GROUP = "E303"
    LENGTH_NOT_SCORED = "E304"
    COUNT_MISMATCH = "E305"
    UNKNOWN_EDITION = "E306"
    EXTENDS_CYCLE = "E307"
    UNKNOWN_REFERENCE = "E308"
    BAD_PLAYER_RANGES = "E309"
    EDITION_NAME_MISMATCH = "E310"
    INCONSISTENT_RULE = "E311"
    UNREADABLE_FILE = "E312"
    OUTPUT_REFUSED = "E313"
    ABSTRACT_EDITION = "E314"
    MODULE_NAME_CLASH = "E315"
    LIMIT_EXCEEDED = "E316"
    BAD_EDITION_NAME = "E317"
    MISSING_POSITION = "E318"
    NO_C_COMPILER = "E319"
    PRINTED_COUNT_GAP = "W401"
    SHADOWS_EDITION = "W402"
    STAND_IN_BOARD = "W403"

    @property
    def is_warning(self) -> bool:
        return self.value.startswith("W")


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic:
    code: Code
    message: str
    span: Span
    hint: str | None = None

    def render(self) -> str:
        """``file:line:col: code: message``, the source line, a caret, a hint.

        What is echoed is bounded: control characters are escaped, long
        messages are cut, and only a window of a long line is shown.
        """
        span = self.span
        line_text = _printable(span.source.line_text(span.line))
        column = span.column
        if span.end_line == span.line and span.end_column > span.column:
            width = span.end_column - span.column
        else:
            width = max(1, len(line_text.rstrip()) - span.column + 1)
        if len(line_text) > MAX_ECHOED_LINE:
            start = max(0, column - 1 - MAX_ECHOED_LINE // 2)
            window = line_text[start : start + MAX_ECHOED_LINE]
            line_text = (
                ("…" if start else "") + window + ("…" if start + MAX_ECHOED_LINE < len(line_text) else "")
            )
            column = column - start + (1 if start else 0)
            width = min(width, MAX_ECHOED_LINE)
        gutter = f"{span.line:>5} | "
        caret = " " * (len(gutter) - 2) + "| " + " " * (column - 1) + "^" * max(1, width)
        parts = [f"{_printable(span.location)}: {self.code.value}: {_bounded(self.message)}"]
        if span.source.text:  # an unreadable file has no line to show
            parts += [gutter + line_text, caret]
        if self.hint:
            parts.append(f"      = aide : {_bounded(self.hint)}")
        return "\n".join(parts)


MAX_ECHOED_LINE = 160
MAX_MESSAGE = 400
# Control characters and line separators shown as escapes, so one diagnostic stays one block.
_ESCAPES = {code: f"\\x{code:02x}" for code in range(32)} | {
    ord("\n"): "\\n",
    ord("\t"): "\\t",
    ord("\r"): "\\r",
    0x7F: "\\x7f",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
    0x85: "\\x85",
}


def _printable(text: str) -> str:
    return text.translate(_ESCAPES)


def _bounded(text: str) -> str:
    text = _printable(text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


class CompileError(Exception):
    """Raised by a stage that found errors; carries all of them at once."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__(self.diagnostics)

    def __str__(self) -> str:
        # Rendered on demand: an error may pass through several stages before it is shown.
        return render_all(self.diagnostics)


def sort_key(diagnostic: Diagnostic) -> tuple[str, int, int, str]:
    span = diagnostic.span
    return (span.source.name, span.line, span.column, diagnostic.code.value)


def render_all(diagnostics: Iterable[Diagnostic]) -> str:
    ordered = sorted(diagnostics, key=sort_key)
    errors = sum(1 for d in ordered if not d.code.is_warning)
    warnings = len(ordered) - errors
    body = "\n\n".join(d.render() for d in ordered)
    summary = f"{errors} erreur(s), {warnings} avertissement(s)"
    return f"{body}\n\n{summary}" if body else summary


def unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, in first-seen order (the same file may be read for several editions)."""
    seen: dict[tuple, Diagnostic] = {}
    for diagnostic in diagnostics:
        span = diagnostic.span
        key = (diagnostic.code, diagnostic.message, diagnostic.hint, span.source.name, span.line, span.column)
        seen.setdefault(key, diagnostic)
    return list(seen.values())


def raise_if_errors(diagnostics: Iterable[Diagnostic]) -> None:
    found = [d for d in diagnostics if not d.code.is_warning]
    if found:
        raise CompileError(found)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A French hint naming the closest candidate, when one is close enough."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"vouliez-vous dire « {close[0]} » ?" if close else None
