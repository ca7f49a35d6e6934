"""The Gymnasium environment of a marathon game.

One class serves every game: the Rust extension gives the game's fixed spaces (the action
numbering, the mask and the observation arrays belong to the games, ``marathon_core::space``)
and plays its cases, so this module only adapts them to Gymnasium's API.

- ``reset(seed=N)`` plays the case of ``marathon play GAME --seeds N``; solitaire takes its case
  group as ``options={"group": G}`` (default: the CLI's default group). Without a seed, the
  case seed is drawn from the environment's ``np_random``.
- Actions are numbers of a fixed ``Discrete`` space; ``info["action_mask"]`` (numpy int8) marks
  the allowed ones. An action the rules refuse ends the game as the judge would, with the
  contest's failure score (``info["invalid"]`` says why); a number outside the space raises
  ``ValueError``, an action that is not an int (a float, a string, a bool) ``TypeError``.
- The reward is the score gained by the step, the opponents' moves and forced passes included
  (they are played inside ``step``); ``info["score"]`` is the contest's score so far.
- ``render()`` with ``render_mode="ansi"`` returns the contest's text the judge would write now.
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from marathon_games._core import Core

#: The largest case seed: seeds are unsigned 64-bit integers, as on the command line.
MAX_SEED = 2**64 - 1


def observation_space(fields: list[tuple[str, list[int], str, int, int]]) -> spaces.Dict:
    """The ``Dict`` space of the extension's fields ``(name, shape, dtype, low, high)``."""
    return spaces.Dict(
        {
            name: spaces.Box(low=low, high=high, shape=tuple(shape), dtype=np.dtype(dtype))
            for name, shape, dtype, low, high in fields
        }
    )


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``marathon/Linez-v0`` for ``linez``."""
    return f"marathon/{game.capitalize()}-v0"


class MarathonEnv(gymnasium.Env):
    """A marathon game as a Gymnasium environment (see the module's doc)."""

    # Text has no frame rate; Gymnasium's checker warns when none is declared.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str, render_mode: Optional[str] = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is offered")
        self.render_mode = render_mode
        self._core = Core(game)
        self.game: str = self._core.game
        #: The reply line that ends a game at once by the player's choice (``GIVE UP``), or
        #: ``None`` where the protocol has none.
        self.final_reply: Optional[str] = self._core.final_reply
        #: The metric of a judged record that holds the moves' points alone, for a game whose
        #: score counts the player's time (polyomino's ``raw``), else ``None``.
        self.untimed_score: Optional[str] = self._core.untimed_score
        #: The case groups as ``(first, last, default)`` (the reset option ``group``), or
        #: ``None`` for a game without groups.
        self.groups: Optional[tuple[int, int, int]] = self._core.groups()
        self.action_space = spaces.Discrete(self._core.actions)
        self.observation_space = observation_space(self._core.fields())

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        unknown = set(options) - {"group"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}: only 'group' is read")
        group = options.get("group")
        if seed is None:
            seed = int(self.np_random.integers(0, MAX_SEED, endpoint=True, dtype=np.uint64))
        elif not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed {seed}: case seeds are 0..2**64-1")
        return self._core.reset(seed, None if group is None else int(group))

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        # Not int(action): that would take 1.5 for 1 and "3" for 3. The extension takes ints
        # (numpy's too) and says what is wrong with anything else.
        observation, reward, terminated, info = self._core.step(action)
        return observation, reward, terminated, False, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._core.message()
        return None

    def action_mask(self) -> np.ndarray:
        """The allowed actions now, as ``info["action_mask"]`` gives them."""
        return self._core.mask()

    def action_text(self, action: int) -> str:
        """The protocol's reply line that says ``action`` now (what a program would write)."""
        return self._core.action_text(action)

    @property
    def score(self) -> float:
        """The contest's score so far."""
        return self._core.score

    @property
    def moves(self) -> int:
        """The player's moves so far, as the judge counts them."""
        return self._core.moves


def register_all() -> None:
    """Registers every game's environment with Gymnasium (once), the native vector environment
    as its ``vector_entry_point``."""
    from marathon_games._core import games

    for game in games():
        name = env_id(game)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="marathon_games.env:MarathonEnv",
                vector_entry_point="marathon_games.vector:MarathonVectorEnv",
                kwargs={"game": game},
            )
