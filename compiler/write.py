"""Stage 8: write the output files all or nothing, or compare them (``--check``).

Files are first written next to their targets under temporary names, then
renamed into place, so an interrupted or failed build leaves the previous
output whole.
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path


def write_all(files: dict[str, str], out_dir: Path, owned_dirs: set[str]) -> list[str]:
    """Write ``files`` under ``out_dir``; remove stale files in the ``owned_dirs`` it fully rebuilt.

    Returns the relative paths that changed.
    """
    staged: list[tuple[Path, Path]] = []
    changed: list[str] = []
    try:
        for relative, text in sorted(files.items()):
            target = out_dir / relative
            if target.exists() and target.read_text(encoding="utf-8") == text:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.tmp")
            temporary.write_text(text, encoding="utf-8", newline="\n")
            staged.append((temporary, target))
            changed.append(relative)
    except OSError:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    for temporary, target in staged:
        os.replace(temporary, target)
    for stale in stale_files(files, out_dir, owned_dirs):
        path = out_dir / stale
        shutil.rmtree(path) if path.is_dir() else path.unlink()
        changed.append(stale)
    return changed


def stale_files(files: dict[str, str], out_dir: Path, owned_dirs: set[str]) -> list[str]:
    """Files and folders in the owned part of ``out_dir`` that the build did not produce."""
    stale = []
    wanted = set(files)
    wanted_dirs = {relative.split("/", 1)[0] for relative in files}
    if not out_dir.is_dir():
        return stale
    for entry in sorted(out_dir.iterdir()):
        name = entry.name
        if name.startswith(".") or name == "__pycache__":
            continue
        if entry.is_dir():
            if name not in owned_dirs and name not in wanted_dirs:
                continue
            if name not in wanted_dirs:
                stale.append(name)
                continue
            for inner in sorted(entry.rglob("*")):
                relative = inner.relative_to(out_dir).as_posix()
                if inner.is_file() and "__pycache__" not in inner.parts and relative not in wanted:
                    stale.append(relative)
        elif "" in owned_dirs and name not in wanted:
            stale.append(name)
    return stale


def differences(files: dict[str, str], out_dir: Path, owned_dirs: set[str]) -> str:
    """A unified diff of what a build would change; empty when the output is current."""
    chunks: list[str] = []
    for relative, text in sorted(files.items()):
        target = out_dir / relative
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            chunks.extend(
                difflib.unified_diff(
                    current.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=f"{out_dir.name}/{relative} (committed)",
                    tofile=f"{out_dir.name}/{relative} (from the specs)",
                )
            )
    for stale in stale_files(files, out_dir, owned_dirs):
        chunks.append(f"{out_dir.name}/{stale}: not produced by the specs (stale)\n")
    return "".join(chunks)
