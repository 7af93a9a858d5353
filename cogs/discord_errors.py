"""Discord's refusals for now: a server error or a rate limit that outlasted discord.py's own
tries (it sends a request again after a 429's ``Retry-After`` and after a 500, 502, 504 or
524, five times at most; a 503 it does not send again), or a connection to Discord that broke
on the way (aiohttp's ``ServerDisconnectedError`` and kin: discord.py sends those again only
for two Windows error numbers). What Discord refused for now is sent again a little later by
the part that sent it; anything else (a message deleted, a spent token, a missing permission)
is not.
"""

from __future__ import annotations

import aiohttp
import discord

#: seconds before each new try of what Discord refused for now; then the part gives up
RETRIES = (1.0, 2.0, 4.0, 8.0, 16.0)
#: Discord's code for an interaction that can no longer be answered (its 3 s are over)
UNKNOWN_INTERACTION = 10062


def for_now(error: BaseException) -> bool:
    """Whether Discord refused a request for now: the same request may succeed later."""
    if isinstance(error, discord.RateLimited | aiohttp.ClientConnectionError):
        return True
    return isinstance(error, discord.HTTPException) and (
        error.status >= 500 or error.status == 429)


def too_late(error: BaseException) -> bool:
    """Whether Discord no longer takes a click's answer: nothing more can be said to it."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def described(error: BaseException) -> str:
    """How a log line names a refusal: Discord's status, or the error's type."""
    if isinstance(error, discord.RateLimited):
        return f"rate limited for {error.retry_after:.0f} s"
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}" + (f", code {error.code}" if error.code else "")
    return type(error).__name__


#: Discord's codes for a thread the bot can no longer write in: deleted (Unknown Channel),
#: locked by a moderator, archived (an edit), or a permission taken away
GONE = {10003: "thread-deleted", 160005: "thread-locked", 50083: "thread-locked",
        50013: "thread-no-permission"}


def gone_reason(error: BaseException) -> str | None:
    """The key of why a thread can no longer take the table's messages, or None when the
    refusal is about something else."""
    if isinstance(error, discord.HTTPException) and error.status in (400, 403, 404):
        return GONE.get(error.code)
    return None
