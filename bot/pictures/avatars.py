"""Players' avatars for table pictures: each fetched once, in the background, and kept.

A picture never waits for an avatar: :meth:`AvatarCache.faces` answers at once with what is
kept (None for a face not fetched yet, drawn as initials) and starts fetching the missing ones;
the next picture of the table shows them. A fetch that fails is tried again after
:data:`RETRY_AFTER` seconds, never in a loop; a kept avatar older than :data:`REFRESH` seconds
is fetched again in the background (a changed avatar shows within the hour) and drawn meanwhile.
Avatars are kept small (64 px PNG) and at most :data:`KEEP` of them (the least recently used go
first).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from PIL import Image

from bot import tasks

log = logging.getLogger(__name__)

SIZE = 64
KEEP = 2000
RETRY_AFTER = 600.0
REFRESH = 3600.0

Fetch = Callable[[int], Awaitable[bytes | None]]


def shrink(data: bytes, size: int = SIZE) -> bytes | None:
    """An avatar as a small square PNG (None when the bytes are no image)."""
    try:
        with Image.open(io.BytesIO(data)) as raw:
            raw.seek(0)  # an animated avatar: its first frame
            image = raw.convert("RGBA")
    except Exception:
        return None
    side = min(image.size)
    image = image.crop(((image.width - side) // 2, (image.height - side) // 2,
                        (image.width + side) // 2, (image.height + side) // 2))
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(out, "PNG")
    return out.getvalue()


class SeenUsers:
    """The people of the latest interactions, by id: their avatars are known without asking
    Discord for the user, a request that counts against Discord's global limit (a bot without
    the members intent caches no one who only clicks)."""

    def __init__(self, most: int = KEEP) -> None:
        self.most = most
        self.users: OrderedDict[int, Any] = OrderedDict()

    def saw(self, user: Any) -> None:
        """Keep the person of an interaction (``discord.User`` or ``discord.Member``)."""
        self.users[user.id] = user
        self.users.move_to_end(user.id)
        while len(self.users) > self.most:
            self.users.popitem(last=False)

    def get(self, user_id: int) -> Any | None:
        return self.users.get(user_id)

    def forget(self, user_id: int) -> None:
        self.users.pop(user_id, None)


def client_fetch(client: Any, seen: SeenUsers | None = None) -> Fetch:
    """Fetch a user's own avatar through a discord.py client (its user cache first, then the
    people seen in interactions); a user without one gets None (their initials)."""

    async def fetch(user_id: int) -> bytes | None:
        user = client.get_user(user_id) or (seen.get(user_id) if seen is not None else None)
        if user is None:
            user = await client.fetch_user(user_id)
        if user.avatar is None:  # Discord's default avatar says nothing: initials instead
            return None
        data: bytes = await user.avatar.with_size(SIZE).read()
        return data

    return fetch


class AvatarCache:
    """Avatars by user id, fetched in the background."""

    def __init__(self, fetch: Fetch | None = None) -> None:
        self.fetch = fetch
        self.kept: OrderedDict[int, tuple[bytes, float]] = OrderedDict()
        self.failed: dict[int, float] = {}
        self.pending: dict[int, asyncio.Task[None]] = {}
        self.fetches = 0

    def use(self, fetch: Fetch | None) -> None:
        """Start afresh, fetching with this (None: fetch nothing, draw initials)."""
        for task in self.pending.values():
            task.cancel()
        self.pending.clear()
        self.kept.clear()
        self.failed.clear()
        self.fetch = fetch

    def get(self, user_id: int | None) -> bytes | None:
        """The kept avatar, or None; a missing one starts being fetched (needs a running loop)."""
        if user_id is None:
            return None
        found = self.kept.get(user_id)
        now = time.monotonic()
        if found is not None:
            self.kept.move_to_end(user_id)
            if now - found[1] < REFRESH:
                return found[0]
        if (self.fetch is not None and user_id not in self.pending
                and now >= self.failed.get(user_id, 0.0)):
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return None if found is None else found[0]
            self.pending[user_id] = tasks.background(self._load(user_id, self.fetch))
        return None if found is None else found[0]

    def faces(self, user_ids: Sequence[int | None]) -> tuple[bytes | None, ...]:
        """Each seat's kept avatar (None: not yet, or nobody), fetching the missing ones."""
        return tuple(self.get(uid) for uid in user_ids)

    async def _load(self, user_id: int, fetch: Fetch) -> None:
        try:
            self.fetches += 1
            data = await fetch(user_id)
            if data is None:  # no avatar of their own: initials, asked again later
                self.kept.pop(user_id, None)
                self.failed[user_id] = time.monotonic() + RETRY_AFTER
                return
            small = await asyncio.to_thread(shrink, data)
            if small is None:
                raise ValueError("not an image")
            self.kept[user_id] = (small, time.monotonic())
            self.failed.pop(user_id, None)
            while len(self.kept) > KEEP:
                self.kept.popitem(last=False)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # drawn as initials; tried again later
            log.info("no avatar for user %s: %s", user_id, exc)
            self.failed[user_id] = time.monotonic() + RETRY_AFTER
        finally:
            self.pending.pop(user_id, None)

    async def settle(self) -> None:
        """Wait for the fetches under way (tests, and a clean stop)."""
        while self.pending:
            await asyncio.gather(*list(self.pending.values()), return_exceptions=True)


CACHE = AvatarCache()
