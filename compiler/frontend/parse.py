"""Stage 1: spec text to a concrete syntax tree (lark, LALR).

Syntax errors become diagnostics. The parser resumes after an error at the
next line, so one pass reports every broken line rather than the first.
"""

from __future__ import annotations

import hashlib
import io
import sys
from functools import cache
from pathlib import Path

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..cache import cache_root, write_atomically
from ..diagnostics import Code, CompileError, Diagnostic
from .positions import SourceFile, Span
from .text import Text

GRAMMAR_PATH = Path(__file__).resolve().parents[2] / "spec" / "aventuriers.lark"

# What a rule author calls the tokens the grammar names.
TOKEN_NAMES = {
    "NAME": "un nom",
    "INT": "un nombre",
    "DECIMAL": "un nombre décimal",
    "POSITION": "une position « latitude, longitude »",
    "STRING": "une chaîne entre guillemets",
    "_NL": "une fin de ligne",
    "LBRACE": "« { »",
    "RBRACE": "« } »",
    "LSQB": "« [ »",
    "RSQB": "« ] »",
    "COLON": "« : »",
    "COMMA": "« , »",
    "__ANON_0": "« .. »",
    "$END": "la fin du fichier",
}


PARSER_OPTIONS = {"parser": "lalr", "propagate_positions": True, "strict": True, "maybe_placeholders": False}


@cache
def parser() -> Lark:
    """The LALR parser of the grammar. Building its tables takes lark about half a second, which
    every process that compiles would pay; they are kept in the cache folder under the digest of
    everything they are built from (the grammar, the options, lark's and Python's versions), so
    they are built once per grammar. A kept file that cannot be read is built again."""
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    made_from = "\0".join([grammar, repr(sorted(PARSER_OPTIONS.items())), lark.__version__, sys.version])
    kept = cache_root() / "parser" / f"{hashlib.sha256(made_from.encode()).hexdigest()[:32]}.lark"
    try:
        with kept.open("rb") as stream:
            return Lark.load(stream)
    except Exception:  # noqa: BLE001 — absent, truncated, or from another lark: built anew
        pass
    built = Lark(grammar, **PARSER_OPTIONS)
    tables = io.BytesIO()
    built.save(tables)
    write_atomically(kept, tables.getvalue())
    return built


def _describe(token_types) -> str:
    names = sorted({TOKEN_NAMES.get(t, t) for t in token_types})
    return ", ".join(names)


def _span_at(source: SourceFile, line: int, column: int, width: int = 1) -> Span:
    return Span(source=source, line=line, column=column, end_line=line, end_column=column + width)


def _diagnostic(source: SourceFile, error: UnexpectedInput, offset: int, end: int) -> Diagnostic:
    """The diagnostic of a lark error met ``offset`` lines into the file, in a text of ``end`` lines."""
    if isinstance(error, UnexpectedCharacters):
        char = error.char
        hint = None
        if char in "'\u201c\u201d\u00ab\u00bb":
            hint = 'les chaînes s\u2019écrivent entre guillemets droits : "Saint Louis"'
        return Diagnostic(
            code=Code.UNEXPECTED_CHARACTER,
            message=f"caractère inattendu « {char} »",
            span=_span_at(source, offset + error.line, error.column),
            hint=hint,
        )
    if isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type == "$END"
    ):
        last = max(1, min(end, len(source.lines)))
        return Diagnostic(
            code=Code.UNEXPECTED_END,
            message=f"fin du fichier inattendue ; attendu : {_describe(error.expected)}",
            span=_span_at(source, last, len(source.line_text(last)) + 1),
            hint="un « { » n\u2019a peut-être pas de « } »",
        )
    assert isinstance(error, UnexpectedToken)
    token = error.token
    shown = "fin de ligne" if token.type == "_NL" else f"« {token} »"
    return Diagnostic(
        code=Code.UNEXPECTED_TOKEN,
        message=f"{shown} inattendu ; attendu : {_describe(error.accepts or error.expected)}",
        span=_span_at(source, offset + token.line, token.column, max(1, len(str(token).split("\n")[0]))),
    )


def parse(source: SourceFile) -> Tree:
    """Parse one spec file; raise CompileError with every syntax error found.

    A file without errors is parsed once. Otherwise each top-level statement
    is parsed on its own, and within one, a broken line is replaced by a
    harmless one that keeps its braces and the statement parsed again: every
    broken line is reported, and the work stays proportional to the file
    (a re-parse never goes past the statement it is in).
    """
    # The grammar ends every statement with a newline, including the last one.
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    try:
        return parser().parse(text)
    except (UnexpectedEOF, UnexpectedCharacters, UnexpectedToken):
        pass
    lines = text.split("\n")
    diagnostics: list[Diagnostic] = []
    for first, last in _top_level_statements(lines):
        diagnostics.extend(_statement_errors(source, lines[first:last], first))
    raise CompileError(_unique(diagnostics))


def _statement_errors(source: SourceFile, lines: list[str], offset: int) -> list[Diagnostic]:
    """The syntax errors of the lines of one top-level statement (``offset`` lines into the file)."""
    found: list[Diagnostic] = []
    for _ in range(len(lines)):
        try:
            parser().parse("\n".join(lines) + "\n")
            break
        except (UnexpectedEOF, UnexpectedCharacters, UnexpectedToken) as error:
            found.append(_diagnostic(source, error, offset, offset + len(lines)))
            at_end = isinstance(error, UnexpectedEOF) or (
                isinstance(error, UnexpectedToken) and error.token.type == "$END"
            )
            if at_end or not 0 < error.line <= len(lines):
                break
            broken = lines[error.line - 1]
            lines[error.line - 1] = ("recovered {" if "{" in broken else "") + ("}" if "}" in broken else "")
    return found


def _top_level_statements(lines: list[str]) -> list[tuple[int, int]]:
    """``(first, last)`` line index ranges of the top-level statements: a new one starts on a
    line where no brace or bracket is open (strings and comments aside)."""
    ranges: list[tuple[int, int]] = []
    depth = 0
    start = 0
    for index, line in enumerate(lines):
        if depth == 0 and index > start:
            ranges.append((start, index))
            start = index
        depth = max(0, depth + _depth_change(line))
    ranges.append((start, len(lines)))
    return ranges


def _depth_change(line: str) -> int:
    change = 0
    in_string = escaped = False
    for char in line:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "#":
            break
        elif char in "{[":
            change += 1
        elif char in "}]":
            change -= 1
    return change


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[int, int]] = set()
    kept = []
    for diagnostic in diagnostics:
        key = (diagnostic.span.line, diagnostic.span.column)
        if key not in seen:
            seen.add(key)
            kept.append(diagnostic)
    return kept


def string_value(token: Token, source: SourceFile) -> tuple[Text, Diagnostic | None]:
    """Decode a STRING token: ``\\"``, ``\\\\``, ``\\n`` and ``\\t`` are the escapes."""
    raw = str(token)[1:-1]
    out: list[str] = []
    index = 0
    escapes = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}
    while index < len(raw):
        char = raw[index]
        if char == "\\":
            follower = raw[index + 1]
            if follower not in escapes:
                span = _span_at(source, token.line, token.column + index + 1, 2)
                message = f"séquence d\u2019échappement inconnue « \\{follower} »"
                hint = 'seules \\" \\\\ \\n et \\t sont permises'
                # The raw text stands in, so that no second error follows from this one.
                return Text(raw), Diagnostic(code=Code.BAD_ESCAPE, message=message, span=span, hint=hint)
            out.append(escapes[follower])
            index += 2
        else:
            out.append(char)
            index += 1
    return Text("".join(out)), None
