"""Spec text: every string a spec writes between quotes.

A spec is data. Its strings (city and country names, titles, decisions, set-up
steps…) are ``Text`` from the moment they are read, and keep that type through
inheritance and into the IR, so an emitter knows them by their type, wherever
they sit: the Markdown outputs escape every ``Text`` (``emit.escape``), the
engines take them as Python literals. What the compiler derives from them (ids,
French sentences) is plain ``str``.
"""

from __future__ import annotations


class Text(str):
    """A string written in a spec: shown as text, never as markup or code."""

    __slots__ = ()
