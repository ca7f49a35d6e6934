"""Runs spread over a Ray cluster: the same arguments and records as :func:`marathon_games.play`,
one Ray task per chunk of cases.

Connect first with ``ray.init(address="auto")`` (or ``ray.init(address="ray://HEAD:10001")``);
without a connection :func:`play` starts a local cluster. Each task plays its cases one at a
time with ``num_cpus`` CPUs reserved, so that a case with a time limit gets a whole core as
under ``marathon play --threads``. A task whose worker dies (a killed process, a lost node) is
run again by Ray, up to ``max_retries`` times; its cases then come once, from the run that
finished. Records come back as their chunks finish, not in seed order.

Every node needs the package installed (``pip install marathon-games``), and an ``exec``
program must exist at the same path on every node.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional, Union

import marathon_games
from marathon_games import Progress, Seeds, _progress


def play(
    game: str,
    seeds: Optional[Seeds] = None,
    player: Optional[str] = None,
    effort: Optional[int] = None,
    time_limit: Optional[float] = None,
    exec: Optional[str] = None,
    group: Optional[int] = None,
    settings: Optional[Mapping[str, Any]] = None,
    num_cpus: float = 1,
    chunk: int = 1,
    max_retries: int = 3,
    progress: Union[bool, None, Progress] = None,
    *,
    seed_set: Optional[Seeds] = None,
) -> Iterator[dict[str, Any]]:
    """Plays the cases ``seeds`` names (as :func:`marathon_games.play` takes them; ``seed_set=``
    is their old, deprecated name) of ``game`` on the Ray cluster and yields each case's record
    (a dict, as a line of ``marathon play --json``) as its chunk finishes.

    ``chunk`` cases go to one task (more per task: less scheduling per case, coarser retries);
    ``num_cpus`` is reserved per task; ``max_retries`` is how often a task whose worker died is
    run again before the run fails; ``progress`` as for :func:`marathon_games.play`, counted as
    records come back. The arguments are checked before any task starts.
    """
    import ray

    if chunk < 1:
        raise ValueError(f"chunk={chunk}: expected at least 1")
    if num_cpus <= 0:
        raise ValueError(f"num_cpus={num_cpus}: expected more than 0")
    seed_list = marathon_games._seed_list(seeds, seed_set, "ray.play")
    options: dict[str, Any] = dict(
        player=player,
        effort=effort,
        time_limit=time_limit,
        exec=exec,
        group=group,
        settings=settings,
    )
    # Refuses a bad game, player, group, setting or time limit here, not in every task.
    marathon_games.check(game, seed_list, **options)
    if not ray.is_initialized():
        ray.init()

    @ray.remote(num_cpus=num_cpus, max_retries=max_retries)
    def play_chunk(chunk_seeds: list[int]) -> list[dict[str, Any]]:
        return marathon_games.play(game, chunk_seeds, threads=1, progress=False, **options)

    pending = [
        play_chunk.remote(seed_list[start : start + chunk])
        for start in range(0, len(seed_list), chunk)
    ]
    report = _progress.reporter(progress, game, len(seed_list))
    finished = 0
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for record in ray.get(done[0]):
                finished += 1
                if report is not None:
                    report(finished, len(seed_list), record)
                yield record
    finally:
        for task in pending:
            ray.cancel(task, force=True)
        if isinstance(report, _progress.Bar):
            report.close()
