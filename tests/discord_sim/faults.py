"""Faults a test makes the simulated Discord answer with, and the limits it may enforce.

A test chooses routes (or all of them) whose connection drops before an answer (``drop``: the
client sees aiohttp's ``ServerDisconnectedError``, as when a connection to Discord breaks), or
that answer 500 (or another server error) or 429 for
the next N requests or for a while of the simulation's clock; 429s come in Discord's shape
(https://discord.com/developers/docs/topics/rate-limits): per route with the bucket headers
``X-RateLimit-*`` and ``X-RateLimit-Scope: user``, global with ``X-RateLimit-Global: true``,
``X-RateLimit-Scope: global`` and ``"global": true`` in the body, and always ``Retry-After``
and a ``Via`` header (discord.py takes a 429 without one for a Cloudflare ban and gives up).

It also keeps what Discord keeps against a bot: every request refused, and the invalid
requests (401, 403, and 429 but those of scope ``shared``) in the last 10 minutes, beyond
10,000 of which Discord bans the address for a while. Off by default, it enforces the global
limit of 50 requests a second per bot token, interaction routes exempt (callbacks, and
follow-ups and edits through an interaction's token), as Discord does.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from .models import CapturedRequest

#: the window Discord counts invalid requests in, and how many it allows there
INVALID_WINDOW = 600.0
INVALID_ALLOWED = 10_000
#: a fault's status that answers nothing: the connection is closed
DROP = 0
#: Discord's global limit: requests a second per bot token
GLOBAL_PER_SECOND = 50
SCOPES = ("user", "global", "shared")


@dataclass(frozen=True)
class Refusal:
    """What the simulator answers instead of the route's handler."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class Fault:
    """One injected fault: the routes it hits (None: all), what it answers, for how long."""

    status: int
    routes: frozenset[str] | None
    scope: str = "user"
    retry_after: float = 1.0
    left: int | None = None  # requests still to refuse (None: no count)
    until: float | None = None  # the simulation's clock at which it ends (None: no end)
    refused: list[CapturedRequest] = field(default_factory=list)

    def hits(self, method: str, route: str, now: float) -> bool:
        """Whether the fault is still on and covers this request."""
        if self.left is not None and self.left <= 0:
            return False
        if self.until is not None and now >= self.until:
            return False
        return self.routes is None or route in self.routes or f"{method} {route}" in self.routes

    def refusal(self, route: str) -> Refusal:
        """The answer in Discord's shape."""
        if self.status == DROP:
            return Refusal(DROP, {}, {})
        if self.status != 429:
            phrase = HTTPStatus(self.status).phrase
            return Refusal(self.status, {"message": f"{self.status}: {phrase}", "code": 0}, {})
        wait = f"{self.retry_after:.3f}"
        headers = {"Retry-After": str(max(1, math.ceil(self.retry_after))),
                   "X-RateLimit-Scope": self.scope, "Via": "1.1 google"}
        if self.scope == "global":
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update({
                "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                "X-RateLimit-Reset-After": wait,
                "X-RateLimit-Bucket": f"{abs(hash(route)):x}"[:16]})
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after,
                "global": self.scope == "global"}
        return Refusal(429, body, headers)


class Faults:
    """The faults a test injected, the global limit if enforced, and the counts Discord
    keeps. ``clock`` is the simulation's (moved by ``advance_time``)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.faults: list[Fault] = []
        #: every request refused (by an injected fault or by the global limit), oldest first
        self.refused: list[CapturedRequest] = []
        #: + requests a second each bot token may make outside interaction routes (None: no
        #: limit, the default; ``GLOBAL_PER_SECOND`` is Discord's)
        self.global_limit: int | None = None
        self._sent: dict[str, deque[float]] = {}  # authorization -> times of counted requests
        self._invalid: deque[float] = deque()

    def fail(self, status: int = 500, *, routes: Iterable[str] | None = None,
             count: int | None = None, seconds: float | None = None, scope: str = "user",
             retry_after: float = 1.0) -> Fault:
        """Make ``routes`` (route templates as the spec names them, e.g.
        ``/channels/{channel_id}/messages/{message_id}``, optionally led by the method:
        ``PATCH /channels/...``; None: every route) answer ``status`` for the next ``count``
        requests, or for ``seconds`` of the simulation's clock, or until :meth:`clear`.
        A 429 is per route (``scope`` "user" or "shared") or global (``scope`` "global"),
        asking to wait ``retry_after`` seconds."""
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")
        if count is not None and count < 1:
            raise ValueError("count must be at least 1")
        if retry_after < 0 or not math.isfinite(retry_after):
            raise ValueError("retry_after must be a finite number of seconds, 0 or more")
        fault = Fault(status, None if routes is None else frozenset(routes), scope,
                      retry_after, count,
                      None if seconds is None else self.clock() + seconds)
        self.faults.append(fault)
        return fault

    def drop(self, *, routes: Iterable[str] | None = None, count: int | None = None,
             seconds: float | None = None) -> Fault:
        """:meth:`fail` by closing the connection without an answer."""
        return self.fail(DROP, routes=routes, count=count, seconds=seconds)

    def rate_limit(self, *, routes: Iterable[str] | None = None, count: int | None = None,
                   seconds: float | None = None, scope: str = "user",
                   retry_after: float = 1.0) -> Fault:
        """:meth:`fail` with 429."""
        return self.fail(429, routes=routes, count=count, seconds=seconds, scope=scope,
                         retry_after=retry_after)

    def clear(self) -> None:
        """End every injected fault (the counts stay)."""
        self.faults.clear()

    def check(self, captured: CapturedRequest, *, exempt: bool) -> Refusal | None:
        """The refusal a request gets (None: it is answered). ``exempt``: an interaction route,
        outside the global limit."""
        now = self.clock()
        for fault in self.faults:
            if fault.hits(captured.method, captured.route, now):
                if fault.left is not None:
                    fault.left -= 1
                fault.refused.append(captured)
                self.refused.append(captured)
                return fault.refusal(captured.route)
        if self.global_limit is None or exempt:
            return None
        sent = self._sent.setdefault(captured.headers.get("Authorization", ""), deque())
        while sent and sent[0] <= now - 1.0:
            sent.popleft()
        if len(sent) >= self.global_limit:
            self.refused.append(captured)
            wait = max(0.001, sent[0] + 1.0 - now)
            return Fault(429, None, "global", round(wait, 3)).refusal(captured.route)
        sent.append(now)
        return None

    def answered(self, status: int, headers: dict[str, str]) -> None:
        """Count an answer: Discord counts 401, 403 and 429 (but shared 429s) as invalid."""
        if status in (401, 403) or (status == 429
                                    and headers.get("X-RateLimit-Scope") != "shared"):
            self._invalid.append(self.clock())

    def invalid(self) -> int:
        """The invalid requests in the last 10 minutes of the simulation's clock."""
        now = self.clock()
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)
