"""Time to compile every shipped edition (parse → … → engine, sheet and board picture), in memory.

python benchmarks/bench_build.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import time

from aventuriers.compiler.build import compile_edition, loader, shipped_editions
from aventuriers.compiler.emit.board import picture


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=5)
    args = options.parse_args()
    editions = loader()
    names = shipped_editions(editions)
    timings = []
    for _ in range(args.rounds):
        picture.cache_clear()  # one build lays each board out once, as a fresh process does
        started = time.perf_counter()
        for name in names:
            compile_edition(editions.path_of(name), editions)
        timings.append(time.perf_counter() - started)
    print(
        f"build of {len(names)} editions ({', '.join(names)}): best {min(timings):.2f} s over {args.rounds} rounds"
    )


if __name__ == "__main__":
    main()
