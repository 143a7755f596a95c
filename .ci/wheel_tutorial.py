"""Build the wheel, install it in a fresh virtualenv outside the checkout, run the README tutorial there.

A non-editable install must work on its own: the editions, the grammar, the
schema and every template ship inside the package ``aventuriers``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_block(language: str, after: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(after) :]
    found = re.search(rf"```{language}\n(.*?)```", section, flags=re.S)
    assert found, f"no {language} block after {after!r} in README.md"
    return found.group(1)


def run(command: list[str] | str, cwd: Path, env: dict[str, str] | None = None) -> str:
    shell = isinstance(command, str)
    result = subprocess.run(
        ["bash", "-c", command] if shell else command, cwd=cwd, env=env, capture_output=True, text=True
    )
    if result.returncode != 0 or "Traceback" in result.stderr:
        sys.exit(f"FAILED: {command}\n{result.stdout}\n{result.stderr}")
    return result.stdout


SERVE_CHECK = """
import sys, time, urllib.parse, urllib.request
base = sys.argv[1]
for _ in range(200):
    try:
        home = urllib.request.urlopen(base + "/").read().decode()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the server did not start")
assert "Nouvelle partie" in home
created = urllib.request.urlopen(base + "/games", data=urllib.parse.urlencode({"humans": 1}).encode())
page = created.read().decode()
assert "À toi de jouer" in page and "<svg" in page, page[:500]
assert b"addEventListener" in urllib.request.urlopen(base + "/static/app.js").read()
"""


def serve_check(bin_dir: Path, work: Path, env: dict[str, str]) -> None:
    """`aventuriers serve` of the tutorial's variant, from the wheel: a game page with its assets."""
    port = "8917"
    server = subprocess.Popen(
        [
            str(bin_dir / "aventuriers"),
            "serve",
            "cinq-tickets.aventuriers",
            "--port",
            port,
            "--records",
            "parties",
        ],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        run([str(bin_dir / "python"), "-c", SERVE_CHECK, f"http://127.0.0.1:{port}"], work, env)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert list((work / "parties").glob("partie-*.json")), "no game record written"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        # Built from a copy of the checkout's files (tracked, or new and not ignored): a `build/`
        # left in the checkout by an earlier wheel would otherwise slip its stale files in.
        source = scratch / "source"
        listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT)
        for name in filter(None, listed.split("\0")):
            if (ROOT / name).is_file():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, source / name)
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "-w",
                str(scratch / "dist"),
                str(source),
            ],
            source,
        )
        run([sys.executable, "-m", "venv", str(scratch / "venv")], scratch)
        wheel = next((scratch / "dist").glob("aventuriers-*.whl"))
        bin_dir = scratch / "venv" / "bin"
        run([str(bin_dir / "pip"), "install", "--quiet", str(wheel)], scratch)
        work = scratch / "work"
        work.mkdir()
        env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8"}
        (work / "cinq-tickets.aventuriers").write_text(
            readme_block("aventuriers", "## Tutorial"), encoding="utf-8"
        )
        for command in readme_block("sh", "## Tutorial").strip().splitlines():
            run(command, work, env)
        # The installed names: one top-level package, engines under it, no `compiler` or `generated`.
        run(
            "python -c 'import aventuriers.generated.usa_2025 as e, importlib.util as u; "
            "assert e.new_game(2, 1).legal_actions(); "
            'assert u.find_spec("compiler") is None and u.find_spec("generated") is None\'',
            work,
            env,
        )
        # The wheel ships exactly the files the compiler's fingerprint reads: each shipped edition's
        # built outputs are fresh there, so `editions` and `sheet` answer without compiling.
        run(
            "python -c 'from aventuriers.compiler import cache, layout; "
            "stale = [n for n in layout.playable_specs() if cache.shipped_record(layout.module_name(n)) is None]; "
            'assert not stale, f"built outputs not fresh in the wheel: {stale}"\'',
            work,
            env,
        )
        run("aventuriers build --out sortie && aventuriers build --check --out sortie", work, env)
        # What the wheel builds is what the checkout committed: a template the wheel lacks (a
        # mechanism's part is printed only where its file exists) cannot pass in silence.
        run(f"aventuriers build --check --out {ROOT / 'generated'}", work, env)
        serve_check(bin_dir, work, env)
        print(f"wheel {wheel.name}: installed outside the checkout, README tutorial passed")


if __name__ == "__main__":
    main()
