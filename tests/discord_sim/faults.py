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
follow-ups and edits through an interaction's token), as Discord does; and, off by default
too, Discord's per-route buckets (``route_limits``): a bucket per route and major parameter
with the limit and window Discord gives it, told in the answer's headers, a 429 past it.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
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


#: the path parameters that make a bucket of a route Discord's own (its "major parameters")
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")


@dataclass(frozen=True)
class RouteLimit:
    """A bucket's size: ``limit`` requests in a window of ``per`` seconds, from the first."""

    limit: int
    per: float


#: the buckets Discord gives the routes the bot uses most, as observed (Discord documents no
#: figures and asks that none be hard-coded): sending a message 5 per 5 s in a channel, as
#: bots' logs show it (Limit 5, a reset up to 5 s away), editing and deleting one the same; a
#: webhook, and so an interaction's token, 5 per 2 s (discord-api-docs#2701: follow-ups are
#: limited per interaction as webhooks are). Each method of a route its own bucket, as the
#: headers show (discord-api-docs#1135)
ROUTE_LIMITS: dict[str, RouteLimit] = {
    "POST /channels/{channel_id}/messages": RouteLimit(5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": RouteLimit(5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": RouteLimit(5, 5.0),
}
WEBHOOK_LIMIT = RouteLimit(5, 2.0)
#: every other route: generous, so that only the global limit holds it back in practice
DEFAULT_LIMIT = RouteLimit(50, 1.0)


def route_limit(method: str, route: str,
                limits: Mapping[str, RouteLimit] = ROUTE_LIMITS) -> RouteLimit | None:
    """A route's bucket (None: no bucket, as an interaction's callback has none)."""
    if route.startswith("/interactions/"):
        return None
    if f"{method} {route}" in limits:
        return limits[f"{method} {route}"]
    if route.startswith("/webhooks/{webhook_id}/{webhook_token}"):
        return WEBHOOK_LIMIT
    return DEFAULT_LIMIT


def bucket_hash(method: str, route: str) -> str:
    """The ``X-RateLimit-Bucket`` of a route: the same whatever its major parameter (Discord's
    hash leaves the top-level resource out), stable from one run to the next."""
    return hashlib.md5(f"{method} {route}".encode(), usedforsecurity=False).hexdigest()


@dataclass
class Bucket:
    """One bucket's window: the requests it took since the window opened."""

    limit: RouteLimit
    name: str
    reset_at: float = -math.inf  # the simulation's clock at which the window closes
    used: int = 0

    def take(self, now: float) -> bool:
        """Take a request if the window has room (a closed window opens a new one)."""
        if now >= self.reset_at:
            self.reset_at, self.used = now + self.limit.per, 0
        if self.used >= self.limit.limit:
            return False
        self.used += 1
        return True

    def headers(self, now: float) -> dict[str, str]:
        """The bucket as Discord tells it. The wait is rounded up to the millisecond, so a
        client that waits what it is told never comes back a moment early."""
        after = math.ceil(max(0.0, self.reset_at - now) * 1000) / 1000
        return {"X-RateLimit-Limit": str(self.limit.limit),
                "X-RateLimit-Remaining": str(self.limit.limit - self.used),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": self.name, "X-RateLimit-Scope": "user"}

    def refusal(self, now: float) -> Refusal:
        """A 429 of this bucket, as Discord sends it."""
        headers = self.headers(now)
        wait = float(headers["X-RateLimit-Reset-After"])
        headers.update({"Retry-After": str(max(1, math.ceil(wait))), "Via": "1.1 google"})
        body = {"message": "You are being rate limited.", "retry_after": wait,
                "global": False}
        return Refusal(429, body, headers)


class Faults:
    """The faults a test injected, the global limit if enforced, and the counts Discord
    keeps. ``clock`` is the simulation's (moved by ``advance_time``)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.faults: list[Fault] = []
        #: every request refused (by an injected fault, the global limit or a route's bucket),
        #: oldest first
        self.refused: list[CapturedRequest] = []
        #: + requests a second each bot token may make outside interaction routes (None: no
        #: limit, the default; ``GLOBAL_PER_SECOND`` is Discord's)
        self.global_limit: int | None = None
        #: + whether each route keeps Discord's buckets (``ROUTE_LIMITS``; off by default: every
        #: answer then tells the same generous bucket and no route is limited but by a fault)
        self.route_limits = False
        #: + the routes' buckets, "METHOD /route" -> size; a test may shorten a window here
        #: rather than wait out Discord's (the others: ``WEBHOOK_LIMIT``, ``DEFAULT_LIMIT``)
        self.limits: dict[str, RouteLimit] = dict(ROUTE_LIMITS)
        self._sent: dict[str, deque[float]] = {}  # authorization -> times of counted requests
        self._buckets: dict[tuple[str, str, str], Bucket] = {}  # (who, route, major) -> bucket
        self._sweep_at = 1024  # how many buckets before those whose window closed are dropped
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

    def check(self, captured: CapturedRequest, *, exempt: bool,
              params: Mapping[str, str] | None = None) -> tuple[Refusal | None, dict[str, str]]:
        """The refusal a request gets (None: it is answered), and the bucket headers its answer
        carries (empty: the simulator's usual ones). ``exempt``: an interaction route, outside
        the global limit; ``params``: the path's parameters, whose major one picks the bucket."""
        now = self.clock()
        for fault in self.faults:
            if fault.hits(captured.method, captured.route, now):
                if fault.left is not None:
                    fault.left -= 1
                fault.refused.append(captured)
                self.refused.append(captured)
                return fault.refusal(captured.route), {}
        if self.global_limit is not None and not exempt:
            sent = self._sent.setdefault(captured.headers.get("Authorization", ""), deque())
            while sent and sent[0] <= now - 1.0:
                sent.popleft()
            if len(sent) >= self.global_limit:
                self.refused.append(captured)
                wait = max(0.001, sent[0] + 1.0 - now)
                return Fault(429, None, "global", round(wait, 3)).refusal(captured.route), {}
            sent.append(now)
        bucket = self._bucket(captured, params or {})
        if bucket is None:
            return None, {}
        if not bucket.take(now):
            self.refused.append(captured)
            return bucket.refusal(now), {}
        return None, bucket.headers(now)

    def _bucket(self, captured: CapturedRequest, params: Mapping[str, str]) -> Bucket | None:
        """The request's bucket, when buckets are kept and its route has one."""
        if not self.route_limits:
            return None
        limit = route_limit(captured.method, captured.route, self.limits)
        if limit is None:
            return None
        major = "+".join(params[name] for name in MAJOR_PARAMETERS if name in params)
        # a webhook's bucket is its token's, whoever calls; any other is the caller's
        who = "" if "webhook_token" in params else captured.headers.get("Authorization", "")
        key = (who, f"{captured.method} {captured.route}", major)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.limit != limit:  # (a size a test changed starts afresh)
            if len(self._buckets) >= self._sweep_at:  # (an interaction's token lives 15 min)
                now = self.clock()
                self._buckets = {k: b for k, b in self._buckets.items() if b.reset_at > now}
                self._sweep_at = max(1024, 2 * len(self._buckets))
            bucket = self._buckets[key] = Bucket(
                limit, bucket_hash(captured.method, captured.route))
        return bucket

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
