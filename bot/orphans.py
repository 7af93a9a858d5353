"""Worker processes that end with the bot.

A pool's worker (and the forkserver that forks it) outlives a bot that is killed (SIGKILL, the
OOM killer): the worker waits on its task queue forever and keeps the forkserver alive, and
both hold the bot's standard output and error open. :func:`watch` is called in every worker as
it starts: a daemon thread that ends the worker once the bot's process is gone. With its
workers gone the forkserver, having no one left to serve, ends too.
"""

from __future__ import annotations

import os
import threading
import time

#: seconds between two looks at the bot's process
EVERY = 0.5


def alive(pid: int) -> bool:
    """Whether a process exists (a zombie, already dead, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel instead
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def watch(pid: int, every: float = EVERY) -> threading.Thread:
    """End this process (at once, without cleanup: there is no one left to report to) once
    process ``pid`` is gone."""

    def look() -> None:
        while alive(pid):
            time.sleep(every)
        os._exit(0)

    thread = threading.Thread(target=look, name=f"watch-{pid}", daemon=True)
    thread.start()
    return thread
