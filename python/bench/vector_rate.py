"""Steps per second of random masked play in batches, per game and way, in one run.

For each game: the native vector environment (``MarathonVectorEnv``, ``copy=False``) with 1 and
2 threads, with masks and with the compact form (``legal_actions=``: lists of the allowed
actions, at most 1,640 a row, linez's bound, or the whole space if smaller), and Gymnasium's ``SyncVectorEnv`` over the single environment; for reference,
EnvPool's CartPole-v1 (a near-free environment: the cost of vectorization alone) at the same
batch and threads, when EnvPool is installed (a bench-only dependency: ``pip install envpool``).
The actions are drawn in numpy from the batched ``action_mask`` (see :func:`masked_random`),
inside the timed loop. Each sub-environment plays its first case again at each end (same-step
autoreset; ``repeat_cases=True``, and for ``SyncVectorEnv`` a wrapper that resets with the same
seed), as ``step_rate.py`` restarts case 1: dealing a new case is not what is measured (a
reversi case takes a genetic algorithm, about 0.3 s).

    python bench/vector_rate.py [--seconds 3] [--envs 1024] [--games tiles,linez]
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

import gymnasium
import numpy as np

import marathon_games

#: Candidates drawn per row in the first round; each later round draws eight times more for the
#: rows still without an allowed one.
TRIES = 16


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random allowed action per row of ``mask`` (batch x actions, int8).

    Rejection sampling, vectorized: uniform candidates per row, the first allowed one taken
    (uniform among the allowed), in rounds of more candidates for the rows still without one;
    after three rounds a row draws from its allowed list. A row that allows nothing gets action
    0. This reads a few mask entries a row instead of the whole mask (linez: 6,561 a row)."""
    allowed = mask.view(np.bool_)
    rows, actions = allowed.shape
    chosen = np.zeros(rows, dtype=np.int64)
    left = np.arange(rows)
    tries = TRIES
    for _ in range(3):
        candidates = rng.integers(0, actions, size=(len(left), tries))
        hit = allowed[left[:, None], candidates]
        first = hit.argmax(axis=1)
        found = hit[np.arange(len(left)), first]
        chosen[left[found]] = candidates[np.arange(len(left)), first][found]
        left = left[~found]
        if not len(left):
            return chosen
        tries *= 8
    for row in left:
        legal = np.flatnonzero(allowed[row])
        chosen[row] = legal[rng.integers(len(legal))] if len(legal) else 0
    return chosen


#: The legal lists' width: linez's most legal moves (40 balls times 41 empty cells).
LIST_WIDTH = 1640


def listed_random(legal: np.ndarray, count: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random action per row of the legal lists (a row's first ``count``)."""
    listed = np.minimum(count, legal.shape[1])
    return legal[np.arange(len(legal)), (rng.random(len(legal)) * listed).astype(np.int64)]


def timed(step: Callable[[], None], seconds: float, batch: int) -> float:
    """Steps a second of ``step`` (``batch`` steps a call) over about ``seconds``."""
    step()  # warm up
    calls = 0
    began = time.perf_counter()
    while True:
        step()
        calls += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return calls * batch / elapsed


def native(game: str, envs: int, threads: int, seconds: float, listed: bool = False) -> float:
    width = None
    if listed:
        actions = marathon_games.MarathonVectorEnv(game, 1).single_action_space.n
        width = actions if game == "polyomino" else min(LIST_WIDTH, actions)
    vector = marathon_games.MarathonVectorEnv(
        game, envs, threads=threads, copy=False, repeat_cases=True, legal_actions=width
    )
    _, info = vector.reset(seed=1)
    rng = np.random.default_rng(1)
    if listed:
        legal, count = info["legal_actions"], info["legal_count"]

        def step() -> None:
            vector.step(listed_random(legal, count, rng))

    else:
        mask = info["action_mask"]

        def step() -> None:
            vector.step(masked_random(mask, rng))

    return timed(step, seconds, envs)


class SameCase(gymnasium.Wrapper):
    """Resets with the first reset's seed again (the autoreset passes none)."""

    seed: int | None = None

    def reset(self, *, seed=None, options=None):  # type: ignore[no-untyped-def]
        if seed is not None:
            self.seed = seed
        return self.env.reset(seed=self.seed, options=options)


def sync(game: str, envs: int, seconds: float) -> float:
    vector = gymnasium.make_vec(
        marathon_games.env_id(game),
        num_envs=envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP, "copy": False},
        wrappers=[SameCase],
    )
    _, info = vector.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"mask": info["action_mask"]}

    def step() -> None:
        _, _, _, _, infos = vector.step(masked_random(state["mask"], rng))
        state["mask"] = infos["action_mask"]

    return timed(step, seconds, envs)


def envpool_cartpole(envs: int, threads: int, seconds: float) -> float | None:
    try:
        import envpool
    except ImportError:
        return None
    pool = envpool.make(
        "CartPole-v1", env_type="gymnasium", num_envs=envs, batch_size=envs, num_threads=threads, seed=1
    )
    pool.reset()
    rng = np.random.default_rng(1)

    def step() -> None:
        pool.step(rng.integers(0, 2, size=envs, dtype=np.int32))

    return timed(step, seconds, envs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measure")
    parser.add_argument("--envs", type=int, default=1024, help="batch size")
    parser.add_argument("--games", default=",".join(marathon_games.games()))
    parser.add_argument("--sync-envs", type=int, default=None, help="batch of SyncVectorEnv (default: --envs)")
    args = parser.parse_args()
    sync_envs = args.sync_envs or args.envs
    print(f"batch {args.envs} (SyncVectorEnv {sync_envs}), {args.seconds:g} s a measure; steps/s")
    cartpole = {threads: envpool_cartpole(args.envs, threads, args.seconds) for threads in (1, 2)}
    for threads, rate in cartpole.items():
        print(f"{'envpool CartPole-v1':<20} {threads} thread(s) {rate:>12,.0f}" if rate else "envpool: not installed")
    print(
        f"{'game':<10} {'native 1':>12} {'native 2':>12} {'listed 1':>12} {'listed 2':>12} "
        f"{'sync':>10} {'best / envpool 2':>16}"
    )
    for game in args.games.split(","):
        one = native(game, args.envs, 1, args.seconds)
        two = native(game, args.envs, 2, args.seconds)
        listed_one = native(game, args.envs, 1, args.seconds, listed=True)
        listed_two = native(game, args.envs, 2, args.seconds, listed=True)
        by_sync = sync(game, sync_envs, args.seconds)
        best = max(one, two, listed_one, listed_two)
        ratio = f"{best / cartpole[2]:.2f}" if cartpole[2] else "-"
        print(
            f"{game:<10} {one:>12,.0f} {two:>12,.0f} {listed_one:>12,.0f} {listed_two:>12,.0f} "
            f"{by_sync:>10,.0f} {ratio:>16}"
        )


if __name__ == "__main__":
    main()
