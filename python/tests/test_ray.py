"""``marathon_games.ray.play`` on a local Ray cluster of two CPUs: the records of
``marathon_games.play``, each case exactly once, also when a worker is killed mid-run.

Ray binds the machine's own interface even when told 127.0.0.1, so ``python/ci.sh`` runs this
file in a network namespace of its own (``unshare -n``); run elsewhere, it is skipped unless
``MARATHON_RAY_TESTS=1`` says the network is safe to use.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import marathon_games

ray = pytest.importorskip("ray")
import marathon_games.ray as marathon_ray  # noqa: E402

pytestmark = pytest.mark.skipif(
    os.environ.get("MARATHON_RAY_TESTS") != "1",
    reason="Ray tests run in their own network namespace (MARATHON_RAY_TESTS=1, python/ci.sh)",
)

NO_HURRY = 1000.0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Ray puts the driver's working directory first on its workers' path; from python/ the
    # sources would shadow the installed package (which has the extension).
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("ray"))
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield
        ray.shutdown()
    finally:
        os.chdir(here)


def untimed(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in ("time_ms", "max_rss_kib")}


def test_ray_play_gives_plays_records(cluster: None) -> None:
    expected = marathon_games.play("linez", "1-6", effort=1, time_limit=NO_HURRY, threads=2)
    spread = list(marathon_ray.play("linez", seeds="1-6", effort=1, time_limit=NO_HURRY, chunk=2))
    by_seed = sorted((untimed(r) for r in spread), key=lambda record: record["seed"])
    assert by_seed == [untimed(r) for r in expected]


def test_bad_arguments_are_refused_before_any_task(cluster: None) -> None:
    with pytest.raises(ValueError, match="dpeth"):
        next(marathon_ray.play("linez", "1-2", settings={"dpeth": 1}))
    with pytest.raises(ValueError, match="chunk"):
        next(marathon_ray.play("linez", "1-2", chunk=0))


def play_chunk_workers() -> list[int]:
    """The processes running a ``play_chunk`` task (Ray titles them ``ray::play_chunk``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if command.startswith(b"ray::play_chunk"):
            found.append(int(entry.name))
    return found


def test_a_killed_worker_is_retried_and_every_case_comes_once(
    cluster: None, marathon_bin: Path
) -> None:
    killed: list[int] = []

    def busy(pid: int) -> bool:
        """Whether `pid` is still running a task (an idle worker is titled `ray::IDLE`)."""
        try:
            return (Path("/proc") / str(pid) / "cmdline").read_bytes().startswith(b"ray::play_chunk")
        except OSError:
            return False

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            for pid in play_chunk_workers():
                # Let the task get into its case, then kill the worker outright, mid-task.
                time.sleep(0.2)
                if busy(pid):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    # The built-in AI as a program planning for 1.5 s a case, so that the worker dies in the
    # middle of its case, whose result is lost with it; judged against a limit far above what it
    # plans for, so that a busy machine cannot turn its overshoot into a timeout.
    program = f"{marathon_bin} solve linez --time-limit 1.5"
    records = list(
        marathon_ray.play("linez", "1-6", exec=program, time_limit=NO_HURRY, max_retries=3)
    )
    killer.join()
    assert killed, "no busy worker was found to kill"
    # The lost case came from the task's second run, and no case came twice.
    assert sorted(record["seed"] for record in records) == [1, 2, 3, 4, 5, 6]
    assert all(record["verdict"] == "ok" for record in records)
