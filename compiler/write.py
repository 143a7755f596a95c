"""Stage 8: write the output files all or nothing, or compare them (``--check``).

A build only ever replaces or deletes files it wrote itself. Each output folder
keeps a manifest (``MANIFEST``) of the files the builds wrote there; a folder
that is not empty and has no manifest is not a build output and is refused
whole, so a user's own files are never touched. No path under the output
folder may be a symbolic link, and a target that exists must be a regular file
(never a FIFO, a device or a folder).

Files are first written next to their targets under fresh temporary names,
then renamed into place, so an interrupted or failed build leaves the
previous output whole.
"""

from __future__ import annotations

import difflib
import importlib.machinery
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .diagnostics import Code, CompileError, Diagnostic
from .french import os_reason
from .frontend.positions import Span

MANIFEST = ".aventuriers-build"
MANIFEST_HEADER = "# Files written by `aventuriers build`; it replaces or deletes only these.\n"


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_FILE_MODE = _file_mode()


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """What a build does to an output folder."""

    files: dict[str, str]  # relative path -> text, the manifest included
    stale: tuple[str, ...]  # files the previous builds wrote that this one no longer produces
    foreign: tuple[str, ...]  # files inside the edition folders that no build wrote


def refused(path: Path | str, message: str, hint: str | None = None) -> CompileError:
    span = Span.of_path(str(path))
    return CompileError([Diagnostic(code=Code.OUTPUT_REFUSED, message=message, span=span, hint=hint)])


def check_output_file(path: Path) -> None:
    """One output file named by the user (`sheet -o`): refused (E313) where a build would refuse
    it, when a link, a folder, a FIFO or a device stands there; a regular file is replaced."""
    kind = _kind(path.parent, path.name)
    if kind not in ("file", "missing"):
        raise refused(path, f"la sortie serait écrite dans {kind} : rien n’a été écrit")


def plan(files: dict[str, str], out_dir: Path, owned: set[str] | None) -> Plan:
    """The plan of a build of ``files`` into ``out_dir``; raises CompileError when it is refused.

    ``owned`` is None for a full build (every file of the manifest is its to
    replace or delete), else the edition folders a partial build rebuilds.
    """
    previous = read_manifest(out_dir)
    stale = {
        relative for relative in previous - set(files) if owned is None or relative.split("/", 1)[0] in owned
    }
    for relative in sorted(files):
        kind = _kind(out_dir, relative)
        if kind == "missing":
            continue
        if kind != "file":
            raise refused(out_dir / relative, f"la sortie serait écrite dans {kind} : rien n’a été écrit")
        if relative not in previous:
            raise refused(
                out_dir / relative,
                "ce fichier existe et n’a pas été écrit par aventuriers : rien n’a été écrit",
                hint="choisissez un autre dossier avec --out, ou déplacez ce fichier",
            )
    for relative in sorted(stale):
        if _kind(out_dir, relative) not in ("file", "missing"):
            raise refused(out_dir / relative, "un fichier à retirer n’est plus un fichier ordinaire")
    kept = sorted((previous - stale) | set(files))
    manifest = MANIFEST_HEADER + "".join(f"{relative}\n" for relative in kept)
    return Plan(
        files={**files, MANIFEST: manifest},
        stale=tuple(sorted(stale)),
        foreign=tuple(_foreign(files, out_dir, set(kept))),
    )


def write_all(files: dict[str, str], out_dir: Path, owned: set[str] | None) -> list[str]:
    """Write ``files`` under ``out_dir`` and delete the stale files of earlier builds.

    Returns the relative paths that changed. Raises CompileError, having
    touched nothing, when the folder is not a build output or a path is unsafe.
    """
    build = plan(files, out_dir, owned)
    staged: list[tuple[str, Path]] = []
    created: list[Path] = []
    try:
        for relative, text in sorted(build.files.items()):
            target = out_dir / relative
            if _kind(out_dir, relative) == "file" and target.read_text(encoding="utf-8") == text:
                continue
            created.extend(_make_folders(target.parent))
            handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
            # mkstemp makes owner-only files; an output file gets the usual mode.
            os.chmod(temporary, _FILE_MODE)
            staged.append((relative, Path(temporary)))
    except OSError as error:
        for _, temporary in staged:
            temporary.unlink(missing_ok=True)
        for folder in reversed(created):
            _remove_if_empty(folder)
        raise refused(out_dir, f"écriture impossible ({os_reason(error)}) : rien n’a été écrit") from None
    for relative, temporary in staged:
        os.replace(temporary, out_dir / relative)
    for relative in build.stale:
        _delete(out_dir, relative)
    return [relative for relative, _ in staged if relative != MANIFEST] + list(build.stale)


def differences(files: dict[str, str], out_dir: Path, owned: set[str] | None) -> str:
    """A unified diff of what a build would change; empty when the output is current."""
    build = plan(files, out_dir, owned)
    chunks: list[str] = []
    for relative, text in sorted(build.files.items()):
        target = out_dir / relative
        current = target.read_text(encoding="utf-8") if _kind(out_dir, relative) == "file" else ""
        if current != text:
            chunks.extend(
                difflib.unified_diff(
                    current.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=f"{out_dir.name}/{relative} (committed)",
                    tofile=f"{out_dir.name}/{relative} (from the specs)",
                )
            )
    for relative in build.stale:
        chunks.append(f"{out_dir.name}/{relative}: not produced by the specs (stale)\n")
    for relative in build.foreign:
        chunks.append(f"{out_dir.name}/{relative}: not written by a build (remove it by hand)\n")
    return "".join(chunks)


def read_manifest(out_dir: Path, manifest_name: str = MANIFEST) -> set[str]:
    """The files earlier builds (or, with another ``manifest_name``, earlier runs of a tool) wrote
    in ``out_dir``; refuses a folder that is not such an output."""
    if out_dir.is_symlink():
        raise refused(out_dir, "le dossier de sortie est un lien symbolique : rien n’a été écrit")
    if not out_dir.exists():
        return set()
    if not out_dir.is_dir():
        raise refused(out_dir, "c’est un fichier, pas un dossier : rien n’a été écrit")
    manifest = out_dir / manifest_name
    if not manifest.is_symlink() and manifest.is_file():
        try:
            lines = manifest.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            lines = ["\0"]
        listed = {line for line in lines if line and not line.startswith("#")} - {manifest_name}
        if all(_is_clean(line) for line in listed):
            return listed
        raise refused(manifest, "manifeste de construction illisible : rien n’a été écrit")
    try:
        entries = [entry.name for entry in out_dir.iterdir()]
    except OSError as error:
        raise refused(out_dir, f"lecture impossible ({os_reason(error)})") from None
    if entries:
        tool = "aventuriers build" if manifest_name == MANIFEST else "cette commande"
        raise refused(
            out_dir,
            f"ce dossier n’est pas vide et n’a pas été produit par {tool} : rien n’a été écrit",
            hint="choisissez un dossier vide ou qui n’existe pas encore",
        )
    return set()


def _is_clean(relative: str) -> bool:
    path = PurePosixPath(relative)
    return not path.is_absolute() and ".." not in path.parts and "\\" not in relative and "\0" not in relative


def _kind(out_dir: Path, relative: str) -> str:
    """``file``, ``missing``, or (in French) what unsafe thing stands in the way."""
    path = out_dir
    parts = PurePosixPath(relative).parts
    for index, part in enumerate(parts):
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return "missing"
        except OSError:
            return "un chemin illisible"
        if stat.S_ISLNK(mode):
            return "un lien symbolique"
        last = index == len(parts) - 1
        if last and not stat.S_ISREG(mode):
            return "un dossier" if stat.S_ISDIR(mode) else "un fichier spécial (FIFO ou périphérique)"
        if not last and not stat.S_ISDIR(mode):
            return "un fichier qui devrait être un dossier"
    return "file"


def _foreign(files: dict[str, str], out_dir: Path, ours: set[str]) -> list[str]:
    """Files inside the edition folders of ``files`` that no build wrote (caches aside)."""
    found = []
    for folder in sorted({relative.split("/", 1)[0] for relative in files if "/" in relative}):
        root = out_dir / folder
        if root.is_symlink() or not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(out_dir).as_posix()
            if (
                "__pycache__" in path.parts
                or path.is_dir()
                or relative in ours
                or is_native_artefact(path.name)
            ):
                continue
            found.append(relative)
    return found


def is_native_artefact(name: str) -> bool:
    """A native build's compiled engine (`compiler.native`; `engine_native`, the mypyc build of
    versions before issue 23, may be left over in a checkout): a local artefact, never in a
    manifest and never a foreign file."""
    return name.startswith(("engine_native.", "engine_core.")) and name.endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
    )


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; returns those created, outermost first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
    return list(reversed(missing))


def _delete(out_dir: Path, relative: str) -> None:
    """Delete a file a build wrote, its bytecode, and the folders this leaves empty."""
    target = out_dir / relative
    target.unlink(missing_ok=True)
    cache = target.parent / "__pycache__"
    if target.suffix == ".py" and cache.is_dir() and not cache.is_symlink():
        for compiled in cache.glob(f"{target.stem}.*.pyc"):
            compiled.unlink(missing_ok=True)
        _remove_if_empty(cache)
    folder = target.parent
    while folder != out_dir and out_dir in folder.parents:
        if not _remove_if_empty(folder):
            break
        folder = folder.parent


def _remove_if_empty(folder: Path) -> bool:
    try:
        folder.rmdir()
    except OSError:
        return False
    return True


# The files `tournament` and `balance` wrote in a folder: a manifest of their own, so that a
# build never deletes their results, nor they a build's.
RESULTS_MANIFEST = ".aventuriers-resultats"
RESULTS_HEADER = "# Files written by `aventuriers tournament` and `balance`; they replace only these.\n"


class Results:
    """The files a long run (a tournament, a balance) writes into ``out_dir``, under a build's
    rules: checked before the first game (E313, nothing touched), each written beside its target
    under a temporary name (a stream may take hours), renamed into place only when complete."""

    def __init__(self, out_dir: Path, names: list[str]) -> None:
        previous = read_manifest(out_dir, RESULTS_MANIFEST)
        for name in [*names, RESULTS_MANIFEST]:
            kind = _kind(out_dir, name)
            if kind not in ("file", "missing"):
                raise refused(out_dir / name, f"la sortie serait écrite dans {kind} : rien n’a été écrit")
            if kind == "file" and name not in previous and name != RESULTS_MANIFEST:
                raise refused(
                    out_dir / name,
                    "ce fichier existe et n’a pas été écrit par aventuriers : rien n’a été écrit",
                    hint="choisissez un autre dossier avec --out, ou déplacez ce fichier",
                )
        self.out_dir, self.names, self.previous = out_dir, names, previous
        self.staged: dict[str, Path] = {}

    def temporary(self, name: str) -> Path:
        """A new file beside ``name``'s target, to write it into (its suffix kept for writers that read it)."""
        assert name in self.names, name
        _make_folders(self.out_dir)
        handle, temporary = tempfile.mkstemp(dir=self.out_dir, prefix=f".{name}.", suffix=Path(name).suffix)
        os.close(handle)
        os.chmod(temporary, _FILE_MODE)
        self.staged[name] = Path(temporary)
        return Path(temporary)

    def commit(self) -> list[Path]:
        """Every staged file into place, and the manifest; the paths written."""
        listed = sorted(self.previous | set(self.staged))
        manifest = self.temporary_manifest(RESULTS_HEADER + "".join(f"{name}\n" for name in listed))
        for name, temporary in self.staged.items():
            os.replace(temporary, self.out_dir / name)
        os.replace(manifest, self.out_dir / RESULTS_MANIFEST)
        written = [self.out_dir / name for name in self.names if name in self.staged]
        self.staged = {}
        return written

    def discard(self) -> None:
        for temporary in self.staged.values():
            temporary.unlink(missing_ok=True)
        self.staged = {}

    def temporary_manifest(self, text: str) -> Path:
        handle, temporary = tempfile.mkstemp(dir=self.out_dir, prefix=f".{RESULTS_MANIFEST}.", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.chmod(temporary, _FILE_MODE)
        return Path(temporary)
