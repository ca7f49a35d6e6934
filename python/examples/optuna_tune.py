#!/usr/bin/env python3
"""Tunes the weights of ``linez_bot.py`` (beside this file) with Optuna, by the bot's mean
score on a seed range as marathon's judge scores it (``marathon_games.play`` runs exactly
``marathon play linez --exec ...``).

    python examples/optuna_tune.py --trials 30 --seeds 1-20

The first trial is the bot's own defaults, so the output says what tuning gained over them.
Seeds above 100 are a fair test of the result: tune on some seeds, confirm on others.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import optuna

import marathon_games

BOT = Path(__file__).with_name("linez_bot.py")
DEFAULTS = {"line_weight": 1.0, "keep_weight": 0.5}


def mean_score(params: dict, seeds: str, threads: int | None) -> float:
    """The bot's mean score on ``seeds`` with ``params``; a failed case stops the study."""
    command = " ".join(
        [shlex.quote(sys.executable), shlex.quote(str(BOT))]
        + [f"--{name.replace('_', '-')} {value}" for name, value in params.items()]
    )
    records = marathon_games.play("linez", seeds, exec=command, threads=threads)
    failed = [r for r in records if r["verdict"] != "ok"]
    if failed:
        raise RuntimeError(f"{command}: {failed[0]}")
    return sum(r["score"] for r in records) / len(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seeds", default="1-8", help="the seed set to tune on")
    parser.add_argument("--threads", type=int, default=None, help="cases played at once")
    parser.add_argument("--sampler-seed", type=int, default=1)
    args = parser.parse_args()

    def objective(trial: optuna.Trial) -> float:
        params = {
            "line_weight": trial.suggest_float("line_weight", 0.0, 4.0),
            "keep_weight": trial.suggest_float("keep_weight", 0.0, 4.0),
        }
        return mean_score(params, args.seeds, args.threads)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.sampler_seed)
    )
    study.enqueue_trial(DEFAULTS)
    study.optimize(objective, n_trials=args.trials)
    for trial in study.trials:
        params = " ".join(f"{k}={v:.3f}" for k, v in trial.params.items())
        print(f"trial {trial.number}: mean {trial.value:.2f}  {params}")
    default = study.trials[0].value
    best = " ".join(f"{k}={v:.3f}" for k, v in study.best_params.items())
    print(f"defaults: mean {default:.2f}; best: mean {study.best_value:.2f} with {best}")


if __name__ == "__main__":
    main()
