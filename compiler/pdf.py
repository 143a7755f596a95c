"""The printable sheet as PDF, printed by a headless Chromium.

Chromium is the system's (Debian's package ``chromium``; ``.ci/run`` installs
it), found on PATH or named by ``AVENTURIERS_CHROMIUM``. It prints the
self-contained HTML of ``emit.document`` from a temporary folder, with no
profile of the user's and no page headers; the PDF replaces the target only
once complete. Whatever the page holds, the print fetches nothing: the page
carries a content policy that allows no request and no script (added here
to any page printed), and every connection goes to a proxy that does not
exist, loopback included. (Chromium's own switch for scripts,
``--blink-settings=scriptEnabled=false``, stops its headless print from
writing anything: the policy turns them off instead.)

A page may come with a tighter version of itself (the sheet's rules set a little closer):
both are printed, and the tighter kept only when it has fewer pages, so that a part never
ends on a page holding a few lines of it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .emit.document import CONTENT_POLICY
from .french import os_reason

CHROMIUM_VARIABLE = "AVENTURIERS_CHROMIUM"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL_HINT = (
    "installez Chromium (Debian : « apt-get install chromium ») ou nommez-le dans AVENTURIERS_CHROMIUM"
)
# A sheet prints in about a second; a browser that hangs is stopped.
TIMEOUT_SECONDS = 120


class PdfError(Exception):
    """The PDF could not be made; the message says why, in French."""


def find_chromium() -> str | None:
    named = os.environ.get(CHROMIUM_VARIABLE)
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


# For the print: every request of the browser, loopback's too, goes to a proxy where
# nothing listens (port 9, discard), so none reaches anything.
NO_NETWORK = ("--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>")


def chromium_flags(profile: Path) -> list[str]:
    """Headless and quiet: no sync, no updates, no first-run pages (the browser tests use
    these too, with pages served on loopback)."""
    flags = [
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        f"--user-data-dir={profile}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to start its sandbox as root
    return flags


def with_policy(html: str) -> str:
    """``html`` with the sheet's content policy first in its head: a second policy only
    narrows what the page may load, so a page that had one keeps it."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_POLICY}">'
    head = re.search(r"<head\b[^>]*>", html, re.IGNORECASE)
    if head is None:
        return f"<!DOCTYPE html><html><head>{meta}</head><body>{html}</body></html>"
    return html[: head.end()] + meta + html[head.end() :]


def page_count(pdf: bytes) -> int:
    """The pages of a PDF as Chromium writes it: the ``/Count`` of its page tree's root, the
    largest there is (the sheet has no outline, whose entries count too)."""
    counts = [int(count) for count in re.findall(rb"/Count\s+(\d+)", pdf)]
    return max(counts, default=0)


def print_pdf(html: str, target: Path, *, tighter: str | None = None) -> None:
    """Write ``html`` printed to PDF at ``target`` (A4, as its print stylesheet says).

    ``tighter``: the same page set a little closer, printed too; kept when it has fewer pages
    (a part that ended with a few lines alone on a page takes them back)."""
    chromium = find_chromium()
    named = os.environ.get(CHROMIUM_VARIABLE)
    if chromium is None and named:
        raise PdfError(
            f"{CHROMIUM_VARIABLE} nomme « {named} », qui n’est ni un fichier ni un programme du PATH : "
            "corrigez le chemin, ou retirez la variable pour chercher Chromium sur le PATH"
        )
    if chromium is None:
        raise PdfError(f"Chromium est introuvable : {INSTALL_HINT}")
    target = target.resolve()
    with tempfile.TemporaryDirectory(prefix="aventuriers-pdf-") as folder:
        work = Path(folder)
        printed = _print(chromium, html, work, "fiche")
        if tighter is not None:
            tight = _print(chromium, tighter, work, "fiche-tight")
            if page_count(tight.read_bytes()) < page_count(printed.read_bytes()):
                printed = tight
        partial = target.with_name(f".{target.name}.partiel")
        shutil.copyfile(printed, partial)
        os.replace(partial, target)


def _print(chromium: str, html: str, work: Path, name: str) -> Path:
    """``html`` printed by Chromium to ``work/name.pdf``."""
    page = work / f"{name}.html"
    page.write_text(with_policy(html), encoding="utf-8")
    printed = work / f"{name}.pdf"
    command = [
        chromium,
        *chromium_flags(work / "profile"),
        *NO_NETWORK,
        "--no-pdf-header-footer",
        f"--print-to-pdf={printed}",
        page.as_uri(),
    ]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired as error:
        raise PdfError(f"Chromium n’a pas fini en {TIMEOUT_SECONDS} s") from error
    except OSError as error:
        raise PdfError(
            f"Chromium ({chromium}) ne démarre pas ({os_reason(error)}) : {INSTALL_HINT}"
        ) from error
    if run.returncode != 0 or not printed.is_file() or printed.stat().st_size == 0:
        last = (run.stderr.strip().splitlines() or ["aucun message"])[-1]
        raise PdfError(f"Chromium n’a pas imprimé le PDF (code {run.returncode}) : {last}")
    return printed
