"""Fixtures shared by the browser tests: one headless Chromium, driven by Playwright.

Chromium is the system's (Debian's package, which `.ci/run` installs; Playwright's
own browser download is never used). Without a Chromium or Playwright the browser
tests are skipped, unless ``AVENTURIERS_BROWSER_TESTS=required`` (as in CI), where
they fail instead. Screenshots are kept in ``test-artefacts/`` (or
``AVENTURIERS_ARTEFACTS``).

Under CI (tests/ci.py) every skip is a failure, its reason shown: a dependency missing there
(numpy, PettingZoo, Ray, Pillow) would otherwise leave its tests unrun, and the run green.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.ci import under_ci

ARTEFACTS = Path(os.environ.get("AVENTURIERS_ARTEFACTS", "test-artefacts"))
# The commands' remembered answers (compiler/cache.py) stay out of the tests, which compile what
# they ask for; tests/test_cache.py turns them on in a folder of its own.
os.environ["AVENTURIERS_NO_CACHE"] = "1"
REQUIRED = os.environ.get("AVENTURIERS_BROWSER_TESTS") == "required"


def missing(what: str) -> None:
    """Skip, or fail where the browser tests are required."""
    if REQUIRED:
        pytest.fail(f"{what} is required by AVENTURIERS_BROWSER_TESTS=required")
    pytest.skip(f"{what} is not installed")


def failed_under_ci(report) -> None:
    """Turn a skip (of a test, or of a whole module at collection) into a failure under CI."""
    if not under_ci() or not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped under CI, where every test must run: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    failed_under_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    failed_under_ci(outcome.get_result())


def artefact(name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS / name


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    from aventuriers.compiler.pdf import chromium_flags, find_chromium

    chromium = find_chromium()
    if chromium is None:
        missing("Chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright (pip install -e '.[browser]')")
    profile = tmp_path_factory.mktemp("profile")
    # Playwright manages the profile itself; the other flags keep Chromium offline and quiet.
    flags = [flag for flag in chromium_flags(profile) if not flag.startswith("--user-data-dir")]
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=flags)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def usa(tmp_path_factory):
    """usa-2025 served against two greedy bots (the pages of `aventuriers serve`)."""
    from aventuriers.play.serve_command import served_edition

    return served_edition("usa-2025", ["greedy", "greedy"], tmp_path_factory.mktemp("records"))


@pytest.fixture()
def client(usa):
    """A client of that server, at one of the names it answers to (see play/guard.py)."""
    from aventuriers.play.web import create_app
    from starlette.testclient import TestClient

    return TestClient(create_app(usa), follow_redirects=False, base_url="http://127.0.0.1:8000")
