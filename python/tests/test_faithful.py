"""A game played through a Gymnasium environment scores the same through the judge, for every
game of the registry: random allowed actions (that rarely stop the game by choice) are recorded
as the protocol's reply lines, and ``marathon play --exec`` runs a program that replays them."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import gymnasium
import pytest

import marathon_games
from conftest import GAMES, LEANS, make, play_random, unwrapped

REPLAY = Path(__file__).with_name("replay_program.py")

#: Seeds tried, in order, each with every lean of the patient random player, for cases where
#: it scores (a line cleared in linez takes luck): the first ``JUDGED`` seeds that do are
#: judged, so that a game's cases differ in their parameters (reversi's seeds 1-3 are boards
#: of 3, 2 and 4 players).
SEEDS_TRIED = range(1, 41)
JUDGED = 3


def cases() -> list[tuple[str, Optional[dict[str, Any]]]]:
    """Every game in its default group and, where it has groups, in another (its first, or its
    last where the first is the default)."""
    found: list[tuple[str, Optional[dict[str, Any]]]] = []
    for game in GAMES:
        found.append((game, None))
        groups = marathon_games.MarathonEnv(game).groups
        if groups is not None:
            first, last, default = groups
            found.append((game, {"group": last if first == default else first}))
    return found


@pytest.mark.parametrize(("game", "options"), cases())
def test_a_random_transcript_scores_the_same_through_the_judge(
    game: str, options: Optional[dict[str, Any]], marathon_bin: Path, tmp_path: Path
) -> None:
    env = make(game)
    judged = 0
    for seed in SEEDS_TRIED:
        for lean in LEANS:
            replies, _, info = play_random(env, seed, options, patient=lean)
            if info["score"] != 0:
                judge_the_transcript(
                    game, seed, options, replies, info, env, marathon_bin, tmp_path
                )
                judged += 1
                break
        if judged == JUDGED:
            return
    pytest.fail(f"the patient random players scored in {judged} cases of seeds {SEEDS_TRIED}")


def judge_the_transcript(
    game: str,
    seed: int,
    options: Optional[dict[str, Any]],
    replies: list[str],
    info: dict[str, Any],
    env: gymnasium.Env[Any, Any],
    marathon_bin: Path,
    tmp_path: Path,
) -> None:
    """Judges a program that writes ``replies`` on case ``seed`` and checks that it scores what
    the environment ``env``, at the transcript's end with ``info``, scored."""
    transcript = tmp_path / f"transcript-{seed}.txt"
    transcript.write_text("".join(reply + "\n" for reply in replies), encoding="utf-8")
    results = tmp_path / f"results-{seed}.jsonl"
    program = " ".join(shlex.quote(str(part)) for part in (sys.executable, REPLAY, transcript))
    command = [str(marathon_bin), "play", game, "--seeds", str(seed), "--exec", program]
    if options:
        command += ["--group", str(options["group"])]
    command += ["--json", str(results), "--quiet", "--summary-only"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    (result,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert result["verdict"] == "ok", (seed, result)
    # A score that counts the program's time (polyomino's) is compared on its untimed part.
    untimed = unwrapped(env).untimed_score
    judged = result["metrics"][untimed] if untimed else result["score"]
    assert judged == pytest.approx(info["score"], abs=1e-9), seed
    assert result["moves"] == unwrapped(env).moves, seed
