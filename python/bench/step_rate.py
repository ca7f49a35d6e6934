"""Random allowed actions per second from Python, per game.

Each game plays case 1 (started again with ``reset(seed=1)`` at each end, as the Rust timing
``cargo bench -p marathon-python --bench step_rate`` measures), choosing uniformly among
the actions ``info["action_mask"]`` allows. Two figures per game: through
``gymnasium.make`` (with Gymnasium's default wrappers) and on the unwrapped environment. The
time includes choosing the action in Python: ``np.flatnonzero`` of the mask viewed as booleans
(numpy's ``nonzero`` of an int8 array is several times slower: 20 us for linez's 6561 actions).

    python bench/step_rate.py [--seconds 2] [--games linez,tiles]
"""

from __future__ import annotations

import argparse
import random
import time

import gymnasium
import numpy as np

import marathon_games

SEED = 1


def rate(env: gymnasium.Env, seconds: float) -> float:
    """Steps per second of random allowed actions on ``env`` for about ``seconds``."""
    rng = random.Random(SEED)
    _, info = env.reset(seed=SEED)
    steps = 0
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        for _ in range(100):
            allowed = np.flatnonzero(info["action_mask"].view(np.bool_))
            action = int(allowed[rng.randrange(len(allowed))])
            _, _, terminated, _, info = env.step(action)
            steps += 1
            if terminated:
                _, info = env.reset(seed=SEED)
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and way")
    parser.add_argument("--games", default=",".join(marathon_games.games()))
    args = parser.parse_args()
    print(f"{'game':<10} {'make steps/s':>14} {'unwrapped steps/s':>18}")
    for game in args.games.split(","):
        wrapped = gymnasium.make(marathon_games.env_id(game))
        made = rate(wrapped, args.seconds)
        bare = rate(wrapped.unwrapped, args.seconds)
        print(f"{game:<10} {made:>14.0f} {bare:>18.0f}")


if __name__ == "__main__":
    main()
