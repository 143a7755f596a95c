"""Source files and spans: where every piece of a spec came from.

Every later stage carries spans so that a diagnostic can point at the exact
line and column of the spec text that caused it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# A spec is a few tens of kilobytes; a larger file is refused before it is parsed.
MAX_SOURCE_BYTES = 1_000_000


class FileTooLarge(Exception):
    """A spec file larger than MAX_SOURCE_BYTES."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    """A spec file as read: its display name and its text."""

    name: str
    text: str
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Lines as the parser counts them: only "\n" ends a line (not a form feed, nor U+2028).
        lines = self.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        object.__setattr__(self, "lines", tuple(line.removesuffix("\r") for line in lines))

    @classmethod
    def read(cls, path: Path, display_name: str | None = None) -> SourceFile:
        """Read a spec file (a UTF-8 byte-order mark is allowed).

        Raises FileTooLarge past MAX_SOURCE_BYTES, having read no more than that.
        """
        with path.open("rb") as stream:
            data = stream.read(MAX_SOURCE_BYTES + 1)
        if len(data) > MAX_SOURCE_BYTES:
            raise FileTooLarge(path)
        return cls(name=display_name or str(path), text=data.decode("utf-8-sig"))

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, or an empty string past the end."""
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Span:
    """A region of a source file; lines and columns are 1-based."""

    source: SourceFile = field(repr=False)
    line: int
    column: int
    end_line: int
    end_column: int

    @property
    def location(self) -> str:
        """`file:line:col`; only `file` for what concerns a path as a whole (`Span.of_path`)."""
        if self.line == 0:
            return self.source.name
        return f"{self.source.name}:{self.line}:{self.column}"

    @property
    def short(self) -> str:
        """`file:line`, the form generated docstrings cite."""
        if self.line == 0:
            return self.source.name
        return f"{self.source.name}:{self.line}"

    @classmethod
    def of_meta(cls, source: SourceFile, meta) -> Span:
        """The span of a lark tree node or token (both carry positions)."""
        return cls(
            source=source,
            line=meta.line,
            column=meta.column,
            end_line=meta.end_line,
            end_column=meta.end_column,
        )

    @classmethod
    def whole_file(cls, source: SourceFile) -> Span:
        """A spec read whole, at its first line (where nothing more precise is known)."""
        return cls(source=source, line=1, column=1, end_line=1, end_column=1)

    @classmethod
    def of_path(cls, name: str) -> Span:
        """A path as a whole, with no line to point at: a file missing or unreadable, a folder."""
        return cls(source=SourceFile(name=name, text=""), line=0, column=0, end_line=0, end_column=0)
