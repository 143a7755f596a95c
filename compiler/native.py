"""The native build: each native engine (`engine_core.pyx`, emitted beside `engine.py` for the
editions whose rules it covers) compiled by Cython.

`aventuriers build --native` writes, beside each such edition's `engine.py`, the module
`engine_core` (`engine_core.cpython-311-x86_64-linux-gnu.so` on Linux): the engine's whole
public API (`new_game`, `Game`, `ACTIONS`, `IllegalAction`…), its games played in C arrays, the
same games as the pure engine's. `aventuriers.generated.<edition>` stays the pure engine; a
program that wants the native one calls `native()` below, which falls back on the pure one
where no native engine was built (the build says which editions have none, and why). The
compiled files depend on the machine and the Python version, so they are never committed
(`.gitignore`) and never part of a build's manifest. Each is kept in a cache
(`cache_folder()`) under the hash of its source, Cython and Python: a source already compiled
once is copied, not compiled again, and two builds compiling the same source at once (the test
workers) take turns through a lock beside its cache entry, so the second copies the first's.

mypyc compiled every engine until issue 23: the same dict-and-tuple code, 1.6 times faster
at best; the native engines are 10 to 40 times faster, and mypyc is gone.
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
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: builds at once may both compile, as before the lock
    fcntl = None  # type: ignore[assignment]

from .cache import cache_root
from .diagnostics import Code, CompileError, Diagnostic
from .frontend.positions import Span
from .write import is_native_artefact, refused

CORE_MODULE = "engine_core"


def cython_available() -> bool:
    try:
        importlib.import_module("Cython")
    except ImportError:
        return False
    return True


def missing_toolchain() -> str | None:
    """What a native build lacks on this machine, in French, or None: Cython, a C compiler,
    Python's headers."""
    if not cython_available():
        return "Cython n’est pas installé (pip install -e '.[native]')"
    # setuptools, which Cython drives, takes $CC first, then the compiler Python was built with.
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"aucun compilateur C ({compiler} introuvable)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"les en-têtes de Python manquent ({headers} introuvable)"
    return None


def cache_folder() -> Path:
    """Where compiled engines are kept between builds: $AVENTURIERS_CACHE, else the user's cache."""
    return cache_root() / "native"


def _cache_key(source: Path) -> str:
    """The same source, compiled by the same Cython for the same Python, is the same module."""
    from Cython import __version__ as compiler_version

    digest = hashlib.sha256(source.read_bytes())
    digest.update(f"{sys.version}|{sysconfig.get_config_var('EXT_SUFFIX')}|{compiler_version}".encode())
    return digest.hexdigest()


def _cached(entry: Path) -> Path | None:
    """The compiled module a cache entry holds, if it holds one."""
    found = list(entry.glob(f"{CORE_MODULE}.*")) if entry.is_dir() else []
    return found[0] if len(found) == 1 and is_native_artefact(found[0].name) else None


@contextmanager
def _entry_lock(entry: Path) -> Iterator[None]:
    """Hold the cache entry's lock (a file inside it), so that one build compiles the source while
    another waits for it; without a writable cache or `fcntl`, no lock."""
    try:
        entry.mkdir(parents=True, exist_ok=True)
        handle = open(entry / ".lock", "a")  # noqa: SIM115 (held across the yield)
    except OSError:
        yield
        return
    with handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _compile(source: Path) -> Path:
    """Compile one native engine (`engine_core.pyx`) with Cython, or take it from the cache; the
    extension module is written beside it, replacing any older one."""
    entry = cache_folder() / _cache_key(source)
    found = _cached(entry)
    if found:
        return _install(found, source)
    with _entry_lock(entry):
        found = _cached(entry)  # compiled by another build while this one waited
        if found:
            return _install(found, source)
        built = _compiled_core(source)
        try:
            entry.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(built, entry / f"{built.name}.tmp")
            os.replace(entry / f"{built.name}.tmp", entry / built.name)
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


def _compiled_core(source: Path) -> Path:
    """Compile one native engine with Cython and install it beside its source."""
    return _compiled_by(
        source,
        CORE_MODULE,
        source.name,
        ["-m", "Cython.Build.Cythonize", "-i", "-q", source.name],
        "Cython n’a pas pu compiler ce moteur natif",
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
    """Compile the native engines of `modules` (edition module names) under `out_dir`, those
    that have one, one at a time per core; raises CompileError when Cython or a C compiler is
    missing or refuses a source."""
    lacking = missing_toolchain()
    if lacking:
        raise toolchain_refused(out_dir, lacking)
    sources = [core for module in modules if (core := out_dir / module / f"{CORE_MODULE}.pyx").exists()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(_compile, sources))


def toolchain_refused(out_dir: Path, lacking: str) -> CompileError:
    span = Span.of_path(str(out_dir))
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


def native_engine(engine: types.ModuleType) -> types.ModuleType | None:
    """The native engine of an engine module (`aventuriers.generated.usa_2025`, its `engine`, or
    the native one itself) when it was built and loads, else None."""
    package = engine.__name__ if hasattr(engine, "__path__") else engine.__name__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{CORE_MODULE}")
    except ImportError:
        return None


def native_playout(engine: types.ModuleType):
    """The native playout of an engine module when its native engine was built and loads:
    `playout(game, rng)`, for a native game or a pure one, the same games as
    `game.playout(rng)`, in C. Else None."""
    found = native_engine(engine)
    return None if found is None else found.playout


def native(package: str) -> types.ModuleType:
    """The native engine of a generated package (`aventuriers.generated.usa_2025`) when it was
    built and loads, else the pure-Python one."""
    pure = importlib.import_module(package)
    return native_engine(pure) or pure
