"""Stage 7: the whole pipeline for one edition, from spec file to output files.

``compile_edition`` is pure: it returns the files to write (relative path →
text) and the warnings, and raises CompileError with every error found. Writing
is the next stage's job, so a failed build never touches ``generated/``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .cache import EDITION_FILE, Inputs, Memo, edition_record
from .diagnostics import Code, CompileError, Diagnostic, did_you_mean
from .emit.board import emit_board
from .emit.diff import emit_diff
from .emit.document import emit_document
from .emit.engine import emit_engine
from .emit.example import load_engine
from .emit.native_core import emit_core
from .emit.sheet import emit_sheet
from .frontend.lower import PUBLISHED_SCHEMA, Document, published_schema
from .frontend.positions import Span
from .frontend.resolve import SUFFIX, EditionLoader, unreadable
from .ir import Edition
from .ir.build import build
from .ir.cost import check_cost

# GENERATED and GENERATED_PACKAGE are named here too for the tests and play/ that import them from here.
from .layout import GENERATED as GENERATED
from .layout import GENERATED_PACKAGE as GENERATED_PACKAGE
from .layout import ROOT, playable_specs
from .mechanisms import board_marks, side_size, used_by

# Where `aventuriers build` writes without --out: ./generated of the working folder.
DEFAULT_OUT = Path("generated")

PACKAGE_INIT = '"""Generated rules engines, one package per edition. Built by `aventuriers build`."""\n'


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledEdition:
    edition: Edition
    sources: tuple[str, ...]
    engine_source: str
    sheet: str
    board_svg: str | None  # None when the spec places no city on the map
    warnings: tuple[Diagnostic, ...]
    # The native playout's Cython source, where the core covers the edition's rules.
    core_source: str | None = None
    # `edition.json`, for an edition compiled only from spec files of the editions folder (a
    # shipped one): what its outputs come from, so that commands can use them unchanged.
    record: str | None = None

    def document(self) -> str:
        """The printable sheet: one self-contained HTML file."""
        return emit_document(self.edition, self.sheet, self.board_svg)

    @property
    def files(self) -> dict[str, str]:
        """Output files, relative to the output folder."""
        package = self.edition.module_name
        init = (
            f'"""{self.edition.name}: generated rules engine, French rule sheet (fiche.md) and board (plateau.svg)."""\n\n'
            "from .engine import *  # noqa: F403\n"
            "from .engine import __all__  # noqa: F401\n"
        )
        files = {
            f"{package}/__init__.py": init,
            f"{package}/engine.py": self.engine_source,
            f"{package}/fiche.md": self.sheet,
        }
        if self.board_svg is not None:
            files[f"{package}/plateau.svg"] = self.board_svg
        if self.core_source is not None:
            files[f"{package}/engine_core.pyx"] = self.core_source
        if self.record is not None:
            files[f"{package}/{EDITION_FILE}"] = self.record
        return files


def output_files(compiled: list[CompiledEdition]) -> dict[str, str]:
    """Every file a build writes, relative to the output folder: the editions' packages, and the
    language's whole schema (the core one with every mechanism's keys)."""
    files = {"__init__.py": PACKAGE_INIT, PUBLISHED_SCHEMA: published_schema()}
    for result in compiled:
        files.update(result.files)
    return files


def loader(root: Path = ROOT, inputs: Inputs | None = None) -> EditionLoader:
    return EditionLoader(root / "editions", root, inputs)


def edition_path(name_or_path: str, editions: EditionLoader) -> Path:
    """A shipped edition by name (``usa-2025``), or a spec file by path.

    Raises CompileError (E312, with "did you mean") when neither exists.
    """
    candidate = Path(name_or_path)
    editions.inputs.named(name_or_path)
    if candidate.suffix == SUFFIX or candidate.exists():
        return candidate
    shipped = editions.path_of(name_or_path)
    if not shipped.exists():
        hint = did_you_mean(name_or_path, editions.available()) or "éditions : " + ", ".join(
            editions.available()
        )
        raise CompileError([unreadable(name_or_path, FileNotFoundError(name_or_path), hint)])
    return shipped


def shipped_editions(editions: EditionLoader) -> list[str]:
    """The playable editions of the editions folder (abstract bases are left out)."""
    editions.inputs.looked_in(editions.editions_dir)
    return playable_specs(editions.editions_dir)


# The editions this process compiled, and their IRs (see cache.Memo).
_COMPILED = Memo()
_IRS = Memo()


@dataclass(frozen=True, slots=True)
class _Abstract:
    """What compiling an abstract base gives: nothing to play, and the error for who wanted to."""

    error: CompileError


def _remembered(memo: Memo, path: Path, editions: EditionLoader, playable: bool, compute):
    """`compute(read)` (`read`: the Inputs the loader fills meanwhile), or what it gave when this
    process last asked with the same inputs; the loader learns what was read either way, and its
    chain is the edition's. An abstract base is None, or its E314 error when ``playable``."""
    value = _recalled(memo, path, editions, compute)
    if isinstance(value, _Abstract):
        if playable:
            raise value.error
        return None
    return value


def _recalled(memo: Memo, path: Path, editions: EditionLoader, compute):
    # The path as given (its display name is, outside the editions' root) and where from.
    key = (str(path), os.getcwd(), str(editions.editions_dir), str(editions.root))
    found = memo.get(key)
    if found is not None:
        recorded, (chain, chain_paths, value) = found
        editions.inputs.files.update(recorded["files"])
        editions.inputs.folders.update(recorded["folders"])
        editions.chain, editions.chain_paths = list(chain), list(chain_paths)
        return value
    outer, editions.inputs = editions.inputs, Inputs()
    try:
        value = compute(editions.inputs)
    finally:
        read, editions.inputs = editions.inputs, outer
        outer.files.update(read.files)
        outer.folders.update(read.folders)
    memo.put(key, read, (tuple(editions.chain), tuple(editions.chain_paths), value))
    return value


def compile_ir(path: Path, editions: EditionLoader, *, playable: bool = False) -> Edition | None:
    """The IR of one spec file; None for an abstract base (an E314 error when ``playable``)."""

    def compute(read: Inputs) -> Edition | _Abstract:
        document, _ = editions.load(path)
        if document.data.get("abstract"):
            return _Abstract(abstract_edition(document))
        return build(document)

    return _remembered(_IRS, path, editions, playable, compute)


def abstract_edition(document: Document) -> CompileError:
    name = document.data.get("edition", document.source.name)
    return CompileError(
        [
            Diagnostic(
                code=Code.ABSTRACT_EDITION,
                message=f"« {name} » est une base abstraite : elle ne se joue pas et ne se construit pas seule",
                span=document.span(("abstract",)),
                hint="utilisez une édition qui l’étend",
            )
        ]
    )


def module_clashes(compiled: list[CompiledEdition]) -> list[Diagnostic]:
    """Editions whose engines would share one package name (``a-b`` and ``a_b``)."""
    by_module: dict[str, list[Edition]] = {}
    for result in compiled:
        by_module.setdefault(result.edition.module_name, []).append(result.edition)
    found = []
    for module, editions in sorted(by_module.items()):
        names = sorted({edition.name for edition in editions})
        if len(names) < 2:
            continue
        for edition in editions:
            found.append(
                Diagnostic(
                    code=Code.MODULE_NAME_CLASH,
                    message=f"les éditions {' et '.join(f'« {n} »' for n in names)} auraient le même "
                    f"module Python « {module} »",
                    span=edition.span or Span.of_path(edition.name),
                    hint="construisez-les séparément, dans des dossiers différents",
                )
            )
    return found


def playable_ancestor(ancestors: list[Path], editions: EditionLoader) -> Edition | None:
    """The nearest edition this one extends that is played on its own, if any."""
    for path in reversed(ancestors):
        edition = compile_ir(path, EditionLoader(editions.editions_dir, editions.root))
        if edition is not None:
            return edition
    return None


def compile_edition(path: Path, editions: EditionLoader, *, playable: bool = False) -> CompiledEdition | None:
    """Compile one spec file; None for an abstract base (an E314 error when ``playable``).

    An edition that extends a playable one gets, as an annex to its sheet, the
    page of its differences with it.
    """
    return _remembered(_COMPILED, path, editions, playable, lambda read: _compiled(path, editions, read))


def _compiled(path: Path, editions: EditionLoader, read: Inputs) -> CompiledEdition | _Abstract:
    document, warnings = editions.load(path)
    if document.data.get("abstract"):
        return _Abstract(abstract_edition(document))
    edition = build(document)
    too_costly = check_cost(edition)
    if too_costly:
        raise CompileError(too_costly)
    sources = tuple(editions.chain)
    ancestor = playable_ancestor(list(editions.chain_paths[:-1]), editions)
    engine_source = emit_engine(edition, sources)
    engine = load_engine(engine_source, edition.module_name)
    annex = emit_diff(ancestor, edition, annex=True) if ancestor else None
    return CompiledEdition(
        edition=edition,
        sources=sources,
        engine_source=engine_source,
        sheet=emit_sheet(edition, engine, annex=annex),
        board_svg=emit_board(edition.board, edition.title, board_marks(edition)),
        warnings=tuple(warnings),
        core_source=emit_core(edition, sources),
        record=_shipped_record(edition, read, editions),
    )


def _shipped_record(edition: Edition, read: Inputs, editions: EditionLoader) -> str | None:
    """`edition.json` when every spec file the edition was compiled from lies in the editions
    folder (by their paths from the package's root), else None."""
    root, folder = editions.root.resolve(), editions.editions_dir.resolve()
    sources = {}
    for name, digest in read.files.items():
        path = Path(name).resolve()
        if digest is None:
            continue  # looked for and absent: `extends` found the edition elsewhere
        if path.parent != folder:
            return None
        sources[path.relative_to(root).as_posix()] = digest
    players = (edition.players.min, edition.players.max)
    stand_in = bool(edition.board.stand_in)
    ancestry = [path.name[: -len(SUFFIX)] for path in editions.chain_paths]
    mechanisms = [mechanism.name for mechanism in used_by(edition)]
    return edition_record(edition.title, players, side_size(edition), stand_in, sources, ancestry, mechanisms)
