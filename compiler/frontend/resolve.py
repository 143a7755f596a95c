"""Stage 4: resolve an edition: load it with its ancestors, merge, check.

``extends NAME`` finds ``NAME.aventuriers`` beside the child, else in the
editions folder; cycles and unknown names are reported. Each file is parsed,
lowered and validated on its own, then merged over its parent (``merge``), and
the merged edition goes through the semantic checks (``check``).
"""

from __future__ import annotations

import dataclasses
import keyword
import re
import sys
from pathlib import Path

from ..cache import Inputs
from ..diagnostics import Code, CompileError, Diagnostic, did_you_mean, raise_if_errors
from ..write import os_reason
from .check import check
from .lower import Document, lower
from .merge import merge
from .parse import parse
from .positions import MAX_SOURCE_BYTES, FileTooLarge, SourceFile, Span
from .validate import incomplete_statements, missing_keys, validate

SUFFIX = ".aventuriers"
# The schema's identifier, matched whole (a trailing newline included).
IDENTIFIER = re.compile(r"[a-z0-9_]+(-[a-z0-9_]+)*")
MAX_EXTENDS_DEPTH = 16
# The blocks an edition may take whole from another one (`board from: legendary-asia { … }`).
SHARED_BLOCKS = ("board", "tickets")


def _edition_name_problems(name: str, path: Path, document: Document) -> list[Diagnostic]:
    """An edition is named like its file, and its engine's module name is a clean one."""
    span = document.span(("edition",))
    found = []
    if not IDENTIFIER.fullmatch(name):
        return found  # the schema says what is wrong
    if path.name.endswith(SUFFIX) and name != path.name[: -len(SUFFIX)]:
        found.append(
            Diagnostic(
                code=Code.EDITION_NAME_MISMATCH,
                message=f"l\u2019édition « {name} » doit s\u2019appeler comme son fichier",
                span=span,
                hint=f"renommez-la « {path.name[: -len(SUFFIX)]} »",
            )
        )
    module = name.replace("-", "_")
    if not module.isidentifier():
        reason = "un nom de module Python ne commence pas par un chiffre"
    elif keyword.iskeyword(module) or keyword.issoftkeyword(module):
        reason = f"« {module} » est un mot réservé de Python"
    elif module in sys.stdlib_module_names or module in ("aventuriers", "compiler", "generated"):
        reason = f"« {module} » masquerait un module Python du même nom"
    else:
        return found
    found.append(
        Diagnostic(
            code=Code.BAD_EDITION_NAME,
            message=f"« {name} » ne peut pas nommer une édition : {reason}",
            span=span,
            hint="choisissez un nom plus précis, par exemple « ma-variante »",
        )
    )
    return found


def load_document(path: Path, display_name: str) -> tuple[Document | None, list[Diagnostic]]:
    try:
        source = SourceFile.read(path, display_name)
    except FileTooLarge:
        span = Span.of_path(display_name)
        message = f"fichier trop gros : une spec fait au plus {MAX_SOURCE_BYTES:,} octets".replace(
            ",", "\u202f"
        )
        return None, [Diagnostic(code=Code.LIMIT_EXCEEDED, message=message, span=span)]
    except (OSError, UnicodeDecodeError) as error:
        return None, [unreadable(display_name, error)]
    key = (source.name, source.text)
    found = _LOADED.get(key)
    if found is None:
        found = _LOADED[key] = _checked_document(source)
        while len(_LOADED) > LOADED_SIZE:
            del _LOADED[next(iter(_LOADED))]
    document, diagnostics = found
    if document is None:
        return None, list(diagnostics)
    # The caller's own copy: merging and editing build on what they are given.
    return (
        Document(
            source=document.source,
            data=_fresh(document.data),
            spans=dict(document.spans),
            removed=document.removed,
            edits=dict(document.edits),
        ),
        list(diagnostics),
    )


# What each file's text parsed, lowered and validated to, by its display name and text: an
# edition's ancestors, and the editions a variant extends, are read again and again by a build,
# a server or the tests, and give the same document each time. The oldest are forgotten.
_LOADED: dict[tuple[str, str], tuple[Document | None, tuple[Diagnostic, ...]]] = {}
LOADED_SIZE = 128


def _checked_document(source: SourceFile) -> tuple[Document | None, tuple[Diagnostic, ...]]:
    try:
        tree = parse(source)
    except CompileError as error:
        return None, tuple(error.diagnostics)
    document, diagnostics = lower(tree, source)
    # One error per place: what lowering refused is not reported again by the schema.
    refused = {(d.span.line, d.span.column) for d in diagnostics}
    checked = [d for d in validate(document, complete=False) if (d.span.line, d.span.column) not in refused]
    return document, tuple(diagnostics + checked)


def _fresh(value):
    """A copy of lowered data, its dicts and lists new (the rest is immutable)."""
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


def unreadable(name: str, error: Exception, hint: str | None = None) -> Diagnostic:
    """A spec file that cannot be read: missing, a folder, not UTF-8 text."""
    if isinstance(error, FileNotFoundError):
        reason = "fichier introuvable"
    elif isinstance(error, IsADirectoryError):
        reason = "c\u2019est un dossier, pas un fichier de spec"
    elif isinstance(error, UnicodeDecodeError):
        reason = "ce n\u2019est pas du texte UTF-8"
    else:
        reason = f"lecture impossible ({os_reason(error)})"
    span = Span.of_path(name)
    return Diagnostic(code=Code.UNREADABLE_FILE, message=reason, span=span, hint=hint)


class EditionLoader:
    """Finds editions by name in a folder and resolves their ``extends`` chains."""

    def __init__(self, editions_dir: Path, root: Path | None = None, inputs: Inputs | None = None):
        self.editions_dir = editions_dir
        self.root = root or editions_dir.parent
        # Every spec file read and every folder looked in: what a remembered answer depends on.
        self.inputs = inputs if inputs is not None else Inputs()

    def display_name(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()

    def available(self) -> list[str]:
        self.inputs.looked_in(self.editions_dir)
        return sorted(path.name[: -len(SUFFIX)] for path in self.editions_dir.glob("*" + SUFFIX))

    def path_of(self, name: str) -> Path:
        self.inputs.looked_in(self.editions_dir)
        return self.editions_dir / (name + SUFFIX)

    def load(self, path: Path) -> tuple[Document, list[Diagnostic]]:
        """The merged, checked document of the edition in ``path``; raises CompileError."""
        diagnostics: list[Diagnostic] = []
        self.chain: list[str] = []  # display names of the files read, base first
        self.chain_paths: list[Path] = []
        document = self._load_chain(path, diagnostics, stack=())
        raise_if_errors(diagnostics)
        assert document is not None
        if document.data.get("abstract"):
            # A base may leave keys to its children; everything it declares whole is checked.
            left = incomplete_statements(document)
            whole = {key: value for key, value in document.data.items() if key not in left}
            diagnostics.extend(check(dataclasses.replace(document, data=whole)))
            raise_if_errors(diagnostics)
            return document, diagnostics
        diagnostics.extend(self._blame_child(missing_keys(document), document))
        raise_if_errors(diagnostics)
        diagnostics.extend(check(document))
        raise_if_errors(diagnostics)
        return document, diagnostics

    @staticmethod
    def _blame_child(found: list[Diagnostic], document: Document) -> list[Diagnostic]:
        """A key missing from the merged edition is the edition's to add, not its base's."""
        edition_span = document.span(("edition",))
        blamed = []
        for diagnostic in found:
            if diagnostic.span.source.name == document.source.name:
                blamed.append(diagnostic)
                continue
            hint = f"le bloc vient de {diagnostic.span.short} ; ajoutez la clé dans cette édition"
            blamed.append(
                Diagnostic(code=diagnostic.code, message=diagnostic.message, span=edition_span, hint=hint)
            )
        return blamed

    def parent_path(self, name: str, child: Path) -> Path:
        """``extends NAME``: a spec beside the child file first (never the child itself),
        then a shipped edition."""
        beside = child.parent / (name + SUFFIX)
        if beside.exists() and beside.resolve() != child.resolve():
            return beside
        return self.path_of(name)

    def _unreachable(
        self, name: str, target: Path, path: Path, stack: tuple[Path, ...], span: Span
    ) -> Diagnostic | None:
        """Why the edition ``name`` (at ``target``), named in ``path``, cannot be read: unknown, or
        already being read (a cycle); None when it can."""
        if not target.exists():
            beside = [p.name[: -len(SUFFIX)] for p in path.parent.glob("*" + SUFFIX)]
            return Diagnostic(
                code=Code.UNKNOWN_EDITION,
                message=f"édition inconnue « {name} »",
                span=span,
                hint=did_you_mean(name, self.available() + beside),
            )
        if target.resolve() in stack or target.resolve() == path.resolve():
            chain = " → ".join([p.stem for p in stack] + [path.stem, name])
            return Diagnostic(code=Code.EXTENDS_CYCLE, message=f"héritage circulaire : {chain}", span=span)
        return None

    def _take_block(
        self, document: Document, key: str, path: Path, diagnostics: list[Diagnostic], stack: tuple[Path, ...]
    ) -> Document | None:
        """``board from: NAME { … }``: the named edition's block, the document's own statements
        over it (as a variant's over its parent's), in place of the document's block."""
        name = document.data[key]["from"]
        span = document.span((key, "from"))
        source_path = self.parent_path(name, path)
        problem = self._unreachable(name, source_path, path, stack, span)
        if problem is not None:
            diagnostics.append(problem)
            return None
        # The files read for the block are sources of the engine, not ancestors of the edition.
        chain, chain_paths = list(self.chain), list(self.chain_paths)
        source = self._load_chain(source_path, diagnostics, stack + (path.resolve(),))
        taken = [name for name in self.chain if name not in chain]
        self.chain, self.chain_paths = taken + chain, chain_paths
        if source is None:
            return None
        if key not in source.data:
            diagnostics.append(
                Diagnostic(
                    code=Code.UNKNOWN_REFERENCE,
                    message=f"l’édition « {name} » n’a pas de bloc « {key} » à partager",
                    span=span,
                )
            )
            return None
        given = Document(
            source=source.source,
            data={key: source.data[key]},
            spans={p: s for p, s in source.spans.items() if p[:1] == (key,)},
        )
        own = Document(
            source=document.source,
            data={key: {k: v for k, v in document.data[key].items() if k != "from"}},
            spans={p: s for p, s in document.spans.items() if p[:1] == (key,)},
        )
        merged, problems = merge(given, own)
        diagnostics.extend(problems)
        spans = {p: s for p, s in document.spans.items() if p[:1] != (key,)}
        spans.update(merged.spans)
        return Document(
            source=document.source,
            data={**document.data, key: merged.data[key]},
            spans=spans,
            removed=document.removed | merged.removed,
            edits=document.edits,
        )

    def _load_chain(self, path: Path, diagnostics: list[Diagnostic], stack: tuple[Path, ...]):
        self.inputs.read(path)
        document, found = load_document(path, self.display_name(path))
        diagnostics.extend(found)
        if document is None:
            return None
        name = document.data.get("edition")
        if isinstance(name, str):
            diagnostics.extend(_edition_name_problems(name, path, document))
        parent_name = document.data.get("extends")
        self.chain.insert(0, document.source.name)
        self.chain_paths.insert(0, path)
        if any(not d.code.is_warning for d in found):
            # Merging a document the schema refused would only add confusing errors.
            return None
        shared = [
            key
            for key in SHARED_BLOCKS
            if isinstance(document.data.get(key), dict) and "from" in document.data[key]
        ]
        for key in shared:
            document = self._take_block(document, key, path, diagnostics, stack)
            if document is None:
                return None
        if not isinstance(parent_name, str) or not IDENTIFIER.fullmatch(parent_name):
            for key in ("without", "change"):
                if key in document.data and parent_name is None:
                    diagnostics.append(
                        Diagnostic(
                            code=Code.INCONSISTENT_RULE,
                            message=f"« {key} » modifie une édition héritée : il faut « extends »",
                            span=document.span((key,)),
                        )
                    )
            return document  # a path or a malformed name is never read (the schema reported it)
        if len(stack) >= MAX_EXTENDS_DEPTH:
            diagnostics.append(
                Diagnostic(
                    code=Code.LIMIT_EXCEEDED,
                    message=f"chaîne d\u2019héritage trop longue (au plus {MAX_EXTENDS_DEPTH} niveaux)",
                    span=document.span(("extends",)),
                )
            )
            return None
        parent_path = self.parent_path(parent_name, path)
        span = document.span(("extends",))
        shipped = self.path_of(parent_name)
        if parent_path == shipped and path.resolve() != shipped.resolve() and path.name == shipped.name:
            diagnostics.append(
                Diagnostic(
                    code=Code.SHADOWS_EDITION,
                    message=f"ce fichier porte le nom de l’édition livrée « {parent_name} » : "
                    "« extends » désigne l’édition livrée",
                    span=span,
                    hint="donnez à la variante un nom à elle, par exemple « " + parent_name + "-variante »",
                )
            )
        problem = self._unreachable(parent_name, parent_path, path, stack, span)
        if problem is not None:
            diagnostics.append(problem)
            return None
        parent = self._load_chain(parent_path, diagnostics, stack + (path.resolve(),))
        if parent is None:
            return None
        if shared:
            # A block taken from another edition replaces the inherited one whole.
            parent = Document(
                source=parent.source,
                data={key: value for key, value in parent.data.items() if key not in shared},
                spans={
                    p: span for p, span in parent.spans.items() if p[:1] not in [(key,) for key in shared]
                },
                removed=parent.removed,
                edits=parent.edits,
            )
        merged, problems = merge(parent, document)
        diagnostics.extend(problems)
        if "abstract" not in document.data:
            merged.data.pop("abstract", None)  # abstractness is not inherited
        return merged
