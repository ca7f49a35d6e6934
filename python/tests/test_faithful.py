"""A game played through a Gymnasium environment scores the same through the judge: random
allowed actions (that rarely stop the game by choice) are recorded as the protocol's reply lines, and ``marathon play --exec`` runs
a program that replays them."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

from conftest import make, play_random, unwrapped

REPLAY = Path(__file__).with_name("replay_program.py")

#: (game, seed, reset options): every game, reversi on a 4-player board, solitaire in its
#: default group and in another. The linez and tiles seeds are ones where the random player
#: scores (a line cleared) or plays long.
CASES: list[tuple[str, int, Optional[dict[str, Any]]]] = [
    ("linez", 7, None),
    ("tiles", 28, None),
    ("reversi", 3, None),
    ("polyomino", 4, None),
    ("solitaire", 5, None),
    ("solitaire", 2, {"group": 5}),
]


@pytest.mark.parametrize(("game", "seed", "options"), CASES)
def test_a_random_transcript_scores_the_same_through_the_judge(
    game: str, seed: int, options: Optional[dict[str, Any]], marathon_bin: Path, tmp_path: Path
) -> None:
    env = make(game)
    replies, _, info = play_random(env, seed, options, patient=True)
    transcript = tmp_path / "transcript.txt"
    transcript.write_text("".join(reply + "\n" for reply in replies), encoding="utf-8")
    results = tmp_path / "results.jsonl"
    program = " ".join(shlex.quote(str(part)) for part in (sys.executable, REPLAY, transcript))
    command = [str(marathon_bin), "play", game, "--seeds", str(seed), "--exec", program]
    if options:
        command += ["--group", str(options["group"])]
    command += ["--json", str(results), "--quiet", "--summary-only"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    (result,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert result["verdict"] == "ok", result
    # Polyomino's score loses 1% a second of the program's time; `raw` is the score before.
    judged = result["metrics"]["raw"] if game == "polyomino" else result["score"]
    assert judged == pytest.approx(info["score"], abs=1e-9)
    assert result["moves"] == unwrapped(env).moves
