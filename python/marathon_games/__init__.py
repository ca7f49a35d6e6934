"""marathon's contest puzzle games for Python.

Runs: :func:`play` plays cases exactly as ``marathon play`` does and returns its ``--json``
records; :mod:`marathon_games.ray` spreads them over a Ray cluster.

Importing the package registers one Gymnasium environment per game, ``marathon/Linez-v0``,
``marathon/Tiles-v0``, ``marathon/Reversi-v0``, ``marathon/Polyomino-v0`` and
``marathon/Solitaire-v0`` (see :mod:`marathon_games.env`)::

    import gymnasium, marathon_games
    env = gymnasium.make("marathon/Linez-v0")
    observation, info = env.reset(seed=7)   # the case of `marathon play linez --seeds 7`
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence, Union

from marathon_games import _core
from marathon_games._core import games as _games
from marathon_games.env import MarathonEnv, env_id, register_all

__all__ = ["MarathonEnv", "check", "env_id", "games", "play", "seeds"]

Seeds = Union[str, int, Sequence[int]]


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


def _settings(settings: Optional[Mapping[str, Any]]) -> list[tuple[str, str]]:
    return [(str(name), str(value)) for name, value in (settings or {}).items()]


def check(
    game: str,
    seed_set: Seeds = 1,
    player: Optional[str] = None,
    effort: Optional[int] = None,
    time_limit: Optional[float] = None,
    exec: Optional[str] = None,
    group: Optional[int] = None,
    threads: Optional[int] = None,
    settings: Optional[Mapping[str, Any]] = None,
) -> None:
    """Raises ``ValueError`` naming what ``marathon play`` would refuse in these arguments."""
    _core.check(
        game,
        seeds(seed_set),
        player,
        effort,
        time_limit,
        exec,
        group,
        threads,
        _settings(settings),
    )


def play(
    game: str,
    seed_set: Seeds,
    player: Optional[str] = None,
    effort: Optional[int] = None,
    time_limit: Optional[float] = None,
    exec: Optional[str] = None,
    group: Optional[int] = None,
    threads: Optional[int] = None,
    settings: Optional[Mapping[str, Any]] = None,
) -> list[dict[str, Any]]:
    """Plays the cases as ``marathon play GAME --seeds ...`` does and returns each case's record
    (the dict of its ``--json`` line: ``game``, ``seed``, ``params``, ``score``, ``moves``,
    ``time_ms``, ``verdict`` and the verdict's details, ``max_rss_kib`` for a program,
    ``metrics``), in seed order. Each game's contest sets the clock and the memory limit, as in
    ``marathon play``.

    ``player`` names a built-in player (default: the game's first), ``exec`` an external
    program run as ``sh -c EXEC`` instead; ``settings`` are the built-in player's ``--set``
    values; ``time_limit`` is in seconds (default: the contest's); ``threads`` cases play at
    once (default: one per core). Python's other threads run meanwhile (the GIL is released);
    Ctrl-C stops the run like ``marathon play`` (no new case, running players killed) and raises
    ``KeyboardInterrupt``.
    """
    lines = _core.play(
        game,
        seeds(seed_set),
        player,
        effort,
        time_limit,
        exec,
        group,
        threads,
        _settings(settings),
    )
    return [json.loads(line) for line in lines]


register_all()
