"""The emitters: the engine, the rule sheet, the differences page, the board picture
and the printable document, each from the IR."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"
# Each mechanism's engine parts: `NAME/engine/HOOK.py.j2` under this folder.
MECHANISM_TEMPLATES = Path(__file__).resolve().parents[1] / "mechanisms"


def template_environment(folder: Path = TEMPLATES, *, autoescape: bool) -> jinja2.Environment:
    """The house settings: undefined names fail, blocks leave no blank lines; ``autoescape``
    for SVG and HTML (every printed value escaped), off for Python and Markdown."""
    import jinja2  # here, so that the emitters' small helpers (escape) cost no template engine

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([folder, MECHANISM_TEMPLATES]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=autoescape,
    )
