"""Shared fixtures: the ``marathon`` binary and a random masked player."""

from __future__ import annotations

import math
import os
import random
import subprocess
from pathlib import Path
from typing import Any, Callable, Optional

import gymnasium
import numpy as np
import pytest

import marathon_games

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def kept_runs_elsewhere(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The runs `marathon play` keeps go to a temporary folder, not the source tree."""
    os.environ["MARATHON_RUNS_DIR"] = str(tmp_path_factory.mktemp("runs"))

#: Each game's id, its Gymnasium id, and the reset options its cases take in the tests.
GAMES = marathon_games.games()


@pytest.fixture(scope="session")
def marathon_bin() -> Path:
    """The CLI binary: ``$MARATHON_BIN`` if set, else built from this checkout (dev profile, as
    ``cargo test`` builds it)."""
    given = os.environ.get("MARATHON_BIN")
    if given:
        path = Path(given)
        assert path.is_file(), f"MARATHON_BIN={given} is not a file"
        return path
    subprocess.run(["cargo", "build", "--quiet", "-p", "marathon"], cwd=ROOT, check=True)
    return ROOT / "target" / "debug" / "marathon"


def make(game: str, **kwargs: Any) -> gymnasium.Env[Any, Any]:
    """``gymnasium.make`` of ``game``'s registered environment."""
    return gymnasium.make(marathon_games.env_id(game), **kwargs)


def unwrapped(env: gymnasium.Env[Any, Any]) -> marathon_games.MarathonEnv:
    """The marathon environment inside Gymnasium's wrappers."""
    inner = env.unwrapped
    assert isinstance(inner, marathon_games.MarathonEnv)
    return inner


def random_action(info: dict[str, Any], rng: random.Random) -> int:
    """A uniformly random allowed action."""
    allowed = np.flatnonzero(info["action_mask"].view(np.bool_))
    assert len(allowed) > 0, "no action allowed on the player's turn"
    return int(allowed[rng.randrange(len(allowed))])


def final_action(env: marathon_games.MarathonEnv, allowed: np.ndarray) -> Optional[int]:
    """The allowed action whose reply is the game's final reply (``GIVE UP``), if any."""
    if env.final_reply is None:
        return None
    return next((int(a) for a in allowed if env.action_text(int(a)) == env.final_reply), None)


#: How a patient player picks among the allowed actions other than the final reply: the rank
#: of its pick among them, given their count and a uniform number in [0, 1). Log-uniform ranks
#: spread over every kind of action; geometric ones (mean 4) keep to the first few numbers,
#: which a game gives its small or early choices where it numbers a scale of them (polyomino's
#: piece sizes 3 to 1000, of which a random large one rarely fits and costs its size squared).
LEANS: dict[str, Callable[[int, float], int]] = {
    "log-uniform": lambda count, u: int((count + 1) ** u) - 1,
    "geometric": lambda count, u: min(count - 1, int(math.log1p(-u) / math.log(0.8))),
}


def patient_action(
    env: marathon_games.MarathonEnv, info: dict[str, Any], rng: random.Random, lean: str
) -> int:
    """A random allowed action that ends the game by choice (the game's final reply) only once
    in a hundred turns or when nothing else is allowed, the others picked by ``LEANS[lean]``,
    so that the game goes on long enough to score."""
    allowed = np.flatnonzero(info["action_mask"].view(np.bool_))
    stop = final_action(env, allowed)
    others = allowed[allowed != stop] if stop is not None else allowed
    if stop is not None and (len(others) == 0 or rng.random() < 0.01):
        return stop
    assert len(others) > 0, "no action allowed on the player's turn"
    return int(others[LEANS[lean](len(others), rng.random())])


def play_random(
    env: gymnasium.Env[Any, Any],
    seed: int,
    options: Optional[dict[str, Any]] = None,
    max_steps: int = 50_000,
    patient: Optional[str] = None,
) -> tuple[list[str], float, dict[str, Any]]:
    """Plays case ``seed`` with random allowed actions to its end (``patient_action``s leaning
    by ``LEANS[patient]`` if ``patient`` is given); returns the reply lines the actions stand
    for, the sum of the rewards (from the score at the start) and the last info."""
    inner = unwrapped(env)
    rng = random.Random(seed)
    observation, info = env.reset(seed=seed, options=options)
    replies: list[str] = []
    total = info["score"]
    for _ in range(max_steps):
        action = (
            patient_action(inner, info, rng, patient)
            if patient
            else random_action(info, rng)
        )
        replies.append(inner.action_text(action))
        observation, reward, terminated, truncated, info = env.step(action)
        assert observation in env.observation_space
        assert not truncated
        assert "invalid" not in info, info.get("invalid")
        total += reward
        if terminated:
            return replies, total, info
    raise AssertionError(f"no end after {max_steps} steps")
