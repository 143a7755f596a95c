"""Our own code is formatted and lint-clean, with the ruff pinned in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            *arguments,
            "compiler",
            "play",
            "tests",
            "benchmarks",
            "setup.py",
            ".ci",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_lint() -> None:
    result = ruff("check")
    assert result.returncode == 0, result.stdout


def test_format() -> None:
    result = ruff("format", "--check")
    assert result.returncode == 0, result.stdout
