"""How long the README's test command takes, and what each shipped edition adds to it.

Runs the default suite (`pytest`, every core, `-m "not slow"` from pyproject.toml) once with
`--durations=0`, and reads from it the wall time, the collection time and the time of each test.
A test parametrized by an edition's name is that edition's: their sum, per edition, is what an
added edition costs (the editions of `tests.engines.COVER` play the long tests in full, the others
only the cheap ones, their long ones left to `-m slow`). The figures are test time summed over the
workers; the wall time an edition adds is about that divided by the cores.

    python benchmarks/bench_tests.py [pytest arguments…]

The whole output of pytest is kept in `bench_tests.log` of the working folder; the costliest
tests (summed over their parameters) are printed after the editions.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DURATION = re.compile(r"^\s*([\d.]+)s (?:call|setup|teardown)\s+(\S+)")
PARAMETERS = re.compile(r"\[(.+)\]$")


def main(arguments: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.engines import COVER, EDITIONS

    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=0", *arguments]
    started = time.perf_counter()
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    output = run.stdout + run.stderr
    Path("bench_tests.log").write_text(output, encoding="utf-8")
    by_test: dict[str, float] = defaultdict(float)
    per_edition: dict[str, float] = defaultdict(float)
    total = 0.0
    for line in output.splitlines():
        found = DURATION.match(line)
        if not found:
            continue
        seconds, test = float(found.group(1)), found.group(2)
        total += seconds
        by_test[test.split("[")[0]] += seconds
        parameters = PARAMETERS.search(test)
        if parameters and parameters.group(1) in EDITIONS:
            per_edition[parameters.group(1)] += seconds
    summary = next(
        (line for line in reversed(output.splitlines()) if " in " in line and "passed" in line), ""
    )
    cores = os.cpu_count() or 1
    print(f"{summary.strip('= ')}; wall {wall:.0f} s on {cores} cores; test time {total:.0f} s")
    for name, editions in (("in COVER", COVER), ("outside COVER", sorted(set(EDITIONS) - set(COVER)))):
        costs = [per_edition[edition] for edition in editions]
        if costs:
            print(
                f"an edition {name} ({len(costs)}): median {statistics.median(costs):.1f} s of test time "
                f"(from {min(costs):.1f} to {max(costs):.1f}), about {statistics.median(costs) / cores:.1f} s of wall time"
            )
    for edition in EDITIONS:
        print(f"  {edition}: {per_edition[edition]:.1f} s")
    print("the costliest tests, their parameters summed:")
    for test, seconds in sorted(by_test.items(), key=lambda item: -item[1])[:15]:
        print(f"  {seconds:6.1f} s  {test}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
