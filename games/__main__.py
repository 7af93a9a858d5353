"""``python -m games``: list the games, read their rules, simulate, or play in a terminal."""

from __future__ import annotations

import sys

from games.cli import main

if __name__ == "__main__":
    sys.exit(main())
