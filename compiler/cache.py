"""What a command need not compute again: the shipped editions' outputs, and a user's answers.

Compiling a spec takes about a second; most commands ask for what an earlier compile already
made. Two stores answer them, both keyed by everything the answer depends on:

- **the shipped editions' outputs**, in the package: `generated/<module>/edition.json`, written
  by the build beside the engine and the sheet, records the compiler's fingerprint and the digest
  of every spec file the edition was compiled from (with the few facts `aventuriers editions`
  lists). While the compiler and those files are unchanged, `editions` and `sheet` read the
  shipped files instead of compiling; a checkout whose specs or compiler were edited since the
  build compiles as before.
- **the user cache** (`$AVENTURIERS_CACHE/results`, else `~/.cache/aventuriers/results`): a
  command's answer for a spec (the text it printed, its exit status), under the hash of the
  command, its arguments, the working folder and the compiler's fingerprint, with every spec file
  its compile read and the spec files of every folder it looked in. A change to any of them, a
  new spec beside a variant included, makes the entry unusable.

The parser's tables (frontend/parse.py) are kept in the same folder, under `parser/`: they
depend on the grammar alone, so `AVENTURIERS_NO_CACHE` leaves them on. Like everything in the
folder, they are the user's own files, read as trusted (lark loads them with pickle).

The compiler's fingerprint is the digest of its own files (the modules, templates and schemas
that ship); the stat of those files is remembered with it, so that a run reads them only when
one changed. This module imports only the standard library: a cached answer costs no compiler.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from .frontend.positions import MAX_SOURCE_BYTES
from .layout import ROOT, SPEC_SUFFIX

# The files whose text makes the compiler what it is: everything that ships under compiler/
# (its fixtures are tests) and the grammar and the schema.
_COMPILER_SUFFIXES = (".py", ".j2", ".json")
_SPEC_FILES = ("aventuriers.lark", "schema.json")
# Past this many answers, the oldest are forgotten at the next write.
MAX_RESULTS = 500
EDITION_FILE = "edition.json"


def cache_root() -> Path:
    """$AVENTURIERS_CACHE, else the user's cache folder (XDG), `aventuriers` in it."""
    if os.environ.get("AVENTURIERS_CACHE"):
        return Path(os.environ["AVENTURIERS_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aventuriers"


def digest_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def file_digest(path: Path) -> str | None:
    """What a spec file holds, as the compiler reads it (a byte-order mark dropped); None when
    there is no such file; a mark for what is no regular file (a folder, a device, a FIFO: never
    read, as `/dev/zero` would never end) and a digest of the bytes when they are not UTF-8 text."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"unreadable:{error.errno}"
    if not stat.S_ISREG(info.st_mode):
        return f"special:{stat.S_IFMT(info.st_mode)}"
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_SOURCE_BYTES + 1)
    except OSError as error:
        return f"unreadable:{error.errno}"
    try:
        return digest_text(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return "bytes:" + hashlib.sha256(data).hexdigest()


def spec_names(folder: Path) -> list[str]:
    """The spec files of a folder, sorted: what `extends` may find there."""
    try:
        return sorted(path.name for path in folder.glob("*" + SPEC_SUFFIX))
    except OSError:
        return []


def _compiler_files(root: Path) -> list[Path]:
    found = []
    # os.walk, not Path.rglob: this runs at every command, and rglob costs several times more.
    for folder, subfolders, names in os.walk(root / "compiler"):
        subfolders[:] = sorted(name for name in subfolders if name not in ("fixtures", "__pycache__"))
        found += [Path(folder, name) for name in names if name.endswith(_COMPILER_SUFFIXES)]
    found += [root / "spec" / name for name in _SPEC_FILES]
    return sorted(found)


# Per process: root -> (fingerprint, whether every file was read for it).
_fingerprints: dict[Path, tuple[str, bool]] = {}


def fingerprint(root: Path = ROOT, *, fresh: bool = False) -> str:
    """The digest of the compiler's own files. Their stat is remembered with it (one entry per
    installation), so that a run reads them only when one changed; a build, which writes the
    fingerprint into `generated/`, reads them all (`fresh`)."""
    known_here = _fingerprints.get(root)
    if known_here is not None and (known_here[1] or not fresh):
        return known_here[0]
    files = _compiler_files(root)
    stats = hashlib.sha256()
    for path in files:
        info = path.stat()
        stats.update(f"{path}|{info.st_size}|{info.st_mtime_ns}\n".encode())
    where = hashlib.sha256(str(root).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    remembered = cache_root() / "fingerprints" / f"{where}.json"
    known = _read_json(remembered)
    if not fresh and isinstance(known, dict) and known.get("stats") == stats.hexdigest():
        value, read_all = str(known.get("digest")), False
    else:
        content = hashlib.sha256()
        for path in files:
            content.update(path.relative_to(root).as_posix().encode() + b"\0")
            content.update(hashlib.sha256(path.read_bytes()).digest())
        value, read_all = content.hexdigest(), True
        _write_json(remembered, {"stats": stats.hexdigest(), "digest": value})
    _fingerprints[root] = (value, read_all)
    return value


class Inputs:
    """What a compile depended on: the spec files it read (by digest) and the folders it
    looked in for one (by their spec files' names). Filled by the edition loader."""

    def __init__(self) -> None:
        self.files: dict[str, str | None] = {}
        self.folders: dict[str, list[str]] = {}

    def read(self, path: Path) -> None:
        self.files[str(path.resolve())] = file_digest(path)
        self.looked_in(path.parent)

    def looked_in(self, folder: Path) -> None:
        key = str(folder.resolve())
        if key not in self.folders:
            self.folders[key] = spec_names(folder)

    def named(self, argument: str) -> None:
        """A command-line argument, which may name a file of the working folder."""
        self.files[argument] = file_digest(Path(argument))
        self.looked_in(Path(argument).parent)

    def as_json(self) -> dict:
        return {"files": dict(sorted(self.files.items())), "folders": dict(sorted(self.folders.items()))}

    @staticmethod
    def unchanged(recorded: object) -> bool:
        if not isinstance(recorded, dict):
            return False
        files, folders = recorded.get("files"), recorded.get("folders")
        if not isinstance(files, dict) or not isinstance(folders, dict):
            return False
        return all(file_digest(Path(path)) == digest for path, digest in files.items()) and all(
            spec_names(Path(folder)) == names for folder, names in folders.items()
        )


def _key(command: str, arguments: Iterable[object]) -> str:
    parts = [command, fingerprint(), str(ROOT), os.getcwd(), *map(repr, arguments)]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def recall(command: str, arguments: Iterable[object]) -> dict | None:
    """The answer remembered for this command and these arguments, if nothing it depends on
    changed since; else None."""
    if os.environ.get("AVENTURIERS_NO_CACHE"):
        return None
    entry = _read_json(cache_root() / "results" / f"{_key(command, arguments)}.json")
    if not isinstance(entry, dict) or not Inputs.unchanged(entry.get("inputs")):
        return None
    answer = entry.get("answer")
    return answer if isinstance(answer, dict) else None


def remember(command: str, arguments: Iterable[object], inputs: Inputs, answer: dict) -> None:
    """Keep an answer for the next run; a cache that cannot be written only costs it time."""
    if os.environ.get("AVENTURIERS_NO_CACHE"):
        return
    folder = cache_root() / "results"
    _write_json(folder / f"{_key(command, arguments)}.json", {"inputs": inputs.as_json(), "answer": answer})
    try:
        entries = sorted(folder.glob("*.json"), key=lambda path: path.stat().st_mtime_ns)
        for old in entries[: max(0, len(entries) - MAX_RESULTS)]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def edition_record(
    title: str,
    players: Iterable[int],
    side: int,
    stand_in: bool,
    sources: dict[str, str],
    ancestry: Iterable[str],
    mechanisms: Iterable[str],
) -> str:
    """`edition.json` of a shipped edition: what it was compiled from (`ancestry`: the editions
    it extends, its base first, and itself; `sources` every spec file read, blocks taken from
    another edition included), what `editions` says, and the mechanisms its rules use (in the
    registry's order: the tests pick by them the editions a quick run plays in full)."""
    record = {
        "compiler": fingerprint(fresh=True),
        "sources": dict(sorted(sources.items())),
        "ancestry": list(ancestry),
        "title": title,
        "players": list(players),
        "side": side,
        "stand_in": stand_in,
        "mechanisms": list(mechanisms),
    }
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"


def shipped_record(module: str, root: Path = ROOT) -> dict | None:
    """A shipped edition's `edition.json` when its outputs are what the compiler and the specs
    would make now; None when either changed since the build (or nothing was built)."""
    record = _read_json(root / "generated" / module / EDITION_FILE)
    if not isinstance(record, dict) or record.get("compiler") != fingerprint(root):
        return None
    sources = record.get("sources")
    if not isinstance(sources, dict) or not sources:
        return None
    if any(file_digest(root / name) != digest for name, digest in sources.items()):
        return None
    return record


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_json(path: Path, value: object) -> None:
    write_atomically(path, json.dumps(value, ensure_ascii=False).encode("utf-8"))


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` whole or not at all (a reader never sees half a file); a cache
    that cannot be written is only a cache, so an OSError is swallowed."""
    import tempfile  # only when something is written

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".tmp-", delete=False) as stream:
            stream.write(data)
        os.replace(stream.name, path)
    except OSError:
        with contextlib.suppress(OSError, NameError):
            os.unlink(stream.name)


class Memo:
    """Compiles already made in this process, each kept with the inputs it read: a process that
    compiles the same spec again (a build's annexes, a server, the tests, an editor's server)
    gets the same result while none of those inputs changed, and compiles anew otherwise. The
    oldest are forgotten past `size`."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.entries: dict[tuple, tuple[dict, object]] = {}

    def get(self, key: tuple) -> tuple[dict, object] | None:
        """What `put` kept under `key` (the inputs as `Inputs.as_json` writes them, and the
        value), if those inputs are unchanged; None else."""
        found = self.entries.get(key)
        if found is None or not Inputs.unchanged(found[0]):
            return None
        return found

    def put(self, key: tuple, inputs: Inputs, value: object) -> None:
        self.entries.pop(key, None)
        self.entries[key] = (inputs.as_json(), value)
        while len(self.entries) > self.size:
            del self.entries[next(iter(self.entries))]
