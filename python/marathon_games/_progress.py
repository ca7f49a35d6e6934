"""Progress of long runs (``play(..., progress=...)``): a one-line bar on standard error, drawn
in place as ``marathon play`` draws its own, or the caller's callback."""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Optional, TextIO, Union

Callback = Callable[[int, int, dict[str, Any]], None]


class Bar:
    """``tiles   12/100 cases  mean 1,234.5  0:42 elapsed, eta 5:08``, redrawn in place (at
    most ten times a second, and at the last case) on ``stream``, and ended with a newline by
    :meth:`close`."""

    def __init__(self, game: str, total: int, stream: TextIO) -> None:
        self.game = game
        self.total = total
        self.stream = stream
        self.started = time.monotonic()
        self.drawn = 0.0
        self.score = 0.0
        self.shown = False

    def __call__(self, done: int, total: int, record: dict[str, Any]) -> None:
        self.score += float(record.get("score", 0.0))
        now = time.monotonic()
        if done < total and now - self.drawn < 0.1:
            return
        self.drawn = now
        elapsed = now - self.started
        eta = elapsed / done * (total - done)
        line = (
            f"{self.game:>10} {done:>{len(str(total))}}/{total} cases"
            f"  mean {self.score / done:,.1f}  {_clock(elapsed)} elapsed, eta {_clock(eta)}"
        )
        self.stream.write(f"\r{line}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def reporter(
    progress: Union[bool, None, Callback], game: str, total: int
) -> Optional[Callback]:
    """What to call after each case: a bar for ``True`` (``None``: when standard error is a
    terminal), nothing for ``False``, else ``progress`` itself."""
    if progress is None:
        progress = _is_terminal(sys.stderr)
    if progress is True:
        return Bar(game, total, sys.stderr)
    if progress is False:
        return None
    if not callable(progress):
        raise TypeError(f"progress={progress!r}: expected True, False, None or a callable")
    return progress


def _is_terminal(stream: Optional[TextIO]) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False
