"""``python -m games``: list the games, read their rules, simulate, or play in a terminal."""

from __future__ import annotations

import os
import sys

from games.cli import main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # the reader went away (``| head``): nothing more can be said, and that is no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
