"""The container's health check: is the heartbeat file fresh?

While every shard of the process is connected and the database answers, the bot rewrites
the heartbeat file (``DECKHAND_HEARTBEAT``) every 30 seconds. ``deckhand --health`` reads it:
healthy when it was written less than ``MAX_AGE`` seconds ago. A hung event loop, a lost
gateway connection or a database that stopped answering all let the file age.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping

#: seconds between two heartbeat-file writes
HEARTBEAT_SECONDS = 30.0
#: three missed heartbeats make the process unhealthy
MAX_AGE = 3 * HEARTBEAT_SECONDS


def check(env: Mapping[str, str] | None = None, now: float | None = None) -> tuple[bool, str]:
    """(healthy, a sentence saying why) from the heartbeat file named in ``env``."""
    source = os.environ if env is None else env
    path = source.get("DECKHAND_HEARTBEAT", "").strip()
    if not path:
        return False, "DECKHAND_HEARTBEAT is not set, so there is no heartbeat to check."
    try:
        with open(path, encoding="utf-8") as found:
            info = json.load(found)
        written = float(info["time"])
    except FileNotFoundError:
        return False, f"no heartbeat yet at {path} (starting, or not connected)."
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"the heartbeat file {path} is unreadable."
    age = (time.time() if now is None else now) - written
    shards = info.get("shards")
    if age > MAX_AGE:
        return False, f"the last heartbeat is {age:.0f} s old (more than {MAX_AGE:.0f} s)."
    return True, f"connected {age:.0f} s ago, shards {shards}, {info.get('tables')} tables."
