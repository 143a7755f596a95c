"""Stage 1: spec text to a concrete syntax tree (lark, LALR).

Syntax errors become diagnostics. The parser resumes after an error at the
next line, so one pass reports every broken line rather than the first.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Code, CompileError, Diagnostic
from .positions import SourceFile, Span

GRAMMAR_PATH = Path(__file__).resolve().parent.parent / "spec" / "aventuriers.lark"

# What a rule author calls the tokens the grammar names.
TOKEN_NAMES = {
    "NAME": "un nom",
    "INT": "un nombre",
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


@cache
def parser() -> Lark:
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        strict=True,
        maybe_placeholders=False,
    )


def _describe(token_types) -> str:
    names = sorted({TOKEN_NAMES.get(t, t) for t in token_types})
    return ", ".join(names)


def _span_at(source: SourceFile, line: int, column: int, width: int = 1) -> Span:
    return Span(source=source, line=line, column=column, end_line=line, end_column=column + width)


def _diagnostic(source: SourceFile, error: UnexpectedInput) -> Diagnostic:
    if isinstance(error, UnexpectedCharacters):
        char = error.char
        hint = None
        if char in "'\u201c\u201d\u00ab\u00bb":
            hint = 'les chaînes s\u2019écrivent entre guillemets droits : "Saint Louis"'
        return Diagnostic(
            code=Code.UNEXPECTED_CHARACTER,
            message=f"caractère inattendu « {char} »",
            span=_span_at(source, error.line, error.column),
            hint=hint,
        )
    if isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type == "$END"
    ):
        last = max(1, len(source.lines))
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
        span=_span_at(source, token.line, token.column, max(1, len(str(token).split("\n")[0]))),
    )


def parse(source: SourceFile) -> Tree:
    """Parse one spec file; raise CompileError with every syntax error found.

    After an error on a line, that line is replaced by a harmless one that keeps
    its braces, and the file is parsed again: one pass per broken line, so every
    broken line is reported, not only the first.
    """
    diagnostics: list[Diagnostic] = []
    # The grammar ends every statement with a newline, including the last one.
    lines = (source.text if source.text.endswith("\n") else source.text + "\n").split("\n")
    for _ in range(len(lines)):
        try:
            tree = parser().parse("\n".join(lines))
            break
        except (UnexpectedEOF, UnexpectedCharacters, UnexpectedToken) as error:
            diagnostics.append(_diagnostic(source, error))
            at_end = isinstance(error, UnexpectedEOF) or (
                isinstance(error, UnexpectedToken) and error.token.type == "$END"
            )
            if at_end:
                break
            line = error.line
            broken = lines[line - 1]
            lines[line - 1] = ("recovered {" if "{" in broken else "") + ("}" if "}" in broken else "")
    if diagnostics:
        raise CompileError(_unique(diagnostics))
    return tree


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[int, int]] = set()
    kept = []
    for diagnostic in diagnostics:
        key = (diagnostic.span.line, diagnostic.span.column)
        if key not in seen:
            seen.add(key)
            kept.append(diagnostic)
    return kept


def string_value(token: Token, source: SourceFile) -> tuple[str, Diagnostic | None]:
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
                return raw, Diagnostic(code=Code.BAD_ESCAPE, message=message, span=span, hint=hint)
            out.append(escapes[follower])
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out), None
