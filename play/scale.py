"""Tournaments on a Ray cluster (the `[scale]` extra): the same batches as the worker
processes, as Ray tasks, so that the results are those of a run on one core.

`--ray auto` starts a local Ray instance on this machine; any other value is the address
of a running cluster (`ray://host:10001`, or `host:6379` from inside it).
"""

from __future__ import annotations

from collections.abc import Iterator

from .engines import EngineRef
from .tournament import play_batch


def run_on_ray(
    address: str, reference: EngineRef | str, bots: list[str], chunks: list[list[int]], seed: int
) -> Iterator[list[dict]]:
    import ray

    if not ray.is_initialized():
        if address == "auto":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(play_batch)
    pending = [task.remote(reference, bots, chunk, seed) for chunk in chunks]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        yield ray.get(ready[0])
