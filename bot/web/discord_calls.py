"""Calls to Discord made on behalf of a page, kept few: nobody can multiply them.

A page's sign-in costs two calls with the client secret, and its socket's instance check one
with the bot's token; an unauthenticated visitor may ask for either. Discord answers a flood
with 429s and blocks an address that makes 10,000 invalid requests (401, 403, 429) in ten
minutes, the bot's own gateway and commands included. So:

- :class:`Buckets`: a small token bucket per client address; an address past it is told to
  come back later (:class:`TryLater`) without a call being made;
- :class:`Gate`: Discord's own 429 and ``Retry-After`` honoured (no call to that route, or to
  any when the limit is global, until it passes), and every invalid request counted and
  logged; past :data:`INVALID_CEILING` of them in ten minutes no call is made at all until the
  count falls, since a block would take the whole bot off Discord.

Both read an injected clock (seconds, monotonic), so a test moves time instead of waiting.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

Clock = Callable[[], float]

#: a page's calls per address: this many at once ...
BURST = 10.0
#: ... then one every this many seconds
REFILL_SECONDS = 3.0
#: the window Discord counts invalid requests in (seconds), and the count it blocks at
INVALID_WINDOW = 600.0
DISCORD_BLOCKS_AT = 10_000
#: past this many invalid requests in the window, the web table makes no call at all
INVALID_CEILING = 2_000
#: the longest wait a 429 is taken at (seconds): a wrong header must not lock the door for days
LONGEST_WAIT = 3600.0
#: the addresses kept at most (full buckets are forgotten first)
MOST_ADDRESSES = 50_000


class TryLater(Exception):
    """No call to Discord now: this address asked too often, Discord asked to wait, or too many
    requests were refused lately; ``seconds``: when to try again."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"try again in {seconds:.1f} s")
        self.seconds = max(0.0, seconds)


class Buckets:
    """A token bucket per key (a client address): ``size`` tokens at once, one more every
    ``1 / per_second`` seconds."""

    def __init__(self, size: float = BURST, per_second: float = 1.0 / REFILL_SECONDS,
                 clock: Clock = time.monotonic, most: int = MOST_ADDRESSES) -> None:
        self.size = size
        self.per_second = per_second
        self.clock = clock
        self.most = most
        self._held: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: str) -> None:
        """Take a token of ``key``'s bucket; TryLater (with the wait for the next) when empty."""
        now = self.clock()
        tokens, then = self._held.get(key, (self.size, now))
        tokens = min(self.size, tokens + max(0.0, now - then) * self.per_second)
        if tokens >= 1.0:
            self._held[key] = (tokens - 1.0, now)
            if len(self._held) > self.most:
                self._forget_full(now)
            return
        self._held[key] = (tokens, now)
        raise TryLater((1.0 - tokens) / self.per_second)

    def _forget_full(self, now: float) -> None:
        # a bucket that has filled up again is the same as none
        refill = self.size / self.per_second
        self._held = {k: v for k, v in self._held.items() if now - v[1] < refill}
        if len(self._held) > self.most:  # (all spent within one refill: keep the newest)
            self._held = dict(list(self._held.items())[-self.most // 2:])


def retry_after(headers: Mapping[str, str], body: Any) -> float:
    """The wait a 429 asks for: its ``Retry-After`` header, else the body's ``retry_after``,
    else a second; at most :data:`LONGEST_WAIT`."""
    for raw in (headers.get("Retry-After"),
                body.get("retry_after") if isinstance(body, dict) else None):
        try:
            wait = float(raw)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if wait == wait and wait >= 0.0:  # (not NaN)
            return min(wait, LONGEST_WAIT)
    return 1.0


class Gate:
    """What Discord said of our calls: the routes it asked us to leave alone until a time, and
    the invalid requests of the last :data:`INVALID_WINDOW` seconds."""

    def __init__(self, clock: Clock = time.monotonic, ceiling: int = INVALID_CEILING) -> None:
        self.clock = clock
        self.ceiling = ceiling
        self._until: dict[str, float] = {}  # route ("*": every route) -> no call before
        self._invalid: deque[float] = deque()
        self._stopped = False

    @property
    def invalid(self) -> int:
        """The invalid requests (401, 403, 429) Discord answered in the last window."""
        self._forget(self.clock())
        return len(self._invalid)

    def check(self, route: str) -> None:
        """TryLater when no call to ``route`` may be made now."""
        now = self.clock()
        wait = max(self._until.get(route, 0.0), self._until.get("*", 0.0)) - now
        if wait > 0:
            raise TryLater(wait)
        self._forget(now)
        if len(self._invalid) >= self.ceiling:
            if not self._stopped:
                self._stopped = True
                log.error("Discord refused %d of the web table's calls in the last %d minutes: "
                          "it makes no call to Discord until fewer were refused (Discord blocks "
                          "the bot's address at %d)", len(self._invalid),
                          int(INVALID_WINDOW // 60), DISCORD_BLOCKS_AT)
            raise TryLater(self._invalid[0] + INVALID_WINDOW - now)
        self._stopped = False

    def answered(self, route: str, status: int, headers: Mapping[str, str], body: Any) -> None:
        """Note Discord's answer to a call: an invalid one is counted and logged; a 429 closes
        the route (every route when global) for its ``Retry-After`` and raises TryLater."""
        if status not in (401, 403, 429):
            return
        now = self.clock()
        shared = headers.get("X-RateLimit-Scope") == "shared"  # (Discord does not count these)
        if not (status == 429 and shared):
            self._forget(now)
            self._invalid.append(now)
            log.warning("Discord refused the web table's call to %s with %s: %d calls refused "
                        "in the last %d minutes (Discord blocks the bot's address at %d)",
                        route, status, len(self._invalid), int(INVALID_WINDOW // 60),
                        DISCORD_BLOCKS_AT)
        if status == 429:
            wait = retry_after(headers, body)
            is_global = (headers.get("X-RateLimit-Global", "").lower() == "true"
                         or (isinstance(body, dict) and body.get("global") is True))
            where = "*" if is_global else route
            self._until[where] = max(self._until.get(where, 0.0), now + wait)
            raise TryLater(wait)

    def _forget(self, now: float) -> None:
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()
