"""A player program that replays a transcript: ``python3 replay_program.py FILE`` writes the
reply lines of FILE, one a line, and reads (and ignores) whatever the judge writes until the
judge closes its input.

The replies are written at once, without waiting for the judge's messages: the judge reads
them line by line as it needs them. A thread drains the judge's messages meanwhile, so that
neither side blocks on a full pipe (a polyomino board is longer than a pipe's buffer).
"""

from __future__ import annotations

import sys
import threading


def drain() -> None:
    """Reads the judge's messages until it closes the input."""
    for _ in sys.stdin.buffer:
        pass


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as transcript:
        replies = transcript.read()
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    sys.stdout.write(replies)
    sys.stdout.flush()
    reader.join()


if __name__ == "__main__":
    main()
