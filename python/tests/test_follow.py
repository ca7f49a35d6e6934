"""The player's side of the protocol (marathon_games.follow): a policy that chooses from the
environment's observation plays the same game as a program under the judge."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import marathon_games
from conftest import GAMES, final_action
from marathon_games.follow import Follower, serve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "python" / "examples" / "solitaire_ppo.py"

# A policy for both sides: the legal cell of the highest number, `0 0` when none is left.
LAST_LEGAL = "int(np.flatnonzero(mask)[-2]) if mask.sum() > 1 else 36"


def last_legal(observation: dict, mask: np.ndarray) -> int:
    return eval(LAST_LEGAL)


def has_players_side(game: str) -> bool:
    try:
        Follower(game)
    except ValueError:
        return False
    return True


#: The games with a player's side, in the registry's order.
FOLLOWED = [game for game in GAMES if has_players_side(game)]


@pytest.mark.parametrize("game", FOLLOWED)
def test_the_judges_text_gives_the_environments_observation_and_mask(game: str) -> None:
    env = gymnasium.make(marathon_games.env_id(game), render_mode="ansi")
    groups = env.unwrapped.groups
    rng = np.random.default_rng(5)
    for seed in (1, 2, 3):
        # A game with groups plays a different group each time.
        options = None
        if groups is not None:
            first, last, _ = groups
            options = {"group": first + seed % (last - first + 1)}
        observation, info = env.reset(seed=seed, options=options)
        follower = Follower(game)
        terminated = False
        while not terminated:
            lines = env.render().splitlines()
            assert [follower.read_line(line) for line in lines][-1]
            assert follower.decision_due
            followed = follower.observation()
            assert followed.keys() == observation.keys()
            for name in observation:
                np.testing.assert_array_equal(followed[name], observation[name], err_msg=name)
            np.testing.assert_array_equal(follower.action_mask(), info["action_mask"])
            legal = np.flatnonzero(info["action_mask"])
            # The final reply (`0 0`, `GIVE UP`), where the game has one, once in twenty.
            stop = final_action(env.unwrapped, legal)
            others = legal[legal != stop] if stop is not None else legal
            ends = stop is not None and (len(others) == 0 or rng.random() < 0.05)
            action = stop if ends else int(rng.choice(others))
            assert follower.reply(action) == env.unwrapped.action_text(action)
            observation, _, terminated, _, info = env.step(action)
        assert follower.over and not follower.decision_due


def test_refusals_and_games_without_a_players_side_are_named() -> None:
    assert FOLLOWED[:2] == ["tiles", "solitaire"]
    with pytest.raises(ValueError, match="games with one: " + ", ".join(FOLLOWED)):
        Follower("linez")
    with pytest.raises(ValueError, match="chess"):
        Follower("chess")
    follower = Follower("solitaire")
    with pytest.raises(ValueError, match="no decision is due"):
        follower.reply(0)
    for _ in range(6):
        follower.read_line("1 1 1 1 1 1")
    with pytest.raises(TypeError):
        follower.reply(1.5)
    with pytest.raises(ValueError, match="outside the action space"):
        follower.reply(-1)
    assert follower.reply(0) == "1 1"
    assert follower.read_line("2")
    with pytest.raises(ValueError, match="not a 1 move away"):
        follower.reply(35)
    assert follower.decision_due, "a refused reply changes nothing"
    assert follower.reply(7) == "2 2"
    assert follower.read_line("3")
    with pytest.raises(ValueError, match="reply was due"):
        follower.read_line("3")


def test_a_bad_board_line_is_named() -> None:
    follower = Follower("solitaire")
    for _ in range(5):
        assert not follower.read_line("1 1 1 1 1 1")
    with pytest.raises(ValueError, match="line 6"):
        follower.read_line("1 1 seven 1 1 1")


def test_serve_plays_under_the_judge_what_the_policy_plays_in_the_environment(
    tmp_path: Path,
) -> None:
    program = tmp_path / "player.py"
    program.write_text(
        "import numpy as np\n"
        "from marathon_games.follow import serve\n"
        f"serve('solitaire', lambda observation, mask: {LAST_LEGAL})\n"
    )
    judged = marathon_games.play("solitaire", "1-3", exec=f"{sys.executable} {program}")
    env = gymnasium.make("marathon/Solitaire-v0")
    for record in judged:
        observation, info = env.reset(seed=record["seed"])
        terminated = False
        while not terminated:
            action = last_legal(observation, info["action_mask"])
            observation, _, terminated, _, info = env.step(action)
        assert record["verdict"] == "ok", record
        assert record["score"] == info["score"] > 0
    # serve also runs on given streams, and stops at the player's end.
    output = io.StringIO()
    replies = serve("solitaire", lambda observation, mask: 36, io.StringIO("1 1 1 1 1 1\n" * 6), output)
    assert (replies, output.getvalue()) == (1, "0 0\n")


@pytest.mark.skipif(
    not all(importlib.util.find_spec(name) for name in ("jax", "optax")),
    reason="the learning example needs jax and optax",
)
def test_the_learning_example_trains_and_its_policy_plays_legally_under_the_judge(
    tmp_path: Path,
) -> None:
    out = tmp_path / "ppo"
    subprocess.run(
        [sys.executable, str(EXAMPLE), "train", "--steps", "8192", "--envs", "32",
         "--horizon", "64", "--minibatches", "4", "--hidden", "32", "--out", str(out)],
        check=True, cwd=tmp_path,
    )
    curve = (out / "curve.csv").read_text().splitlines()
    assert len(curve) == 1 + 8192 // (32 * 64)
    header = curve[0].split(",")
    losses = [float(line.split(",")[header.index("loss")]) for line in curve[1:]]
    assert all(np.isfinite(losses))
    played = marathon_games.play(
        "solitaire", "1-3", exec=f"{sys.executable} {EXAMPLE} play {out / 'policy.npz'}"
    )
    assert [r["verdict"] for r in played] == ["ok"] * 3, json.dumps(played)
    assert all(r["moves"] > 0 for r in played)
