"""Time for `aventuriers check` to report every error of a badly broken spec.

python benchmarks/bench_check.py [--lines 12000] [--rounds 3]

The spec extends Europe and holds LINES broken statements: each must be
reported (one error per line), and the time must stay proportional to the file.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from pathlib import Path

from aventuriers.compiler.cli import main as aventuriers


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--lines", type=int, default=12_000)
    options.add_argument("--rounds", type=int, default=3)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "broken.aventuriers"
        spec.write_text("edition broken\nextends europe\n" + "route ] x\n" * args.lines, encoding="utf-8")
        timings = []
        for _ in range(args.rounds):
            report = io.StringIO()
            started = time.perf_counter()
            with contextlib.redirect_stderr(report):
                status = aventuriers(["check", str(spec)])
            timings.append(time.perf_counter() - started)
            assert status == 1 and f"{args.lines} erreur(s)" in report.getvalue()
    print(f"check of {args.lines} broken lines: best {min(timings):.2f} s over {args.rounds} rounds")


if __name__ == "__main__":
    main()
