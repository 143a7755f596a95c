"""Stage 7: the whole pipeline for one edition, from spec file to output files.

``compile_edition`` is pure: it returns the files to write (relative path →
text) and the warnings, and raises CompileError with every error found. Writing
is the next stage's job, so a failed build never touches ``generated/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Code, CompileError, Diagnostic, did_you_mean
from .emit.board import emit_board
from .emit.diff import emit_diff
from .emit.document import emit_document
from .emit.engine import emit_engine
from .emit.example import load_engine
from .emit.native_core import emit_core
from .emit.sheet import emit_sheet
from .frontend.lower import Document
from .frontend.positions import SourceFile, Span
from .frontend.resolve import SUFFIX, EditionLoader, unreadable
from .ir import Edition
from .ir.build import build
from .ir.cost import check_cost
from .mechanisms import board_marks

# The folder that holds compiler/, editions/, spec/ and generated/: the checkout,
# or the installed package ``aventuriers`` (same layout).
ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ROOT / "editions"
# The shipped engines and sheets; a build writes elsewhere unless told (see DEFAULT_OUT).
GENERATED = ROOT / "generated"
# Where `aventuriers build` writes without --out: ./generated of the working folder.
DEFAULT_OUT = Path("generated")
# The import name of the shipped engines: ``aventuriers.generated`` once installed,
# ``generated`` when the compiler runs as ``compiler`` from a checkout.
_PARENT_PACKAGE = (__package__ or "").rpartition(".")[0]
GENERATED_PACKAGE = f"{_PARENT_PACKAGE}.generated" if _PARENT_PACKAGE else "generated"

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
        return files


def output_files(compiled: list[CompiledEdition]) -> dict[str, str]:
    """Every file a build writes, relative to the output folder."""
    files = {"__init__.py": PACKAGE_INIT}
    for result in compiled:
        files.update(result.files)
    return files


def loader(root: Path = ROOT) -> EditionLoader:
    return EditionLoader(root / "editions", root)


def edition_path(name_or_path: str, editions: EditionLoader) -> Path:
    """A shipped edition by name (``usa-2025``), or a spec file by path.

    Raises CompileError (E312, with "did you mean") when neither exists.
    """
    candidate = Path(name_or_path)
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
    names = []
    for name in editions.available():
        text = editions.path_of(name).read_text(encoding="utf-8")
        if not any(line.strip() == "abstract" for line in text.splitlines()):
            names.append(name)
    return names


def compile_ir(path: Path, editions: EditionLoader, *, playable: bool = False) -> Edition | None:
    """The IR of one spec file; None for an abstract base (an E314 error when ``playable``)."""
    document, _ = editions.load(path)
    if document.data.get("abstract"):
        if playable:
            raise abstract_edition(document)
        return None
    return build(document)


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
                    span=edition.span or Span.whole_file(SourceFile(name=edition.name, text="")),
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
    document, warnings = editions.load(path)
    if document.data.get("abstract"):
        if playable:
            raise abstract_edition(document)
        return None
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
    )
