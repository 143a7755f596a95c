"""Which engine a tournament plays: a shipped edition's module, or a spec file compiled once.

An `EngineRef` is small and picklable, so that worker processes and Ray tasks load the
same engine: by importing the module, or by running the compiled source (a spec file's).
"""

from __future__ import annotations

import importlib
import types
from dataclasses import dataclass

_LOADED: dict[tuple[str, str], types.ModuleType] = {}


def shipped_engine(edition: str) -> types.ModuleType:
    """The generated engine of a shipped edition by its name (``usa-2025``); a misspelt name
    raises ValueError naming the closest one."""
    from aventuriers.compiler.build import GENERATED_PACKAGE, loader, shipped_editions
    from aventuriers.compiler.diagnostics import did_you_mean

    names = shipped_editions(loader())
    if edition not in names:
        hint = did_you_mean(edition, names) or "éditions : " + ", ".join(names)
        raise ValueError(f"édition inconnue « {edition} » ; {hint}")
    return importlib.import_module(f"{GENERATED_PACKAGE}.{edition.replace('-', '_')}")


@dataclass(frozen=True, slots=True)
class EngineRef:
    package: str = ""  # an importable engine module, or
    name: str = ""  # the module name of an engine compiled from `source`
    source: str = ""

    @classmethod
    def of(cls, edition: str) -> EngineRef | None:
        """The engine of a shipped edition or a spec file; None when the spec does not compile
        (its errors are printed)."""
        from aventuriers.compiler.build import GENERATED_PACKAGE, edition_path, loader
        from aventuriers.compiler.compiling import compile_one

        editions = loader()
        path = edition_path(edition, editions)
        if path.parent.resolve() == editions.editions_dir.resolve() and path.exists():
            package = f"{GENERATED_PACKAGE}.{path.stem.replace('-', '_')}"
            try:
                importlib.import_module(package)
            except ImportError:
                pass
            else:
                return cls(package=package)
        result = compile_one(edition)
        if result is None:
            return None
        return cls(name=result.edition.module_name, source=result.engine_source)

    def load(self) -> types.ModuleType:
        if self.package:
            return importlib.import_module(self.package)
        key = (self.name, self.source)
        if key not in _LOADED:
            from aventuriers.compiler.emit.example import load_engine

            _LOADED[key] = load_engine(self.source, self.name)
        return _LOADED[key]


def plays_with(engine: types.ModuleType, players: int) -> bool:
    """Whether the edition is played by that many players (two whole teams or more, in team play)."""
    low, high = engine.PLAYERS
    team = engine.SIDE_SIZE
    return low <= players <= high and players % team == 0 and (team == 1 or players >= 2 * team)


def player_counts(engine: types.ModuleType) -> str:
    """« de 2 à 5 joueurs », « à 4 ou 6 joueurs »: the counts an edition is played by, in French."""
    low, high = engine.PLAYERS
    counts = [count for count in range(low, high + 1) if plays_with(engine, count)]
    if counts == list(range(low, high + 1)) and len(counts) > 2:
        return f"de {low} à {high} joueurs"
    listed = [str(count) for count in counts]
    return (
        "à " + (", ".join(listed[:-1]) + " ou " + listed[-1] if len(listed) > 1 else listed[0]) + " joueurs"
    )
