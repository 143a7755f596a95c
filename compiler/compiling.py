"""Editions compiled for a command: every error of every file reported at once, the warnings a
user can act on, the compiled editions handed back.

The commands (``cli``) and the play commands (``play``) both compile through here. Cheap to
import, as the command line's start-up asks: what compiles is imported when it is used.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import cache
    from .build import CompiledEdition
    from .diagnostics import Diagnostic
    from .frontend.resolve import EditionLoader

# `--verbose`: the warnings of shipped editions too, whatever the command (set by `cli.main`).
verbose = False


def report(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
    from .diagnostics import render_all

    if diagnostics:
        print(render_all(diagnostics), file=sys.stderr)


def _for_the_user(warnings: list[Diagnostic], editions: EditionLoader, named: list[str]) -> list[Diagnostic]:
    """The warnings this user can act on: a shipped edition's are its maintainers' business,
    shown only to a `check` or `build` naming that edition (or with --verbose)."""
    from .build import edition_path
    from .diagnostics import CompileError

    if verbose:
        return warnings
    shipped = {editions.display_name(editions.path_of(name)) for name in editions.available()}
    asked = set()
    for name in named:
        try:
            asked.add(editions.display_name(edition_path(name, editions)))
        except CompileError:
            pass  # an unknown name: said among the errors
    return [w for w in warnings if w.span.source.name not in shipped or w.span.source.name in asked]


def compile_all(
    names: list[str], editions: EditionLoader, *, playable: bool = False, maintaining: bool = False
) -> tuple[list[CompiledEdition], bool]:
    """Compile every named edition, reporting every error of every file before giving up.

    With ``playable``, an abstract base is an error (E314), and so are two
    editions whose engines would share a module name (E315). With ``maintaining``
    (`check`, `build`), the warnings of the shipped editions named are shown too.
    """
    from .build import compile_edition, edition_path, module_clashes
    from .diagnostics import CompileError, unique

    compiled: list[CompiledEdition] = []
    failed: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for name in names:
        try:
            result = compile_edition(edition_path(name, editions), editions, playable=playable)
        except CompileError as error:
            failed.extend(error.diagnostics)
            continue
        if result is not None:
            compiled.append(result)
            warnings.extend(result.warnings)
    if playable:
        failed.extend(module_clashes(compiled))
    report(unique(failed + _for_the_user(warnings, editions, names if maintaining else [])))
    return compiled, not failed


def compile_one(name: str, inputs: cache.Inputs | None = None) -> CompiledEdition | None:
    """One playable edition compiled (a shipped name or a spec file); its errors printed, else None."""
    from .build import loader

    compiled, ok = compile_all([name], loader(inputs=inputs), playable=True)
    return compiled[0] if ok else None
