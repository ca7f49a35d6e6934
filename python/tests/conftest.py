"""Shared fixtures: the ``marathon`` binary and a random masked player."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path
from typing import Any, Optional

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


#: The action that ends a game by the player's choice (`GIVE UP`, `DONE`, `0 0`), by game.
STOP = {"tiles": 145, "polyomino": 998, "solitaire": 36}


def random_action(info: dict[str, Any], rng: random.Random) -> int:
    """A uniformly random allowed action."""
    allowed = np.flatnonzero(info["action_mask"].view(np.bool_))
    assert len(allowed) > 0, "no action allowed on the player's turn"
    return int(allowed[rng.randrange(len(allowed))])


def patient_action(game: str, info: dict[str, Any], rng: random.Random) -> int:
    """A random allowed action that stops the game by choice only once in a hundred turns (or
    when nothing else is allowed), and asks for small polyominoes (3 to 12 cells), so that the
    game goes on long enough to score."""
    allowed = np.flatnonzero(info["action_mask"].view(np.bool_))
    stop = STOP.get(game, -1)
    if game == "polyomino":
        allowed = allowed[(allowed < 10) | (allowed >= stop)]
    others = allowed[allowed != stop]
    if len(others) == 0 or (len(others) < len(allowed) and rng.random() < 0.01):
        return stop
    return int(others[rng.randrange(len(others))])


def play_random(
    env: gymnasium.Env[Any, Any],
    seed: int,
    options: Optional[dict[str, Any]] = None,
    max_steps: int = 50_000,
    patient: bool = False,
) -> tuple[list[str], float, dict[str, Any]]:
    """Plays case ``seed`` with random allowed actions to its end (``patient_action``s if
    ``patient``); returns the reply lines the actions stand for, the sum of the rewards (from
    the score at the start) and the last info."""
    game = unwrapped(env).game
    rng = random.Random(seed)
    observation, info = env.reset(seed=seed, options=options)
    replies: list[str] = []
    total = info["score"]
    for _ in range(max_steps):
        action = patient_action(game, info, rng) if patient else random_action(info, rng)
        replies.append(unwrapped(env).action_text(action))
        observation, reward, terminated, truncated, info = env.step(action)
        assert observation in env.observation_space
        assert not truncated
        assert "invalid" not in info, info.get("invalid")
        total += reward
        if terminated:
            return replies, total, info
    raise AssertionError(f"no end after {max_steps} steps")
