"""The native vector environment of a marathon game.

``gymnasium.make_vec("marathon/Tiles-v0", num_envs=1024)`` (or
``MarathonVectorEnv("tiles", 1024)``) steps all sub-environments in Rust across a thread pool,
with the GIL released, and writes observations, masks, rewards and ends into numpy arrays made
once. Each sub-environment plays exactly what the single environment (:mod:`marathon_games.env`)
plays for the same case and actions.

- Spaces: ``single_observation_space`` and ``single_action_space`` are the single environment's;
  ``observation_space`` and ``action_space`` are their batches (a ``MultiDiscrete`` of actions).
- ``reset(seed=s)`` gives sub-environment ``i`` case seed ``s + i``; ``seed=[s0, s1, ...]`` one
  seed each; without a seed, ``s`` is drawn from ``np_random``. Each later game of a
  sub-environment (started by the autoreset) plays the seed ``num_envs`` above its last, so the
  batch plays the consecutive seeds ``s, s+1, s+2, ...``; ``info["seed"]`` says which.
  ``options={"group": G}`` as the single environment (solitaire's case group). With
  ``repeat_cases=True`` each sub-environment plays its reset's case again and again (a copy: not
  dealt again, which matters for reversi, whose cases take a genetic algorithm to deal, about
  0.3 s each); a seed given to several sub-environments is dealt once.
- Autoreset (Gymnasium 1.x's modes; ``autoreset_mode=``): ``SAME_STEP`` (the default) starts the
  next game in the step that ended one, so every observation and ``action_mask`` returned
  belongs to a game in play, and a mask can always be sampled; the ended game's last
  observation is ``info["final_obs"][i]`` and its final score and seed are in
  ``info["final_info"]`` (``"score"``, ``"seed"``), each with Gymnasium's ``_key`` masks.
  ``NEXT_STEP`` starts it in the next step, which ignores that sub-environment's action and
  returns reward 0 (the ended game's mask is all zeros meanwhile).
- ``info``: ``action_mask`` (int8, ``num_envs`` x actions), ``score`` (the contest's score so
  far), ``seed``; with ``legal_actions=W``, instead of the mask, the compact form for large
  sparse masks: ``legal_actions`` (int32, ``num_envs`` x ``W``: each sub-environment's allowed
  action numbers, increasing, then -1) and ``legal_count`` (how many; above ``W`` only the
  first ``W`` are listed; linez has at most 1,640 legal moves, 40 balls times 41 empty cells); where the rules refused an action, which ended that game as the judge would,
  ``invalid`` (the reasons, an object array) and ``_invalid``. Actions must be integers in the
  action space: another dtype is a ``TypeError``, a number outside the space a ``ValueError``
  that changes nothing.
- ``copy=True`` (as Gymnasium's ``SyncVectorEnv``) returns copies; ``copy=False`` returns the
  environment's own arrays, rewritten by the next step: the fastest way, for a caller that does
  not keep them.
- ``threads`` (default: one per available core, at most ``num_envs``) step the batch.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from marathon_games._core import Core, VectorCore
from marathon_games.env import MAX_SEED, observation_space

_INT64_MAX = np.iinfo(np.int64).max


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class MarathonVectorEnv(VectorEnv):
    """Many cases of a marathon game stepped at once (see the module's doc)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: str,
        num_envs: int = 1,
        *,
        threads: Optional[int] = None,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.SAME_STEP,
        copy: bool = True,
        repeat_cases: bool = False,
        legal_actions: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r}: the vector environment renders nothing")
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
            raise ValueError(f"autoreset_mode {mode.value!r}: SAME_STEP or NEXT_STEP")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs {num_envs!r}: at least 1")
        if legal_actions is not None and (
            not isinstance(legal_actions, (int, np.integer)) or isinstance(legal_actions, bool)
        ):
            raise TypeError(f"legal_actions {legal_actions!r}: expected an int (a list's width)")
        if threads is None:
            threads = min(num_envs, _cores())
        single = Core(game)
        self._core = VectorCore(
            game,
            num_envs,
            int(threads),
            mode == AutoresetMode.NEXT_STEP,
            repeat_cases,
            None if legal_actions is None else int(legal_actions),
        )
        self.legal_actions = legal_actions
        self.repeat_cases = repeat_cases
        self.game: str = single.game
        self.num_envs = num_envs
        self.threads = int(threads)
        self.copy = copy
        self.render_mode = None
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.single_action_space = spaces.Discrete(single.actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = observation_space(single.fields())
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        arrays = self._core.arrays()
        self._observation: dict[str, np.ndarray] = arrays["observation"]
        self._last_observation: dict[str, np.ndarray] = arrays["last_observation"]
        self._mask: np.ndarray = arrays["action_mask"]
        self._legal: np.ndarray = arrays["legal_actions"]
        self._legal_count: np.ndarray = arrays["legal_count"]
        self._reward: np.ndarray = arrays["reward"]
        self._terminated: np.ndarray = arrays["terminated"]
        self._invalid: np.ndarray = arrays["invalid"]
        self._score: np.ndarray = arrays["score"]
        self._seed: np.ndarray = arrays["seed"]
        self._last_score: np.ndarray = arrays["last_score"]
        self._last_seed: np.ndarray = arrays["last_seed"]
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._everywhere = np.ones(num_envs, dtype=np.bool_)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _observations(self) -> dict[str, np.ndarray]:
        return {name: self._out(array) for name, array in self._observation.items()}

    def _info(self) -> dict[str, Any]:
        everywhere = self._everywhere.copy() if self.copy else self._everywhere
        if self.legal_actions is None:
            allowed = {"action_mask": self._out(self._mask), "_action_mask": everywhere}
        else:
            allowed = {
                "legal_actions": self._out(self._legal),
                "_legal_actions": everywhere,
                "legal_count": self._out(self._legal_count),
                "_legal_count": everywhere,
            }
        return {
            **allowed,
            "score": self._out(self._score),
            "_score": everywhere,
            "seed": self._out(self._seed),
            "_seed": everywhere,
        }

    def _seeds(self, seed: Union[None, int, Sequence[int]]) -> list[int]:
        if seed is None:
            base = int(self.np_random.integers(0, MAX_SEED, endpoint=True, dtype=np.uint64))
            return [(base + i) % (MAX_SEED + 1) for i in range(self.num_envs)]
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            if not 0 <= seed <= MAX_SEED:
                raise ValueError(f"seed {seed}: case seeds are 0..2**64-1")
            return [(int(seed) + i) % (MAX_SEED + 1) for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        for one in seeds:
            if not isinstance(one, (int, np.integer)) or isinstance(one, bool):
                raise TypeError(f"seed {one!r}: expected an int")
            if not 0 <= one <= MAX_SEED:
                raise ValueError(f"seed {one}: case seeds are 0..2**64-1")
        return [int(one) for one in seeds]

    def reset(
        self,
        *,
        seed: Union[None, int, Sequence[int]] = None,
        options: Optional[dict[str, Any]] = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        options = options or {}
        unknown = set(options) - {"group"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}: only 'group' is read")
        group = options.get("group")
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and 0 <= seed <= MAX_SEED:
            super().reset(seed=int(seed))
        seeds = self._seeds(seed)
        self._core.reset(seeds, None if group is None else int(group))
        return self._observations(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions: expected integers, got dtype {actions.dtype}")
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions: shape {actions.shape}, expected ({self.num_envs},)")
        if actions.dtype.kind == "u":
            # Beyond int64, still outside the action space (and said so), not wrapped around.
            actions = np.minimum(actions, _INT64_MAX)
        self._core.step(np.ascontiguousarray(actions, dtype=np.int64))
        infos = self._info()
        if self._invalid.any():
            infos["invalid"] = np.array(self._core.invalid_reasons(), dtype=object)
            infos["_invalid"] = self._invalid.copy()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and self._terminated.any():
            ended = self._terminated.copy()
            rows = np.flatnonzero(ended)
            # One copy of the ended rows per field; each dict holds views into it.
            copied = {name: array[rows] for name, array in self._last_observation.items()}
            final_obs = np.full(self.num_envs, None, dtype=object)
            for k, i in enumerate(rows):
                final_obs[i] = {name: array[k] for name, array in copied.items()}
            infos["final_obs"] = final_obs
            infos["_final_obs"] = ended
            infos["final_info"] = {
                "score": self._last_score.copy(),
                "_score": ended.copy(),
                "seed": self._last_seed.copy(),
                "_seed": ended.copy(),
            }
            infos["_final_info"] = ended.copy()
        return (
            self._observations(),
            self._out(self._reward),
            self._out(self._terminated),
            self._out(self._truncated),
            infos,
        )

    def message(self, env: int) -> str:
        """The contest's text the judge would write now in sub-environment ``env``."""
        return self._core.message(env)
