"""Tournaments on a Ray cluster (the `[scale]` extra): the same batches as the worker
processes, as Ray tasks, so that the results are those of a run on one core.

`--ray auto` starts a local Ray instance on this machine, advertised on 127.0.0.1. Ray (2.60)
still opens its services on every interface of the machine, protected by the token that Ray
now requires by default; `--ray auto` says so when it starts, and refuses to start when that
token is turned off (``RAY_AUTH_MODE=disabled``). Any other value is the address of a running
cluster (`ray://host:10001`, or `host:6379` from inside it), whose exposure is its own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from .engines import EngineRef
from .games import play_batch

# Tasks sent ahead of the one awaited: enough to keep a cluster busy, few enough to hold.
IN_FLIGHT = 64
MISSING = "--ray demande Ray, l’extra « scale » : pip install 'aventuriers[scale]' (ou -e '.[scale]')"
EXPOSED = (
    "--ray auto : Ray démarre sur cette machine ; ses services écoutent sur toutes ses interfaces, "
    "protégés par le jeton que Ray exige"
)
UNPROTECTED = (
    "--ray auto refusé : RAY_AUTH_MODE=disabled ouvrirait sans mot de passe les services de Ray "
    "à tout le réseau"
)


def local_ray_refusal() -> str | None:
    """Why a local instance must not start (its services would take no token), or None."""
    import os

    return UNPROTECTED if os.environ.get("RAY_AUTH_MODE", "").lower() == "disabled" else None


def ray_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def run_on_ray(
    address: str, reference: EngineRef | str, bots: list[str], chunks: Iterable[list[int]], seed: int
) -> Iterator[list[dict]]:
    """Each batch's records, in the order of ``chunks``."""
    import ray

    if not ray.is_initialized():
        if address == "auto":
            ray.init(include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(play_batch)
    pending: deque = deque()
    for chunk in chunks:
        pending.append(task.remote(reference, bots, chunk, seed))
        if len(pending) >= IN_FLIGHT:
            yield ray.get(pending.popleft())
    while pending:
        yield ray.get(pending.popleft())
