"""marathon's contest puzzle games for Python.

Importing the package registers one Gymnasium environment per game, ``marathon/Linez-v0``,
``marathon/Tiles-v0``, ``marathon/Reversi-v0``, ``marathon/Polyomino-v0`` and
``marathon/Solitaire-v0`` (see :mod:`marathon_games.env`)::

    import gymnasium, marathon_games
    env = gymnasium.make("marathon/Linez-v0")
    observation, info = env.reset(seed=7)   # the case of `marathon play linez --seeds 7`
"""

from __future__ import annotations

from marathon_games._core import games as _games
from marathon_games.env import MarathonEnv, env_id, register_all

__all__ = ["MarathonEnv", "env_id", "games"]


def games() -> list[str]:
    """The games' ids, in the order ``marathon play`` runs them (the Rust registry's list)."""
    return list(_games())


register_all()
