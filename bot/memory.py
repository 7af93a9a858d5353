"""The garbage collector of a long-running bot: what start-up made is kept out of its scans.

Everything loaded at start-up (discord.py, the rules of every game, Pillow, the translations,
the commands, the resumed tables) lives as long as the process. Python's full collection
would walk all of it again and again, holding the event loop for a few hundred milliseconds
each time under load: every click arriving meanwhile waits. Once they are loaded, before the
gateway connects, those objects are frozen (``gc.freeze``: never scanned again), and the
youngest generation is collected less often (each collection is small either way).
"""

from __future__ import annotations

import gc

#: allocations (less deallocations) between collections of the youngest generation
#: (Python's default: 700), and how many of those before each older generation's
YOUNG = 5000
OLDER = (10, 10)


def keep_startup_objects() -> None:
    """Collect what start-up left behind, then freeze the rest out of later collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, *OLDER)
