"""The native vector environments: make_vec, spaces, the single environment's games in every
sub-environment (both autoreset modes, one and two threads), seeds, copies, bad input."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import marathon_games
from conftest import GAMES

SAME, NEXT = AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One allowed action per row of a batched mask (any action where none is allowed)."""
    allowed = mask.astype(bool)
    scores = np.where(allowed, rng.random(mask.shape), -1.0)
    return np.argmax(scores, axis=1)


@pytest.mark.parametrize("game", GAMES)
def test_make_vec_gives_the_native_vector_environment(game: str) -> None:
    envs = gymnasium.make_vec(marathon_games.env_id(game), num_envs=3)
    single = gymnasium.make(marathon_games.env_id(game))
    assert isinstance(envs, marathon_games.MarathonVectorEnv)
    assert envs.single_action_space == single.action_space
    assert envs.single_observation_space == single.observation_space
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([single.action_space.n] * 3)
    assert envs.metadata["autoreset_mode"] == SAME
    observation, info = envs.reset(seed=5)
    assert envs.observation_space.contains(observation)
    assert list(info["seed"]) == [5, 6, 7]
    assert info["action_mask"].shape == (3, single.action_space.n)
    assert info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(1)
    for _ in range(5):
        observation, reward, terminated, truncated, info = envs.step(masked_random(info["action_mask"], rng))
        assert envs.observation_space.contains(observation)
        assert reward.dtype == np.float64 and terminated.dtype == np.bool_
        assert not truncated.any()
        # Same-step autoreset: every mask returned belongs to a game in play.
        assert info["action_mask"].any(axis=1).all()
        assert "invalid" not in info, "only allowed actions were played"


def play_vector(game: str, mode: AutoresetMode, threads: int, envs: int = 2) -> list[list[dict[str, Any]]]:
    """Random masked games (one action in 30 unmasked, which the rules may refuse) until every
    sub-environment has ended one; each sub-environment's finished games as dicts of seed,
    start and steps."""
    vector = marathon_games.MarathonVectorEnv(game, envs, threads=threads, autoreset_mode=mode)
    observation, info = vector.reset(seed=20)
    rng = np.random.default_rng(3)
    games: list[list[dict[str, Any]]] = [[] for _ in range(envs)]

    def start(i: int, observation: dict[str, np.ndarray], info: dict[str, Any]) -> dict[str, Any]:
        return {
            "seed": int(info["seed"][i]),
            "start": ({k: v[i] for k, v in observation.items()}, info["action_mask"][i], info["score"][i]),
            "steps": [],
        }

    current = [start(i, observation, info) for i in range(envs)]
    due = [False] * envs
    for _ in range(20_000):
        if all(games[i] for i in range(envs)):
            break
        actions = masked_random(info["action_mask"], rng)
        wild = rng.random(envs) < 1 / 30
        actions[wild] = rng.integers(0, vector.single_action_space.n, size=wild.sum())
        observation, reward, terminated, _, info = vector.step(actions)
        for i in range(envs):
            if due[i]:
                assert reward[i] == 0.0 and not terminated[i]
                assert info["seed"][i] == current[i]["seed"] + envs
                games[i].append(current[i])
                current[i] = start(i, observation, info)
                due[i] = False
                continue
            invalid = bool(info.get("_invalid", np.zeros(envs, bool))[i])
            if terminated[i] and mode == SAME:
                assert info["_final_obs"][i] and info["final_info"]["_score"][i]
                assert info["final_info"]["seed"][i] == current[i]["seed"]
                last = info["final_obs"][i]
                current[i]["steps"].append((int(actions[i]), reward[i], True, invalid, last, None, info["final_info"]["score"][i]))
                games[i].append(current[i])
                current[i] = start(i, observation, info)
                assert current[i]["seed"] == games[i][-1]["seed"] + envs
            else:
                now = {k: v[i] for k, v in observation.items()}
                current[i]["steps"].append((int(actions[i]), reward[i], bool(terminated[i]), invalid, now, info["action_mask"][i], info["score"][i]))
                due[i] = bool(terminated[i])
    assert all(games), "every sub-environment finished a game"
    return games


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("mode", "threads"), [(SAME, 1), (SAME, 2), (NEXT, 2)])
def test_every_sub_environment_plays_the_single_environments_games(game: str, mode: AutoresetMode, threads: int) -> None:
    games = play_vector(game, mode, threads)
    single = gymnasium.make(marathon_games.env_id(game)).unwrapped
    for played in (g for per_env in games for g in per_env):
        observation, info = single.reset(seed=played["seed"])
        start_observation, start_mask, start_score = played["start"]
        for key, value in observation.items():
            np.testing.assert_array_equal(start_observation[key], value)
        np.testing.assert_array_equal(start_mask, info["action_mask"])
        assert start_score == info["score"]
        for action, reward, terminated, invalid, seen, mask, score in played["steps"]:
            observation, single_reward, single_terminated, _, info = single.step(action)
            assert (reward, terminated, invalid) == (single_reward, single_terminated, "invalid" in info)
            for key, value in observation.items():
                np.testing.assert_array_equal(seen[key], value)
            if mask is not None:
                np.testing.assert_array_equal(mask, info["action_mask"])
            assert score == info["score"]
        assert single_terminated


def test_seeds_as_a_list_and_from_np_random() -> None:
    envs = marathon_games.MarathonVectorEnv("tiles", 3)
    _, info = envs.reset(seed=[9, 4, 9])
    assert list(info["seed"]) == [9, 4, 9]
    a = envs.reset(seed=None)[1]["seed"]
    assert list(np.diff(a.astype(np.int64))) == [1, 1] or a[0] > 2**62, "consecutive seeds"
    first = envs.reset(seed=123)[0]
    again = envs.reset(seed=123)[0]
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])


def test_solitaire_groups_as_the_single_environment() -> None:
    envs = marathon_games.MarathonVectorEnv("solitaire", 2)
    single = gymnasium.make("marathon/Solitaire-v0").unwrapped
    observation, _ = envs.reset(seed=4, options={"group": 3})
    expected, _ = single.reset(seed=5, options={"group": 3})
    for key in expected:
        np.testing.assert_array_equal(observation[key][1], expected[key])
    with pytest.raises(ValueError, match="group 9"):
        envs.reset(seed=4, options={"group": 9})
    with pytest.raises(ValueError, match="unknown reset options"):
        envs.reset(seed=4, options={"level": 1})


def test_copies_unless_asked_not_to() -> None:
    copying = marathon_games.MarathonVectorEnv("tiles", 2)
    observation, info = copying.reset(seed=1)
    again = copying.step(masked_random(info["action_mask"], np.random.default_rng(0)))[0]
    assert not np.shares_memory(observation["board"], again["board"])
    shared = marathon_games.MarathonVectorEnv("tiles", 2, copy=False)
    observation, info = shared.reset(seed=1)
    again = shared.step(masked_random(info["action_mask"], np.random.default_rng(0)))[0]
    assert again["board"] is observation["board"], "copy=False: the environment's own arrays"


def test_bad_input_raises_and_changes_nothing() -> None:
    envs = marathon_games.MarathonVectorEnv("tiles", 2)
    with pytest.raises(ValueError, match="call reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    observation, info = envs.reset(seed=1)
    n = envs.single_action_space.n
    for bad, error in [
        (np.array([0.0, 1.0]), TypeError),
        (np.array([True, False]), TypeError),
        (np.array(["1", "2"]), TypeError),
        (np.array([0, 1, 2]), ValueError),
        (np.array([-1, 0]), ValueError),
        (np.array([0, n]), ValueError),
        (np.array([0, 2**64 - 1], dtype=np.uint64), ValueError),
    ]:
        with pytest.raises(error):
            envs.step(bad)
    # Nothing changed: the first allowed actions still play from the start.
    after = envs.step(masked_random(info["action_mask"], np.random.default_rng(0)))
    assert after[1].tolist() == [1.0, 1.0], "a tile used scores 1"
    for kwargs, message in [
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2, "threads": 0}, "threads"),
        ({"num_envs": 2, "threads": 2000}, "threads"),
        ({"num_envs": 2, "autoreset_mode": AutoresetMode.DISABLED}, "autoreset_mode"),
    ]:
        with pytest.raises(ValueError, match=message):
            marathon_games.MarathonVectorEnv("tiles", **kwargs)
    with pytest.raises(ValueError, match="no game"):
        marathon_games.MarathonVectorEnv("chess", 2)
    with pytest.raises(ValueError, match="3 seeds for 2"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="case seeds"):
        envs.reset(seed=-1)


def test_refused_actions_end_the_game_and_say_why() -> None:
    # A1 to A1 is never a legal linez move.
    envs = marathon_games.MarathonVectorEnv("linez", 2)
    _, info = envs.reset(seed=1)
    actions = masked_random(info["action_mask"], np.random.default_rng(0))
    actions[1] = 0
    _, reward, terminated, _, info = envs.step(actions)
    assert terminated.tolist() == [False, True]
    assert info["_invalid"].tolist() == [False, True]
    assert "A1A1" in info["invalid"][1] and info["invalid"][0] is None
    assert info["final_info"]["_score"].tolist() == [False, True]


def test_repeated_cases_start_their_case_again() -> None:
    envs = marathon_games.MarathonVectorEnv("tiles", 2, repeat_cases=True)
    start, info = envs.reset(seed=[3, 3])
    np.testing.assert_array_equal(start["board"][0], start["board"][1])
    rng = np.random.default_rng(2)
    ended = 0
    while ended < 3:
        observation, _, terminated, _, info = envs.step(masked_random(info["action_mask"], rng))
        for i in np.flatnonzero(terminated):
            ended += 1
            assert info["seed"][i] == 3 and info["final_info"]["seed"][i] == 3
            np.testing.assert_array_equal(observation["board"][i], start["board"][i])


def test_make_vec_passes_the_keywords_on() -> None:
    envs = gymnasium.make_vec(
        "marathon/Tiles-v0", num_envs=3, threads=1, autoreset_mode=NEXT, copy=False, repeat_cases=True
    )
    assert (envs.num_envs, envs.threads, envs.autoreset_mode, envs.copy, envs.repeat_cases) == (3, 1, NEXT, False, True)
    assert envs.metadata["autoreset_mode"] == NEXT
    synced = gymnasium.make_vec("marathon/Tiles-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(synced, gymnasium.vector.SyncVectorEnv), "the other modes stay available"


@pytest.mark.parametrize("game", ["linez", "tiles", "solitaire"])
def test_legal_actions_list_what_the_mask_allows(game: str) -> None:
    masked = marathon_games.MarathonVectorEnv(game, 4)
    width = min(1640, masked.single_action_space.n)
    listed = gymnasium.make_vec(marathon_games.env_id(game), num_envs=4, legal_actions=width)
    _, by_mask = masked.reset(seed=8)
    _, by_list = listed.reset(seed=8)
    assert "action_mask" not in by_list and "legal_actions" not in by_mask
    rng = np.random.default_rng(2)
    for _ in range(200):
        legal, count = by_list["legal_actions"], by_list["legal_count"]
        assert legal.dtype == np.int32 and legal.shape == (4, width)
        for row in range(4):
            allowed = np.flatnonzero(by_mask["action_mask"][row])
            assert count[row] == len(allowed)
            np.testing.assert_array_equal(legal[row, : count[row]], allowed)
            assert (legal[row, count[row] :] == -1).all()
        # Sampling from the lists: one index below each count.
        actions = legal[np.arange(4), (rng.random(4) * count).astype(np.int64)]
        observation, _, _, _, by_mask = masked.step(actions)
        listed_observation, _, _, _, by_list = listed.step(actions)
        for name in observation:
            np.testing.assert_array_equal(listed_observation[name], observation[name])


def test_legal_actions_refuse_a_width_outside_the_space() -> None:
    for width in (0, 6562):
        with pytest.raises(ValueError, match="legal_actions"):
            marathon_games.MarathonVectorEnv("linez", 2, legal_actions=width)
    with pytest.raises(TypeError, match="legal_actions"):
        marathon_games.MarathonVectorEnv("linez", 2, legal_actions=True)
