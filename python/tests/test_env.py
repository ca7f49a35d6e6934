"""The Gymnasium environments: registration, Gymnasium's checker, spaces, seeds, random games,
bad input."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import marathon_games
from conftest import GAMES, final_action, make, play_random, unwrapped


def test_the_registry_lists_the_five_games_first_each_registered() -> None:
    # A test build registers test-only games (crates/dice) after the five.
    assert GAMES[:5] == ["linez", "tiles", "reversi", "polyomino", "solitaire"]
    for game in GAMES:
        assert f"marathon/{game.capitalize()}-v0" in gymnasium.registry
        assert unwrapped(make(game)).game == game


@pytest.mark.parametrize("game", GAMES)
def test_gymnasiums_checker_passes(game: str) -> None:
    check_env(make(game, render_mode="ansi").unwrapped)


@pytest.mark.parametrize("game", GAMES)
def test_the_games_final_reply_is_an_action_that_ends_it(game: str) -> None:
    env = make(game)
    inner = unwrapped(env)
    _, info = env.reset(seed=1)
    stop = final_action(inner, np.flatnonzero(info["action_mask"].view(np.bool_)))
    if inner.final_reply is None:
        assert stop is None
        return
    assert stop is not None, f"{inner.final_reply!r} is no allowed action at the start"
    _, _, terminated, _, info = env.step(stop)
    assert terminated
    assert "invalid" not in info


@pytest.mark.parametrize("game", GAMES)
def test_random_masked_games_end_and_the_rewards_add_up_to_the_score(game: str) -> None:
    env = make(game)
    for seed in (1, 2):
        start = env.reset(seed=seed)[1]["score"]
        replies, total, info = play_random(env, seed)
        assert replies, "at least one decision"
        assert total == pytest.approx(info["score"], abs=1e-9)
        assert info["action_mask"].dtype == np.int8
        assert not info["action_mask"].any(), "nothing is allowed after the end"
        assert start >= 0, "a game starts at its rules' score (reversi's pieces, dice's roll)"


def test_solitaire_plays_every_group() -> None:
    env = make("solitaire")
    for group in range(1, 7):
        play_random(env, 3, {"group": group})


def gen(marathon_bin: Path, game: str, seed: int, group: int | None = None) -> str:
    command = [str(marathon_bin), "gen", game, "--seed", str(seed)]
    if group is not None:
        command += ["--group", str(group)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("game", GAMES)
def test_a_seed_is_the_judges_case(game: str, marathon_bin: Path) -> None:
    env = make(game, render_mode="ansi")
    for seed in (1, 12345):
        env.reset(seed=seed)
        assert env.render() == gen(marathon_bin, game, seed)


def test_a_solitaire_group_is_the_judges_group(marathon_bin: Path) -> None:
    env = make("solitaire", render_mode="ansi")
    env.reset(seed=4, options={"group": 3})
    assert env.render() == gen(marathon_bin, "solitaire", 4, group=3)
    env.reset(seed=4)
    assert env.render() == gen(marathon_bin, "solitaire", 4, group=6)


@pytest.mark.parametrize("game", GAMES)
def test_seeds_reproduce_and_differ(game: str) -> None:
    env = make(game)
    first, first_info = env.reset(seed=7)
    again, again_info = env.reset(seed=7)
    # Seed 1 is a smaller reversi board than 7: its start differs (same-sized cases differ only
    # in their hidden opponents).
    other, _ = env.reset(seed=1)
    assert isinstance(env.observation_space, gymnasium.spaces.Dict)
    for name, space in env.observation_space.spaces.items():
        assert first[name].dtype == space.dtype and first[name].shape == space.shape
        np.testing.assert_array_equal(first[name], again[name])
    np.testing.assert_array_equal(first_info["action_mask"], again_info["action_mask"])
    assert any(not np.array_equal(first[name], other[name]) for name in first)


def test_reset_without_a_seed_draws_cases_from_the_environments_generator() -> None:
    one, two = make("linez"), make("linez")
    one.reset(seed=3)
    two.reset(seed=3)
    np.testing.assert_array_equal(one.reset()[0]["board"], two.reset()[0]["board"])


def test_bad_input_raises_value_error() -> None:
    with pytest.raises(ValueError, match="no game"):
        marathon_games.MarathonEnv("chess")
    env = make("tiles")
    env.reset(seed=1)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    actions = int(env.action_space.n)
    # Issue 40, defect 10: every number outside the space is a ValueError (2**63 was an
    # OverflowError); what is not an int is a TypeError, not a number taken by int().
    for action in (-1, actions, 2**63, 2**70, -(2**70)):
        with pytest.raises(ValueError, match="outside the action space"):
            env.step(action)
        with pytest.raises(ValueError, match="outside the action space"):
            unwrapped(env).action_text(action)
    for action in (1.5, 1.0, "3", True, None, np.float64(2.0), [1]):
        with pytest.raises(TypeError):
            env.step(action)
        with pytest.raises(TypeError):
            unwrapped(env).action_text(action)
    assert unwrapped(env).moves == 0, "no refused argument played"
    # numpy's integers are ints (what action_space.sample() gives).
    legal = int(np.flatnonzero(unwrapped(env).action_mask())[0])
    _, reward, _, _, _ = env.step(np.int64(legal))
    assert reward == 1.0 and unwrapped(env).moves == 1
    with pytest.raises(ValueError, match="group"):
        env.reset(seed=1, options={"group": 2})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(seed=1, options={"level": 2})
    with pytest.raises(ValueError, match="group 9"):
        make("solitaire").reset(seed=1, options={"group": 9})
    with pytest.raises(ValueError, match="reset"):
        marathon_games.MarathonEnv("linez").step(0)


def test_a_refused_action_ends_the_game_with_the_contests_failure_score() -> None:
    env = make("tiles")
    _, info = env.reset(seed=1)
    action = random_allowed(info)
    _, reward, terminated, _, info = env.step(action)
    assert (reward, terminated, info["score"]) == (1.0, False, 1.0)
    refused = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(refused)
    assert terminated and "invalid" in info
    assert (reward, info["score"]) == (-1.0, 0.0), "tiles scores 0 for an invalid reply"
    with pytest.raises(ValueError, match="over"):
        unwrapped(env).step(0)
    # Linez keeps its points.
    linez = make("linez")
    linez.reset(seed=1)
    _, reward, terminated, _, info = linez.step(0)
    assert terminated and reward == 0.0 and "A1A1" in info["invalid"]


def random_allowed(info: dict[str, Any]) -> int:
    return int(random.Random(0).choice(np.flatnonzero(info["action_mask"])))
