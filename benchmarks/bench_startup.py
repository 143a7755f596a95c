"""How long a command takes to answer, as a ratio to `python -c "import json, argparse"`.

Each command is run as a user runs it (the installed `aventuriers` script, a new process each
time), in rounds that alternate the commands so that the machine's load falls on all of them
alike; the figure is the median wall time of the rounds. `check` is of a variant unchanged since
the last run: one run first fills a user cache of this benchmark's own (`AVENTURIERS_CACHE` in a
temporary folder), as a user's earlier run would.

    python benchmarks/bench_startup.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VARIANT = """edition cinq-tickets
extends usa-2025
title "USA 2025, cinq tickets"

setup {
  tickets deal: 5 keep_at_least: 3 rejected: shuffled_under
}
"""
# The command, and its target as a ratio to the bare interpreter (issue 36).
TARGETS = {
    "--help": 5.0,
    "editions": 5.0,
    "sheet usa-2025": 8.0,
    "check cinq-tickets.aventuriers": 8.0,
}


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    script = shutil.which("aventuriers")
    aventuriers = [script] if script else [sys.executable, "-m", "aventuriers.compiler.cli"]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "cinq-tickets.aventuriers").write_text(VARIANT, encoding="utf-8")
        env = {**os.environ, "AVENTURIERS_CACHE": str(work / "cache")}
        env.pop("AVENTURIERS_NO_CACHE", None)
        commands = {"python -c 'import json, argparse'": [sys.executable, "-c", "import json, argparse"]}
        for name in TARGETS:
            commands[name] = [*aventuriers, *name.split()]
        for command in commands.values():
            timed(command, work, env)  # fills the cache, and the system's file cache
        seconds: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                seconds[name].append(timed(command, work, env))
    base = statistics.median(seconds["python -c 'import json, argparse'"])
    print(f"{'command':40} {'median':>9} {'ratio':>7} {'target':>7}")
    for name, values in seconds.items():
        median = statistics.median(values)
        target = TARGETS.get(name)
        verdict = (
            "" if target is None else f"≤ {target:g}× " + ("met" if median / base <= target else "MISSED")
        )
        print(f"{name:40} {1000 * median:7.1f} ms {median / base:6.2f}× {verdict}")


if __name__ == "__main__":
    main()
