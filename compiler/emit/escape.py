"""Spec strings as text in every output format.

A spec is data: a city name or a title must reach a rule sheet as the text it
is, never as markup. Every string a spec writes is a ``Text`` (read so by the
parser, carried so into the IR); the Markdown outputs (sheet, differences
page) take the IR through ``for_markdown``, which escapes every ``Text`` it
finds, whatever field holds it, so neither a new field nor an f-string in the
view models can forget one. The engines take spec strings as Python literals
(``repr`` in the engine emitter).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..frontend.positions import Span
from ..frontend.text import Text

_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")
# Characters that may start or end inline markup, raw HTML, a link, a table cell or a heading.
_MARKUP = re.compile(r"([\\`*_\[\]<>|#~&])")
# What GitHub's Markdown links on its own (``http://…``, ``www.…``, ``nom@site``): broken by an escape.
_AUTOLINK = re.compile(r"(?<=[A-Za-z0-9])(:)(?=//)|(?<=www)(\.)|(@)", re.IGNORECASE)
# A list marker where the text may start a line: `- `, `+ `, `1. `, `1) `.
_BULLET_START = re.compile(r"^(\s*)([-+=])")
_NUMBER_START = re.compile(r"^(\s*\d+)([.)])")


def markdown_text(text: str) -> str:
    """``text`` as plain text in Markdown: one line, every markup character escaped."""
    text = _LINE_BREAKS.sub(" ", text)
    text = _MARKUP.sub(r"\\\1", text)
    text = _AUTOLINK.sub(lambda match: "\\" + match.group(0), text)
    text = _BULLET_START.sub(r"\1\\\2", text, count=1)
    return _NUMBER_START.sub(r"\1\\\2", text, count=1)


def for_markdown(value: Any) -> Any:
    """A copy of an IR value (or a view of one) whose every ``Text`` is escaped for Markdown.

    Ids and the compiler's own words are plain ``str`` and stay as they are.
    """
    if isinstance(value, Text):
        return markdown_text(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            field.name: for_markdown(getattr(value, field.name))
            for field in dataclasses.fields(value)
            if field.compare  # spans (and other bookkeeping) are not shown
        }
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(for_markdown(item) for item in value)
    if isinstance(value, dict):
        return {key: for_markdown(item) for key, item in value.items()}
    return value


# In the engines' docstrings: a spec's location or name, whatever the file is called.


def cite(span: Span | None) -> str:
    """A spec location safe inside a docstring, whatever the file is called."""
    if span is None:
        return "built in"
    text = span.short.encode("unicode_escape").decode("ascii")
    return text.replace('"', '\\"')


def cite_name(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii").replace('"', '\\"')
