"""An agent that learns Solitaire chess: masked PPO on the native vector environment, in JAX.

    pip install ./python jax optax matplotlib
    python python/examples/solitaire_ppo.py train --steps 20000000 --out runs/ppo
    marathon play solitaire --seeds 1-200 \
        --exec "python python/examples/solitaire_ppo.py play runs/ppo/policy.npz"

``train`` steps ``MarathonVectorEnv("solitaire", ...)`` (group 6, all eight piece types) on
seeds from 1,000,000 up, so that seeds 1-200 stay held out, and writes ``policy.npz`` (the
network's weights), ``curve.csv`` and ``curve.png`` (the mean final score of the games that
ended in each update, against environment steps) into ``--out``. ``play`` is a program for the
judge: it reads the contest's text, rebuilds the environment's observation and mask with
:mod:`marathon_games.follow`, and plays the policy's most likely legal action; it needs numpy
only, so it starts quickly under the judge's clock.

Why JAX: the learner is a small MLP whose update is one compiled function; JAX's CPU wheels are
small (PyTorch's Linux wheels from PyPI pull in gigabytes of GPU libraries), and optax gives
Adam with gradient clipping. The algorithm is PPO with clipping and generalised advantage
estimation, as CleanRL's single-file ``ppo.py``, with the illegal actions' logits masked out.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from typing import Any, Mapping

import numpy as np

# The observation's int8 arrays (marathon_games.env's Solitaire spaces), one-hot encoded.
PIECES = 9  # 0 none, 1-8 the piece types
LEVELS = 4  # pieces removed from a stack, 0-3
ACTIONS = 37  # the 36 cells and `0 0`
STOP = 36
NAMES = ["1", "2", "3", "4", "torn", "lopare", "dam", "springare"]  # the protocol's, type + 1
GLOBAL = 36 * PIECES + 36 * LEVELS + (PIECES + 7 + 7) + (9 + 3 * PIECES + 5 + 3) + ACTIONS
CELL = 8 + PIECES + LEVELS


def reach_table() -> np.ndarray:
    """``reach[piece, cell]``: the cells a removal of ``piece`` (type + 1) at ``cell`` allows
    next on a full board, read from the environment's own masks through a Follower (a board of
    that piece alone, one removal), so the example holds no rule of the game."""
    from marathon_games.follow import Follower

    reach = np.zeros((PIECES, 36, 36), bool)
    for piece in range(1, PIECES):
        for cell in range(36):
            follower = Follower("solitaire")
            for _ in range(6):
                follower.read_line(" ".join([NAMES[piece - 1]] * 6))
            follower.reply(cell)
            follower.read_line(NAMES[piece - 1])
            reach[piece, cell] = follower.action_mask()[:36].astype(bool)
    return reach


def encode(
    observation: Mapping[str, np.ndarray], mask: np.ndarray, reach: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The network's input for a batch (leading axis) of observations and masks: the whole
    position one-hot (tops, depths, last removal, scorer, the mask), and for each cell what its
    removal would do: how many cells it leaves reachable, whether it continues the run or
    completes a set, its piece and depth."""
    batch = len(mask)
    tops = observation["tops"].reshape(batch, 36).astype(np.int64)
    removed = observation["removed"].reshape(batch, 36).astype(np.int64)
    last = observation["last"].astype(np.int64)
    scorer = observation["scorer"].astype(np.int64)
    eye = lambda n: np.eye(n, dtype=np.float32)  # noqa: E731
    whole = np.concatenate(
        [
            eye(PIECES)[tops].reshape(batch, -1),
            eye(LEVELS)[removed].reshape(batch, -1),
            eye(PIECES)[last[:, 0]],
            eye(7)[last[:, 1]],
            eye(7)[last[:, 2]],
            eye(9)[np.minimum(scorer[:, 0], 8)],  # the run's length
            eye(PIECES)[scorer[:, 1:4]].reshape(batch, -1),  # the set scan's pending pieces
            eye(5)[np.minimum(scorer[:, 4], 4)],  # alternating sets
            eye(3)[scorer[:, 5]],  # the last set's kind
            mask.astype(np.float32),
        ],
        axis=1,
    )
    # After removing cell a, the board holds the same pieces but a's stack if it was gold.
    occupied = tops > 0
    after = occupied[:, None, :] & ~((np.eye(36, dtype=bool)[None]) & (removed[:, :, None] == 2))
    reachable = (reach[tops, np.arange(36)[None, :]] & after).sum(axis=2)  # batch x 36
    pending = scorer[:, 1:4]
    full = (pending > 0).all(axis=1)
    full &= (pending[:, 0] != pending[:, 1]) & (pending[:, 0] != pending[:, 2])
    full &= pending[:, 1] != pending[:, 2]

    def completes(low: int, high: int) -> np.ndarray:
        inside = full[:, None] & ((pending >= low) & (pending <= high)).all(axis=1)[:, None]
        distinct = np.ones((batch, 36), bool)
        for k in range(3):
            distinct &= tops != pending[:, k : k + 1]
        return inside & distinct & (tops >= low) & (tops <= high)

    cells = np.stack(
        [
            reachable / 35.0,
            reachable == 0,
            reachable == 1,
            (tops == last[:, :1]) & (tops > 0),
            completes(1, 4),
            completes(5, 8),
            mask[:, :36],
            occupied,
        ],
        axis=2,
    ).astype(np.float32)
    cells = np.concatenate(
        [cells, eye(PIECES)[tops], eye(LEVELS)[removed]], axis=2
    )
    return whole, cells


# --- the policy with numpy alone (the program under the judge) ---------------------------------


def forward_numpy(
    params: Mapping[str, np.ndarray], whole: np.ndarray, cells: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Logits and values of the network (``network`` below) in numpy."""
    h = np.tanh(whole @ params["w1"] + params["b1"])
    h = np.tanh(h @ params["w2"] + params["b2"])
    logits = h @ params["wp"] + params["bp"]
    context = h @ params["wg"]
    c = np.tanh(cells @ params["wc1"] + params["bc1"] + context[:, None, :])
    logits[:, :36] += (c @ params["wc2"])[:, :, 0]
    return logits, (h @ params["wv"] + params["bv"])[:, 0]


def load(path: str) -> dict[str, np.ndarray]:
    with np.load(path) as saved:
        return {name: saved[name] for name in saved.files}


def play(path: str) -> None:
    from marathon_games.follow import serve

    params = load(path)
    reach = reach_table()

    def policy(observation: Mapping[str, np.ndarray], mask: np.ndarray) -> int:
        batch = {name: array[None] for name, array in observation.items()}
        logits, _ = forward_numpy(params, *encode(batch, mask[None], reach))
        return int(np.argmax(np.where(mask.astype(bool), logits[0], -np.inf)))

    serve("solitaire", policy)


# --- training -----------------------------------------------------------------------------------


def train(args: argparse.Namespace) -> list[dict[str, float]]:
    import jax
    import jax.numpy as jnp
    import optax

    from marathon_games import MarathonVectorEnv

    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    key = jax.random.PRNGKey(args.seed)

    def orthogonal(shape: tuple[int, int], scale: float) -> np.ndarray:
        a = rng.standard_normal(shape)
        q, r = np.linalg.qr(a if shape[0] >= shape[1] else a.T)
        q = q * np.sign(np.diag(r))
        return (scale * (q if shape[0] >= shape[1] else q.T)).astype(np.float32)

    hidden, small = args.hidden, args.cell_hidden
    params = {
        "w1": orthogonal((GLOBAL, hidden), np.sqrt(2)),
        "b1": np.zeros(hidden, np.float32),
        "w2": orthogonal((hidden, hidden), np.sqrt(2)),
        "b2": np.zeros(hidden, np.float32),
        "wp": orthogonal((hidden, ACTIONS), 0.01),
        "bp": np.zeros(ACTIONS, np.float32),
        "wv": orthogonal((hidden, 1), 1.0),
        "bv": np.zeros(1, np.float32),
        "wg": orthogonal((hidden, small), 1.0),
        "wc1": orthogonal((CELL, small), np.sqrt(2)),
        "bc1": np.zeros(small, np.float32),
        "wc2": orthogonal((small, 1), 0.01),
    }
    params = jax.tree_util.tree_map(jnp.asarray, params)

    def network(p: Any, whole: Any, cells: Any) -> tuple[Any, Any]:
        # As forward_numpy: a trunk over the whole position, and one small network shared by
        # the 36 cells that adds to each cell's logit from what removing it would do.
        h = jnp.tanh(whole @ p["w1"] + p["b1"])
        h = jnp.tanh(h @ p["w2"] + p["b2"])
        logits = h @ p["wp"] + p["bp"]
        c = jnp.tanh(cells @ p["wc1"] + p["bc1"] + (h @ p["wg"])[:, None, :])
        logits = logits.at[:, :36].add((c @ p["wc2"])[:, :, 0])
        return logits, (h @ p["wv"] + p["bv"])[:, 0]

    def masked_log_softmax(logits: Any, mask: Any) -> Any:
        return jax.nn.log_softmax(jnp.where(mask, logits, -1e9), axis=-1)

    @jax.jit
    def act(p: Any, whole: Any, cells: Any, mask: Any, key: Any) -> tuple[Any, Any, Any]:
        logits, value = network(p, whole, cells)
        logp_all = masked_log_softmax(logits, mask)
        action = jax.random.categorical(key, logp_all)
        logp = jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0]
        return action, logp, value

    @jax.jit
    def values(p: Any, whole: Any, cells: Any) -> Any:
        return network(p, whole, cells)[1]

    updates = max(1, args.steps // (args.envs * args.horizon))
    schedule = optax.linear_schedule(args.lr, 0.0, updates * args.epochs * args.minibatches)
    optimizer = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(schedule, eps=1e-5))
    opt_state = optimizer.init(params)

    def loss_fn(p: Any, batch: Mapping[str, Any]) -> tuple[Any, Any]:
        logits, value = network(p, batch["whole"], batch["cells"])
        logp_all = masked_log_softmax(logits, batch["mask"])
        logp = jnp.take_along_axis(logp_all, batch["action"][:, None], axis=1)[:, 0]
        ratio = jnp.exp(logp - batch["logp"])
        adv = batch["adv"]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        policy_loss = jnp.maximum(
            -adv * ratio, -adv * jnp.clip(ratio, 1 - args.clip, 1 + args.clip)
        ).mean()
        value_loss = 0.5 * ((value - batch["ret"]) ** 2).mean()
        probs = jnp.exp(logp_all)
        entropy = -jnp.where(batch["mask"], probs * logp_all, 0.0).sum(axis=1).mean()
        loss = policy_loss + args.vf * value_loss - args.ent * entropy
        return loss, (policy_loss, value_loss, entropy)

    @jax.jit
    def learn(p: Any, state: Any, batch: Mapping[str, Any]) -> tuple[Any, Any, Any, Any]:
        (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(p, batch)
        change, state = optimizer.update(grads, state, p)
        return optax.apply_updates(p, change), state, loss, parts

    reach = reach_table()
    envs = MarathonVectorEnv("solitaire", args.envs, threads=1, copy=False)
    observation, info = envs.reset(seed=args.first_seed)
    mask = info["action_mask"].astype(bool)
    whole, cells = encode(observation, mask, reach)
    T, N = args.horizon, args.envs
    wholes = np.zeros((T, N, GLOBAL), np.float32)
    cellss = np.zeros((T, N, 36, CELL), np.float32)
    masks = np.zeros((T, N, ACTIONS), bool)
    actions = np.zeros((T, N), np.int32)
    logps = np.zeros((T, N), np.float32)
    vals = np.zeros((T, N), np.float32)
    rewards = np.zeros((T, N), np.float32)
    dones = np.zeros((T, N), np.float32)
    curve: list[dict[str, float]] = []
    steps = 0
    start = time.perf_counter()
    for update in range(1, updates + 1):
        ended_scores: list[float] = []
        for t in range(T):
            key, sub = jax.random.split(key)
            action, logp, value = act(params, whole, cells, mask, sub)
            action = np.asarray(action)
            wholes[t], cellss[t], masks[t], actions[t] = whole, cells, mask, action
            logps[t], vals[t] = np.asarray(logp), np.asarray(value)
            observation, reward, terminated, truncated, info = envs.step(action)
            rewards[t] = reward * args.reward_scale
            dones[t] = terminated | truncated
            if "_final_info" in info:
                ended = info["_final_info"]
                ended_scores.extend(info["final_info"]["score"][ended].tolist())
            mask = info["action_mask"].astype(bool)
            whole, cells = encode(observation, mask, reach)
        steps += T * N
        # Generalised advantage estimation; an ended game's next state is worth nothing.
        next_value = np.asarray(values(params, whole, cells))
        adv = np.zeros((T, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in reversed(range(T)):
            following = next_value if t == T - 1 else vals[t + 1]
            alive = 1.0 - dones[t]
            delta = rewards[t] + args.gamma * following * alive - vals[t]
            last = delta + args.gamma * args.gae * alive * last
            adv[t] = last
        flat = {
            "whole": wholes.reshape(T * N, -1),
            "cells": cellss.reshape(T * N, 36, CELL),
            "mask": masks.reshape(T * N, -1),
            "action": actions.reshape(-1),
            "logp": logps.reshape(-1),
            "adv": adv.reshape(-1),
            "ret": (adv + vals).reshape(-1),
        }
        size = T * N // args.minibatches
        for _ in range(args.epochs):
            order = rng.permutation(T * N)
            for k in range(args.minibatches):
                pick = order[k * size : (k + 1) * size]
                batch = {name: jnp.asarray(array[pick]) for name, array in flat.items()}
                params, opt_state, loss, (pl, vl, entropy) = learn(params, opt_state, batch)
        loss = float(loss)
        if not np.isfinite(loss):
            raise FloatingPointError(f"update {update}: the loss is {loss}")
        point = {
            "update": update,
            "steps": steps,
            "games": len(ended_scores),
            "mean_score": float(np.mean(ended_scores)) if ended_scores else float("nan"),
            "loss": loss,
            "entropy": float(entropy),
            "seconds": time.perf_counter() - start,
        }
        curve.append(point)
        if update % args.report == 0 or update == updates:
            print(
                f"update {update}/{updates}  steps {steps:,}  games {point['games']}  "
                f"mean score {point['mean_score']:.1f}  loss {loss:.3f}  "
                f"entropy {point['entropy']:.2f}  {steps / point['seconds']:,.0f} steps/s",
                flush=True,
            )
            save(args.out, params, curve)
    save(args.out, params, curve)
    plot(args.out, curve)
    return curve


def save(out: str, params: Any, curve: list[dict[str, float]]) -> None:
    """The weights (numpy arrays, for `play`) and the curve, written whole and renamed, so that a
    run stopped at any moment leaves the last ones readable."""
    weights = {name: np.asarray(value) for name, value in params.items()}
    np.savez(os.path.join(out, "policy.tmp.npz"), **weights)
    os.replace(os.path.join(out, "policy.tmp.npz"), os.path.join(out, "policy.npz"))
    with open(os.path.join(out, "curve.tmp.csv"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    os.replace(os.path.join(out, "curve.tmp.csv"), os.path.join(out, "curve.csv"))


def plot(out: str, curve: list[dict[str, float]]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no curve.png", file=sys.stderr)
        return
    steps = np.array([p["steps"] for p in curve])
    scores = np.array([p["mean_score"] for p in curve])
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(steps, scores, lw=0.8, label="mean final score of the games ended in each update")
    window = max(1, len(curve) // 25)
    if len(curve) > window:
        smooth = np.convolve(np.nan_to_num(scores), np.ones(window) / window, mode="valid")
        axes.plot(steps[window - 1 :], smooth, lw=2, label=f"moving mean of {window} updates")
    axes.set_xlabel("environment steps")
    axes.set_ylabel("Solitaire chess score (group 6)")
    axes.set_title("Masked PPO on marathon's vector environment")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(os.path.join(out, "curve.png"), dpi=120)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    training = commands.add_parser("train", help="train a policy")
    training.add_argument("--steps", type=int, default=20_000_000, help="environment steps")
    training.add_argument("--out", default="runs/solitaire-ppo", help="output folder")
    training.add_argument("--envs", type=int, default=128)
    training.add_argument("--horizon", type=int, default=128, help="steps per update and env")
    training.add_argument("--epochs", type=int, default=4)
    training.add_argument("--minibatches", type=int, default=8)
    training.add_argument("--hidden", type=int, default=256)
    training.add_argument("--cell-hidden", type=int, default=32, help="the cells' network")
    training.add_argument("--lr", type=float, default=2.5e-4)
    training.add_argument("--gamma", type=float, default=0.99)
    training.add_argument("--gae", type=float, default=0.95)
    training.add_argument("--clip", type=float, default=0.2)
    training.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    training.add_argument("--vf", type=float, default=0.5, help="value loss coefficient")
    training.add_argument("--reward-scale", type=float, default=0.1)
    training.add_argument("--first-seed", type=int, default=1_000_000)
    training.add_argument("--seed", type=int, default=1, help="the learner's random seed")
    training.add_argument("--report", type=int, default=10, help="updates between reports")
    playing = commands.add_parser("play", help="play one game as a program under the judge")
    playing.add_argument("policy", help="a policy.npz written by train")
    args = parser.parse_args(argv)
    if args.command == "train":
        train(args)
    else:
        play(args.policy)


if __name__ == "__main__":
    main(sys.argv[1:])
