"""Where things are: the folders of a checkout or of the installed package, and their names.

The package `aventuriers` has the checkout's layout (`compiler/`, `editions/`, `spec/`,
`generated/`); this module says it once, with the standard library only, so that the commands
that only read what is shipped need no compiler stage.
"""

from __future__ import annotations

from pathlib import Path

# The folder that holds compiler/, editions/, spec/ and generated/.
ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ROOT / "editions"
# The shipped engines and sheets; a build writes elsewhere unless told.
GENERATED = ROOT / "generated"
SPEC_SUFFIX = ".aventuriers"
# The import name of the shipped engines: ``aventuriers.generated`` once installed,
# ``generated`` when the compiler runs as ``compiler`` from a checkout.
_PARENT_PACKAGE = (__package__ or "").rpartition(".")[0]
GENERATED_PACKAGE = f"{_PARENT_PACKAGE}.generated" if _PARENT_PACKAGE else "generated"
# What an edition's name is made of (the schema checks it whole).
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def module_name(edition: str) -> str:
    """The Python package of an edition's engine: `usa-2025` → `usa_2025`."""
    return edition.replace("-", "_")


def playable_specs(folder: Path = EDITIONS) -> list[str]:
    """The editions of a folder that are played on their own (abstract bases left out), sorted."""
    names = []
    for path in sorted(folder.glob("*" + SPEC_SUFFIX)):
        text = path.read_text(encoding="utf-8")
        if not any(line.strip() == "abstract" for line in text.splitlines()):
            names.append(path.name[: -len(SPEC_SUFFIX)])
    return names


def shipped_module(name: str) -> str | None:
    """The engine package of the shipped edition a command-line argument names, when it names
    one by its name (`usa-2025`); None for a path, or a name that is no shipped edition."""
    if not name or not set(name) <= _NAME_CHARACTERS or Path(name).exists():
        return None
    return module_name(name) if (EDITIONS / f"{name}{SPEC_SUFFIX}").is_file() else None
