"""What kind of run this is: under CI, and whether it rewrites the golden files.

CI is `.ci/run`, which sets ``AVENTURIERS_CI=1``, or a CI service, which sets ``CI`` (``true``).
A run rewrites the golden files only with ``AVENTURIERS_UPDATE_EXPECTED=1``, on one process
(``-n 0``), outside CI; a test that rewrites its file then skips, saying so, since comparing a
file with what was just written into it proves nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

UPDATE = "AVENTURIERS_UPDATE_EXPECTED"


def under_ci() -> bool:
    service = os.environ.get("CI", "").lower() not in ("", "0", "false")
    return service or os.environ.get("AVENTURIERS_CI") == "1"


def rewriting() -> bool:
    """Whether this run rewrites the golden files; fails where it may not."""
    value = os.environ.get(UPDATE, "")
    if value in ("", "0"):
        return False
    if value != "1":
        pytest.fail(f"{UPDATE}={value!r}: set it to 1 to rewrite the golden files, or leave it unset")
    if under_ci():
        pytest.fail(f"{UPDATE}=1 under CI: CI compares the golden files, it never rewrites them")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.fail(f"{UPDATE}=1 on xdist workers, which would race on the files: run with -n 0")
    return True


def rewritten(path: Path) -> None:
    pytest.skip(f"{UPDATE}=1 rewrote {path.name}: run again without it to compare")
