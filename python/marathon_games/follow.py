"""A policy as a program under the judge: the player's side of the protocol.

A policy trained on the environments chooses from an observation and a mask. Under the judge a
program only reads the contest's text; :class:`Follower` turns that text back into the
observation and mask the environment gives for the same position, and an action number into the
reply line. :func:`serve` is the whole program loop::

    # my_player.py, run as: marathon play solitaire --seeds 1-100 --exec "python my_player.py"
    import numpy as np
    from marathon_games.follow import serve

    serve("solitaire", lambda observation, mask: int(np.flatnonzero(mask)[0]))

Games with a player's side so far: tiles and solitaire (``Follower("linez")`` says which have
one).
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Mapping, Optional, TextIO

import numpy as np

from marathon_games._core import Follower

__all__ = ["Follower", "Policy", "serve"]

#: ``policy(observation, mask) -> action``: ``observation`` the environment's dict of arrays,
#: ``mask`` its ``action_mask`` (int8).
Policy = Callable[[Mapping[str, np.ndarray], np.ndarray], Any]


def serve(
    game: str,
    policy: Policy,
    input: Optional[TextIO] = None,
    output: Optional[TextIO] = None,
) -> int:
    """Plays one game as a program: reads the judge's lines from ``input`` (standard input),
    asks ``policy`` at each decision and writes its reply to ``output`` (standard output),
    flushed, until the player ends the game or the judge closes the input. Returns the number of
    replies. A reply the rules refuse raises ``ValueError`` before anything is written."""
    input = sys.stdin if input is None else input
    output = sys.stdout if output is None else output
    follower = Follower(game)
    replies = 0
    for line in input:
        if not follower.read_line(line):
            continue
        action = policy(follower.observation(), follower.action_mask())
        output.write(follower.reply(action) + "\n")
        output.flush()
        replies += 1
        if follower.over:
            break
    return replies
