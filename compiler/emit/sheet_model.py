"""The rule sheet as data: sections of French text the template only prints.

Shared by the sheet and the differences page: the section types, French
typography applied to a whole section, and the wording of tie-breakers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..french import typo
from ..ir import Edition
from ..mechanisms import tiebreaks


@dataclass(frozen=True, slots=True, kw_only=True)
class Subsection:
    title: str
    paragraphs: tuple[str, ...] = ()
    table: tuple[tuple[str, ...], ...] = ()
    after_table: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    title: str
    paragraphs: tuple[str, ...] = ()
    table: tuple[tuple[str, ...], ...] = ()  # after the paragraphs: a header row, then rows
    bullets: tuple[str, ...] = ()
    subsections: tuple[Subsection, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Sheet:
    title: str
    tagline: str
    sections: tuple[Section, ...]
    footer: str


def typeset(section: Section) -> Section:
    """French typography on every text of a section; tables hold numbers only."""
    texts = {name: tuple(typo(text) for text in getattr(section, name)) for name in ("paragraphs", "bullets")}
    subsections = tuple(
        replace(
            sub,
            title=typo(sub.title),
            paragraphs=tuple(map(typo, sub.paragraphs)),
            after_table=tuple(map(typo, sub.after_table)),
        )
        for sub in section.subsections
    )
    return replace(section, title=typo(section.title), subsections=subsections, **texts)


def tiebreak_phrases(edition: Edition) -> list[str]:
    """« le plus de tickets réussis », « le moins de gares construites », « la carte « … » »."""
    criteria = tiebreaks(edition)
    return [criteria[rule.name][1] for rule in edition.tiebreakers]
