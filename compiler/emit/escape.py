"""Spec strings as text in every output format.

A spec is data: a city name or a title must reach a rule sheet as the text it
is, never as markup. The engines take spec strings as Python literals (``repr``
in the engine emitter); the Markdown outputs (sheet, differences page) take
them through ``markdown_text``, applied once to the IR the sheet is written
from (``for_markdown``), so no f-string in the view models can forget it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

# The fields of the IR (and of the worked examples' results) that are shown as text, by class.
TEXT_FIELDS = {
    "Edition": {"game", "title", "rulebook"},
    "Board": {"map", "cities"},
    "Route": {"a", "b"},
    "Ticket": {"a", "b"},
    "TicketDeck": {"name"},
    "Setup": {"steps"},
    "Bonus": {"title"},
    "Decision": {"text"},
    "ScoreExample": {"player"},
    "ExampleScore": {"player", "targets"},
    "ExampleBonus": {"title"},
    "TunnelOutcome": {"a", "b"},
}

_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")
# Characters that may start or end inline markup, raw HTML, a link, a table cell or a heading.
_MARKUP = re.compile(r"([\\`*_\[\]<>|#~&])")
# A list marker where the text may start a line: `- `, `+ `, `1. `, `1) `.
_BULLET_START = re.compile(r"^(\s*)([-+=])")
_NUMBER_START = re.compile(r"^(\s*\d+)([.)])")


def markdown_text(text: str) -> str:
    """``text`` as plain text in Markdown: one line, every markup character escaped."""
    text = _LINE_BREAKS.sub(" ", text)
    text = _MARKUP.sub(r"\\\1", text)
    text = _BULLET_START.sub(r"\1\\\2", text, count=1)
    return _NUMBER_START.sub(r"\1\\\2", text, count=1)


def for_markdown(value: Any) -> Any:
    """A copy of an IR value whose text fields are escaped for Markdown (ids stay as they are)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        texts = TEXT_FIELDS.get(type(value).__name__, set())
        for field in dataclasses.fields(value):
            if not field.compare:
                continue  # spans (and other bookkeeping) are not shown
            current = getattr(value, field.name)
            if field.name in texts:
                changes[field.name] = _escaped(current)
            elif dataclasses.is_dataclass(current) or isinstance(current, tuple):
                changes[field.name] = for_markdown(current)
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(for_markdown(item) for item in value)
    return value


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return markdown_text(value)
    if isinstance(value, tuple):
        return tuple(_escaped(item) for item in value)
    return value
