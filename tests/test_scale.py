"""Tournaments on Ray (issue 12): a local instance with 2 CPUs gives the results of one process."""

from __future__ import annotations

import os

import pytest

ray = pytest.importorskip("ray")

# One local Ray instance at a time: these tests share one xdist worker.
pytestmark = pytest.mark.xdist_group("ray")

from aventuriers.play.engines import EngineRef  # noqa: E402
from aventuriers.play.tournament import run  # noqa: E402


# For the worker's session, not the module's: xdist may run another module's tests between these
# two, and a module fixture would then start Ray (8 s) a second time.
@pytest.fixture(scope="session")
def local_ray(tmp_path_factory):
    # The run's workers share the parent of their temporary folders: whichever worker starts Ray
    # writes its name there, and another one finding it means the group was split (as pytest 9.2
    # did to xdist 3.8, pytest-xdist#1386), with two Ray instances on one machine.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is not None:
        claim = tmp_path_factory.getbasetemp().parent / "ray-worker"
        try:
            with claim.open("x", encoding="utf-8") as stream:
                stream.write(worker)
        except FileExistsError:
            other = claim.read_text(encoding="utf-8")
            pytest.fail(f"the Ray tests ran on {other} and {worker}: `--dist loadgroup` did not group them")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_gives_the_single_process_results(local_ray) -> None:
    bots = ["greedy", "random", "random"]
    alone = run("aventuriers.generated.usa_2025", bots, 12, seed=3, batch_size=4)
    on_ray = run("aventuriers.generated.usa_2025", bots, 12, seed=3, ray_address="auto", batch_size=4)
    assert on_ray == alone


def test_a_spec_file_is_compiled_once_and_played_on_ray(local_ray) -> None:
    reference = EngineRef.of("tests/variants/usa-sans-miami.aventuriers")
    assert reference is not None and reference.source
    alone = run(reference, ["greedy", "random"], 4, seed=1, batch_size=2)
    assert run(reference, ["greedy", "random"], 4, seed=1, ray_address="auto", batch_size=2) == alone
