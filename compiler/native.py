"""The native build: each generated engine compiled by mypyc, and each playout core by Cython.

`aventuriers build --native` writes, beside each edition's `engine.py`, the module
`engine_native` (`engine_native.cpython-311-x86_64-linux-gnu.so` on Linux): the same
source, the same API and the same games, compiled. The pure-Python `engine.py` stays what
`aventuriers.generated.<edition>` imports; a program that wants the native one imports
`aventuriers.generated.<edition>.engine_native` and falls back on the pure one (`native()`
below does both). Where the build emitted a playout core (`engine_core.pyx`: the editions
whose rules the core covers), it is compiled by Cython into `engine_core`, whose
`playout(game, rng)` plays the same random game as `game.playout(rng)` in C
(`native_playout()` finds it). The compiled files depend on the machine and the Python
version, so they are never committed (`.gitignore`) and never part of a build's manifest. Each
is kept in a cache (`cache_folder()`) under the hash of its source, compiler and Python: a
source already compiled once is copied, not compiled again.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .diagnostics import Code, CompileError, Diagnostic
from .frontend.positions import SourceFile, Span
from .write import is_native_artefact, refused

NATIVE_MODULE = "engine_native"


CORE_MODULE = "engine_core"


def mypyc_available() -> bool:
    try:
        importlib.import_module("mypyc")
    except ImportError:
        return False
    return True


def cython_available() -> bool:
    try:
        importlib.import_module("Cython")
    except ImportError:
        return False
    return True


def missing_toolchain() -> str | None:
    """What a native build lacks on this machine, in French, or None: mypyc, a C compiler,
    Python's headers."""
    if not mypyc_available():
        return "mypyc n’est pas installé (pip install -e '.[native]')"
    if not cython_available():
        return "Cython n’est pas installé (pip install -e '.[native]')"
    # setuptools, which mypyc drives, takes $CC first, then the compiler Python was built with.
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"aucun compilateur C ({compiler} introuvable)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"les en-têtes de Python manquent ({headers} introuvable)"
    return None


def cache_folder() -> Path:
    """Where compiled engines are kept between builds: $AVENTURIERS_CACHE, else the user's cache."""
    if os.environ.get("AVENTURIERS_CACHE"):
        return Path(os.environ["AVENTURIERS_CACHE"]) / "native"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aventuriers" / "native"


def _cache_key(source: Path) -> str:
    """The same source, compiled by the same mypyc or Cython for the same Python, is the same module."""
    if source.suffix == ".pyx":
        from Cython import __version__ as compiler_version
    else:
        from mypy.version import __version__ as compiler_version

    digest = hashlib.sha256(source.read_bytes())
    digest.update(f"{sys.version}|{sysconfig.get_config_var('EXT_SUFFIX')}|{compiler_version}".encode())
    return digest.hexdigest()


def _compile(source: Path) -> Path:
    """Compile one engine (`engine.py`, by mypyc) or playout core (`engine_core.pyx`, by Cython),
    or take it from the cache; the extension module is written beside it, replacing any older one."""
    module = CORE_MODULE if source.suffix == ".pyx" else NATIVE_MODULE
    cached = cache_folder() / _cache_key(source)
    found = list(cached.glob(f"{module}.*")) if cached.is_dir() else []
    if len(found) == 1 and is_native_artefact(found[0].name):
        return _install(found[0], source)
    built = _compiled_core(source) if source.suffix == ".pyx" else _compiled(source)
    try:
        cached.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, cached / f"{built.name}.tmp")
        os.replace(cached / f"{built.name}.tmp", cached / built.name)
    except OSError:
        pass  # a cache that cannot be written only costs the next build its time
    return built


def _install(artefact: Path, source: Path) -> Path:
    """Put a compiled module beside its source, replacing any older one, atomically."""
    target = source.parent / artefact.name
    module = artefact.name.split(".")[0]
    for older in source.parent.iterdir():
        if (
            is_native_artefact(older.name)
            and older.name.startswith(f"{module}.")
            and older.name != artefact.name
        ):
            older.unlink()
    shutil.copyfile(artefact, target.with_suffix(".tmp"))
    os.replace(target.with_suffix(".tmp"), target)
    return target


def _compiled(source: Path) -> Path:
    """Compile one engine with mypyc and install it beside its source."""
    return _compiled_by(
        source,
        NATIVE_MODULE,
        f"{NATIVE_MODULE}.py",
        ["-m", "mypyc", f"{NATIVE_MODULE}.py"],
        "mypyc n’a pas pu compiler ce moteur",
    )


def _compiled_core(source: Path) -> Path:
    """Compile one playout core with Cython and install it beside its source."""
    return _compiled_by(
        source,
        CORE_MODULE,
        source.name,
        ["-m", "Cython.Build.Cythonize", "-i", "-q", source.name],
        "Cython n’a pas pu compiler ce cœur natif",
    )


def _compiled_by(source: Path, module: str, copy: str, command: list[str], failure: str) -> Path:
    """Run a compiler (`python COMMAND`) on a copy of `source` named `copy`, in a folder of its
    own, and install the one extension module `module` it makes; refused, with the compiler's
    last lines, when it fails."""
    with tempfile.TemporaryDirectory(prefix=f"aventuriers-{module}-") as folder:
        work = Path(folder)
        shutil.copyfile(source, work / copy)
        result = subprocess.run(
            [sys.executable, *command], cwd=work, capture_output=True, text=True, check=False
        )
        built = [path for path in work.glob(f"{module}.*") if is_native_artefact(path.name)]
        if result.returncode != 0 or len(built) != 1:
            last = (result.stdout + result.stderr).strip().splitlines()[-3:]
            raise refused(source, f"{failure} : " + " | ".join(last))
        return _install(built[0], source)


def build_native(out_dir: Path, modules: list[str]) -> list[Path]:
    """Compile the engines of `modules` (edition module names) under `out_dir`, and the playout
    cores of those that have one, one at a time per core; raises CompileError when mypyc or
    Cython is missing or refuses a source."""
    lacking = missing_toolchain()
    if lacking:
        raise toolchain_refused(out_dir, lacking)
    sources = [out_dir / module / "engine.py" for module in modules]
    sources += [core for module in modules if (core := out_dir / module / f"{CORE_MODULE}.pyx").exists()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(_compile, sources))


def toolchain_refused(out_dir: Path, lacking: str) -> CompileError:
    span = Span.whole_file(SourceFile(name=str(out_dir), text=""))
    return CompileError(
        [
            Diagnostic(
                code=Code.NO_C_COMPILER,
                message=f"la construction native est impossible ici : {lacking}",
                span=span,
                hint="sur Debian ou Ubuntu : sudo apt-get install gcc python3-dev",
            )
        ]
    )


def native_playout(engine: types.ModuleType):
    """The native playout of an engine module (pure or native) when its core was built and
    loads: `playout(game, rng)`, the same games as `game.playout(rng)`, in C. Else None."""
    package = engine.__name__ if hasattr(engine, "__path__") else engine.__name__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{CORE_MODULE}").playout
    except ImportError:
        return None


def native_rollout(engine: types.ModuleType):
    """The native core's guided rollout of an engine module when its core was built and loads:
    `guided_rollout(game, rng)`, a cheap policy for searches (claims on the ways of the
    player's unjoined tickets first), not the engine's playout. Else None."""
    playout = native_playout(engine)
    return None if playout is None else importlib.import_module(playout.__module__).guided_rollout


def native(package: str) -> types.ModuleType:
    """The native engine of a generated package (`aventuriers.generated.usa_2025`) when it was
    built and loads, else the pure-Python one."""
    try:
        return importlib.import_module(f"{package}.{NATIVE_MODULE}")
    except ImportError:
        return importlib.import_module(package)
