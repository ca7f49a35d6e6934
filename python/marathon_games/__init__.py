"""marathon's contest puzzle games for Python.

Runs: :func:`play` plays cases exactly as ``marathon play`` does and returns its ``--json``
records, with its outputs if asked (``json=``, ``best=``, ``save=True`` to keep the run in
``.marathon/runs/``); :mod:`marathon_games.ray` spreads them over a Ray cluster.

Importing the package registers one Gymnasium environment per game, ``marathon/Linez-v0``,
``marathon/Tiles-v0``, ``marathon/Reversi-v0``, ``marathon/Polyomino-v0`` and
``marathon/Solitaire-v0`` (see :mod:`marathon_games.env`)::

    import gymnasium, marathon_games
    env = gymnasium.make("marathon/Linez-v0")
    observation, info = env.reset(seed=7)   # the case of `marathon play linez --seeds 7`

and, as each id's ``vector_entry_point``, a native vector environment stepped in Rust (see
:mod:`marathon_games.vector`)::

    envs = gymnasium.make_vec("marathon/Tiles-v0", num_envs=1024)
"""

from __future__ import annotations

import json as _json
import os
import warnings
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from marathon_games import _core, _progress
from marathon_games._core import games as _games
from marathon_games.env import MarathonEnv, env_id, register_all
from marathon_games.vector import MarathonVectorEnv

__all__ = ["MarathonEnv", "MarathonVectorEnv", "check", "env_id", "games", "play", "seeds"]

Seeds = Union[str, int, Sequence[int]]
#: A file's path, as ``open`` takes it.
FilePath = Union[str, "os.PathLike[str]"]


def games() -> list[str]:
    """The games' ids, in the order ``marathon play`` runs them (the Rust registry's list)."""
    return list(_games())


def seeds(seed_set: Seeds) -> list[int]:
    """The seeds of a seed set: ``"1-100"``, ``"1,5,9"``, ``"@file"``, one seed, or a list."""
    if isinstance(seed_set, str):
        return _core.seeds(seed_set)
    if isinstance(seed_set, int):
        return [seed_set]
    return [int(seed) for seed in seed_set]


# `play` and `check` name their argument `seeds`, as the CLI's `--seeds`, hiding the function.
_read_seeds = seeds


def _settings(settings: Optional[Mapping[str, Any]]) -> list[tuple[str, str]]:
    return [(str(name), str(value)) for name, value in (settings or {}).items()]


def _seed_list(seeds: Optional[Seeds], seed_set: Optional[Seeds], caller: str) -> list[int]:
    """The seeds given as ``seeds=`` or, deprecated, ``seed_set=`` (its old name)."""
    if seed_set is not None:
        if seeds is not None:
            raise TypeError(f"{caller}() got both seeds= and seed_set= (the same thing): give seeds=")
        warnings.warn(
            f"{caller}(seed_set=...) is deprecated: use seeds=, as the CLI's --seeds",
            DeprecationWarning,
            stacklevel=3,
        )
        seeds = seed_set
    if seeds is None:
        raise TypeError(f"{caller}() missing the argument seeds (e.g. seeds=\"1-100\")")
    return _read_seeds(seeds)


def check(
    game: str,
    seeds: Optional[Seeds] = None,
    player: Optional[str] = None,
    effort: Optional[int] = None,
    time_limit: Optional[float] = None,
    exec: Optional[str] = None,
    group: Optional[int] = None,
    threads: Optional[int] = None,
    settings: Optional[Mapping[str, Any]] = None,
    json: Optional[FilePath] = None,
    best: Optional[FilePath] = None,
    save: bool = False,
    label: Optional[str] = None,
    *,
    seed_set: Optional[Seeds] = None,
) -> None:
    """Raises ``ValueError`` naming what ``marathon play`` would refuse in these arguments
    (``seeds`` as :func:`play` takes them; without, seed 1), its outputs included: a ``best``
    file that cannot be read, a path that cannot be written. Writes nothing."""
    if seeds is None and seed_set is None:
        seeds = 1
    _core.check(
        game,
        _seed_list(seeds, seed_set, "check"),
        player,
        effort,
        time_limit,
        exec,
        group,
        threads,
        _settings(settings),
        json,
        best,
        save,
        label,
    )


#: The type of ``play``'s ``progress``: ``progress(done, total, record)`` after each case.
Progress = Callable[[int, int, dict[str, Any]], None]


def play(
    game: str,
    seeds: Optional[Seeds] = None,
    player: Optional[str] = None,
    effort: Optional[int] = None,
    time_limit: Optional[float] = None,
    exec: Optional[str] = None,
    group: Optional[int] = None,
    threads: Optional[int] = None,
    settings: Optional[Mapping[str, Any]] = None,
    json: Optional[FilePath] = None,
    best: Optional[FilePath] = None,
    save: bool = False,
    label: Optional[str] = None,
    progress: Union[bool, None, Progress] = None,
    *,
    seed_set: Optional[Seeds] = None,
) -> list[dict[str, Any]]:
    """Plays the cases as ``marathon play GAME --seeds SEEDS`` does and returns each case's
    record (the dict of its ``--json`` line: ``game``, ``seed``, ``params``, ``score``,
    ``moves``, ``time_ms``, ``verdict`` and the verdict's details, ``max_rss_kib`` for a
    program, ``metrics``), in seed order. Each game's contest sets the clock and the memory
    limit, as in ``marathon play``.

    ``seeds`` is a seed set as ``--seeds`` takes it (``"1-100"``, ``"1,5,9"``, ``"@file"``), one
    seed, or a list of seeds (``seed_set=`` is its old, deprecated name). ``player`` names a
    built-in player (default: the game's first), ``exec`` an external program run as ``sh -c
    EXEC`` instead; ``settings`` are the built-in player's ``--set`` values; ``time_limit`` is in
    seconds (default: the contest's); ``threads`` cases play at once (default: one per core).

    The outputs, as ``marathon play``'s: ``json`` a file that gets each case's line as it
    finishes (``--json``); ``best`` a best-known scores file, read first and kept up to date, the
    same file ``--best`` reads and writes, each record then carrying its ``relative`` score
    (``--best``); ``save=True`` keeps the run in ``.marathon/runs/`` (or ``$MARATHON_RUNS_DIR``),
    where ``marathon runs`` and ``--compare`` find it, named ``label`` (``--label``). Unlike
    ``marathon play``, a run is not kept unless asked: a tuner may call ``play`` thousands of
    times. A run they refuse raises ``ValueError`` before anything is written; one that could
    not write them raises ``OSError`` once it has ended.

    ``progress``: ``None`` (the default) draws a bar on standard error when it is a terminal, as
    ``marathon play`` does, and nothing in scripts, logs and notebooks; ``True`` always draws it,
    ``False`` never; a callable is called as ``progress(done, total, record)`` on this thread
    after each case (in the order cases finish). Python's other threads run meanwhile (the GIL
    is released); Ctrl-C stops the run like ``marathon play`` (no new case, running players
    killed) and raises ``KeyboardInterrupt``, and so does an exception ``progress`` raises.
    """
    seed_list = _seed_list(seeds, seed_set, "play")
    report = _progress.reporter(progress, game, len(seed_list))
    callback = None
    if report is not None:

        def callback(done: int, total: int, line: str) -> None:
            report(done, total, _json.loads(line))

    try:
        lines = _core.play(
            game,
            seed_list,
            player,
            effort,
            time_limit,
            exec,
            group,
            threads,
            _settings(settings),
            json,
            best,
            save,
            label,
            callback,
        )
    finally:
        if isinstance(report, _progress.Bar):
            report.close()
    return [_json.loads(line) for line in lines]


register_all()
