"""The play arguments are defined once (`PLAY_ARGUMENTS` in crates/python/src/runs.rs, exported
as ``_core.PLAY_ARGUMENTS``): every Python function that plays, and the extension's type stubs,
take exactly them, in order."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import marathon_games
from marathon_games import _core
from marathon_games import ray as marathon_ray

STUBS = Path(__file__).resolve().parent.parent / "marathon_games" / "_core.pyi"


def leading(function, count: int) -> list[str]:
    return list(inspect.signature(function).parameters)[:count]


def test_every_playing_function_takes_the_play_arguments_in_order() -> None:
    arguments = list(_core.PLAY_ARGUMENTS)
    assert arguments[:2] == ["game", "seeds"]
    for function in (_core.check, _core.play, marathon_games.check, marathon_games.play):
        assert leading(function, len(arguments)) == arguments, function.__qualname__
    # A Ray task plays its chunk on one thread, and its records come back to the driver, which
    # writes what it wants: every argument but `threads` and the run's outputs, which a task
    # would write on its worker's machine.
    outputs = ["json", "best", "save", "label"]
    assert arguments[-len(outputs) :] == outputs
    on_ray = [name for name in arguments if name != "threads" and name not in outputs]
    assert leading(marathon_ray.play, len(on_ray)) == on_ray
    assert not set(outputs) & set(inspect.signature(marathon_ray.play).parameters)


def test_the_type_stubs_take_the_play_arguments_in_order() -> None:
    arguments = list(_core.PLAY_ARGUMENTS)
    tree = ast.parse(STUBS.read_text())
    stubs = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for name in ("check", "play"):
        assert [a.arg for a in stubs[name].args.args][: len(arguments)] == arguments, name
