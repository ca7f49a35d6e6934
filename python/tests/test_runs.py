"""``marathon_games.play`` is ``marathon play``: the same records for every game at a fixed
effort, the same checks of its arguments, external programs judged alike, and the Optuna
example runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import marathon_games
from conftest import GAMES, ROOT

#: Far above what a fixed-effort game needs: the tests never depend on the machine's speed.
NO_HURRY = 1000.0

def untimed(record: dict[str, Any]) -> dict[str, Any]:
    """The record without what depends on the machine: the time, a program's peak memory, and
    the score of a game whose score counts the player's time (its moves' points are then the
    metric the environment's ``untimed_score`` names, kept with the other metrics)."""
    counts_time = marathon_games.MarathonEnv(record["game"]).untimed_score is not None
    timed = {"time_ms", "max_rss_kib"} | ({"score"} if counts_time else set())
    return {key: value for key, value in record.items() if key not in timed}


def cli_records(marathon_bin: Path, game: str, *flags: str, tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / f"{game}.jsonl"
    subprocess.run(
        [str(marathon_bin), "play", game, *flags, "--quiet", "--json", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return sorted(records, key=lambda record: record["seed"])


@pytest.mark.parametrize("game", GAMES)
def test_play_gives_the_clis_records(game: str, marathon_bin: Path, tmp_path: Path) -> None:
    records = marathon_games.play(game, "1-3", effort=1, time_limit=NO_HURRY, threads=2)
    assert [record["seed"] for record in records] == [1, 2, 3]
    expected = cli_records(
        marathon_bin,
        game,
        "--seeds", "1-3", "--effort", "1", "--time-limit", str(NO_HURRY),
        tmp_path=tmp_path,
    )
    assert [untimed(r) for r in records] == [untimed(r) for r in expected]
    assert all(record["verdict"] == "ok" for record in records)


def test_settings_groups_and_programs_reach_the_judge(marathon_bin: Path, tmp_path: Path) -> None:
    narrow = marathon_games.play(
        "linez", [1, 2], effort=2, time_limit=NO_HURRY, settings={"candidates": 1}
    )
    expected = cli_records(
        marathon_bin, "linez", "--seeds", "1,2", "--effort", "2",
        "--time-limit", str(NO_HURRY), "--set", "candidates=1", tmp_path=tmp_path,
    )
    assert [untimed(r) for r in narrow] == [untimed(r) for r in expected]
    grouped = marathon_games.play("solitaire", 5, group=3, effort=1, time_limit=NO_HURRY)
    assert grouped[0]["case"] == "g3:5" and grouped[0]["group"] == 3
    # An external program is judged as under `marathon play --exec`.
    crashed = marathon_games.play("linez", "1-2", exec="exit 3", threads=2)
    assert [r["verdict"] for r in crashed] == ["crash", "crash"]
    assert "exit status 3" in crashed[0]["detail"]
    bot = ROOT / "python" / "examples" / "linez_bot.py"
    command = f"{sys.executable} {bot}"
    by_bot = marathon_games.play("linez", "1-2", exec=command)
    assert [untimed(r) for r in by_bot] == [
        untimed(r)
        for r in cli_records(marathon_bin, "linez", "--seeds", "1-2", "--exec", command,
                             tmp_path=tmp_path)
    ]


@pytest.mark.parametrize(
    "arguments, needle",
    [
        (dict(game="chess", seeds=1), "chess"),
        (dict(game="linez", seeds="1-x"), "1-x"),
        (dict(game="linez", seeds=1, player="nobody"), "nobody"),
        (dict(game="linez", seeds=1, settings={"dpeth": 2}), "dpeth"),
        (dict(game="linez", seeds=1, time_limit=0), "above 0"),
        (dict(game="linez", seeds=1, threads=0), "threads"),
        (dict(game="solitaire", seeds=1, group=99), "99"),
        (dict(game="linez", seeds=1, exec="true", player="ai"), "--exec"),
        (dict(game="linez", seeds=[]), "no seeds"),
        # Issue 40, defect 10: the CLI's bounds on --threads and --seeds.
        (dict(game="linez", seeds=1, threads=1025), "at most 1024"),
        (dict(game="linez", seeds=range(3_000_000)), "more than 1000000 seeds"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments: dict[str, Any], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        marathon_games.play(**arguments)
    with pytest.raises(ValueError, match=needle):
        marathon_games.check(**arguments)


def test_seeds_is_the_clis_word_and_seed_set_still_works() -> None:
    by_keyword = marathon_games.play("tiles", seeds="1-2", effort=1, time_limit=NO_HURRY)
    assert [record["seed"] for record in by_keyword] == [1, 2]
    with pytest.warns(DeprecationWarning, match="seeds="):
        old = marathon_games.play("tiles", seed_set="1-2", effort=1, time_limit=NO_HURRY)
    assert [untimed(r) for r in old] == [untimed(r) for r in by_keyword]
    with pytest.warns(DeprecationWarning):
        marathon_games.check("tiles", seed_set=[1, 2])
    with pytest.raises(TypeError, match="both"):
        marathon_games.play("tiles", seeds=1, seed_set=1)
    with pytest.raises(TypeError, match="seeds"):
        marathon_games.play("tiles")


def test_progress_reports_each_case_as_it_ends(capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[tuple[int, int, int]] = []
    records = marathon_games.play(
        "linez", "1-4", effort=1, time_limit=NO_HURRY, threads=2,
        progress=lambda done, total, record: seen.append((done, total, record["seed"])),
    )
    assert [done for done, _, _ in seen] == [1, 2, 3, 4]
    assert {total for _, total, _ in seen} == {4}
    assert sorted(seed for _, _, seed in seen) == [record["seed"] for record in records]
    # The bar, asked for, draws on stderr and ends its line; by default a script gets none.
    marathon_games.play("linez", "1-2", effort=1, time_limit=NO_HURRY, progress=True)
    bar = capsys.readouterr().err
    assert "2/2 cases" in bar and bar.endswith("\n")
    marathon_games.play("linez", "1-2", effort=1, time_limit=NO_HURRY)
    assert capsys.readouterr().err == ""


def test_an_error_in_progress_stops_the_run() -> None:
    def fail(done: int, total: int, record: dict[str, Any]) -> None:
        raise RuntimeError(f"stop at {done}")

    with pytest.raises(RuntimeError, match="stop at 1"):
        marathon_games.play("linez", "1-6", effort=1, time_limit=NO_HURRY, threads=1, progress=fail)
    # The stop is cleared: the next run plays every case.
    assert len(marathon_games.play("linez", "1-2", effort=1, time_limit=NO_HURRY)) == 2


def best_scores(path: Path) -> dict[tuple[str, str], float]:
    """A best-scores file as ``marathon play --best`` writes it: ``game case score`` lines."""
    scores = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            game, case, score = line.split()
            scores[(game, case)] = float(score)
    return scores


def test_best_is_the_clis_best_file(marathon_bin: Path, tmp_path: Path) -> None:
    """``play(best=...)`` writes the file ``marathon play --best`` writes, byte for byte, and
    each reads what the other wrote."""
    fixed = ["--effort", "1", "--time-limit", str(NO_HURRY), "--quiet", "--no-save"]
    by_cli = tmp_path / "cli-best.txt"
    subprocess.run(
        [str(marathon_bin), "play", "linez", "--seeds", "1-3", *fixed, "--best", str(by_cli)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    by_python = tmp_path / "python-best.txt"
    records = marathon_games.play("linez", "1-3", effort=1, time_limit=NO_HURRY, best=by_python)
    assert by_python.read_text() == by_cli.read_text()
    assert by_python.read_text().startswith("# best known score per case: game case score\n")
    assert [record["relative"] for record in records] == [100.0, 100.0, 100.0]

    def relative(record: dict[str, Any], known: dict[tuple[str, str], float]) -> float:
        best = max(known.get(("linez", str(record["seed"])), record["score"]), record["score"])
        return 100 * record["score"] / best if best > 0 else 100.0

    # Python reads the CLI's file: another player's scores, relative to the CLI's bests, and
    # seed 4, new, added.
    known = best_scores(by_cli)
    greedy = marathon_games.play("linez", "1-4", player="greedy", best=by_cli)
    expected = dict(known)
    for record in greedy:
        assert record["verdict"] == "ok"
        assert record["relative"] == pytest.approx(relative(record, known))
        key = ("linez", str(record["seed"]))
        expected[key] = max(record["score"], known.get(key, record["score"]))
    assert best_scores(by_cli) == expected
    # The CLI reads Python's file: the same greedy games, relative to Python's bests.
    json_path = tmp_path / "greedy.jsonl"
    subprocess.run(
        [str(marathon_bin), "play", "linez", "--seeds", "1-3", "--player", "greedy", "--quiet",
         "--no-save", "--best", str(by_python), "--json", str(json_path)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    by_seed = {record["seed"]: record for record in greedy}
    for line in json_path.read_text().splitlines():
        record = json.loads(line)
        assert record["score"] == by_seed[record["seed"]]["score"]
        assert record["relative"] == pytest.approx(by_seed[record["seed"]]["relative"])


def test_save_keeps_the_run_where_marathon_runs_finds_it(
    marathon_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = tmp_path / "runs"
    monkeypatch.setenv("MARATHON_RUNS_DIR", str(runs))
    # Not kept unless asked; a label alone is refused, not lost.
    marathon_games.play("linez", 1, effort=1, time_limit=NO_HURRY)
    assert not runs.exists()
    with pytest.raises(ValueError, match="save=True"):
        marathon_games.play("linez", 1, effort=1, time_limit=NO_HURRY, label="lost")
    label = f"from python {os.getpid()}"
    records = marathon_games.play(
        "linez", "1-2", effort=1, time_limit=NO_HURRY, save=True, label=label
    )
    [kept] = list(runs.iterdir())
    info = json.loads((kept / "run.json").read_text())
    assert (info["label"], info["complete"]) == (label, True)
    assert [(g["game"], g["cases"]) for g in info["games"]] == [("linez", 2)]
    mean = sum(record["score"] for record in records) / 2
    assert info["games"][0]["mean"] == pytest.approx(mean)
    cases = [json.loads(line) for line in (kept / "cases.jsonl").read_text().splitlines()]
    assert sorted(cases, key=lambda record: record["seed"]) == records
    listed = subprocess.run(
        [str(marathon_bin), "runs"], check=True, capture_output=True, text=True
    ).stdout
    assert kept.name in listed and label in listed
    compared = subprocess.run(
        [str(marathon_bin), "play", "linez", "--seeds", "1-2", "--effort", "1", "--time-limit",
         str(NO_HURRY), "--no-save", "--compare", "last"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert f"run {kept.name} ({label})" in compared


def test_json_is_written_and_a_refused_run_leaves_it_alone(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    records = marathon_games.play("linez", "1-3", effort=1, time_limit=NO_HURRY, json=out)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(written, key=lambda record: record["seed"]) == records
    not_best = tmp_path / "not-best.txt"
    not_best.write_text("linez 1\n")
    with pytest.raises(ValueError, match="expected `game case score`"):
        marathon_games.play("linez", "1-3", effort=1, json=out, best=not_best)
    # (A best file is read before the outputs are checked, as by `marathon play`: a new one.)
    both = tmp_path / "both.txt"
    with pytest.raises(ValueError, match="are one file"):
        marathon_games.check("linez", 1, json=both, best=both)
    assert not both.exists()
    with pytest.raises(ValueError, match="cannot write there"):
        marathon_games.check("linez", 1, json=tmp_path / "no-such-dir" / "run.jsonl")
    assert [json.loads(line) for line in out.read_text().splitlines()] == written


def test_seed_sets_read_as_the_cli_reads_them(tmp_path: Path) -> None:
    assert marathon_games.seeds("1-3,7") == [1, 2, 3, 7]
    assert marathon_games.seeds(5) == [5]
    assert marathon_games.seeds([4, 2]) == [4, 2]
    listed = tmp_path / "seeds.txt"
    listed.write_text("# a comment\n3\n10-11\n")
    assert marathon_games.seeds(f"@{listed}") == [3, 10, 11]
    # Issue 40, defect 4: an endless stream is refused after a line, not read into memory.
    with pytest.raises(ValueError, match="/dev/zero:1: a line longer"):
        marathon_games.seeds("@/dev/zero")


def test_the_optuna_example_tunes_and_reports() -> None:
    pytest.importorskip("optuna")
    example = ROOT / "python" / "examples" / "optuna_tune.py"
    run = subprocess.run(
        [sys.executable, str(example), "--trials", "3", "--seeds", "1-4"],
        check=True,
        capture_output=True,
        text=True,
    )
    lines = run.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["trial 0", "trial 1", "trial 2"]
    # The first trial is the bot's defaults, and the best is at least as good.
    assert "line_weight=1.000 keep_weight=0.500" in lines[0]
    assert lines[-1].startswith("defaults: mean ")
    default = float(lines[-1].split("mean ")[1].split(";")[0])
    best = float(lines[-1].split("best: mean ")[1].split(" ")[0])
    assert best >= default


def live_with(needle: str) -> list[int]:
    """Live processes (not zombies) whose command line is ``needle``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError, UnicodeDecodeError):
            continue
        if cmdline == needle and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs Linux's /proc")
def test_a_players_orphans_do_not_outlive_the_run() -> None:
    """Issue 40, defect 9: an orphan that left the player's group and cleared its environment
    (so it carries no tag) is found by the pipes it inherited and killed with its case, as the
    CLI kills it."""
    seconds = 7000 + os.getpid() % 1000
    needle = f"sleep {seconds}.5"
    records = marathon_games.play(
        "linez", [1, 2], exec=f"( setsid env -i {needle} & ); exit 0", threads=2
    )
    assert [record["verdict"] for record in records] == ["protocol", "protocol"]
    # Killed before play returned; a moment more for the kernel to finish them.
    deadline = time.monotonic() + 60
    while live_with(needle) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = live_with(needle)
    for pid in left:  # so that a failure leaves nothing running either
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"{needle} still running"
